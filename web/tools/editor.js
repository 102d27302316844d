// editor.js — open a scenario from a file or from pasted text. A textarea with line numbers;
// when the engine rejects the text, its error is shown ("line:column: message") and the line it
// carries (the Error's .line and .column) is highlighted, with the caret at the column.
// It starts from the open scenario's text (editor-source.js; a draft is kept while the same
// scenario stays open), has the format's help in the dialog (format-help.js, from the format's
// JSON Schema, so it works offline too) and offers the keys that fit where the caret is.
import { h, fill } from "../ui/dom.js";
import { formatHelp, keysAt } from "./format-help.js";
import { TEXT_LIMIT } from "../session/run-link.js";
import { quote, bounded } from "../ui/bound.js";

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
 * createEditor(dialog, {load(text) → Promise, source() → Promise<{key, text}|null>, schema() → Promise})
 * → {open(text?, error?), loadFile(file), showError(error)}
 * An error is an Error (or {message, line, column}) from the engine; line and column may be null.
 */
export function createEditor(dialog, { load, source = async () => null, schema = async () => null }) {
  let text = SAMPLE;
  let filledFor = null; // the key of the open scenario the text was taken from (editor-source.js)
  let theSchema = null;
  const getSchema = () => (theSchema ??= Promise.resolve().then(schema).catch(() => null));
  const ta = h("textarea", {
    id: "editor-text", class: "code", "data-testid": "editor", spellcheck: "false", autocapitalize: "off",
    autocomplete: "off", wrap: "off", "aria-describedby": "editor-error", "aria-label": "scenario text (YAML)",
  });
  const gutter = createGutter(ta);
  const keys = createKeyHints(ta, getSchema);
  const help = createFormatHelp(getSchema);
  const err = h("div", { id: "editor-error", class: "form-error", role: "alert", "data-testid": "editor-error", hidden: true });
  const file = h("input", { type: "file", accept: ".yaml,.yml,.json,text/yaml,application/json,text/plain", id: "editor-file" });
  const loadBtn = h("button", { type: "submit", class: "btn primary" }, "Load scenario");
  const exampleBtn = h("button", {
    type: "button", class: "btn small", "data-testid": "editor-example", title: "Replace the text with a small example scenario",
    onclick: () => { ta.value = SAMPLE; filledFor = null; ta.dispatchEvent(new Event("input")); ta.focus(); },
  }, "Start from an example");

  ta.addEventListener("input", () => { text = ta.value; gutter.errLine = 0; err.hidden = true; ta.removeAttribute("aria-invalid"); gutter.render(); keys.suggest(); });
  ta.addEventListener("scroll", () => { gutter.el.scrollTop = ta.scrollTop; });

  function showError(e) {
    fill(err, h("strong", null, "The engine rejected this scenario: "), h("code", null, bounded(e && e.message !== undefined ? String(e.message) : String(e))));
    err.hidden = false;
    markError(ta, gutter, e);
  }

  async function submit() {
    text = ta.value;
    const was = filledFor;
    filledFor = null; // what loads becomes the open scenario: its text, its source from then on
    loadBtn.disabled = true;
    try {
      await load(text);
      err.hidden = true;
      dialog.close();
    } catch (e) {
      filledFor = was; // the draft stays, over the scenario still open
      showError(e);
    } finally {
      loadBtn.disabled = false;
    }
  }

  async function loadFile(f) {
    if (!f) return;
    // refused by its size, before a byte is read (a 600 MB file is never read into the page)
    if (f.size > TEXT_LIMIT) {
      await open(undefined, { message: `${quote(f.name)} is ${(f.size / 1048576).toFixed(1)} MiB: a scenario file is at most 1 MiB of text` });
      return;
    }
    const t = await f.text();
    open(t);
    await submit();
  }
  file.addEventListener("change", () => loadFile(file.files && file.files[0]));
  ta.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); submit(); }
    if (ev.key === " " && ev.ctrlKey) { ev.preventDefault(); keys.first(); }
  });
  fill(dialog, editorForm(dialog, { file, help, exampleBtn, gutter, ta, keys, err, loadBtn, submit }));

  async function open(initial, error) {
    if (typeof initial === "string") { text = initial; filledFor = null; } else {
      // The open scenario's text, unless the draft is already of it.
      const src = await source().catch(() => null);
      if (src && src.key !== filledFor && typeof src.text === "string") { text = src.text; filledFor = src.key; }
    }
    ta.value = text;
    keys.reset();
    gutter.errLine = 0;
    err.hidden = true;
    gutter.render();
    if (!dialog.open) dialog.showModal();
    if (error) showError(error); else ta.focus();
  }

  return { open, loadFile, showError };
}

/** editorForm(dialog, parts): the dialog's form: the file row, the format's help, the text with its gutter, the keys, the error, the buttons. */
function editorForm(dialog, { file, help, exampleBtn, gutter, ta, keys, err, loadBtn, submit }) {
  const form = h("form", { method: "dialog", class: "editor-form" },
    h("div", { class: "dlg-head" }, h("h2", { id: "editor-title" }, "Open a scenario"),
      h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×")),
    h("div", { class: "file-row" },
      h("label", { for: "editor-file", class: "btn" }, "Choose a file…"),
      h("span", { class: "muted" }, " a .yaml scenario file, or edit the open scenario below (or paste one): a title, a table, and steps, one thing that happens next each. You can also drop a file on the page."),
      help.btn, exampleBtn),
    help.box,
    h("div", { class: "code-wrap" }, gutter.el, ta),
    keys.box,
    err,
    h("div", { class: "dlg-foot" },
      h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, "Cancel"), loadBtn));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); submit(); });
  file.classList.add("sr-only");
  form.querySelector(".file-row").prepend(file);
  return form;
}

