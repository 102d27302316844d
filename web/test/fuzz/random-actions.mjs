// random-actions.mjs — a fuzz run of the page (not a unit test): N random actions, seeded, across
// three surfaces at once — the page, an embed (?embed=1 in a parent page that also posts it
// random explainer:* messages) and the speaker window presenter mode opens. An action is a click
// on a visible control, a key, a resize, back or forward, a link edit, a file dropped or chosen
// (random bytes, a scenario, a file over 1 MiB), text typed, a parent's message. After each
// action the surface must answer (a frame painted): the action's time is measured, and one over
// HANG_MS is a hang. No page error (an uncaught error or console.error) may occur anywhere.
// Memory: what the page's JavaScript objects keep, after a garbage collection (CDP), measured
// after a warm-up (every part of the page loaded once, and each part that keeps its last result
// given the largest a built-in gives) at the start link, and again at the end at the same link:
// it must be back within 20 % of the start. The figure is V8's heap without its compiled code
// (a heap snapshot's objects of type "code": bytecode, machine code, feedback and inline caches):
// V8 compiles a function on its first call and optimizes the hot ones when it sees fit, so the
// code grows with what has run and when, not with what the page keeps (a run of 2,000 actions:
// +277 KB of code against +134 KB of everything else; a page can make no other code: its policy
// allows no eval). The heap is the page's renderer's one isolate, which the speaker window
// shares (window.open: same process); the embed's page and the workers are isolates of their
// own, not measured. Runtime.getHeapUsage (the whole heap, code included) is printed beside it.
//
//   ./build.sh build && PAGE_ACTIONS=10000 ./build.sh fuzz      (or: node web/test/fuzz/random-actions.mjs)
//   PAGE_ACTIONS=N    how many actions (default 1000)
//   FUZZ_SEED=S       the seed (default: random; printed at the start, and with a failure)
//   FUZZ_WARM=W       warm-up actions before the heap's start figure (default 200)
//   FUZZ_SAMPLE=K     print the heap (after GC; a heap snapshot each) every K actions (default 500)
//   FUZZ_SNAPSHOT=a,b heap snapshots of the page after actions a, b, … (after GC; "start" and "end":
//                     where the heap's start and end figures are taken), written to
//                     web/test/artifacts/heap-a.heapsnapshot …; diff two with
//                     node web/test/fuzz/heap-diff.mjs A B (what grew, by constructor)
//   FUZZ_LOG=FILE     every action appended to FILE, one a line (which actions came between two samples)
//
// On failure it prints the seed, the failing action's number and the last actions, and how to run
// the same sequence again (the choices follow the seed and what is on screen, so a rerun with the
// same seed takes the same actions as long as the page answers the same way). Exit 1 on failure.

