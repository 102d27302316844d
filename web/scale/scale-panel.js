// scale-panel.js — the Scale panel: a backfill at production size. A built-in workload (or a
// pasted one) is run by explainer.scale (scale-run.js: in a Web Worker, or on the page in the
// offline file) with a progress bar and Cancel; its scale summary is then drawn by
// scale-charts.js (loaded, with uPlot, only when the first summary arrives). Every number shown
// is the engine's summary: the panel computes nothing about the protocol.
import { h, fill } from "../ui/dom.js";
import { bounded } from "../ui/bound.js";

const fmtN = (n) => Number(n ?? 0).toLocaleString("en-US");
const CUSTOM = ""; // the picker's value for a pasted workload

function closeBtn(dialog) {
  return h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×");
}

/**
 * createScalePanel(dialog, {explainer, internal}) → {open(), run(), charts()}
 * The dialog holds the whole panel; its "Scale…" button is the page's (app.js makes it, and
 * loads this module when it is first pressed).
 */
export function createScalePanel(dialog, { explainer, internal }) {
  let list = null;         // the built-in workloads, once asked
  let abort = null;        // the AbortController of the run in progress
  const ui = buildScalePanel(dialog, { run: () => run(), cancel: () => cancel() });
  const { picker, textArea, fileBox, status, errorBox } = ui;
  const summaryView = createSummaryView(ui.result);

  picker.addEventListener("change", () => choose(picker.value));
  textArea.addEventListener("input", () => {
    if (picker.value !== CUSTOM) picker.value = CUSTOM;
    clearError();
  });
  dialog.addEventListener("close", () => { if (abort) cancel(); });

  async function open() {
    if (!dialog.open) dialog.showModal();
    internal.prewarmScale?.(); // the worker boots its engine while the reader chooses
    if (list) return;
    try {
      list = (await explainer.workloads()) || [];
    } catch (e) {
      list = [];
      showError(e);
    }
    fill(picker,
      list.map((w) => h("option", { value: w.name, title: firstLine(w.summary) }, w.title || w.name)),
      h("option", { value: CUSTOM }, "Paste your own…"));
    if (list.length) await choose(list[0].name);
  }

  async function choose(name) {
    clearError();
    if (name === CUSTOM) {
      fileBox.open = true;
      textArea.focus();
      return;
    }
    picker.value = name;
    try {
      textArea.value = await internal.workloadText(name);
    } catch (e) {
      showError(e);
    }
  }

  function cancel() {
    abort?.abort();
  }

  /** run() → the summary, or null if the run failed or was cancelled */
  async function run() {
    if (abort) return null;
    clearError();
    const ctl = new AbortController();
    abort = ctl;
    setRunning(ui, dialog, true);
    const progress = (done, total) => showProgress(ui, done, total);
    progress(0, 1);
    fill(status, h("span", { class: "spinner", "aria-hidden": "true" }), " Running the workload…");
    let summary = null;
    try {
      summary = await explainer.scale(textArea.value, { onProgress: progress, signal: ctl.signal });
    } catch (e) {
      if (e && e.name === "AbortError") fill(status, h("span", { class: "muted" }, "Cancelled."));
      else { fill(status); summaryView.clear(); showError(e); } // (the last run's charts would read as this one's)
    } finally {
      if (abort === ctl) abort = null;
      setRunning(ui, dialog, false);
    }
    if (!summary) return null;
    fill(status);
    await summaryView.show(summary, internal.lastScale?.());
    return summary;
  }

  function clearError() {
    errorBox.hidden = true;
    fill(errorBox);
  }

  function showError(e) {
    fill(errorBox, errorParts(e, textArea, fileBox));
    errorBox.hidden = false;
  }

  return { open, run, cancel, charts: () => summaryView.charts() };
}

function inlineEngine() {
  return typeof globalThis.__backfillWasmBase64 === "string" && globalThis.__backfillWasmBase64.length > 0;
}

