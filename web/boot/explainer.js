// explainer.js — the page side of the wasm bridge: starts the page's engine (boot.js) and builds
// window.explainer on its one call, call(method, argJSON) → '{"ok": result}' | '{"error": {message,
// line, column}}' (synchronous; argJSON is the JSON of the method's one argument, "null" for none).
//
// A failed call rejects with an Error whose message is the engine's (a scenario error reads
// "line:column: message") and which carries .line and .column (null when the error has no place).
// Every method that changes the timeline dispatches the window event "explainer:change" with
// detail {view, method, arg}, so the page follows whoever drives the engine (page, tests, parent).
// If the Go runtime stops after starting, every later call rejects with a "stopped" error and
// the onStopped listeners are told (the page shows it with a reload button).
import { bootEngine, compileEngine, EXITED } from "./boot.js";
import { createStored } from "./stored.js";
import { isSpeakerWindow } from "../teach/speaker-link.js";

function engineError(e) {
  const err = new Error(String(e && e.message !== undefined ? e.message : e));
  err.line = e && Number.isInteger(e.line) ? e.line : null;
  err.column = e && Number.isInteger(e.column) ? e.column : null;
  return err;
}

// The methods whose answer is a view (docs/view.md).
const VIEWS = new Set(["open", "load", "step", "back", "goto", "apply", "bug", "release", "create", "view"]);