import { startServer, launchBrowser, TEST_ARGS, ARTIFACTS } from "../harness.mjs";
import { WELCOMED_KEY } from "../page-helpers.mjs";
import { mkdirSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";

const COUNT = Number(process.env.PAGE_ACTIONS || process.argv[2] || 1000);
const SEED = Number(process.env.FUZZ_SEED || Math.floor(Math.random() * 2 ** 31));
const WARM = Number(process.env.FUZZ_WARM ?? 200); // warm-up actions before the heap's start figure
const SAMPLE = Number(process.env.FUZZ_SAMPLE || 500); // heap printed every SAMPLE actions
const SNAPSHOTS = new Set(String(process.env.FUZZ_SNAPSHOT || "").split(",").filter(Boolean).map((x) => (/^\d+$/.test(x) ? Number(x) : x)));
const HANG_MS = 2000;
const MEMORY_SLACK = 0.2;
const START = "index.html#scenario=happy-path&step=0";

// mulberry32: a small seeded generator
let state = SEED >>> 0;
function rand() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const randText = (n) => Array.from({ length: n }, () => pick([..."abcxyz019 -:[]{}#\n\"'<>&é☃\t"])).join("");

const SCENARIOS = ["happy-path", "fatal-upstream-end", "mixed-visibility", "builder-fills-mid-epoch", "no-such-scenario", ""];
const LESSONS = ["workshop", "met-this-error", "no-such-lesson"];
const NUMBERS = ["0", "1", "3", "7", "12", "99", "010", "0x1", "1e3", "-1", "", "99999999999"];
const RELEASES = ["v3.1", "v3.0", "v2.8", "v2.7", "v9", "x".repeat(300)];
const BUGS = ["none", "mark-on-arrival", "no-such-bug"];
const SRCS = ["scenarios/missing.yaml", "../x.yaml", "http://example.invalid/x.yaml", "//evil/x", "web", "index.html"];
const SCENARIO_TEXT = "title: fuzz\ntable: {columns: [a, id], locality: [a], stream_key: [id]}\nvnodes: {count: 2, rule: ranges, bounds: [10]}\nsteps:\n  - barrier: 1\n  - chunk: [\"+ 1 100\"]\n  - barrier: {epoch: 2, start_backfill: [7]}\n";

function randomLink() {
  const p = [];
  const r = rand();
  if (r < 0.45) p.push(["scenario", pick(SCENARIOS)]);
  else if (r < 0.6) p.push(["lesson", pick(LESSONS)], ["section", pick(NUMBERS)]);
  else if (r < 0.7) p.push(["src", pick(SRCS)]);
  else if (r < 0.8) p.push(["run", pick(["AAAA", "not-a-code", randText(int(1, 60)).replace(/\W/g, "x"), "8wAA"])]);
  if (rand() < 0.6) p.push(["step", pick(NUMBERS)]);
  if (rand() < 0.15) p.push(["bug", pick(BUGS)]);
  if (rand() < 0.15) p.push(["release", pick(RELEASES)]);
  return "#" + p.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
}

function randomFile() {
  const r = rand();
  if (r < 0.3) return { name: "scenario.yaml", text: SCENARIO_TEXT };
  if (r < 0.55) return { name: `random-${int(0, 99)}.yaml`, text: randText(int(0, 2000)) };
  if (r < 0.7) return { name: "empty.yaml", text: "" };
  if (r < 0.8) return { name: "big.yaml", size: int((1 << 20) + 1, 3 << 20) };
  if (r < 0.9) return { name: "a.json", text: JSON.stringify({ title: randText(10), steps: [] }) };
  return { name: "bytes.bin", text: String.fromCharCode(...Array.from({ length: int(1, 500) }, () => int(0, 255))) };
}

const KEYS = ["ArrowRight", "ArrowLeft", "Home", "End", "PageDown", "PageUp", "Space", "Escape", "Enter", "Tab", "Shift+Tab",
  "1", "2", "3", "b", "p", "e", "i", "o", "h", "?", "d", "c", "x", "s", "Control+Enter", "Control+Space", "Backspace", "a"];
const SIZES = [[375, 667], [800, 600], [1280, 800], [1366, 768], [1920, 1080], [600, 900]];

let notCounted = 0;  // ms of an action spent waiting on the script's side (a file chooser)
const log = [];      // the last actions, for a failure's report
const errors = [];   // page errors
let longest = { ms: 0, what: "" };
let hangs = 0;
const times = [];

function fail(why) {
  console.log(`\nFAIL: ${why}`);
  console.log(`seed ${SEED}, at action ${log.length ? log.at(-1).n : 0} of ${COUNT}; the last actions:`);
  for (const a of log.slice(-15)) console.log(`  #${a.n} ${a.where}: ${a.what} (${a.ms} ms)`);
  const n = log.length ? Math.max(1, log.at(-1).n - WARM) : COUNT;
  console.log(`reproduce: ./build.sh build && PAGE_ACTIONS=${n} FUZZ_SEED=${SEED} FUZZ_WARM=${WARM} node web/test/fuzz/random-actions.mjs`);
}

function watch(page, where) {
  page.on("pageerror", (e) => errors.push(`${where}: pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const t = m.text();
    if (/^Failed to load resource/.test(t)) return; // a network answer (a #src file missing), not the page's error
    errors.push(`${where}: console.error: ${t.slice(0, 300)}`);
  });
  page.on("dialog", (d) => d.dismiss().catch(() => {}));
}

// The heap after a garbage collection: {used: Runtime.getHeapUsage's usedSize (the whole heap,
// compiled code included), kept: the self sizes of the heap snapshot's V8 objects but compiled
// code (type "code") — what the page's objects keep}; with `save`, the snapshot written to
// web/test/artifacts/heap-SAVE.heapsnapshot.
async function heap(cdp, save) {
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("HeapProfiler.collectGarbage");
  const used = (await cdp.send("Runtime.getHeapUsage")).usedSize;
  const chunks = [];
  const onChunk = (c) => chunks.push(c.chunk);
  cdp.on("HeapProfiler.addHeapSnapshotChunk", onChunk);
  try {
    await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  } finally {
    cdp.off("HeapProfiler.addHeapSnapshotChunk", onChunk);
  }
  const text = chunks.join("");
  if (save !== undefined) {
    mkdirSync(ARTIFACTS, { recursive: true });
    const path = join(ARTIFACTS, `heap-${save}.heapsnapshot`);
    writeFileSync(path, text);
    console.log(`heap snapshot (${save}): ${path}`);
  }
  const { snapshot: { meta }, nodes } = JSON.parse(text);
  const f = meta.node_fields, N = f.length, types = meta.node_types[0];
  const iType = f.indexOf("type"), iSize = f.indexOf("self_size");
  // not V8's objects: Blink's (native, not in the JS heap's figure) and the snapshot's own (synthetic)
  const skip = new Set(["code", "native", "synthetic"].map((t) => types.indexOf(t)));
  let kept = 0;
  for (let i = 0; i < nodes.length; i += N) if (!skip.has(nodes[i + iType])) kept += nodes[i + iSize];
  return { used, kept };
}
const mib = (b) => (b / 1048576).toFixed(1);
const figure = (x) => `${mib(x.kept)} MiB (with code ${mib(x.used)})`;

async function main() {
  console.log(`random page actions: ${COUNT}, seed ${SEED}`);
  const server = await startServer();
  const browser = await launchBrowser({ args: TEST_ARGS });
  const origin = new URL(server.url).origin;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: WELCOMED_KEY, value: "1" }] }] },
  });
  await context.addInitScript(() => { window.print = () => {}; }); // the plan's Print button: no print dialog
  // nothing leaves the machine (source links, docs on the web)
  await context.route((u) => u.origin !== origin, (r) => r.abort());
  const parentHTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>parent</title></head>
<body><iframe id="ex" title="explainer" src="${server.url}index.html?embed=1#scenario=happy-path&step=2" width="900" height="640"></iframe></body></html>`;
  await context.route(`${server.url}__fuzz-parent.html`, (r) => r.fulfill({ contentType: "text/html", body: parentHTML }));

  const main = await context.newPage();
  watch(main, "page");
  await main.goto(server.url + START);
  await main.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.disabled === false, null, { timeout: 60000 });
  const parent = await context.newPage();
  watch(parent, "embed");
  await parent.goto(server.url + "__fuzz-parent.html");
  const frame = () => parent.frames().find((f) => f !== parent.mainFrame());
  await parent.waitForFunction(() => document.getElementById("ex").contentWindow.explainer?.ready, null, { timeout: 60000 }).catch(() => {});

  let speaker = null;
  context.on("page", (p) => {
    if (p === main || p === parent) return;
    if (/speaker=1/.test(p.url()) || p.url() === "about:blank") {
      p.waitForLoadState("domcontentloaded").then(() => {
        if (!/speaker=1/.test(p.url())) { p.close().catch(() => {}); return; }
        const old = speaker;
        speaker = p;
        watch(p, "speaker");
        if (old && old !== p) old.close().catch(() => {});
      }, () => {});
    } else {
      p.close().catch(() => {});
    }
  });
  async function openSpeaker() {
    await main.evaluate(() => {
      const b = document.querySelector('[data-testid="presenter"]');
      if (b && b.getAttribute("aria-pressed") !== "true") b.click();
    });
    await main.evaluate(() => document.querySelector('[data-testid="speaker-open"]')?.click());
    for (let i = 0; i < 50 && !speaker; i++) await main.waitForTimeout(100);
  }
  await openSpeaker();

  const cdp = await context.newCDPSession(main);
  // back to the start link, every dialog closed: the state memory is compared in
  async function atStart() {
    await main.keyboard.press("Escape").catch(() => {});
    await main.evaluate((s) => {
      for (const d of document.querySelectorAll("dialog[open]")) d.close();
      location.hash = s.slice(s.indexOf("#"));
    }, START);
    await main.waitForFunction(() => /^step 0 \//.test(document.querySelector('[data-testid="step-count"]')?.textContent || ""), null, { timeout: 20000 }).catch(() => {});
    await main.waitForTimeout(500);
  }

  // one action on a surface; → a description
  async function act(target, where) {
    const page = where === "embed" ? parent : target;
    const doc = where === "embed" ? frame() : target;
    if (!doc) return "no frame";
    const r = rand();
    if (where === "embed" && r < 0.15) {
      const msg = pick([
        { type: "explainer:goto", step: pick([0, 3, 7, 99, -1, 2.5, "4", null]) },
        { type: "explainer:open", scenario: pick(SCENARIOS), step: pick([undefined, 0, 5, 1000]) },
        { type: "explainer:frobnicate" }, { type: "explainer:open", scenario: "s".repeat(int(1, 5000)) }, "explainer:goto",
      ]);
      await parent.evaluate((m) => document.getElementById("ex").contentWindow.postMessage(m, "*"), msg);
      return `post ${JSON.stringify(msg).slice(0, 80)}`;
    }
    if (r < 0.45) {
      // a click on a visible, enabled control
      const picked = await doc.evaluate((u) => {
        const sel = "button, select, summary, input, textarea, a[href^='#'], [role=button], [role=tab], [tabindex='0']";
        const all = [...document.querySelectorAll(sel)].filter((e) => {
          if (e.disabled) return false;
          const b = e.getBoundingClientRect();
          if (b.width < 1 || b.height < 1 || b.bottom < 0 || b.right < 0 || b.top > innerHeight || b.left > innerWidth) return false;
          const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
          return top && (e === top || e.contains(top) || top.contains(e));
        });
        if (!all.length) return null;
        const e = all[Math.floor(u * all.length)];
        const b = e.getBoundingClientRect();
        return { x: b.left + b.width / 2, y: b.top + b.height / 2, tag: e.tagName.toLowerCase(), type: e.type || "",
          label: (e.getAttribute("data-testid") || e.getAttribute("aria-label") || e.textContent || "").trim().slice(0, 40) };
      }, rand());
      if (!picked) return "click: nothing visible";
      let { x, y } = picked;
      if (where === "embed") {
        const box = await parent.locator("#ex").boundingBox();
        if (!box) return "click: no frame box";
        x += box.x; y += box.y;
      }
      if (picked.tag === "input" && picked.type === "file") {
        const f = randomFile();
        const buffer = f.size ? Buffer.alloc(f.size, 35) : Buffer.from(f.text, "latin1");
        // (the wait for the file chooser is the script's, not the page's: not counted)
        const w0 = performance.now();
        const [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: 1000 }).catch(() => null), page.mouse.click(x, y)]);
        notCounted += performance.now() - w0;
        if (chooser) await chooser.setFiles({ name: f.name, mimeType: "text/yaml", buffer }).catch(() => {});
        return `choose file ${f.name} (${buffer.length} bytes)`;
      }
      await page.mouse.click(x, y);
      if (picked.tag === "select") await page.keyboard.press(pick(["ArrowDown", "ArrowUp", "Enter", "Escape"]));
      if (picked.tag === "textarea" || (picked.tag === "input" && /^(text|search|number|)$/.test(picked.type))) {
        // a short text key by key; a scenario pasted (one input event, as a paste is)
        if (rand() < 0.2) await page.keyboard.insertText(SCENARIO_TEXT);
        else await page.keyboard.type(randText(int(1, 12)));
      }
      return `click ${picked.tag}${picked.type ? "[" + picked.type + "]" : ""} "${picked.label}"`;
    }
    if (r < 0.72) {
      const k = pick(KEYS);
      await page.keyboard.press(k);
      return `key ${k}`;
    }
    if (r < 0.78) {
      const [w, hgt] = rand() < 0.8 ? pick(SIZES) : [int(320, 2000), int(300, 1400)];
      await page.setViewportSize({ width: w, height: hgt });
      return `resize ${w}×${hgt}`;
    }
    if (r < 0.84 && where !== "embed") {
      const back = rand() < 0.6;
      await (back ? page.goBack({ timeout: 3000, waitUntil: "commit" }) : page.goForward({ timeout: 3000, waitUntil: "commit" })).catch(() => {});
      return back ? "back" : "forward";
    }
    if (r < 0.94) {
      const link = randomLink();
      if (where === "speaker") {
        await main.evaluate((l) => { location.hash = l; }, link);
        return `link (page) ${link.slice(0, 120)}`;
      }
      await doc.evaluate((l) => { location.hash = l; }, link);
      return `link ${link.slice(0, 120)}`;
    }
    const f = randomFile();
    await doc.evaluate(({ name, text, size }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([size ? new Uint8Array(size).fill(35) : text], name, { type: "text/yaml" }));
      const at = document.elementFromPoint(innerWidth / 2, innerHeight / 2) || document.body;
      at.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
      at.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, f);
    return `drop ${f.name} (${f.size ?? f.text.length} bytes)`;
  }

  // does the surface answer: a task run on its main thread (a page busy in a long task cannot);
  // every 10th action also waits for a frame to be painted
  const painted = (doc, frame) => doc.evaluate((f) => (f ? new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))) : 0), frame);

  const warm = WARM;
  // Every part loaded once before the start figure (the lazy dialogs, a lesson and its plan, the
  // Scale panel's charts): what is compared is what the page keeps, not what it loads on first use.
  // The parts that keep their last result while closed are given the largest a built-in gives:
  // the Scale panel the largest built-in workload's charts (million-rows: ~230 KiB more kept than
  // a 2,000-row workload's), the explorer the largest built-in report (mixed-visibility, 29
  // outcomes: ~200 KiB); a later run replaces it, so what the end may hold beyond the start is
  // what the page kept and should not have.
  // (waits by locator or function, not waitForSelector: an element handle would keep its element,
  // and all it holds, alive in the measured heap)
  const wait = (fn, arg, ms) => main.waitForFunction(fn, arg, { timeout: ms }).then(() => true, () => false);
  async function loadEveryPart() {
    await main.evaluate(() => { location.hash = "#lesson=workshop&section=1"; });
    await main.locator('[data-testid="lesson-plan-btn"]').waitFor({ state: "visible", timeout: 20000 }).catch(() => {});
    await main.evaluate(() => document.querySelector('[data-testid="lesson-plan-btn"]')?.click());
    await main.waitForTimeout(500);
    await main.keyboard.press("Escape");
    const n = await main.evaluate(() => document.querySelectorAll('[aria-haspopup="dialog"]').length);
    for (let i = 0; i < n; i++) {
      await main.evaluate((i) => {
        for (const d of document.querySelectorAll("dialog[open]")) d.close();
        const b = document.querySelectorAll('[aria-haspopup="dialog"]')[i];
        if (b && !b.disabled && b.offsetParent) b.click();
      }, i);
      await main.waitForTimeout(400);
    }
    await main.evaluate(() => { for (const d of document.querySelectorAll("dialog[open]")) d.close(); });
    await main.evaluate(() => document.getElementById("scale-btn")?.click());
    await wait(() => [...(document.querySelector('[data-testid="scale-workload"]')?.options || [])].some((o) => o.value === "million-rows"), null, 20000);
    await main.evaluate(() => {
      const picker = document.querySelector('[data-testid="scale-workload"]');
      picker.value = "million-rows";
      picker.dispatchEvent(new Event("change"));
    });
    await wait(() => /rows:\s*1000000\b|rows:\s*1_?000_?000/.test(document.querySelector('[data-testid="scale-text"]')?.value || ""), null, 20000);
    await main.evaluate(() => document.querySelector('[data-testid="scale-run"]').click());
    if (!await wait(() => document.querySelector('[data-testid="scale-charts"] .uplot'), null, 180000)) console.log("warm-up: the scale run drew no chart");
    await main.evaluate(() => { for (const d of document.querySelectorAll("dialog[open]")) d.close(); });
    await main.evaluate(() => { location.hash = "#scenario=mixed-visibility&step=0"; });
    await wait(() => document.querySelector('[data-testid="scenario-picker"]')?.value === "mixed-visibility", null, 20000);
    await main.evaluate(() => document.activeElement?.blur());
    await main.keyboard.press("x");
    await main.locator('[data-testid="explore-run"]').click({ timeout: 20000 }).catch(() => {});
    if (!await wait(() => document.querySelectorAll('[data-testid="explore-outcome"]').length > 0, null, 60000)) console.log("warm-up: the explorer gave no report");
    await main.evaluate(() => { for (const d of document.querySelectorAll("dialog[open]")) d.close(); });
  }
  await loadEveryPart();
  const heapFirst = await heap(cdp);
  let heapStart = null;
  const total = COUNT + warm;
  for (let n = 1; n <= total; n++) {
    if (n === warm + 1) { // after the warm-up: every part loaded once
      await atStart();
      heapStart = await heap(cdp, SNAPSHOTS.has("start") ? "start" : undefined);
      console.log(`warm-up: ${warm} actions; heap kept ${figure(heapFirst)} once every part was loaded, ${figure(heapStart)} after the warm-up (the start)`);
    }
    if (!speaker || speaker.isClosed()) { speaker = null; await openSpeaker().catch(() => {}); }
    const r = rand();
    const where = r < 0.6 ? "page" : r < 0.8 ? "embed" : speaker ? "speaker" : "page";
    const target = where === "speaker" ? speaker : main;
    notCounted = 0;
    const t0 = performance.now();
    let what;
    try {
      what = await act(target, where);
    } catch (e) {
      what = `(the action could not run: ${String(e.message).split("\n")[0].slice(0, 120)})`;
    }
    // the main page left the explainer (a link off the page): back to it
    if (!/\/index\.html/.test(main.url())) { await main.goto(server.url + START).catch(() => {}); what += " → left the page, reopened"; }
    const doc = where === "embed" ? frame() : target;
    await Promise.race([doc ? painted(doc, n % 10 === 0).catch(() => {}) : null, new Promise((r) => setTimeout(r, 30000))]);
    const ms = Math.round(performance.now() - t0 - notCounted);
    times.push(ms);
    log.push({ n, where, what, ms });
    if (process.env.FUZZ_LOG) appendFileSync(process.env.FUZZ_LOG, `#${n} ${where}: ${what} (${ms} ms)\n`);
    if (log.length > 200) log.shift();
    if (ms > longest.ms) longest = { ms, what: `#${n} ${where}: ${what}` };
    if (ms > HANG_MS) { hangs++; console.log(`slow: #${n} ${where}: ${what}: ${ms} ms`); }
    if (errors.length) { fail(`page error:\n  ${errors.join("\n  ")}`); break; }
    if (n % SAMPLE === 0 || SNAPSHOTS.has(n)) {
      const x = await heap(cdp, SNAPSHOTS.has(n) ? n : undefined);
      if (n % SAMPLE === 0) console.log(`${n} / ${total} actions (longest so far ${longest.ms} ms; heap kept ${figure(x)})`);
    }
  }

  let heapEnd = null;
  if (!errors.length) {
    await atStart();
    heapEnd = await heap(cdp, SNAPSHOTS.has("end") ? "end" : undefined);
  }
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  console.log(`\nseed ${SEED}: ${times.length} actions (${warm} warm-up), ${errors.length} page errors, ${hangs} over ${HANG_MS} ms`);
  console.log(`action time: median ${q(0.5)} ms, 99th percentile ${q(0.99)} ms, longest ${longest.ms} ms (${longest.what})`);
  let memoryOK = true;
  if (heapEnd !== null && heapStart !== null) {
    const change = (heapEnd.kept - heapStart.kept) / heapStart.kept;
    const usedChange = (heapEnd.used - heapStart.used) / heapStart.used;
    memoryOK = change <= MEMORY_SLACK;
    console.log(`heap after GC, kept (no compiled code): start ${mib(heapStart.kept)} MiB, end ${mib(heapEnd.kept)} MiB (${(100 * change).toFixed(1)} %); ` +
      `with code: ${mib(heapStart.used)} → ${mib(heapEnd.used)} MiB (${(100 * usedChange).toFixed(1)} %)`);
    if (!memoryOK) fail(`the heap grew ${(100 * change).toFixed(1)} % (more than ${100 * MEMORY_SLACK} %)`);
  }
  if (hangs && !errors.length) fail(`${hangs} actions took longer than ${HANG_MS} ms`);
  await browser.close().catch(() => {});
  await server.close();
  process.exit(errors.length || hangs || !memoryOK ? 1 : 0);
}

main().catch((e) => { fail(e.stack || String(e)); process.exit(1); });
