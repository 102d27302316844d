// changed-strip.js — on a phone (the document layout) one step can change several panels, far
// apart down the page, and follow.js brings only one of them into view. The strip at the top of
// the sticky bottom part names every panel the step changed (the stage panels the view's
// `changed` names: follow.js's changedPanels), in stage order, as 44 px buttons: each brings
// its panel into view above the sticky part (follow.js's reveal), and the one followed is marked
// aria-current. After a button is used, focus goes to its panel, where the arrows and Space step
// and play as anywhere on the stage. The strip is hidden when nothing changed, and style.css
// hides it in the one-screen layouts, where every panel is already in view.
import { h, keyed } from "../ui/dom.js";
import { changedPanels, reveal, layout, onLayout } from "./follow.js";
import { focusStage } from "../ui/keyboard.js";

/** The name of a panel on its button: its heading's short form (data-short) or the heading. */
function panelName(panel) {
  const head = panel.querySelector("h2, h3");
  if (!head) return panel.getAttribute("aria-label") || "";
  if (head.dataset.short) return head.dataset.short;
  const copy = head.cloneNode(true);
  for (const sub of copy.querySelectorAll(".h-sub, .sr-only")) sub.remove();
  return copy.textContent.replace(/\s+/g, " ").trim();
}

/** createChangedStrip(nav) → {update(), setCurrent(panel)} on the strip's <nav>. */
export function createChangedStrip(nav) {
  const list = nav.querySelector(".changed-list");
  let current = null; // the panel box brought into view last (by follow or by a button)

  function mark() {
    for (const b of list.children) {
      if (b.panel === current) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    }
    const on = [...list.children].find((b) => b.panel === current);
    // Keep the current button in sight inside the strip (the strip scrolls, never the page).
    if (on) {
      const l = on.offsetLeft - list.offsetLeft;
      if (l < list.scrollLeft) list.scrollLeft = l - 8;
      else if (l + on.offsetWidth > list.scrollLeft + list.clientWidth) list.scrollLeft = l + on.offsetWidth - list.clientWidth + 8;
    }
  }

  function go(b) {
    current = b.panel;
    mark();
    const body = b.panel.querySelector('[tabindex="0"]');
    if (body) body.focus({ preventScroll: true }); else focusStage();
    reveal(b.panel);
  }

  let last = {}; // the `changed` the strip was drawn from (drawn again when a resize brings the document layout)
  function update(changed = last) {
    last = changed;
    const had = nav.contains(document.activeElement);
    // In the one-screen layouts style.css hides the strip: it is not drawn there (drawing it
    // reads the panels' styles and scrolls it, a forced style and layout at every step), and it
    // is drawn as soon as a resize brings the document layout.
    if (layout() !== "flow") {
      if (list.firstChild) keyed(list, []);
      if (!nav.hidden) nav.hidden = true;
      current = null;
      if (had) focusStage();
      return;
    }
    const panels = changedPanels(changed);
    if (!panels.some((c) => c.panel === current)) current = null;
    keyed(list, panels.map((c) => {
      const name = panelName(c.panel);
      return {
        key: c.id,
        sig: name,
        build: () => h("button", {
          type: "button", class: "changed-chip", "data-testid": "changed-chip", "data-panel": c.id,
          title: `Show “${name}”`, onclick: (ev) => go(ev.currentTarget),
        }, h("span", { class: "cc-pill" }, name)),
        inner: (b) => { b.panel = c.panel; },
      };
    }));
    nav.hidden = !panels.length;
    list.scrollLeft = 0;
    if (had && !nav.contains(document.activeElement)) focusStage();
    mark();
  }
  onLayout(() => update());

  return {
    /** update(changed): draw the strip from the view's `changed` (call after each render, before follow). */
    update,
    /** The panel follow.js brought into view (or null). */
    setCurrent(panel) {
      current = panel;
      mark();
    },
  };
}
