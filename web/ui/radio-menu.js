// radio-menu.js — a header menu of radio choices (the bug-mode and release menus): a popover
// that focuses the checked choice when it opens; choosing with the pointer, or confirming with
// Enter or Space, closes it and calls done() (the page gives the keys back to the stage); the
// arrow keys choose within it.
import { h } from "./dom.js";
import { createPopover } from "./popover.js";

/**
 * createRadioMenu(popoverOptions, {choose(value), done()}) → {pop, wire(input), choice(…)}
 * wire(input): a radio of the menu calls choose(input.value) when it is checked.
 * choice({group, value, data, checked, className, title}, ...text): a wired radio in its
 * label (.bug-opt), its text after it (.bug-opt-text); data: the input's data-* attributes.
 */
export function createRadioMenu(options, { choose, done }) {
  let pointer = false; // the last choice came from the pointer
  const pop = createPopover({
    ...options,
    onOpen: () => {
      const r = pop.panel.querySelector("input:checked") || pop.panel.querySelector("input");
      if (r) r.focus();
    },
  });
  pop.panel.addEventListener("pointerdown", () => { pointer = true; });
  pop.panel.addEventListener("keydown", (ev) => {
    pointer = false;
    const r = ev.target;
    if ((ev.key === "Enter" || ev.key === " ") && r instanceof HTMLInputElement && r.type === "radio") {
      ev.preventDefault();
      if (!r.checked) { r.checked = true; choose(r.value); }
      finish();
    }
  });

  function finish() {
    pop.close();
    done();
  }

  function wire(input) {
    input.addEventListener("change", () => {
      if (!input.checked) return;
      choose(input.value);
      if (pointer) finish();
    });
    return input;
  }

  function choice({ group, value, data, checked, className, title }, ...text) {
    const input = wire(h("input", { type: "radio", name: group, value, ...data }));
    input.checked = checked;
    return h("label", { class: ["bug-opt", className], title }, input, h("span", { class: "bug-opt-text" }, ...text));
  }

  return { pop, wire, choice };
}
