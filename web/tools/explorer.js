// explorer.js — "Explore all interleavings" for the open scenario: the engine's explore report
// (schedules, distinct states, outcomes, whether the invariant held in every schedule) and one
// entry per outcome, which can be opened as a timeline or compared with this run.
// The exploration runs in a Web Worker (web/tools/explore-worker.js, a module worker with a second
// engine), so the page never freezes; Cancel terminates it, and a worker that is terminated or
// fails never reports to the page afterwards. The worker starts when the dialog opens (its engine
// boots while the reader sets the bound) from the page's compiled module (posted to it: it neither
// fetches nor compiles the wasm again), and a worker that finished a run is kept for the next one
// while the dialog stays open. The offline single file cannot start one (no wasm to fetch), so
// there it runs on the page's thread after a frame, and says so.
import { h, fill } from "../ui/dom.js";
import { chipList } from "../stage/chips.js";

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
  const workers = createExploreWorkers(dialog, inline);
  let running = false;
  let runId = 0;
  const ui = buildExplorer(dialog, inline, { start: () => start(), cancel: () => cancel() });
  const { bound, goBtn, cancelBtn, status, report } = ui;

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

  function cancel() {
    runId++;
    workers.stop();
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
        result = await workers.run(scenario, n);
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
    renderReport(report, result, n, { dialog, openExample, compareWith });
  }

  return {
    open() {
      if (!dialog.open) dialog.showModal();
      workers.prewarm(); // the worker boots its engine while the reader sets the bound
      (running ? cancelBtn : goBtn).focus();
    },
    get running() { return running; },
  };
}

/** buildExplorer(dialog, inline, {start(), cancel()}) → {bound, goBtn, cancelBtn, status, report}: the dialog's parts, drawn. */
function buildExplorer(dialog, inline, { start, cancel }) {
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
      h("label", { for: "explore-bound" }, "Stop after this many distinct states"),
      h("div", { class: "explore-row" }, bound, goBtn),
      h("small", { id: "explore-bound-help" }, "The search stops there and says the report is capped.")));

  fill(dialog,
    h("div", { class: "dlg-head" }, h("h2", { id: "explorer-title" }, "Explore all interleavings"), closeBtn(dialog)),
    h("div", { class: "help-body explore-body" },
      h("p", null, "Every order in which this scenario's upstream messages and snapshot deliveries can interleave, equal states explored once. ",
        "Each outcome is a different end state; the invariant is checked at every barrier of every schedule."),
      inline ? h("p", { class: "note" }, "This offline file cannot start a worker, so the search runs on the page itself: the page will not respond until it finishes.") : null,
      form, status, report));
  return { bound, goBtn, cancelBtn, status, report };
}

/**
 * createExploreWorkers(dialog, inline) → {prewarm(), run(scenario, n), stop()}: the explorer's
 * worker. prewarm starts one ahead of a run (the dialog opened), kept as the spare; run uses
 * the spare (or a new one) and keeps it for the next run while the dialog is open; stop ends
 * the running one for good. A closed explorer gives its spare worker's memory back.
 */
function createExploreWorkers(dialog, inline) {
  let worker = null; // {w, reject} of the running worker
  let spare = null;  // a started worker waiting for a run (the dialog is open)
  // The page's compiled engine, for the worker to instantiate (null: none, it compiles its own).
  const compiled = Promise.resolve(globalThis.__backfillWasmModule).then((m) => (m instanceof WebAssembly.Module ? m : null), () => null);
  // (the page's compile has finished by the time the explorer opens; messages keep their order)
  const post = (w, msg) => compiled.then((m) => w.postMessage(m ? { ...msg, module: m } : msg));
  const spawn = () => new Worker(new URL("web/tools/explore-worker.js", document.baseURI).href, { type: "module" });

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

  /** Start a worker ahead of a run (the dialog opened); it waits as the spare. */
  function prewarm() {
    if (inline || spare || worker) return;
    const w = spawn();
    keepSpare(w);
    post(w, { warm: true });
  }

  function keepSpare(w) {
    spare = w;
    w.onmessage = null;
    // a worker that cannot start is dropped; the run makes another
    w.onerror = (ev) => { ev.preventDefault(); if (spare === w) dropSpare(); };
  }

  function dropSpare() {
    if (!spare) return;
    const w = spare;
    spare = null;
    w.onmessage = w.onerror = w.onmessageerror = null;
    w.terminate();
  }

  function inWorker(scenario, n) {
    stopWorker();
    return new Promise((resolve, reject) => {
      const w = spare || spawn();
      spare = null;
      worker = { w, reject };
      const release = () => { if (worker && worker.w === w) worker = null; w.onmessage = w.onerror = null; };
      const done = () => { release(); w.terminate(); };
      w.onmessage = (ev) => {
        const d = ev.data || {};
        if ("error" in d) { done(); reject(new Error(d.error)); return; }
        release();
        if (dialog.open && !spare) keepSpare(w); else w.terminate(); // kept for the next run
        resolve(d.ok);
      };
      w.onerror = (ev) => {
        ev.preventDefault(); // reported here, not as an uncaught error of the page
        done();
        reject(new Error("the explorer's worker failed" + (ev.message ? ": " + ev.message : "")));
      };
      post(w, { scenario, maxStates: n });
    });
  }

  dialog.addEventListener("close", () => dropSpare());
  return { prewarm, run: inWorker, stop: stopWorker };
}

/**
 * renderReport(report, r, bound, opts): the report as the engine gives it: the counts shown are
 * the report's own, and the outcomes listed are all of them (the stats count exactly these
 * rows). A capped search says, before anything else, that it is not exhaustive, and which of
 * its "outcomes" are schedules it left on the way (the engine's diff.finished).
 */
