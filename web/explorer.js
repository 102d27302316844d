// explorer.js — "Explore all interleavings" for the open scenario: the engine's explore report
// (schedules, distinct states, outcomes, whether the invariant held in every schedule) and one
// entry per outcome, which can be opened as a timeline or compared with this run.
// The exploration runs in a Web Worker (web/explore-worker.js, a module worker with a second
// engine), so the page never freezes; Cancel terminates it, and a worker that is terminated or
// fails never reports to the page afterwards. The offline single file cannot start one (no wasm
// to fetch), so there it runs on the page's thread after a frame, and says so.
import { h, fill } from "./dom.js";
import { chipList } from "./chips.js";

const DEFAULT_BOUND = 100000;

function closeBtn(dialog) {
  return h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×");
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const fmtN = (n) => Number(n ?? 0).toLocaleString("en-US");

/**
 * createExplorer(dialog, {explainer, openExample(text), compareWith(text, label)}) → {open()}
 */
export function createExplorer(dialog, { explainer, openExample, compareWith }) {
  const inline = typeof globalThis.__backfillWasmBase64 === "string" && globalThis.__backfillWasmBase64.length > 0;
  let worker = null; // {w, reject} of the running worker
  let running = false;
  let runId = 0;

  const bound = h("input", {
    type: "number", id: "explore-bound", min: "1", step: "1", value: String(DEFAULT_BOUND),
    inputmode: "numeric", "data-testid": "explore-bound", "aria-describedby": "explore-bound-help",
  });
  const goBtn = h("button", { type: "submit", class: "btn primary", "data-testid": "explore-run" }, "Explore all interleavings");
  const cancelBtn = h("button", { type: "button", class: "btn", "data-testid": "explore-cancel", onclick: () => cancel() }, "Cancel");
  const status = h("div", { class: "explore-status", role: "status", "aria-live": "polite", "data-testid": "explore-status" });
  const report = h("div", { class: "explore-report", "data-testid": "explore-report" });
  const form = h("form", { class: "explore-form", onsubmit: (ev) => { ev.preventDefault(); start(); } },
    h("div", { class: "field" },
      h("label", { for: "explore-bound" }, "Bound: distinct states at most"),
      h("div", { class: "explore-row" }, bound, goBtn),
      h("small", { id: "explore-bound-help" }, "The search stops there and says the report is capped.")));

  fill(dialog,
    h("div", { class: "dlg-head" }, h("h2", { id: "explorer-title" }, "Explore all interleavings"), closeBtn(dialog)),
    h("div", { class: "help-body explore-body" },
      h("p", null, "Every order in which this scenario's upstream messages and snapshot deliveries can interleave, equal states explored once. ",
        "Each outcome is a different end state; the invariant is checked at every barrier of every schedule."),
      inline ? h("p", { class: "note" }, "This offline file cannot start a worker, so the search runs on the page itself: the page will not respond until it finishes.") : null,
      form, status, report));

  function setRunning(on, text) {
    running = on;
    goBtn.disabled = on;
    bound.disabled = on;
    if (on) {
      fill(status, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", null, text), cancelBtn);
      status.classList.add("busy");
    } else {
      status.classList.remove("busy");
    }
  }

  /** Stop the running worker for good: no message or error of it reaches the page any more. */
  function stopWorker() {
    if (!worker) return;
    const { w, reject } = worker;
    worker = null;
    w.onmessage = null;
    w.onerror = null;
    w.onmessageerror = null;
    w.terminate();
    reject(new Error("cancelled"));
  }

  function cancel() {
    runId++;
    stopWorker();
    setRunning(false);
    fill(status, h("span", { class: "muted" }, "Cancelled."));
  }

  async function start() {
    if (running) return;
    const n = Math.max(1, Math.trunc(Number(bound.value) || DEFAULT_BOUND));
    const id = ++runId;
    fill(report);
    let result;
    try {
      if (inline) {
        setRunning(true, " Exploring on the page (offline file: no worker)…");
        cancelBtn.hidden = true;
        await nextFrame();
        result = await explainer.explore(n);
      } else {
        cancelBtn.hidden = false;
        setRunning(true, " Exploring in the background…");
        const { scenario } = await explainer.export();
        if (id !== runId) return; // cancelled meanwhile
        result = await inWorker(scenario, n);
      }
    } catch (e) {
      if (id !== runId) return;
      setRunning(false);
      fill(status, h("p", { class: "form-error", role: "alert" }, e && e.message ? e.message : String(e)));
      return;
    }
    if (id !== runId) return;
    setRunning(false);
    fill(status);
    render(result);
  }

  function inWorker(scenario, n) {
    stopWorker();
    return new Promise((resolve, reject) => {
      const w = new Worker(new URL("web/explore-worker.js", document.baseURI).href, { type: "module" });
      worker = { w, reject };
      const done = () => { if (worker && worker.w === w) worker = null; w.onmessage = w.onerror = null; w.terminate(); };
      w.onmessage = (ev) => {
        done();
        const d = ev.data || {};
        if ("error" in d) reject(new Error(d.error)); else resolve(d.ok);
      };
      w.onerror = (ev) => {
        ev.preventDefault(); // reported here, not as an uncaught error of the page
        done();
        reject(new Error("the explorer's worker failed" + (ev.message ? ": " + ev.message : "")));
      };
      w.postMessage({ scenario, maxStates: n });
    });
  }

  function render(r) {
    const outcomes = r.outcomes || [];
    const violated = outcomes.filter((o) => o.violated).length;
    const held = !!r.invariant_held;
    fill(report,
      h("div", { class: ["explore-verdict", held ? "ok" : "bad"], "data-testid": "explore-verdict" },
        h("span", { class: "glyph", "aria-hidden": "true" }, held ? "✓" : "✗"),
        h("strong", null, held ? "Invariant held in every schedule" + (r.capped ? " explored" : "") : `Invariant VIOLATED in ${violated} outcome${violated === 1 ? "" : "s"}`),
        held && r.capped ? h("span", null, " (not every schedule: the search stopped early)") : null),
      h("dl", { class: "explore-stats", "data-testid": "explore-stats" },
        h("div", null, h("dt", null, "schedules explored"), h("dd", null, fmtN(r.schedules))),
        h("div", null, h("dt", null, "distinct states"), h("dd", null, fmtN(r.states))),
        h("div", null, h("dt", null, "outcomes"), h("dd", null, fmtN(outcomes.length))),
        h("div", null, h("dt", null, "complete?"), h("dd", { "data-testid": "explore-capped" },
          r.capped ? `no — ${r.stopped || "capped at the bound"}.${/memory/.test(r.stopped || "") ? "" : " Raise the bound to see every schedule."}` : "yes, not capped"))),
      outcomes.length ? h("h3", null, "Outcomes") : null,
      h("ol", { class: "outcomes", "data-testid": "explore-outcomes" }, outcomes.map((o, i) => outcome(o, i))));
  }

  function outcome(o, i) {
    const inv = o.invariant || {};
    return h("li", { class: ["outcome", o.violated ? "bad" : "ok"], "data-testid": "explore-outcome" },
      h("div", { class: "outcome-head" },
        h("span", { class: "glyph", "aria-hidden": "true" }, o.violated ? "✗" : "✓"),
        h("strong", null, `Outcome ${i + 1}`),
        h("span", { class: "sr-only" }, o.violated ? "invariant violated" : "invariant holds"),
        h("span", { class: "tag" }, `${fmtN(o.schedules)} schedule${o.schedules === 1 ? "" : "s"}`),
        h("span", { class: "tag" }, "ends " + (o.phase || "?"))),
      o.error ? h("p", { class: "errtext" }, "⚠ ", typeof o.error === "object" ? (o.error.message ?? "") : String(o.error)) : null,
      inv.text ? h("p", { class: "inv-text" }, inv.text) : null,
      h("div", { class: "outcome-ds" }, h("span", { class: "k" }, "downstream "), chipList(o.downstream || [], { empty: "nothing" })),
      o.example ? h("div", { class: "outcome-actions" },
        h("button", { type: "button", class: "btn small", "data-testid": "outcome-open",
          onclick: () => { dialog.close(); openExample(o.example); } }, "Open as timeline"),
        h("button", { type: "button", class: "btn small", "data-testid": "outcome-compare",
          onclick: () => { dialog.close(); compareWith(o.example, `This run against one schedule of outcome ${i + 1}.`); } }, "Compare with this run")) : null);
  }

  return {
    open() {
      if (!dialog.open) dialog.showModal();
      (running ? cancelBtn : goBtn).focus();
    },
    get running() { return running; },
  };
}
