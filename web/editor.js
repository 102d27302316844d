// editor.js — open a scenario from a file or from pasted text. A textarea with line numbers;
// when the engine rejects the text, its error is shown ("line:column: message") and the line it
// carries (the Error's .line and .column) is highlighted, with the caret at the column.
import { h, fill } from "./dom.js";

const SAMPLE = `title: My scenario
summary: A few rows, a start signal, and the snapshot.
table:
  columns: [a, id]
  locality: [a]
  stream_key: [id]
vnodes: {count: 2, rule: ranges, bounds: [10]}
fragment: 7
steps:
  - barrier: 1
  - chunk: ["+ 1 100", "+ 11 200"]
  - barrier: {epoch: 2, start_backfill: [7]}
  - snapshot: 1
  - barrier: 3
`;

/**
 * createEditor(dialog, {load(text) → Promise}) → {open(text?, error?), loadFile(file), showError(error)}
 * An error is an Error (or {message, line, column}) from the engine; line and column may be null.
 */
export function createEditor(dialog, { load }) {
  let text = SAMPLE;
  const ta = h("textarea", {
    id: "editor-text", class: "code", "data-testid": "editor", spellcheck: "false", autocapitalize: "off",
    autocomplete: "off", wrap: "off", "aria-describedby": "editor-error", "aria-label": "scenario text (YAML)",
  });
  const gutter = h("div", { class: "gutter", "aria-hidden": "true" });
  const err = h("div", { id: "editor-error", class: "form-error", role: "alert", "data-testid": "editor-error", hidden: true });
  const file = h("input", { type: "file", accept: ".yaml,.yml,.json,text/yaml,application/json,text/plain", id: "editor-file" });
  const loadBtn = h("button", { type: "submit", class: "btn primary" }, "Load scenario");
  let errLine = 0;

  function renderGutter() {
    const n = ta.value.split("\n").length;
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= n; i++) frag.append(h("div", { class: ["ln", i === errLine && "err"] }, String(i)));
    gutter.replaceChildren(frag);
    gutter.scrollTop = ta.scrollTop;
  }
  ta.addEventListener("input", () => { errLine = 0; err.hidden = true; ta.removeAttribute("aria-invalid"); renderGutter(); });
  ta.addEventListener("scroll", () => { gutter.scrollTop = ta.scrollTop; });

  function showError(e) {
    const message = e && e.message !== undefined ? String(e.message) : String(e);
    const pos = e && Number.isInteger(e.line) && e.line > 0 ? { line: e.line, column: Number.isInteger(e.column) ? e.column : 1 } : null;
    fill(err, h("strong", null, "The engine rejected this scenario: "), h("code", null, message));
    delete ta.dataset.errorLine;
    delete ta.dataset.errorColumn;
    err.hidden = false;
    ta.setAttribute("aria-invalid", "true");
    errLine = pos ? pos.line : 0;
    renderGutter();
    if (pos) {
      const lines = ta.value.split("\n");
      let start = 0;
      for (let i = 0; i < pos.line - 1 && i < lines.length; i++) start += lines[i].length + 1;
      const lineText = lines[pos.line - 1] ?? "";
      const caret = start + Math.min(Math.max(pos.column - 1, 0), lineText.length);
      ta.focus();
      ta.setSelectionRange(start, start + lineText.length);
      // Scroll the line into view (approximate with the line height).
      const lh = parseFloat(getComputedStyle(ta).lineHeight) || 20;
      ta.scrollTop = Math.max(0, (pos.line - 4) * lh);
      gutter.scrollTop = ta.scrollTop;
      ta.dataset.caret = String(caret);
      ta.dataset.errorLine = String(pos.line);
      ta.dataset.errorColumn = String(pos.column);
    }
  }

  async function submit() {
    text = ta.value;
    loadBtn.disabled = true;
    try {
      await load(text);
      err.hidden = true;
      dialog.close();
    } catch (e) {
      showError(e);
    } finally {
      loadBtn.disabled = false;
    }
  }

  async function loadFile(f) {
    if (!f) return;
    const t = await f.text();
    open(t);
    await submit();
  }
  file.addEventListener("change", () => loadFile(file.files && file.files[0]));

  const form = h("form", { method: "dialog", class: "editor-form" },
    h("div", { class: "dlg-head" }, h("h2", { id: "editor-title" }, "Open a scenario"),
      h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×")),
    h("div", { class: "file-row" },
      h("label", { for: "editor-file", class: "btn" }, "Choose a file…"),
      h("span", { class: "muted" }, " a .yaml scenario file, or paste or write one below: a title, a table, and steps, one thing that happens next each (the example shows the shape; the explainer's documentation has every rule, under “Scenario files”). You can also drop a file on the page.")),
    h("div", { class: "code-wrap" }, gutter, ta),
    err,
    h("div", { class: "dlg-foot" },
      h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, "Cancel"), loadBtn));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); submit(); });
  ta.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); submit(); }
  });
  file.classList.add("sr-only");
  form.querySelector(".file-row").prepend(file);
  fill(dialog, form);

  function open(initial, error) {
    if (typeof initial === "string") text = initial;
    ta.value = text;
    errLine = 0;
    err.hidden = true;
    renderGutter();
    if (!dialog.open) dialog.showModal();
    if (error) showError(error); else ta.focus();
  }

  return { open, loadFile, showError };
}