function renderReport(report, r, bound, opts) {
  const outcomes = r.outcomes || [];
  const violated = outcomes.filter((o) => o.violated).length;
  const unfinished = outcomes.filter((o) => o.diff && !o.diff.finished).length;
  const capped = !!r.capped;
  const held = !!r.invariant_held;
  const verdict = held
    ? (capped ? "Invariant held in every schedule explored (not every schedule: see below)" : "Invariant held in every schedule")
    : `Invariant VIOLATED in ${violated} of the ${fmtN(outcomes.length)} outcome${outcomes.length === 1 ? "" : "s"}${capped ? " found so far" : ""}`;
  fill(report,
    h("div", { class: ["explore-verdict", held ? "ok" : "bad"], "data-testid": "explore-verdict" },
      h("span", { class: "glyph", "aria-hidden": "true" }, held ? "✓" : "✗"),
      h("strong", null, verdict)),
    capped ? h("p", { class: "explore-capped", role: "note", "data-testid": "explore-not-exhaustive" },
      h("strong", null, "Not exhaustive. "),
      r.stopped ? `The search ${r.stopped}. ` : `The search stopped at the bound of ${fmtN(bound)} distinct states: the counts are those of the schedules it explored, and other outcomes may exist. `,
      unfinished ? `${unfinished === 1 ? "One outcome below is a schedule" : `${unfinished} outcomes below are schedules`} it stopped on the way, not an end. ` : "",
      /memory/.test(r.stopped || "") ? "" : "Raise the bound to see every schedule.") : null,
    h("dl", { class: "explore-stats", "data-testid": "explore-stats" },
      h("div", null, h("dt", null, "schedules explored"), h("dd", { "data-testid": "explore-schedules" }, fmtN(r.schedules))),
      h("div", null, h("dt", null, "distinct states"), h("dd", null, fmtN(r.states))),
      h("div", null, h("dt", null, capped ? "outcomes found" : "outcomes"), h("dd", { "data-testid": "explore-count" }, fmtN(outcomes.length))),
      h("div", null, h("dt", null, "exhaustive?"), h("dd", { "data-testid": "explore-capped" },
        capped ? `no — ${r.stopped || "stopped at the bound"}` : "yes, every schedule"))),
    outcomes.length ? h("h3", null, capped ? "Outcomes found so far" : "Outcomes",
      h("span", { class: "muted explore-sub" }, " — each says how it differs from the outcome nearest to it")) : null,
    h("ol", { class: "outcomes", "data-testid": "explore-outcomes" }, outcomes.map((o, i) => outcomeItem(o, i, report, opts))));
}

/** outcomeItem(o, i, report, {dialog, openExample, compareWith}): one outcome, how it differs, and its buttons. */
function outcomeItem(o, i, report, { dialog, openExample, compareWith }) {
  const inv = o.invariant || {};
  const d = o.diff || {};
  const only = new Set((d.only_here || []).map((r) => JSON.stringify(r)));
  return h("li", { class: ["outcome", o.violated ? "bad" : "ok", d.finished === false && "unfinished"], "data-testid": "explore-outcome", id: `outcome-${i + 1}` },
    h("div", { class: "outcome-head" },
      h("span", { class: "glyph", "aria-hidden": "true" }, o.violated ? "✗" : "✓"),
      h("strong", null, `Outcome ${i + 1}`),
      h("span", { class: "sr-only" }, o.violated ? "invariant violated" : "invariant holds"),
      h("span", { class: "tag", "data-testid": "outcome-schedules" }, `${fmtN(o.schedules)} schedule${o.schedules === 1 ? "" : "s"}`),
      d.finished === false
        ? h("span", { class: "tag tag-warn", "data-testid": "outcome-unfinished" }, "unfinished: the search stopped here, in phase " + (o.phase || "?"))
        : h("span", { class: "tag", "data-testid": "outcome-phase" }, "ends " + (o.phase || "?"))),
    o.error ? h("p", { class: "errtext" }, "⚠ ", typeof o.error === "object" ? (o.error.message ?? "") : String(o.error)) : null,
    inv.text ? h("p", { class: "inv-text" }, inv.text) : null,
    d.positions && d.positions.length ? h("p", { class: "outcome-pos", "data-testid": "outcome-positions" },
      h("span", { class: "k" }, "positions "), d.positions.join(" · ")) : null,
    d.versus ? h("div", { class: "outcome-diff", "data-testid": "outcome-diff" },
      h("span", { class: "k" }, "differs from ", h("a", { href: `#outcome-${d.versus}`, onclick: (ev) => { ev.preventDefault(); report.querySelector(`#outcome-${d.versus}`)?.scrollIntoView({ block: "nearest" }); } }, `outcome ${d.versus}`), ": "),
      h("ul", null, (d.differs || []).map((w) => h("li", null, w)))) : null,
    h("div", { class: "outcome-ds" }, h("span", { class: "k" }, "downstream "),
      chipList(o.downstream || [], { empty: "nothing", changed: (r) => only.has(JSON.stringify(r)) }),
      only.size ? h("span", { class: "muted" }, `(highlighted: only here, not in outcome ${d.versus})`) : null),
    o.example ? h("div", { class: "outcome-actions" },
      h("button", { type: "button", class: "btn small", "data-testid": "outcome-open",
        onclick: () => { dialog.close(); openExample(o.example); } }, "Open as timeline"),
      h("button", { type: "button", class: "btn small", "data-testid": "outcome-compare",
        onclick: () => { dialog.close(); compareWith(o.example, `This run against one schedule of outcome ${i + 1}.`); } }, "Compare with this run")) : null);
}
