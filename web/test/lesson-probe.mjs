// lesson-probe.mjs — a measurement, not a test: both built-in lessons walked with PageDown in
// presenter mode at 1280×800, 1366×768 and 1920×1080. Per stop it prints the stage's smallest type
// (fit-check.mjs stageFontFloor), the arrangement the section kept (presenter-fit.js) and the one
// this stop alone would need, the panels collapsed, and each panel cut without saying so or named
// by the stop's texts (goal, notes, question, answer, the step's note) yet not whole.
// `node web/test/lesson-probe.mjs [lesson…]` after ./build.sh build; PROBE_ALONE=0 skips the
// per-stop arrangement. (Not a test file: build.sh runs web/test/*.test.mjs only.)

import { setupPrivate } from "./page-helpers.mjs";
import { presentLesson, walkStops } from "./lesson-stops.mjs";
import { stageFontFloor } from "./fit-check.mjs";
import { namedPanels } from "../teach/named-panels.js";
import { panelsHere } from "./panel-check.mjs";

const VIEWPORTS = (process.env.PROBE_VIEWPORTS || "1280x800,1366x768,1920x1080").split(",").map((s) => s.split("x").map(Number));
const lessons = process.argv.slice(2).length ? process.argv.slice(2) : ["workshop", "met-this-error"];
const alone = process.env.PROBE_ALONE !== "0";
// a custom property to try on the root, "--side-w=16rem" (the page's policy allows no style tag)
const css = process.env.PROBE_VAR ? process.env.PROBE_VAR.split("=") : null;
const h = await setupPrivate();

const setup = css ? (page) => page.evaluate(([k, v]) => document.documentElement.style.setProperty(k, v), css) : undefined;

try {
  for (const lesson of lessons) {
    for (const [w, hgt] of VIEWPORTS) {
      const viewport = { width: w, height: hgt };
      const { page, plan, stops: want } = await presentLesson(h, lesson, viewport, { setup });
      const rows = [];
      await walkStops(page, want, async (stop) => {
        const [si, step] = stop.split("/").map(Number);
        const s = plan.sections[si - 1];
        const qs = (s.questions || []).filter((q) => q.at === step);
        const note = await page.evaluate(() => window.explainer.view().then((v) => v.note || ""));
        const texts = { goal: s.goal, notes: s.notes, ask: qs.map((q) => q.ask).join(" "), answer: qs.map((q) => q.answer || "").join(" "), note };
        const names = Object.fromEntries(Object.entries(texts).map(([k, t]) => [k, namedPanels(t || "")]));
        const st = await page.evaluate(stageFontFloor);
        const r = await page.evaluate(panelsHere);
        rows.push({ at: stop, fit: await page.evaluate(() => document.documentElement.dataset.sectionFit), px: st.px, where: st.where, ...r, names });
      });
      if (alone) {
        // again, each stop measured alone: the first arrangement that cuts nothing there
        const { page: page2 } = await presentLesson(h, lesson, viewport, { setup });
        await walkStops(page2, want, async (stop, i) => {
          rows[i].alone = await page2.evaluate(() => {
            for (const d of ["start", "stop", "end"]) window.dispatchEvent(new CustomEvent("explainer:section-fit", { detail: d }));
            return document.documentElement.dataset.sectionFit;
          });
        });
        await page2.close();
      }
      await page.close();
      for (const r of rows) {
        const allNamed = [...new Set(Object.values(r.names).flat())];
        const notWhole = allNamed.filter((id) => r.panels[id] && r.panels[id] !== "whole" && r.panels[id] !== "hidden");
        console.log(`${lesson} ${w}×${hgt} ${r.at.padEnd(5)} fit ${r.fit}${r.alone !== undefined ? ` alone ${r.alone}` : ""} type ${r.px.toFixed(1)} px` +
          `${r.px < 18 ? ` (${r.where})` : ""}; collapsed [${r.collapsed.join(",")}]; cut unsaid [${r.unsaid.join(",")}]` +
          `; named ${JSON.stringify(Object.fromEntries(Object.entries(r.names).filter(([, v]) => v.length)))}` +
          `${notWhole.length ? `; NAMED NOT WHOLE ${notWhole.map((id) => `${id}:${r.panels[id]}`).join(",")}` : ""}`);
      }
    }
  }
} finally {
  await h.close();
}
