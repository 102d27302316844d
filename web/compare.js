// compare.js — two runs side by side, aligned by step: the engine's compareBug / compareText
// report as a table. Rows where the outputs, the progress or downstream differ carry a "≠" marker
// (and a tint); the downstream rows only one side holds are listed. The engine decides every
// difference; this only lays it out.
import { h, fill } from "./dom.js";
import { rowChip } from "./chips.js";

function closeBtn(dialog) {
  return h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×");
}

function invariantMark(status) {
  if (status === "holds") return h("span", { class: "inv-mark ok" }, h("span", { "aria-hidden": "true" }, "✓ "), "holds");
  if (status === "violated") return h("span", { class: "inv-mark bad" }, h("span", { "aria-hidden": "true" }, "✗ "), "violated");
  return h("span", { class: "inv-mark muted" }, status || "unchecked");
}

function lines(list, cls) {
  if (!list || !list.length) return h("span", { class: "muted" }, "—");
  return h("ul", { class: ["cmp-lines", cls] }, list.map((x) => h("li", null, x)));
}

function rowsList(label, rows, cls) {
  if (!rows || !rows.length) return null;
  return h("div", { class: ["cmp-only", cls] }, h("span", { class: "cmp-only-k" }, label),
    h("span", { class: "chips" }, rows.map((r) => rowChip(r))));
}

/**
 * createCompare(dialog, {explainer, getView, getBugs}) → {openBug(name?), openText(text, label)}
 */
export function createCompare(dialog, { explainer, getView, getBugs }) {
  const body = h("div", { class: "cmp-body", "data-testid": "compare-body" });
  const controls = h("div", { class: "cmp-controls" });

  function shell(title) {
    fill(dialog,
      h("div", { class: "dlg-head" }, h("h2", { id: "compare-title" }, title), closeBtn(dialog)),
      controls, body);
    if (!dialog.open) dialog.showModal();
  }

  function showError(msg) {
    fill(body, h("p", { class: "form-error", role: "alert" }, msg));
  }

  function render(cmp) {
    const rows = cmp.rows || [];
    const L = cmp.left || "left", R = cmp.right || "right";
    const differing = rows.filter((r) => r.outputs_differ || r.progress_differs || r.downstream_differs);
    const last = rows[rows.length - 1];
    const summary = h("div", { class: "cmp-summary", "data-testid": "compare-summary" },
      h("p", null, differing.length
        ? [h("strong", null, h("span", { "aria-hidden": "true" }, "≠ "), `${differing.length} of ${rows.length} steps differ`), " (marked ≠ below)."]
        : [h("strong", null, "The two runs agree at every step"), ` (${rows.length} steps).`]),
      last ? h("dl", { class: "cmp-end" },
        h("dt", null, L), h("dd", null, "at the end: ", invariantMark(last.left?.invariant), ", downstream holds ", String(last.left?.downstream ?? 0), " rows", last.left?.error ? [" · ", h("span", { class: "errtext" }, last.left.error)] : null),
        h("dt", null, R), h("dd", null, "at the end: ", invariantMark(last.right?.invariant), ", downstream holds ", String(last.right?.downstream ?? 0), " rows", last.right?.error ? [" · ", h("span", { class: "errtext" }, last.right.error)] : null)) : null,
      last ? rowsList(`only ${L}:`, last.only_left, "left") : null,
      last ? rowsList(`only ${R}:`, last.only_right, "right") : null);

    const table = h("table", { class: "cmp-table" },
      h("caption", { class: "sr-only" }, `${L} and ${R}, step by step`),
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, "step"),
        h("th", { scope: "col" }, "outputs: ", h("span", { class: "side-l" }, L)),
        h("th", { scope: "col" }, "outputs: ", h("span", { class: "side-r" }, R)),
        h("th", { scope: "col" }, "progress"),
        h("th", { scope: "col" }, "downstream"),
        h("th", { scope: "col" }, "invariant"))),
      h("tbody", null, rows.map((r) => {
        const differs = [r.outputs_differ && "outputs", r.progress_differs && "progress", r.downstream_differs && "downstream"].filter(Boolean);
        const l = r.left || {}, rt = r.right || {};
        const sameStep = l.step === rt.step;
        return h("tr", { class: ["cmp-row", differs.length && "differs"], "data-step": r.step, "data-differs": differs.join(" ") || null },
          h("th", { scope: "row", class: "cmp-step" },
            differs.length ? h("span", { class: "diff-mark", title: "differs: " + differs.join(", ") }, "≠") : null,
            differs.length ? h("span", { class: "sr-only" }, "differs in " + differs.join(", ") + ": ") : null,
            h("span", { class: "cmp-n" }, String(r.step)), " ",
            h("span", { class: "cmp-what" }, sameStep ? (l.step ?? "") : `${l.step ?? "—"} / ${rt.step ?? "—"}`)),
          h("td", { class: ["cmp-out", r.outputs_differ && "d"] }, lines(l.outputs)),
          h("td", { class: ["cmp-out", r.outputs_differ && "d"] }, lines(rt.outputs)),
          h("td", { class: ["cmp-prog", r.progress_differs && "d"] }, r.progress_differs
            ? [h("div", { class: "side-l" }, lines(l.progress)), h("div", { class: "side-r" }, lines(rt.progress))]
            : lines(l.progress)),
          h("td", { class: ["cmp-ds", r.downstream_differs && "d"] },
            h("span", { class: "cmp-count" }, String(l.downstream ?? 0), r.downstream_differs || l.downstream !== rt.downstream ? " / " + String(rt.downstream ?? 0) : ""),
            rowsList(`only ${L}:`, r.only_left, "left"), rowsList(`only ${R}:`, r.only_right, "right")),
          h("td", { class: "cmp-inv" }, invariantMark(l.invariant),
            l.invariant !== rt.invariant ? [h("span", { class: "muted" }, " / "), invariantMark(rt.invariant)] : null));
      })));
    fill(body, summary,
      h("p", { class: "cmp-legend muted" }, `Left: ${L}. Right: ${R}. Counts read left / right where they differ.`),
      h("div", { class: "cmp-scroll", tabindex: "0", role: "region", "aria-label": "the two runs, step by step", "data-testid": "compare-table" }, table));
  }

  async function runBug(name) {
    fill(body, h("p", { class: "muted", role: "status" }, "Comparing…"));
    try { render(await explainer.compareBug(name)); } catch (e) { showError(e && e.message ? e.message : String(e)); }
  }

  return {
    /** Compare the open run with the same script under bug mode `name` (or without it, when it is on). */
    async openBug(name) {
      const bugs = getBugs() || [];
      const on = getView()?.bug?.name || null;
      const pick = name || on || bugs[0]?.name;
      const sel = h("select", { id: "compare-bug", "data-testid": "compare-bug-select" },
        bugs.map((b) => h("option", { value: b.name }, b.name + (b.name === on ? " (on now: compare without it)" : ""))));
      sel.value = pick || "";
      sel.addEventListener("change", () => runBug(sel.value));
      fill(controls, h("label", { class: "cmp-pick", for: "compare-bug" }, "This run against bug mode "), sel);
      shell("Compare with bug mode");
      if (pick) await runBug(pick);
    },
    /** Compare the open run with another run of the same scenario (a scenario text). */
    async openText(text, label) {
      fill(controls, h("p", { class: "muted cmp-pick" }, label || "This run against another run of the same scenario."));
      shell("Compare two runs");
      fill(body, h("p", { class: "muted", role: "status" }, "Comparing…"));
      try { render(await explainer.compareText(text)); } catch (e) { showError(e && e.message ? e.message : String(e)); }
    },
  };
}
