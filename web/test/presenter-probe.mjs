// presenter-probe.mjs — a measurement, not a test: presenter mode at 1280×800, 1366×768 and
// 1920×1080 over every built-in, every step. Per built-in and viewport it prints how many steps
// fit-check.mjs finds whole (problemsHere and narrationHere), the smallest font of the stage's
// visible text, how often the column widths change between consecutive steps, and the steps
// scaled down (--fit) or tight. `node web/test/presenter-probe.mjs [name…]` after ./build.sh build;
// PROBE_VERBOSE=1 prints each problem. (Not a test file: build.sh runs web/test/*.test.mjs only.)

import { setupPrivate, openPage, byTestId, call } from "./page-helpers.mjs";
import { problemsHere, narrationHere, stageFontFloor } from "./fit-check.mjs";

const VIEWPORTS = [[1280, 800], [1366, 768], [1920, 1080]];
const verbose = process.env.PROBE_VERBOSE === "1";
const h = await setupPrivate();
const totals = [];
try {
  for (const [w, hgt] of VIEWPORTS) {
    const page = await openPage(h, "index.html#scenario=happy-path&step=0", { viewport: { width: w, height: hgt } });
    await byTestId(page, "presenter").click();
    const names = process.argv.slice(2).length ? process.argv.slice(2)
      : await page.evaluate(() => window.explainer.scenarios().then((l) => l.map((s) => s.name)));
    let whole = 0, wholeStage = 0, total = 0;
    const small = {};
    for (const name of names) {
      const steps = await page.evaluate((name) => window.explainer.open(name).then((v) => v.steps), name);
      let minWhere = "", ok = 0, stageOk = 0, jumps = 0, minFont = Infinity, prev = null;
      const scaled = [], tight = [], bad = [], scrolls = [];
      for (let n = 0; n <= steps; n++) {
        await call(page, "goto", n);
        const sp = await page.evaluate(problemsHere);
        if (!sp.length) stageOk++;
        const p = [...sp, ...await page.evaluate(narrationHere)];
        if ((await page.evaluate(narrationHere, true)).length) scrolls.push(n);
        const m = await page.evaluate(() => ({
          cols: [...document.querySelectorAll("#stage > .col")].map((c) => Math.round(c.getBoundingClientRect().width)).join(","),
          fit: document.documentElement.style.getPropertyValue("--fit") || "1",
          tight: document.documentElement.classList.contains("fit-tight"),
        }));
        const f = await page.evaluate(stageFontFloor);
        if (w === 1280) Object.assign(small, await page.evaluate(smallType));
        if (f.px < minFont) { minFont = f.px; minWhere = `${n} ${f.where}`; }
        if (prev !== null && prev !== m.cols) jumps++;
        prev = m.cols;
        if (m.fit !== "1") scaled.push(`${n}:${m.fit}`);
        if (m.tight) tight.push(n);
        if (p.length) bad.push(n); else ok++;
        if (verbose) for (const x of p) console.log(`  ${w}×${hgt} ${name} ${n}: ${x}`);
        if (verbose && f.px < 18) console.log(`  ${w}×${hgt} ${name} ${n}: font ${f.px} px (${f.where})`);
      }
      whole += ok; wholeStage += stageOk; total += steps + 1;
      console.log(`${w}×${hgt} ${name.padEnd(34)} whole ${ok}/${steps + 1} (stage ${stageOk})${bad.length ? ` cut at ${bad.join(",")}` : ""}; ` +
        `min font ${minFont.toFixed(1)} px${minFont < 18 ? ` (${minWhere})` : ""}; width changes ${jumps}; scaled ${scaled.join(" ") || "-"}; tight ${tight.join(",") || "-"}; narration scrolls at ${scrolls.join(",") || "-"}`);
    }
    if (w === 1280) console.log("small type at 1280:", JSON.stringify(small));
    totals.push(`${w}×${hgt}: ${whole}/${total} steps whole (${wholeStage} with the narration left out)`);
    await page.close();
  }
} finally {
  await h.close();
}
console.log(totals.join("\n"));

/** In the page: each distinct tag.class and font size of the stage's rendered text under 18 px. */
function smallType() {
  const seen = {};
  const walk = document.createTreeWalker(document.getElementById("stage"), NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const el = t.parentElement;
    if (!t.data.trim() || !el.getClientRects().length || el.closest(".sr-only")) continue;
    const f = parseFloat(getComputedStyle(el).fontSize);
    if (f < 18) seen[`${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`] = f.toFixed(1);
  }
  return seen;
}
