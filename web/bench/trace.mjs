// trace.mjs — where a step's time goes in the page's thread: steps through a scenario under a
// Chromium trace (devtools.timeline) and prints, per step, the time of each part of its work:
// script (the step's call into the engine and the rendering code), style, layout, pre-paint,
// paint, layerize and commit, with how many layout objects each layout had to lay out again.
// A figure is the mean over the steps (tracing slows everything; compare figures from one run
// of this script with each other, and take bench.mjs's for the goals).
//
//   ./build.sh build && node web/bench/trace.mjs
//   TRACE_SCENARIO=happy-path node web/bench/trace.mjs   (a built-in instead of the 256-vnode one)
//   TRACE_MOTION=reduce node web/bench/trace.mjs         (prefers-reduced-motion: without the change flash)
//   TRACE_STEPS=60 TRACE_OUT=/tmp/t.json node web/bench/trace.mjs (the trace kept, for the Performance panel)
import { writeFileSync } from "node:fs";
import { launchBrowser, startServer, waitReady } from "../test/harness.mjs";
import { wide256 } from "./scenarios.mjs";

const SCENARIO = process.env.TRACE_SCENARIO || "";
const STEPS = Number(process.env.TRACE_STEPS || 60);
const MOTION = process.env.TRACE_MOTION || "no-preference";

const server = await startServer();
const browser = await launchBrowser();
try {
  const origin = new URL(server.url).origin;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 }, reducedMotion: MOTION,
    storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: "backfill-explainer:welcomed", value: "1" }] }] },
  });
  const page = await context.newPage();
  await page.goto(new URL("index.html", server.url).href);
  await waitReady(page);
  if (SCENARIO) await page.evaluate((n) => window.explainer.open(n), SCENARIO);
  else await page.evaluate((w) => window.explainer.load(w), wide256());
  const steps = Math.min(STEPS, await page.evaluate(() => window.explainer.steps()));
  await page.evaluate(() => window.explainer.goto(0));

  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute"] });
  // one step, then its frame's rendering (a task posted from the frame's rAF callback runs after it)
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) {
      await window.explainer.step();
      await new Promise((r) => requestAnimationFrame(() => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); }));
    }
  }, steps);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));

  // the page's main thread: the one that lays out
  const count = new Map();
  for (const e of events) if (e.name === "Layout") count.set(e.tid, (count.get(e.tid) || 0) + 1);
  const tid = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
  const parts = { script: ["FunctionCall", "RunMicrotasks", "EvaluateScript", "TimerFire", "FireAnimationFrame", "EventDispatch"],
    style: ["UpdateLayoutTree"], layout: ["Layout"], "pre-paint": ["PrePaint"], paint: ["Paint"], layerize: ["Layerize"], commit: ["Commit"] };
  const partOf = new Map(Object.entries(parts).flatMap(([p, names]) => names.map((n) => [n, p])));
  // outermost events of a part only (a Paint holds the Paints of its layers; a FunctionCall may
  // run microtasks): an event inside another of the same part is not counted again
  const mine = events.filter((e) => e.tid === tid && e.ph === "X" && e.dur && partOf.has(e.name)).sort((a, b) => a.ts - b.ts);
  const sum = Object.fromEntries(Object.keys(parts).map((p) => [p, 0]));
  const open = {}; // part → end of the outermost event being counted
  for (const e of mine) {
    const p = partOf.get(e.name);
    if (open[p] !== undefined && e.ts < open[p]) continue;
    open[p] = e.ts + e.dur;
    sum[p] += e.dur / 1000;
  }
  const layouts = mine.filter((e) => e.name === "Layout");
  const dirty = layouts.reduce((a, e) => a + (e.args?.beginData?.dirtyObjects || 0), 0) / Math.max(1, layouts.length);
  const total = layouts.reduce((a, e) => a + (e.args?.beginData?.totalObjects || 0), 0) / Math.max(1, layouts.length);
  const elements = await page.evaluate(() => document.getElementsByTagName("*").length);
  console.log(`trace: ${SCENARIO || "256 vnodes (wide256)"}, ${steps} steps, 1280×800, prefers-reduced-motion: ${MOTION}; ${elements} elements in the page`);
  let all = 0;
  for (const [p, ms] of Object.entries(sum)) { all += ms; console.log(`  ${p.padEnd(10)} ${(ms / steps).toFixed(2).padStart(7)} ms a step`); }
  console.log(`  ${"all".padEnd(10)} ${(all / steps).toFixed(2).padStart(7)} ms a step (traced: slower than untraced)`);
  console.log(`  layout: ${layouts.length} layouts, ${Math.round(dirty)} of ${Math.round(total)} layout objects laid out again in each (mean)`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
