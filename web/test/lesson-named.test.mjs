// lesson-named.test.mjs — what the speaker says, the room sees; and no cut goes unsaid. Both
// built-in lessons walked with PageDown in presenter mode at 1280×800, 1366×768 and 1920×1080; at
// every stop (panel-check.mjs):
// - every panel the stop's texts name (named-panels.js) is on screen whole, neither collapsed nor
//   cut: those the room reads (the section's goal, the question) always; those the speaker reads
//   (the section's notes, the answer, the step's note) when presenter mode shows the panel at
//   all (it leaves out the state and progress tables unless the goal or question names them);
// - every panel part of whose content is out of sight says so on its heading: "(unchanged,
//   collapsed)" or "(more ↓)" (presenter-fit.js).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setupPrivate } from "./page-helpers.mjs";
import { presentLesson, walkStops } from "./lesson-stops.mjs";
import { panelsHere } from "./panel-check.mjs";
import { namedPanels } from "../teach/named-panels.js";

let h;
before(async () => { h = await setupPrivate(); });
after(async () => { await h?.close(); });

const TABLES = ["state-table", "progress-table"]; // (presenter mode shows them only when the room's texts name them)

for (const lesson of ["workshop", "met-this-error"]) {
  for (const [w, hgt] of [[1280, 800], [1366, 768], [1920, 1080]]) {
    test(`${lesson} at ${w}×${hgt} in presenter mode: every panel a stop's goal, question or notes name is whole; every cut panel says so`, async () => {
      const { page, plan, stops: want } = await presentLesson(h, lesson, { width: w, height: hgt });
      const notWhole = [], unsaid = [];
      let named = 0;
      await walkStops(page, want, async (stop) => {
        const [si, step] = stop.split("/").map(Number);
        const s = plan.sections[si - 1];
        // (the question the lesson bar asks at this step: lesson-bar.js)
        const q = (s.questions || []).find((x) => (x.predict ? x.at - 1 : x.at) === step);
        const note = await page.evaluate(() => window.explainer.view().then((v) => v.note || ""));
        const room = namedPanels(`${s.goal || ""} ${q?.ask || ""}`);
        const speaker = namedPanels(`${s.notes || ""} ${q?.answer || ""} ${note}`);
        const r = await page.evaluate(panelsHere);
        for (const id of [...new Set([...room, ...speaker])]) {
          const state = r.panels[id];
          const ok = state === "whole" || (state === "hidden" && TABLES.includes(id) && !room.includes(id));
          named++;
          if (!ok) notWhole.push(`${stop} ${id}: ${state} (named by ${room.includes(id) ? "the goal or question" : "the notes, answer or step's note"})`);
        }
        for (const u of r.unsaid) unsaid.push(`${stop} ${u}`);
      });
      assert.ok(named > want.length, `the stops' texts name panels (${named})`);
      assert.deepEqual(notWhole, [], "panels the stop's texts name, not whole on the room's screen");
      assert.deepEqual(unsaid, [], "panels cut on the room's screen without saying so");
      h.assertNoErrors(page);
    });
  }
}