/** buildScalePanel(dialog, {run(), cancel()}) → the panel's parts, drawn in the dialog. */
function buildScalePanel(dialog, { run, cancel }) {
  const picker = h("select", { id: "scale-workload", "data-testid": "scale-workload" }, h("option", { value: CUSTOM }, "loading…"));
  const textArea = h("textarea", {
    id: "scale-text", "data-testid": "scale-text", rows: "12", spellcheck: "false", autocomplete: "off",
    "aria-describedby": "scale-text-help",
  });
  const fileBox = h("details", { class: "scale-file", "data-testid": "scale-file" },
    h("summary", null, "Workload file"),
    h("div", { class: "field" },
      h("label", { for: "scale-text" }, "Workload (scenario file with a workload: block)"),
      textArea,
      h("small", { id: "scale-text-help" }, "Edit it, or paste your own: the same format as backfill run accepts.")));
  const runBtn = h("button", { type: "submit", class: "btn primary", "data-testid": "scale-run" }, "Run");
  const cancelBtn = h("button", { type: "button", class: "btn", "data-testid": "scale-cancel", hidden: true, onclick: () => cancel() }, "Cancel");
  const bar = h("progress", { class: "scale-bar", max: "1", value: "0", "data-testid": "scale-progress", "aria-label": "Progress of the workload's run" });
  const barText = h("span", { class: "scale-bar-text" });
  const status = h("div", { class: "scale-status", role: "status", "aria-live": "polite", "data-testid": "scale-status" });
  const errorBox = h("div", { class: "scale-error", "data-testid": "scale-error", hidden: true });
  const result = h("div", { class: "scale-result", "data-testid": "scale-result" });
  const where = inlineEngine()
    ? "This offline file cannot start a worker, so the run goes on the page itself, pausing every few milliseconds so the page can repaint and Cancel works."
    : "The run goes on in a background worker with an engine of its own: the page stays responsive.";

  const form = h("form", { class: "scale-form", onsubmit: (ev) => { ev.preventDefault(); run(); } },
    h("div", { class: "field" },
      h("label", { for: "scale-workload" }, "Workload"),
      h("div", { class: "scale-row" }, picker, runBtn, cancelBtn)),
    fileBox);

  fill(dialog,
    h("div", { class: "dlg-head" }, h("h2", { id: "scale-title" }, "Scale: a backfill at production size"), closeBtn(dialog)),
    h("div", { class: "help-body scale-body" },
      h("p", null, "The engine generates a workload's messages from its seed (same file, same run, on every machine), runs them to the end with narration off, ",
        "and checks the invariant at every barrier. The charts show the summary it returns: one point per barrier."),
      h("p", { class: "muted" }, where),
      form,
      h("div", { class: "scale-progress", hidden: true, "data-testid": "scale-progress-row" }, bar, barText),
      status, errorBox, result));
  return { picker, textArea, fileBox, runBtn, cancelBtn, bar, barText, status, errorBox, result };
}

function setRunning({ runBtn, picker, textArea, cancelBtn, bar }, dialog, on) {
  runBtn.disabled = on;
  picker.disabled = on;
  textArea.readOnly = on;
  cancelBtn.hidden = !on;
  bar.parentElement.hidden = !on;
  dialog.classList.toggle("scale-running", on);
}

function showProgress({ bar, barText }, done, total) {
  bar.max = Math.max(1, total);
  bar.value = Math.min(done, total);
  barText.textContent = total > 0 ? `${Math.floor((100 * done) / total)}%` : "";
}

/** errorParts(e, textArea, fileBox): the error's message and, when it names a line, that line with a caret under its column (selected in the text). */
function errorParts(e, textArea, fileBox) {
  const msg = bounded(e && e.message ? e.message : String(e));
  const parts = [h("p", { class: "form-error", role: "alert", "data-testid": "scale-error-message" }, msg)];
  if (Number.isInteger(e?.line)) {
    const lines = textArea.value.split("\n");
    const text = lines[e.line - 1];
    if (text !== undefined) {
      const col = Number.isInteger(e.column) ? e.column : 1;
      parts.push(h("pre", { class: "scale-error-line", "data-testid": "scale-error-line" },
        `${String(e.line).padStart(4)} | ${text}\n${" ".repeat(4)} | ${" ".repeat(Math.max(0, col - 1))}^`));
      fileBox.open = true;
      selectLine(textArea, lines, e.line);
    }
  }
  return parts;
}

function selectLine(textArea, lines, line) {
  let start = 0;
  for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
  try { textArea.setSelectionRange(start, start + lines[line - 1].length); } catch { /* hidden */ }
}

