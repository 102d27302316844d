// inject.js — the injection dialog. Its tabs and fields are the engine's step forms (one per
// kind of step, with defaults for this step); the filled-in form goes to the engine, whose one
// serializer writes the step's text (shown as a preview), and apply checks it exactly as a file
// is. A rejection is shown inline. The page knows no step syntax: a field the engine adds to a
// form appears here as it is.
import { h, fill } from "../ui/dom.js";

let seq = 0;

/**
 * createInject(dialog, {stepForms() → Promise<forms>, formatStep(values) → Promise<text>,
 * apply(text) → Promise}) → {open(kind?)}
 */
export function createInject(dialog, { stepForms, formatStep, apply }) {
  async function open(kind) {
    let forms;
    try { forms = await stepForms(); } catch { return; } // nothing open
    if (!forms || !forms.length) return;
    let current = forms.find((f) => f.kind === kind) || forms[0];
    const values = {}; // kind → {field: value}
    for (const f of forms) values[f.kind] = Object.fromEntries(f.fields.map((x) => [x.name, x.default]));
    let text = "";
    let previewSeq = 0;

    const body = h("div", { class: "inject-fields" });
    const preview = h("code", { class: "preview", "data-testid": "inject-preview" });
    const err = h("p", { class: "form-error", role: "alert", "data-testid": "inject-error", hidden: true });
    const tabs = h("div", { class: "seg", role: "radiogroup", "aria-label": "what to inject" });
    const submit = h("button", { type: "submit", class: "btn primary" }, "Apply");

    const shown = (field) => !field.when || String(values[current.kind][field.when.field]) === field.when.value;

    function showError(message) {
      fill(err, message);
      err.hidden = false;
    }

    async function refresh() {
      err.hidden = true;
      const mine = ++previewSeq;
      const v = { kind: current.kind };
      for (const f of current.fields) if (shown(f)) v[f.name] = values[current.kind][f.name];
      try {
        const t = await formatStep(v);
        if (mine !== previewSeq) return;
        text = t;
        fill(preview, t);
      } catch (e) {
        if (mine !== previewSeq) return;
        text = "";
        fill(preview, "—");
        preview.dataset.error = e.message;
      }
    }

    function input(field) {
      const id = `inj-${++seq}`;
      const vals = values[current.kind];
      const set = (v) => { vals[field.name] = v; refresh(); };
      let el;
      switch (field.type) {
        case "choice":
          if (field.options.length <= 7) { // radios while they fit on a line or two; a longer list is a select
            const fs = h("fieldset", { class: "radios" }, h("legend", null, field.label));
            for (const o of field.options) {
              const r = h("input", { type: "radio", name: id, value: o.value, checked: String(vals[field.name]) === o.value });
              r.addEventListener("change", () => { if (r.checked) { vals[field.name] = o.value; renderFields(); } });
              fs.append(h("label", { class: "radio" }, r, " " + o.label));
            }
            return fs;
          }
          el = h("select", { id }, field.options.map((o) => h("option", { value: o.value, selected: String(vals[field.name]) === o.value }, o.label)));
          el.addEventListener("change", () => { vals[field.name] = el.value; renderFields(); });
          break;
        case "check": {
          const cb = h("input", { type: "checkbox", id, checked: !!vals[field.name] });
          cb.addEventListener("change", () => set(cb.checked));
          return h("label", { class: "check" }, cb, " " + field.label);
        }
        case "rows":
          el = h("textarea", { id, rows: "4", spellcheck: "false", placeholder: field.placeholder || null });
          el.value = String(vals[field.name] ?? "");
          el.addEventListener("input", () => set(el.value));
          break;
        default:
          el = h("input", {
            id, type: field.type === "number" ? "number" : "text", value: String(vals[field.name] ?? ""),
            placeholder: field.placeholder || null, inputmode: field.type === "number" ? "numeric" : null,
          });
          el.addEventListener("input", () => set(field.type === "number" && el.value !== "" ? Number(el.value) : el.value));
      }
      return h("div", { class: "field" }, h("label", { for: id }, field.label), el, field.hint ? h("small", null, field.hint) : null);
    }

    function renderFields() {
      fill(body, h("p", { class: "hint" }, current.hint), current.fields.filter(shown).map(input));
      for (const b of tabs.children) b.setAttribute("aria-checked", String(b.dataset.kind === current.kind));
      refresh();
    }

    for (const f of forms) {
      tabs.append(h("button", {
        type: "button", role: "radio", class: "seg-btn", "data-kind": f.kind, "aria-checked": String(f === current),
        onclick: () => { current = f; renderFields(); },
      }, f.label));
    }
    const form = h("form", { method: "dialog", class: "inject-form" },
      h("div", { class: "dlg-head" }, h("h2", { id: "inject-title" }, "Inject a step"),
        h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×")),
      tabs, body,
      h("p", { class: "preview-line" }, h("span", { class: "k" }, "step text "), preview),
      err,
      h("div", { class: "dlg-foot" },
        h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, "Cancel"), submit));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      await refresh();
      if (!text) { showError(preview.dataset.error || "This step cannot be written yet."); return; }
      submit.disabled = true;
      try {
        await apply(text);
        dialog.close();
      } catch (e) {
        showError(e && e.message ? e.message : String(e));
      } finally {
        submit.disabled = false;
      }
    });
    renderFields();
    fill(dialog, form);
    if (!dialog.open) dialog.showModal();
    const firstInput = body.querySelector("input, textarea, select");
    (firstInput || tabs.querySelector('[aria-checked="true"]'))?.focus();
  }
  return { open };
}
