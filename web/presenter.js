// presenter.js — presenter mode for a projector: large type, fewer panels (the stage and the
// narration), the step's note as speaker notes in a box of its own, PageUp/PageDown (what
// clickers send) and the arrow keys step, and autoplay stops after a step marked `pause: true`.
import { h, fill } from "./dom.js";

const ON_KEY = "backfill-explainer:presenter";

/** createPresenter({notes}) → {toggle, enabled, setEnabled(on), update(view)} */
export function createPresenter({ notes }) {
  let enabled = false;
  try { enabled = sessionStorage.getItem(ON_KEY) === "1"; } catch { /* ignore */ }
  let last = null;

  const toggle = h("button", {
    type: "button", class: "btn toggle", "data-testid": "presenter", "aria-pressed": String(enabled),
    "aria-keyshortcuts": "p", title: "Presenter mode: large type, speaker notes, PageUp/PageDown step (p)",
    onclick: () => setEnabled(!enabled),
  }, h("span", { class: "tg-dot", "aria-hidden": "true" }), "Present");

  function setEnabled(on) {
    enabled = !!on;
    try { sessionStorage.setItem(ON_KEY, enabled ? "1" : "0"); } catch { /* ignore */ }
    toggle.setAttribute("aria-pressed", String(enabled));
    document.documentElement.classList.toggle("presenter", enabled);
    update(last);
  }

  function update(view) {
    last = view;
    const note = view && view.note ? String(view.note) : "";
    if (!enabled) { notes.hidden = true; return; }
    fill(notes,
      h("h2", { class: "notes-head" }, "Speaker notes", view ? h("span", { class: "notes-step" }, ` · step ${view.step} / ${view.steps}`) : null,
        view && view.pause ? h("span", { class: "tag notes-pause" }, "⏸ pause here") : null),
      note ? h("p", { class: "notes-text" }, note) : h("p", { class: "notes-text muted" }, "No note for this step."));
    notes.hidden = false;
  }

  document.documentElement.classList.toggle("presenter", enabled);
  return { toggle, get enabled() { return enabled; }, setEnabled, update };
}