function makeExplainer() {
  let backend = null; // the engine, once it has taken over from the stored views
  let stopped = null; // the reason, once the runtime stopped
  const stopListeners = [];
  function stop(why) {
    if (stopped) return;
    stopped = why || "the Go runtime exited";
    for (const f of stopListeners) { try { f(stopped); } catch { /* a listener's problem */ } }
  }
  const base64 = globalThis.__backfillWasmBase64;
  const inline = typeof base64 === "string" && base64.length > 0;
  // A built-in's views before the engine: the stored ones (stored.js), fetched by start.js as
  // the page starts (the offline file: the plain visit's, inlined).
  const stored = typeof globalThis.__backfillViews !== "function" ? null : createStored({ fetchJSON: globalThis.__backfillViews });
  const url = new URL("web/explainer.wasm", document.baseURI).href;
  /** the page's compiled engine: start.js's (started with the page for a link that needs it), or now */
  const compiled = (priority) => (globalThis.__backfillWasmModule ??= compileEngine({ url, base64, priority }));
  let alias = null; // {engine, page}: the revision the engine took over as, and the one the page knows
  let booting = null;
  const mark = (name) => { try { performance.mark(name); } catch { /* no performance here */ } };
  // The engine, booted once: it takes over the stored views' run at the same scenario, release,
  // bug mode and step, in one task (its calls are synchronous), so no view comes between.
  const engine = (priority) => (booting ??= bootEngine({ url, base64, module: compiled(priority) }).then((b) => {
    b.exited.then(stop);
    takeOver(b);
    backend = b;
    mark("explainer:interactive");
  }));
  function takeOver(b) {
    const st = stored?.state();
    if (!st) return;
    // (the views on the way, of open, bug and release, are not read: only whether one failed)
    const answer = (raw, read) => {
      if (!read && raw.startsWith('{"ok":')) return null;
      const res = JSON.parse(raw);
      if (res.error) throw engineError(res.error);
      return res.ok;
    };
    const ask = (method, arg) => answer(b.call(method, arg === undefined ? "null" : JSON.stringify(arg)), true);
    const tell = (method, arg) => answer(b.call(method, JSON.stringify(arg)), false); // only whether it failed
    try {
      const opens = stored.opens(st.scenario);
      tell("open", st.scenario);
      if (st.bug !== opens.bug) tell("bug", st.bug);
      if (st.release !== opens.release) tell("release", st.release);
      alias = { engine: ask("goto", st.step).revision, page: st.revision };
    } catch (e) {
      console.error("the engine could not take over the stored views' run:", e); // (its next view shows what it has)
    }
  }
  // the page can answer: the stored views' index read (or else the engine started)
  const answering = stored ? stored.index().then(() => {}, () => engine()) : engine();
  answering.catch(() => {}); // the page shows a failed start itself

  function callSync(method, arg) {
    if (!backend) return stored.answer(method, arg);
    if (stopped) throw new Error(`the engine has stopped (${stopped}); reload the page`);
    let raw;
    try {
      raw = backend.call(method, arg === undefined ? "null" : JSON.stringify(arg));
    } catch (e) {
      const msg = e && e.message ? e.message : String(e);
      if (msg.includes(EXITED)) {
        stop(msg);
        throw new Error(`the engine has stopped (${msg}); reload the page`);
      }
      throw new Error(`${method}: the engine threw: ${msg}`);
    }
    let res;
    try {
      res = JSON.parse(raw);
    } catch {
      throw new Error(`${method}: the engine returned invalid JSON`);
    }
    if (res && res.error) throw engineError(res.error);
    // (the run taken over keeps the revision the page knew it by: a link made from it still fits)
    if (res && alias && VIEWS.has(method) && res.ok && res.ok.revision === alias.engine) res.ok.revision = alias.page;
    return res ? res.ok : undefined;
  }

  const DIAGNOSE_CHARS = 64 * 1024 + 1; // UTF-16 units: at least 64 KiB + 1 byte in UTF-8

  // A method the stored views answer is answered from them until the engine takes over; any
  // other loads the engine (once) and waits for it.
  async function call(method, arg) {
    if (!backend && stored && (stored.can(method, arg) || await stored.prepare(method, arg)) && !backend && stored.can(method, arg)) {
      return stored.answer(method, arg);
    }
    await engine();
    return callSync(method, arg);
  }

  // Scale mode: a workload runs in a worker of its own (on the page's engine in the offline file);
  // scale-run.js loads with the first run (or when the Scale panel opens).
  let scaleRunner = null; // the runner, once loaded
  let loadingRunner = null;
  const runner = () => (loadingRunner ??= import("../scale/scale-run.js").then(({ createScaleRunner }) => (scaleRunner = createScaleRunner({
    inline, callSync, ready: { then: (f, r) => engine().then(f, r) }, toError: engineError,
    workerURL: new URL("web/scale/scale-worker.js", document.baseURI).href,
    module: (engine().catch(() => {}), globalThis.__backfillWasmModule), // the worker instantiates the page's compiled engine
    memoryBytes: () => backend?.memoryBytes(),
  })), (e) => { loadingRunner = null; throw e; }));

  async function mutate(method, arg) {
    const view = await call(method, arg);
    window.dispatchEvent(new CustomEvent("explainer:change", { detail: { view, method, arg } }));
    return view;
  }

  // The public API (docs/scenario-format.md, and docs/view.md for the teaching methods).
  const explainer = {
    // the engine answers (asking for it loads the engine; a built-in is shown before, from its stored views)
    get ready() { return engine(); },
    scenarios: () => call("scenarios"),
    open: (name) => mutate("open", String(name)),
    load: (yamlText) => mutate("load", String(yamlText)),
    step: () => mutate("step"),
    back: () => mutate("back"),
    goto: (n) => mutate("goto", n),
    // apply takes scenario step text, or an Action (its `step` text is applied).
    apply: (action) => mutate("apply", typeof action === "object" && action ? String(action.step) : String(action)),
    steps: () => call("steps"),
    actions: () => call("actions"),
    state: () => call("state"),
    view: () => call("view"),
    bugs: () => call("bugs"),
    bug: (name) => mutate("bug", String(name || "none")),
    // release(name): the open scenario under a RisingWave release ("v3.0"), at the same step
    release: (name) => mutate("release", String(name)),
    // create(type): the open scenario with the job created in the "foreground" or the "background", at the same step
    create: (type) => mutate("create", String(type)),
    explore: (maxStates) => call("explore", maxStates ? Math.trunc(Number(maxStates)) : null),
    compareBug: (name) => call("compare_bug", String(name || "none")),
    compareText: (yamlText) => call("compare_text", String(yamlText)),
    // compare(left, right): two runs, each {bug?, text?, release?, create?} (docs/view.md); compareAt(n): both at step n
    compare: (left, right) => call("compare", { left: left || {}, right: right || {} }),
    compareAt: (n) => call("compare_at", Math.trunc(Number(n))),
    export: () => call("export"),
    // the readable trace of the whole run, as `backfill run` prints it (the engine writes it)
    text: () => call("text"),
    // scale(yamlText, {onProgress(done, total), signal, text}) → the scale summary (scale-run.js);
    // {text: true}: its JSON text, byte for byte what `backfill run --json` prints
    scale: (yamlText, options) => runner().then((r) => r.run(String(yamlText), options)),
    workloads: () => call("workloads"),
    lessons: () => call("lessons"),
    lesson: (name) => call("lesson", String(name)),
    lessonText: (yamlText) => call("lesson_text", String(yamlText)),
    // diagnose(text, release) → what an error message or log excerpt means (docs/protocol.md,
    // "Diagnosing an error"); release: "v2.7" … "v3.1", or "" for none. The engine reads at most
    // 64 KiB: a longer text is cut here a little past that, so the answer can say it was cut.
    diagnose: (text, release) => call("diagnose", { text: String(text ?? "").slice(0, DIAGNOSE_CHARS), release: String(release || "") }),
  };

  // What the page's own modules use beyond the public API.
  const internal = {
    /** the engine's legend: {key: text} (glossary/legend.go) */
    legend: () => call("legend"),
    /** the engine's glossary: [{term, aliases?, definition}] (glossary/glossary.go) */
    glossary: () => call("glossary"),
    /** the inject dialog's forms: [{kind, label, hint, fields}] for the open scenario */
    stepForms: () => call("step_forms"),
    /** a filled-in form ({kind, field: value…}) → the step's text in the scenario format */
    formatStep: (values) => call("format_step", values),
    /** a built-in workload's file text */
    workloadText: (name) => call("workload_text", String(name)),
    /** a built-in scenario's file text, as written (the editor starts from it) */
    builtinText: (name) => call("builtin_text", String(name)),
    /** the scenario format's JSON Schema (the editor's format help and keys) */
    schema: () => call("schema"),
    /** what the last workload's run measured: {where: "worker"|"page", ms, runMs, memoryBytes, json} or null */
    lastScale: () => (scaleRunner ? scaleRunner.last() : null),
    /** start the scale worker's engine ahead of a run (the Scale panel opened) */
    prewarmScale: () => runner().then((r) => r.prewarm(), () => {}),
    /** resolves once the page can answer: the stored views' index read, or the engine started */
    answering,
    /** load the engine now (the page after its first view; an embed when the reader acts) */
    loadEngine: ({ priority } = {}) => { engine(priority).catch(() => {}); },
    /** the engine has taken over (every method answers at once) */
    get engineLoaded() { return !!backend; },
    /** f(reason) is called once if the engine stops after starting */
    onStopped(f) { stopListeners.push(f); if (stopped) f(stopped); },
  };
  return { explainer, internal };
}

// (The speaker-notes window presenter mode opens loads the same modules but starts no engine.)
export const { explainer, internal } = isSpeakerWindow() ? { explainer: null, internal: null } : makeExplainer();
if (explainer) window.explainer = explainer;
