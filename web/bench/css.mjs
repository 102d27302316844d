// css.mjs — the stylesheets a first view fetches, and its time, for this build and (optional)
// another, alternating in one run on the same server kind (bin/backfill serve: gzip or brotli as
// it serves them). For each load, in a fresh context: the CSS fetched before the mark
// explainer:first-view (on the wire and decoded), everything fetched before it, and the mark's time.
// It only reports: medians of BENCH_RUNS loads of each page.
//
//   ./build.sh build && node web/bench/css.mjs
//   BENCH_BASELINE_DIST=/tmp/old/dist BENCH_RUNS=9 node web/bench/css.mjs

import { DIST, startServer, launchBrowser } from "../test/harness.mjs";

const RUNS = Number(process.env.BENCH_RUNS || 7);
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST || "";
const LINKS = { "deep link": "index.html#scenario=fatal-upstream-end&step=9", "plain visit": "index.html" };

async function load(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName("explainer:first-view").length > 0, null, { timeout: 60000, polling: 20 });
    return await page.evaluate(() => {
      const fv = performance.getEntriesByName("explainer:first-view")[0].startTime;
      const before = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].filter((e) => e.startTime < fv);
      const css = before.filter((e) => /\.css([?#]|$)/.test(e.name));
      const sum = (l, k) => l.reduce((n, e) => n + (e[k] || 0), 0);
      return { fv, files: css.map((e) => new URL(e.name).pathname), cssWire: sum(css, "transferSize"), cssBody: sum(css, "encodedBodySize"),
        cssDecoded: sum(css, "decodedBodySize"), allWire: sum(before, "transferSize") };
    });
  } finally {
    await context.close();
  }
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const builds = [{ name: "this build", dir: DIST }];
if (BASELINE_DIST) builds.push({ name: "baseline", dir: BASELINE_DIST });
for (const b of builds) b.server = await startServer({ dir: b.dir });
const browser = await launchBrowser();
try {
  for (const [what, path] of Object.entries(LINKS)) {
    for (const b of builds) await load(browser, new URL(path, b.server.url).href); // (the server's first answers: not counted)
    const got = new Map(builds.map((b) => [b, []]));
    for (let i = 0; i < RUNS; i++) for (const b of builds) got.get(b).push(await load(browser, new URL(path, b.server.url).href));
    for (const b of builds) {
      const l = got.get(b);
      console.log(`${what}, ${b.name} (${b.dir}): CSS before the first view ${l[0].files.join(" ")}: ` +
        `${median(l.map((x) => x.cssWire))} B on the wire (body ${median(l.map((x) => x.cssBody))} B, decoded ${median(l.map((x) => x.cssDecoded))} B); ` +
        `all before it ${median(l.map((x) => x.allWire))} B; first view median ${median(l.map((x) => x.fv)).toFixed(1)} ms ` +
        `(${l.map((x) => x.fv.toFixed(0)).join(" ")})`);
    }
  }
} finally {
  await browser.close();
  for (const b of builds) await b.server.close();
}