/** createFormatHelp(getSchema) → {btn, box}: "Format help", the format's help from its schema, drawn at the first opening. */
function createFormatHelp(getSchema) {
  const box = h("section", { class: "format-help", id: "format-help", "data-testid": "format-help", hidden: true, "aria-label": "Scenario format", tabindex: "0" });
  const btn = h("button", {
    type: "button", class: "btn small", "data-testid": "format-help-btn", "aria-expanded": "false", "aria-controls": "format-help",
    onclick: () => toggle(),
  }, "Format help");
  async function toggle(show = box.hidden) {
    btn.setAttribute("aria-expanded", String(show));
    if (show && !box.firstChild) {
      const sc = await getSchema();
      fill(box, h("h3", { class: "fh-title" }, "The scenario format"), sc ? formatHelp(sc) : h("p", { class: "muted" }, "The format's help could not be loaded."));
    }
    box.hidden = !show;
  }
  return { btn, box };
}

/**
 * createKeyHints(ta, getSchema) → {box, suggest(), first(), reset()}: the keys the format allows
 * where the caret is, as buttons that write them (first(), Ctrl+Space: the first one).
 */
function createKeyHints(ta, getSchema) {
  const box = h("div", { class: "editor-keys", "data-testid": "editor-keys", role: "group", "aria-label": "Keys that fit here" });
  let keysFor = "";
  async function suggest() {
    const sc = await getSchema();
    if (!sc) return;
    const at = ta.selectionStart;
    const k = `${at}|${ta.value.length}|${ta.value.slice(Math.max(0, at - 40), at)}`;
    if (k === keysFor) return;
    keysFor = k;
    const { where, keys } = keysAt(ta.value, at, sc);
    fill(box, keys.length ? [h("span", { class: "muted" }, `Keys for ${where}: `),
      keys.map((x) => h("button", {
        type: "button", class: "btn small key-btn", title: x.description, "data-key": x.key,
        onmousedown: (ev) => ev.preventDefault(), // the caret stays where it is
        onclick: () => insertKey(x.key),
      }, x.key))] : null);
  }
  function insertKey(key) {
    const at = ta.selectionStart;
    const before = ta.value.slice(0, at);
    const typed = /[A-Za-z0-9_]*$/.exec(before)[0];
    ta.setRangeText(key + ": ", at - typed.length, ta.selectionEnd, "end");
    ta.dispatchEvent(new Event("input"));
    ta.focus();
  }
  for (const ev of ["click", "keyup", "focus"]) ta.addEventListener(ev, () => { suggest(); });
  return {
    box, suggest,
    first() {
      keysFor = "";
      suggest().then(() => { const b = box.querySelector(".key-btn"); if (b) insertKey(b.dataset.key); });
    },
    reset() { keysFor = ""; },
  };
}

/**
 * createGutter(ta) → {el, render(), errLine}: one number per line, grown or shrunk by the lines
 * that changed (a key that adds no line touches nothing; 200,000 lines are not drawn again at
 * every key); errLine (0: none) is the number marked as the error's line.
 */
function createGutter(ta) {
  const el = h("div", { class: "gutter", "aria-hidden": "true" });
  let marked = null; // the number marked as the error's line
  const g = {
    el, errLine: 0,
    render() {
      const v = ta.value; // (once: each read of .value copies the text)
      let n = 1;
      for (let i = v.indexOf("\n"); i !== -1; i = v.indexOf("\n", i + 1)) n++;
      const have = el.childElementCount;
      if (n > have) {
        const frag = document.createDocumentFragment();
        for (let i = have + 1; i <= n; i++) frag.append(h("div", { class: "ln" }, String(i)));
        el.append(frag);
      } else {
        for (let i = have; i > n; i--) el.lastElementChild.remove();
      }
      const want = g.errLine > 0 && g.errLine <= n ? el.children[g.errLine - 1] : null;
      if (marked !== want) {
        marked?.classList.remove("err");
        want?.classList.add("err");
        marked = want;
      }
      el.scrollTop = ta.scrollTop;
    },
  };
  return g;
}

/** markError(ta, gutter, e): the error's line marked and selected, the caret at its column, scrolled into view. */
function markError(ta, gutter, e) {
  const pos = e && Number.isInteger(e.line) && e.line > 0 ? { line: e.line, column: Number.isInteger(e.column) ? e.column : 1 } : null;
  delete ta.dataset.errorLine;
  delete ta.dataset.errorColumn;
  ta.setAttribute("aria-invalid", "true");
  gutter.errLine = pos ? pos.line : 0;
  gutter.render();
  if (!pos) return;
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
  gutter.el.scrollTop = ta.scrollTop;
  ta.dataset.caret = String(caret);
  ta.dataset.errorLine = String(pos.line);
  ta.dataset.errorColumn = String(pos.column);
}
