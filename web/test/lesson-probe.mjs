// lesson-probe.mjs — a measurement, not a test: both built-in lessons walked with PageDown in
// presenter mode at 1280×800, 1366×768 and 1920×1080. Per stop it prints the stage's smallest type
// (fit-check.mjs stageFontFloor), the arrangement the section kept (presenter-fit.js) and the one
// this stop alone would need, the panels collapsed, and each panel cut without saying so or named
// by the stop's texts (goal, notes, question, answer, the step's note) yet not whole.
// `node web/test/lesson-probe.mjs [lesson…]` after ./build.sh build; PROBE_ALONE=0 skips the
// per-stop arrangement. (Not a test file: build.sh runs web/test/*.test.mjs only.)

import { setupPrivate, openPage, byTestId, blur } from "./page-helpers.mjs";
import { stageFontFloor } from "./fit-check.mjs";
import { namedPanels } from "../teach/named-panels.js";
import { panelsHere } from "./panel-check.mjs";

const VIEWPORTS = (process.env.PROBE_VIEWPORTS || "1280x800,1366x768,1920x1080").split(",").map((s) => s.split("x").map(Number));
const lessons = process.argv.slice(2).length ? process.argv.slice(2) : ["workshop", "met-this-error"];
const alone = process.env.PROBE_ALONE !== "0";
// a custom property to try on the root, "--side-w=16rem" (the page's policy allows no style tag)
const css = process.env.PROBE_VAR ? process.env.PROBE_VAR.split("=") : null;
const h = await setupPrivate();

const at = (page) => page.evaluate(() => { const p = new URLSearchParams(location.hash.slice(1)); return `${p.get("section")}/${p.get("step")}`; });
const waitAt = (page, w) => page.waitForFunction((w) => {
  const p = new URLSearchParams(location.hash.slice(1));
  return `${p.get("section")}/${p.get("step")}` === w;
}, w, { timeout: 20000 });
const waitFit = (page) => page.waitForFunction(() => document.documentElement.dataset.sectionFit !== undefined, null, { timeout: 20000 });

try {
  for (const lesson of lessons) {
    for (const [w, hgt] of VIEWPORTS) {
      const page = await openPage(h, `index.html#lesson=${lesson}&section=1`, { viewport: { width: w, height: hgt } });
      await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get("section") === "1", null, { timeout: 10000 });
      const plan = await page.evaluate((n) => window.explainer.lesson(n), lesson);
      if (css) await page.evaluate(([k, v]) => document.documentElement.style.setProperty(k, v), css);
      await byTestId(page, "presenter").click();
      const want = plan.sections.flatMap((s, i) => s.stops.map((x) => `${i + 1}/${x}`));
      await waitAt(page, want[0]);
      await waitFit(page);
      await blur(page);
      const rows = [];
      for (let i = 0; i < want.length; i++) {
        if (i) {
          await page.keyboard.press("PageDown");
          await waitAt(page, want[i]);
          if (want[i].split("/")[0] !== want[i - 1].split("/")[0]) await waitFit(page);
        }
        const [si, step] = want[i].split("/").map(Number);
        const s = plan.sections[si - 1];
        const qs = (s.questions || []).filter((q) => q.at === step);
        const note = await page.evaluate(() => window.explainer.view().then((v) => v.note || ""));
        const texts = { goal: s.goal, notes: s.notes, ask: qs.map((q) => q.ask).join(" "), answer: qs.map((q) => q.answer || "").join(" "), note };
        const names = Object.fromEntries(Object.entries(texts).map(([k, t]) => [k, namedPanels(t || "")]));
        const st = await page.evaluate(stageFontFloor);
        const r = await page.evaluate(panelsHere);
        const row = { at: want[i], fit: await page.evaluate(() => document.documentElement.dataset.sectionFit), px: st.px, where: st.where, ...r, names };
        rows.push(row);
      }
      if (alone) {
        // again, each stop measured alone: the first arrangement that cuts nothing there
        const page2 = await openPage(h, `index.html#lesson=${lesson}&section=1`, { viewport: { width: w, height: hgt } });
        await page2.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get("section") === "1", null, { timeout: 10000 });
        if (css) await page2.evaluate(([k, v]) => document.documentElement.style.setProperty(k, v), css);
        await byTestId(page2, "presenter").click();
        await waitAt(page2, want[0]);
        await waitFit(page2);
        await blur(page2);
        for (let i = 0; i < want.length; i++) {
          if (i) {
            await page2.keyboard.press("PageDown");
            await waitAt(page2, want[i]);
            if (want[i].split("/")[0] !== want[i - 1].split("/")[0]) await waitFit(page2);
          }
          rows[i].alone = await page2.evaluate(() => {
            for (const d of ["start", "stop", "end"]) window.dispatchEvent(new CustomEvent("explainer:section-fit", { detail: d }));
            return document.documentElement.dataset.sectionFit;
          });
        }
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
