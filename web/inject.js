// inject.js — the injection form: build one scenario step (the YAML flow syntax of
// scenario-format.md §1) from a small form and hand it to explainer.apply; the engine
// validates it exactly as a file and its rejection is shown inline.
import { h, fill } from "./dom.js";

/** Quote a scalar for YAML flow syntax only when needed (JSON strings are valid YAML). */
export function yamlScalar(s) {
  const t = String(s).trim();
  if (/^-?\d+$/.test(t)) return t;
  if (/^[A-Za-z_][A-Za-z0-9_ .\-]*$/.test(t) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(t)) return t;
  return JSON.stringify(t);
}

/** The step text for each kind of injection. */
export function stepText(kind, f) {
  switch (kind) {
    case "barrier": {
      const parts = [`epoch: ${Number(f.epoch)}`];
      if (f.mutation === "start") parts.push(`start_backfill: [${String(f.fragments || "").split(/[\s,]+/).filter(Boolean).join(", ")}]`);
      if (f.mutation === "rescale") parts.push("rescale: true");
      if (!f.checkpoint) parts.push("checkpoint: false");
      return parts.length === 1 ? `barrier: ${Number(f.epoch)}` : `barrier: {${parts.join(", ")}}`;
    }
    case "chunk": {
      const lines = String(f.rows || "").split("\n").map((l) => l.trim()).filter(Boolean);
      return `chunk: [${lines.map((l) => JSON.stringify(l)).join(", ")}]`;
    }
    case "watermark":
      return `watermark: {column: ${f.column}, value: ${yamlScalar(f.value)}}`;
    case "end":
      return "end";
    case "error":
      return `error: ${yamlScalar(f.message || "upstream failed")}`;
    case "recover":
      return "recover";
    default:
      return "";
  }
}

const KINDS = [
  ["barrier", "Barrier"], ["chunk", "Chunk"], ["watermark", "Watermark"],
  ["end", "Upstream end"], ["error", "Upstream error"], ["recover", "Recovery"],
];

const HINTS = {
  barrier: "Closes the epoch: drains builders, marks buffered chunks, commits, persists progress.",
  chunk: "One row a line: OP then one value per column; OP is + - U- U+. Wrap a row in ( ) to make it invisible.",
  watermark: "Dropped while buffering and backfilling, forwarded afterwards.",
  end: "The upstream stream ends. What that means depends on the phase.",
  error: "The upstream yields an error with this message.",
  recover: "The job restarts from the last checkpoint barrier.",
};

/**
 * createInject(dialog, {getView, apply(text) → Promise}) → {open(kind?)}
 */
export function createInject(dialog, { getView, apply }) {
  function open(kind = "barrier") {
    const v = getView();
    if (!v) return;
    const cfg = v.config || {};
    const cols = (cfg.columns || []).map((c) => c.name);
    const f = {
      epoch: (v.epoch || 0) + 1, mutation: "none", fragments: String(cfg.fragment ?? 1), checkpoint: true,
      rows: "", column: (cfg.locality && cfg.locality[0]) || cols[0] || "a", value: "", message: "upstream actor panicked",
    };
    let current = kind;
    const body = h("div", { class: "inject-fields" });
    const preview = h("code", { class: "preview", "data-testid": "inject-preview" });
    const err = h("p", { class: "form-error", role: "alert", "data-testid": "inject-error", hidden: true });
    const tabs = h("div", { class: "seg", role: "radiogroup", "aria-label": "what to inject" });
    const submit = h("button", { type: "submit", class: "btn primary" }, "Apply");

    function field(label, input, hint) {
      const id = "inj-" + Math.random().toString(36).slice(2, 8);
      input.id = id;
      return h("div", { class: "field" }, h("label", { for: id }, label), input, hint ? h("small", null, hint) : null);
    }
    function bind(input, name, prop = "value") {
      input.addEventListener("input", () => { f[name] = input[prop]; refresh(); });
      input.addEventListener("change", () => { f[name] = input[prop]; refresh(); });
      return input;
    }
    function refresh() {
      fill(preview, stepText(current, f));
      err.hidden = true;
    }
    function renderFields() {
      const parts = [h("p", { class: "hint" }, HINTS[current])];
      if (current === "barrier") {
        parts.push(field("Epoch", bind(h("input", { type: "number", min: "1", value: f.epoch, inputmode: "numeric" }), "epoch")));
        const mut = h("fieldset", { class: "radios" }, h("legend", null, "Mutation"));
        for (const [val, lab] of [["none", "none"], ["start", "StartFragmentBackfill"], ["rescale", "rescale (this actor)"]]) {
          const r = h("input", { type: "radio", name: "inj-mut", value: val, checked: f.mutation === val });
          r.addEventListener("change", () => { if (r.checked) { f.mutation = val; renderFields(); } });
          mut.append(h("label", { class: "radio" }, r, " " + lab));
        }
        parts.push(mut);
        if (f.mutation === "start") parts.push(field("Fragment ids", bind(h("input", { type: "text", value: f.fragments }), "fragments"), `this actor's fragment is ${cfg.fragment ?? 1}`));
        const cb = h("input", { type: "checkbox", checked: f.checkpoint });
        cb.addEventListener("change", () => { f.checkpoint = cb.checked; refresh(); });
        parts.push(h("label", { class: "check" }, cb, " checkpoint (durable)"));
      } else if (current === "chunk") {
        parts.push(field("Rows", bind(h("textarea", { rows: "4", spellcheck: "false", placeholder: `+ ${cols.map((c, i) => (i === 0 ? 5 : 104 + i)).join(" ")}` }), "rows"),
          `columns: ${cols.join(", ")}`));
      } else if (current === "watermark") {
        const sel = h("select", null, cols.map((c) => h("option", { value: c, selected: c === f.column }, c)));
        parts.push(field("Column", bind(sel, "column")));
        parts.push(field("Value", bind(h("input", { type: "text", value: f.value, placeholder: "7" }), "value")));
      } else if (current === "error") {
        parts.push(field("Message", bind(h("input", { type: "text", value: f.message }), "message")));
      }
      fill(body, parts);
      for (const b of tabs.children) b.setAttribute("aria-checked", String(b.dataset.kind === current));
      refresh();
    }
    for (const [k, lab] of KINDS) {
      tabs.append(h("button", {
        type: "button", role: "radio", class: "seg-btn", "data-kind": k, "aria-checked": String(k === current),
        onclick: () => { current = k; renderFields(); },
      }, lab));
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
      const text = stepText(current, f);
      if (current === "chunk" && !String(f.rows).trim()) {
        fill(err, "Write at least one row, e.g. + 5 104");
        err.hidden = false;
        return;
      }
      submit.disabled = true;
      try {
        await apply(text);
        dialog.close();
      } catch (e) {
        fill(err, e && e.message ? e.message : String(e));
        err.hidden = false;
      } finally {
        submit.disabled = false;
      }
    });
    renderFields();
    fill(dialog, form);
    dialog.showModal();
    const firstInput = body.querySelector("input, textarea, select");
    (firstInput || tabs.querySelector('[aria-checked="true"]'))?.focus();
  }
  return { open };
}
