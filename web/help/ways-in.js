// ways-in.js — the three ways into the page, on the first-visit card and in help: "I have an
// error…" (the diagnosis: what a log line means), "Run a workshop" (the built-in lessons, each
// with its length, its sections and its printable plan) and "Look around" (the scenario open now).
import { h, fill } from "../ui/dom.js";

/**
 * waysIn({explainer, openLesson(name), done()}) → element. done closes the card or help (and,
 * for "Look around", gives the keys to the stage). The diagnosis opens by the page's own button.
 */
export function waysIn({ explainer, openLesson, done, look }) {
  const list = h("div", { class: "ways-lessons", "data-testid": "ways-lessons", hidden: true });
  const workshop = h("button", {
    type: "button", class: "btn", "data-testid": "ways-workshop", "aria-expanded": "false",
    onclick: () => showLessons(),
  }, "Run a workshop");
  const el = h("div", { class: "ways-in", "data-testid": "ways-in" },
    h("div", { class: "ways-buttons" },
      h("button", {
        type: "button", class: "btn", "data-testid": "ways-error",
        title: "What an error message or a log line means, and where to look next",
        onclick: () => { done(); document.getElementById("diagnose-btn")?.click(); },
      }, "I have an error…"),
      workshop,
      h("button", { type: "button", class: "btn primary", "data-testid": "ways-look", onclick: () => { done(); look?.(); } }, "Look around")),
    list);

  async function showLessons() {
    const open = list.hidden;
    list.hidden = !open;
    workshop.setAttribute("aria-expanded", String(open));
    if (!open || list.childElementCount) return;
    fill(list, h("p", { class: "muted" }, "Loading the lessons…"));
    let lessons = [];
    try { lessons = (await explainer.lessons()) || []; } catch (e) { fill(list, h("p", { class: "bad" }, `The lessons could not be listed: ${e.message}`)); return; }
    fill(list, h("ul", { class: "ways-lesson-list" }, lessons.map((l) => h("li", { "data-testid": "ways-lesson" },
      h("p", { class: "ways-lesson-head" }, h("strong", null, l.title), h("span", { class: "tag" }, `${l.minutes} min · ${l.sections} sections`)),
      l.summary ? h("p", { class: "ways-lesson-sum" }, l.summary) : null,
      h("p", { class: "ways-lesson-do" },
        h("button", { type: "button", class: "btn small primary", "data-testid": "ways-lesson-start", onclick: () => { done(); openLesson(l.name); } }, "Start this lesson"),
        " ",
        h("button", {
          type: "button", class: "btn small", "data-testid": "ways-lesson-plan", "aria-haspopup": "dialog",
          onclick: async () => {
            try {
              const [{ openPlan }, plan] = await Promise.all([import("../teach/lesson-plan.js"), explainer.lesson(l.name)]);
              openPlan(plan);
            } catch (e) { fill(list, h("p", { class: "bad" }, `The plan could not be opened: ${e.message}`)); }
          },
        }, "The plan"))))));
  }
  return el;
}
