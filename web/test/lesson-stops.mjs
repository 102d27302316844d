// lesson-stops.mjs — a built-in lesson in presenter mode, walked stop by stop with PageDown from
// the explainer window (lesson-steady, lesson-named, lesson-probe). A stop is "section/step".

import { openPage, byTestId, blur } from "./page-helpers.mjs";

/** waitAt(page, at): the page is at stop `at`. */
export const waitAt = (page, at) => page.waitForFunction((w) => {
  const p = new URLSearchParams(location.hash.slice(1));
  return `${p.get("section")}/${p.get("step")}` === w;
}, at, { timeout: 20000 });

/** waitFit(page): presenter mode has sized the section (presenter-fit.js, data-section-fit). */
export const waitFit = (page) => page.waitForFunction(() => document.documentElement.dataset.sectionFit !== undefined, null, { timeout: 20000 });

/**
 * presentLesson(h, lesson, viewport, {setup}) → {page, plan, stops}: the lesson opened at its
 * first section, setup(page) run, presenter mode turned on, at the first stop with the section
 * sized and nothing focused; stops in the plan's order.
 */
export async function presentLesson(h, lesson, viewport, { setup } = {}) {
  const page = await openPage(h, `index.html#lesson=${lesson}&section=1`, { viewport });
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get("section") === "1", null, { timeout: 10000 });
  const plan = await page.evaluate((n) => window.explainer.lesson(n), lesson);
  if (setup) await setup(page);
  await byTestId(page, "presenter").click();
  const stops = plan.sections.flatMap((s, i) => s.stops.map((x) => `${i + 1}/${x}`));
  await waitAt(page, stops[0]);
  await waitFit(page);
  await blur(page);
  return { page, plan, stops };
}

/** walkStops(page, stops, visit): visit(at, i) at every stop, one PageDown between (a new section: its size waited for). */
export async function walkStops(page, stops, visit) {
  for (let i = 0; i < stops.length; i++) {
    if (i) {
      await page.keyboard.press("PageDown");
      await waitAt(page, stops[i]);
      if (stops[i].split("/")[0] !== stops[i - 1].split("/")[0]) await waitFit(page);
    }
    await visit(stops[i], i);
  }
}
