// popover.js — a header menu: a button that shows a panel below it (aria-expanded), closed by
// Esc (focus returns to the button), by a click outside, or by focus leaving it.
import { h } from "./dom.js";

let seq = 0;

/**
 * createPopover({label, title, testid, panelLabel, onOpen}) → {wrap, button, panel, open(), close(), isOpen}
 * `label` is the button's content (nodes or text); fill `panel` with the menu's content.
 */
export function createPopover({ label, title, testid, panelLabel, onOpen, className }) {
  const id = "popover-" + (++seq);
  const button = h("button", {
    type: "button", class: ["btn", "menu-btn", className], "aria-expanded": "false", "aria-controls": id,
    title, "data-testid": testid,
  });
  const panel = h("div", { class: "popover", id, role: "group", "aria-label": panelLabel, hidden: true });
  const wrap = h("div", { class: "menu-wrap" }, button, panel);
  button.append(...[].concat(label), h("span", { class: "caret", "aria-hidden": "true" }, "▾"));

  function isOpen() { return !panel.hidden; }
  function open() {
    if (isOpen()) return;
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    if (onOpen) onOpen();
  }
  function close({ focus = false } = {}) {
    if (!isOpen()) return;
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (focus) button.focus();
  }
  button.addEventListener("click", () => (isOpen() ? close() : open()));
  wrap.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && isOpen()) { ev.preventDefault(); ev.stopPropagation(); close({ focus: true }); }
  });
  document.addEventListener("pointerdown", (ev) => { if (isOpen() && !wrap.contains(ev.target)) close(); });
  wrap.addEventListener("focusout", (ev) => {
    if (isOpen() && ev.relatedTarget instanceof Node && !wrap.contains(ev.relatedTarget)) close();
  });
  return { wrap, button, panel, open, close, get isOpen() { return isOpen(); } };
}
