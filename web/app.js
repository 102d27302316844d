// app.js — the page's bootstrap around an explainer (the wasm bridge, or a fixture stand-in in
// the dev preview): scenario picker, URL state (#scenario=NAME&step=N), ?embed=1, the
// postMessage API, playback, and wiring of controls, keyboard, editor, injection and help.
import { h, fill, byTestId } from "./dom.js";
import { createRenderer, findElements } from "./render.js";
import { createControls } from "./controls.js";
import { installKeyboard } from "./keyboard.js";
import { createInject } from "./inject.js";
import { createEditor } from "./editor.js";
import { openHelp, maybeWelcome } from "./help.js";
import { createTeach } from "./teach.js";
import { encodeRun, decodeRun } from "./run-link.js";

const DEFAULT_SCENARIO = "happy-path";

export function parseHash(hash = location.hash) {
  const p = new URLSearchParams(String(hash).replace(/^#/, ""));
  const step = p.get("step");
  return {
    scenario: p.get("scenario") || null,
    step: step !== null && /^\d+$/.test(step) ? Number(step) : null,
    src: p.get("src") || null,
    run: p.get("run") || null,
    bug: p.get("bug") || null,
  };
}

export async function start(explainer, { embed = new URLSearchParams(location.search).get("embed") === "1" } = {}) {
  const root = document.documentElement;
  root.classList.toggle("embed", embed);
  root.classList.add("is-loading");

  const els = findElements(document);
  const picker = byTestId("scenario-picker");
  const loading = document.getElementById("loading");
  const toast = h("p", { class: "toast", role: "alert", hidden: true, "data-testid": "toast" });
  document.getElementById("controls").append(toast);

  let scenarioName = null;
  let view = null;
  let playing = false;
  let playTimer = null;
  let queue = Promise.resolve();
  let toastTimer = null;
  let freshNext = false; // the next render is a new start (a permalink), not a change to show

  const renderer = createRenderer(els, { onRecover: (a) => act(a) });
  window.explainerPage = { render: (v, o) => renderer.render(v, o), get view() { return view; } };

  function showToast(msg) {
    fill(toast, "⚠ ", msg);
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 6000);
  }

  /** Run engine calls one at a time; a failure is shown, never thrown at the user. */
  function run(fn, { quiet = false } = {}) {
    const p = queue.then(fn);
    queue = p.catch(() => {});
    return p.catch((e) => {
      if (!quiet) showToast(e && e.message ? e.message : String(e));
      stop();
      throw e;
    });
  }
  const fire = (fn) => run(fn).catch(() => {});

  // Every view change (from this page, from tests through window.explainer, from a parent
  // frame) comes through this one event.
  window.addEventListener("explainer:change", (ev) => {
    const { view: v, method, arg } = ev.detail || {};
    if (!v) return;
    if (method === "open") scenarioName = String(arg);
    if (method === "load") scenarioName = null;
    if (method === "open" || method === "load") teach.resetBug();
    // step/back/goto move along the script and never change it (engine Timeline), so the run=
    // code stays valid; anything else (open, load, apply, bug …) may change what export() says.
    if (method !== "step" && method !== "back" && method !== "goto") runStale = true;
    const fresh = method === "open" || method === "load" || freshNext;
    freshNext = false;
    view = v;
    renderer.render(v, { fresh });
    controls.update(v);
    teach.update(v);
    toast.hidden = true;
    syncPicker();
    writeURL();
    postState();
  });

  const controls = createControls({
    first: () => fire(() => explainer.goto(0)),
    back: () => fire(() => explainer.back()),
    step: () => stepForward(),
    last: () => fire(() => explainer.goto(view ? view.steps : 0)),
    goto: (n) => fire(() => explainer.goto(n)),
    togglePlay: () => (playing ? stop() : play()),
    act: (a) => act(a),
    inject: () => inject.open(),
  });

  function act(a) {
    stop();
    if (a.scripted && teach.interceptStep(view)) return;
    return fire(() => (a.scripted ? explainer.step() : explainer.apply(a.step)));
  }

  // One step forward, unless predict mode asks first.
  function stepForward() {
    stop();
    if (!view || view.step >= view.steps) return;
    if (teach.interceptStep(view)) return;
    fire(() => explainer.step());
  }

  function recover() {
    const a = (view?.actions || []).find((x) => x.kind === "recover");
    if (a) act(a); else { stop(); fire(() => explainer.apply("recover")); }
  }

  // Playback: one step every speedMs until the script ends or the executor stops.
  function play() {
    if (!view) return;
    if (view.step >= view.steps) fire(() => explainer.goto(0));
    playing = true;
    controls.setPlaying(true);
    tick();
  }
  function tick() {
    clearTimeout(playTimer);
    playTimer = setTimeout(async () => {
      if (!playing) return;
      if (!view || view.step >= view.steps) { stop(); return; }
      if (teach.predict.enabled && teach.interceptStep(view)) { stop(); return; }
      try { await run(() => explainer.step()); } catch { return; }
      if (!view || view.step >= view.steps || view.error) { stop(); return; }
      if (teach.presenter.enabled && view.pause) { stop(); return; } // presenter mode: the scenario asks for a pause here
      tick();
    }, controls.speedMs());
  }
  function stop() {
    playing = false;
    clearTimeout(playTimer);
    controls.setPlaying(false);
  }

  const inject = createInject(document.getElementById("inject-dialog"), {
    getView: () => view,
    apply: (text) => { stop(); return run(() => explainer.apply(text), { quiet: true }); },
  });
  const teach = createTeach({
    explainer, run, stop, showToast,
    getView: () => view,
    getName: () => scenarioName || view?.title || "scenario",
  });
  const editor = createEditor(document.getElementById("editor-dialog"), {
    load: (text) => { stop(); return run(() => explainer.load(text), { quiet: true }); },
  });
  document.getElementById("open-btn").addEventListener("click", () => editor.open());
  document.getElementById("help-btn").addEventListener("click", () => openHelp(document.getElementById("help")));
  // Clicking the backdrop of an overlay closes it.
  for (const d of document.querySelectorAll("dialog.overlay")) {
    d.addEventListener("click", (ev) => { if (ev.target === d) d.close(); });
  }

  installKeyboard({
    step: () => stepForward(),
    back: () => { stop(); if (view && view.step > 0) fire(() => explainer.back()); },
    first: () => { stop(); fire(() => explainer.goto(0)); },
    last: () => { stop(); if (view) fire(() => explainer.goto(view.steps)); },
    togglePlay: () => (playing ? stop() : play()),
    action: (i) => { const a = (view?.actions || [])[i]; if (a) act(a); },
    recover: () => recover(),
    help: () => !embed && openHelp(document.getElementById("help")),
    inject: () => !embed && inject.open(),
    open: () => !embed && editor.open(),
    bugMenu: () => !embed && teach.openBugMenu(),
    explore: () => !embed && teach.explorer.open(),
    presenter: () => !embed && teach.presenter.setEnabled(!teach.presenter.enabled),
    predict: () => !embed && teach.predict.setEnabled(!teach.predict.enabled),
    presenting: () => teach.presenter.enabled,
  });

  // Drop a scenario file anywhere on the page.
  if (!embed) {
    document.addEventListener("dragover", (ev) => { if (ev.dataTransfer?.types?.includes("Files")) ev.preventDefault(); });
    document.addEventListener("drop", (ev) => {
      const f = ev.dataTransfer?.files?.[0];
      if (f) { ev.preventDefault(); editor.loadFile(f); }
    });
  }

  // URL state. A run that left its built-in script, or a scenario loaded from text, travels in
  // the URL as `run=` (the exported scenario, deflated); a built-in as `scenario=`.
  let runCode = null;   // the code of the run the URL carries
  let runText = null;   // the exported text it was made from
  let runPending = false;
  let runAgain = false;
  let runStale = true;  // the run's script may have changed since runText was exported
  function needsRun() { return view && (view.branched || !scenarioName); }
  async function refreshRun() {
    if (runPending) { runAgain = true; return; } // the run changed while it was being encoded
    runPending = true;
    try {
      do {
        runAgain = false;
        runStale = false;
        const { scenario } = await explainer.export();
        if (scenario !== runText) { runText = scenario; runCode = await encodeRun(scenario); }
      } while (runAgain);
    } catch { runCode = null; runText = null; runStale = true; } finally { runPending = false; }
    writeURL(true);
  }
  function writeURL(fromRefresh = false) {
    if (!view) return;
    const p = new URLSearchParams();
    if (needsRun()) {
      if (!fromRefresh && (runStale || !runCode)) refreshRun();
      if (runCode) p.set("run", runCode);
    } else if (scenarioName) {
      p.set("scenario", scenarioName);
    }
    p.set("step", String(view.step));
    const bug = teach.urlBug(view);
    if (bug) p.set("bug", bug);
    const hash = "#" + p.toString();
    if (location.hash !== hash) history.replaceState(history.state, "", hash);
  }
  async function honourHash() {
    const want = parseHash();
    let opened = false;
    if (want.run) {
      opened = true;
      try {
        const text = await decodeRun(want.run);
        try { await run(() => explainer.load(text), { quiet: true }); } catch (e) { editor.open(text, e.message); return; }
        runText = text; runCode = want.run;
      } catch (e) { showToast(e.message); return; }
    } else if (want.src) {
      opened = true;
      try {
        const resp = await fetch(new URL(want.src, document.baseURI));
        if (!resp.ok) throw new Error(`${want.src}: HTTP ${resp.status}`);
        const text = await resp.text();
        try { await run(() => explainer.load(text), { quiet: true }); } catch (e) { editor.open(text, e.message); return; }
      } catch (e) { showToast(e.message); return; }
    } else {
      const name = want.scenario || scenarioName || DEFAULT_SCENARIO;
      if (name !== scenarioName || !view) {
        opened = true;
        try { await run(() => explainer.open(name), { quiet: true }); } catch (e) {
          const msg = e && e.message ? e.message : String(e);
          if (name !== DEFAULT_SCENARIO) await run(() => explainer.open(DEFAULT_SCENARIO)).catch(() => {});
          // after the fallback's change event, which clears the toast
          showToast(name !== DEFAULT_SCENARIO ? `${msg}; showing ${DEFAULT_SCENARIO} instead` : msg);
          return;
        }
      }
    }
    // The bug mode comes after opening the scenario and before going to the step.
    if (want.bug && view && want.bug !== (view.bug ? view.bug.name : "none")) {
      freshNext = opened;
      await teach.setBug(want.bug).catch(() => {});
      freshNext = false;
    }
    if (want.step !== null && view && want.step !== view.step) {
      freshNext = opened;
      await run(() => explainer.goto(want.step)).catch(() => {});
      freshNext = false;
    }
  }
  window.addEventListener("hashchange", () => {
    const want = parseHash();
    const bugNow = view && view.bug ? view.bug.name : "none";
    if ((want.scenario && want.scenario !== scenarioName) || (want.step !== null && view && want.step !== view.step) || want.src ||
      (want.run && want.run !== runCode) ||
      (want.bug && want.bug !== bugNow)) honourHash();
  });

  // postMessage API for embeds.
  function postState() {
    if (window.parent === window || !view) return;
    window.parent.postMessage({ type: "explainer:state", step: view.step, phase: view.phase, steps: view.steps, scenario: scenarioName }, "*");
  }
  window.addEventListener("message", (ev) => {
    if (ev.source !== window.parent) return; // only the embedding page (or this page when top-level)
    const d = ev.data;
    if (!d || typeof d !== "object" || typeof d.type !== "string") return;
    if (d.type === "explainer:goto" && Number.isFinite(Number(d.step))) { stop(); fire(() => explainer.goto(Number(d.step))); }
    if (d.type === "explainer:open" && typeof d.scenario === "string") { stop(); fire(() => explainer.open(d.scenario)); }
  });

  // Scenario picker.
  let builtins = [];
  function syncPicker() {
    const known = builtins.some((s) => s.name === scenarioName);
    let custom = picker.querySelector('option[value=""]');
    if (!known && !custom) picker.prepend(custom = h("option", { value: "" }, "(your scenario)"));
    if (known && custom) custom.remove();
    picker.value = known ? scenarioName : "";
    if (custom && view) fill(custom, "(yours) " + (view.title || "untitled"));
  }
  picker.addEventListener("change", () => {
    if (picker.value) { stop(); fire(() => explainer.open(picker.value)); }
  });

  // Boot.
  try {
    await explainer.ready;
  } catch (e) {
    root.classList.remove("is-loading");
    root.classList.add("load-failed");
    fill(loading, h("strong", null, "The engine could not start. "), e && e.message ? e.message : String(e));
    loading.setAttribute("role", "alert");
    return;
  }
  try {
    builtins = (await explainer.scenarios()) || [];
  } catch (e) { showToast(e.message); }
  fill(picker, builtins.map((s) => h("option", { value: s.name, title: s.summary || "" },
    oneLine(s.title || s.name, s.summary))));
  picker.disabled = false;
  loading.hidden = true;
  root.classList.remove("is-loading");

  await honourHash();
  if (!view) { try { view = await explainer.view(); renderer.render(view); controls.update(view); } catch { /* nothing open */ } }

  if (!embed) maybeWelcome(document.getElementById("welcome"), {
    onStart: () => { stop(); fire(() => explainer.open(DEFAULT_SCENARIO)); },
  });
}

function oneLine(title, summary) {
  const s = String(summary || "").replace(/[`*]/g, "").split("\n").map((x) => x.trim()).filter(Boolean)[0] || "";
  const t = s ? `${title} — ${s}` : title;
  return t.length > 90 ? t.slice(0, 88) + "…" : t;
}