/** createSummaryView(result) → {show(summary, stats), clear(), charts()}: the summary's overview and its charts (scale-charts.js, loaded with the first). */
function createSummaryView(result) {
  let charts = null; // the drawn charts (scale-charts.js), or null
  let shown = null;  // the summary on screen
  return {
    async show(summary, stats) {
      shown = summary;
      charts?.destroy();
      charts = null;
      const head = h("div", { class: "scale-summary" });
      const box = h("div", { class: "scale-charts", "data-testid": "scale-charts" });
      fill(result, head, box);
      fill(head, overview(summary, stats));
      try {
        const { drawCharts } = await import("./scale-charts.js");
        if (shown !== summary) return; // another run replaced it meanwhile
        charts = drawCharts(box, summary);
      } catch (e) {
        fill(box, h("p", { class: "form-error", role: "alert" }, "The charts could not be drawn: ", e && e.message ? e.message : String(e)));
      }
    },
    clear() {
      charts?.destroy();
      charts = null;
      shown = null;
      fill(result);
    },
    charts: () => charts,
  };
}

function firstLine(s) {
  return String(s || "").replace(/[`*]/g, "").split("\n").map((x) => x.trim()).filter(Boolean)[0] || "";
}

/** The summary's headline numbers, as the engine gave them. */
function overview(s, stats) {
  const ok = s.invariant === "holds" && !s.error;
  const verdict = h("div", { class: ["explore-verdict", ok ? "ok" : "bad"], "data-testid": "scale-verdict" },
    h("span", { class: "glyph", "aria-hidden": "true" }, ok ? "✓" : "✗"),
    h("span", null, h("strong", null, s.title || "workload"), ": invariant ", h("strong", null, s.invariant),
      ", ends ", h("strong", null, s.phase), s.error ? [" with error ", h("code", null, s.error.message ?? String(s.error))] : null));
  const cell = (k, v, id) => h("div", id ? { "data-testid": id } : null, h("dt", null, k), h("dd", null, v));
  const stats1 = h("dl", { class: "explore-stats", "data-testid": "scale-stats" },
    cell("barriers", fmtN(s.epochs), "scale-epochs"),
    cell("rows", fmtN(s.rows)),
    cell("vnodes", fmtN(s.vnodes)),
    cell("downstream rows", [fmtN(s.downstream_rows), h("span", { class: "muted", "data-testid": "scale-downstream-why" }, " held at the end: the rows with the live changes applied")]),
    s.totals ? cell("visible / hidden", `${fmtN(s.totals.upstream_visible)} / ${fmtN(s.totals.upstream_hidden)}`) : null,
    stats ? cell(stats.where === "worker" ? "time (worker)" : "time (page)", `${(stats.ms / 1000).toFixed(2)} s`, "scale-time") : null,
    stats?.memoryBytes ? cell("engine memory", `${Math.round(stats.memoryBytes / 1048576)} MiB`) : null);
  const notes = [];
  if (s.violation) notes.push(h("p", { class: "form-error", "data-testid": "scale-violation" }, s.violation.text));
  // The command line's words for a recovery (cmd/backfill/scale.go, writeRecovery).
  const what = { end: "the upstream ends", error: "the upstream yields an error", recover: "the job recovers" };
  const missing = (s.violation?.missing ?? 0) > 0;
  for (const r of s.recoveries || []) {
    notes.push(h("p", { class: "note", "data-testid": "scale-recovery" },
      `e${r.epoch}: ${what[r.kind] || r.kind} instead of the barrier, while ${r.during}`,
      r.error ? ["; the executor fails: ", h("code", null, r.error.message)] : r.outcome === "ended" ? "; the executor's stream ends, with no error" : null,
      // (cmd/backfill/scale.go, writeRecovery, in the same words) a dropped job: the engine's
      // reason and short headline, nothing read again; "lost" only where rows are missing
      // downstream; otherwise the recovery replayed them
      r.dropped ? `. The recovery dropped the job (${r.drop_reason ?? ""}). ${r.drop_text ?? ""}`
      : missing ? `. Recovery to the checkpoint e${r.rolled_back_to}: lost ${fmtN(r.lost_builder_rows)} rows in the builders, `
        + `${fmtN(r.lost_buffered_rows)} in the upstream buffer, ${fmtN(r.lost_emitted_rows)} emitted since the checkpoint.`
        : `. Recovery to the checkpoint e${r.rolled_back_to}: ${fmtN(r.lost_builder_rows)} rows in the builders and `
        + `${fmtN(r.lost_buffered_rows)} in the upstream buffer discarded until recovery, ${fmtN(r.lost_emitted_rows)} emitted since the checkpoint rolled back downstream; `
        + "the recovery reads, delivers and emits them again: no row is lost."));
  }
  return [verdict, stats1, notes];
}
