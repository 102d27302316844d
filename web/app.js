// app.js — the page put together: the engine (explainer.js) behind the session (session.js, the
// view and the one table of commands), the renderer, the controls and keyboard, the dialogs
// (editor, injection, help, first-visit card), the teaching tools, the URL (url.js) and the
// embedding API (embed.js). It holds no state of its own beyond what these modules hold.
import { h, fill, byTestId } from "./dom.js";
import { createRenderer, findElements } from "./render.js";
import { createControls } from "./controls.js";
import { installKeyboard, returnFocus } from "./keyboard.js";
import { createInject } from "./inject.js";
import { createEditor } from "./editor.js";
import { openHelp, maybeWelcome } from "./help.js";
import { createTeach } from "./teach.js";
import { createSession } from "./session.js";
import { createURL, parseHash, isPlain } from "./url.js";
import { createEmbed, isEmbed } from "./embed.js";
import { setLegend } from "./chips.js";
import { createGlossary } from "./glossary.js";
import { createIntro } from "./intro.js";
import { follow } from "./follow.js";
import { createChangedStrip } from "./changed-strip.js";
import { createScalePanel } from "./scale-panel.js";

/** start(explainer, internal): run the page on an engine (the public API and the page's extras). */
export async function start(explainer, internal, { embed = isEmbed() } = {}) {
  const root = document.documentElement;
  root.classList.toggle("embed", embed);
  root.classList.add("is-loading");
  const loading = document.getElementById("loading");
  const picker = byTestId("scenario-picker");
  const toast = h("p", { class: "toast", role: "alert", hidden: true, "data-testid": "toast" });
  document.getElementById("toast-slot").append(toast);
  let toastTimer = null;
  function showToast(msg) {
    fill(toast, "⚠ ", msg);
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 8000);
  }

  let teach = null;
  let glossary = null; // the engine's definitions, once the engine is ready
  let builtins = null; // the built-in scenarios, once listed (after the first view)
  const controls = createControls({
    first: () => session.fire("first"),
    back: () => session.fire("back"),
    step: () => session.fire("step"),
    last: () => session.fire("last"),
    goto: (n) => session.fire("goto", n),
    togglePlay: () => session.fire("togglePlay"),
    act: (a) => session.fire("act", a),
    inject: () => { session.run("pause"); inject.open(); },
  });
  const session = createSession(explainer, {
    interceptStep: (v) => !!teach && teach.predict.intercept(v),
    pauseAfter: (v) => !!teach && teach.presenter.enabled && !!v.pause, // the scenario asks autoplay to stop here
    speedMs: () => controls.speedMs(),
    setPlaying: (on) => controls.setPlaying(on),
    onError: showToast,
  });

  const renderer = createRenderer(findElements(document), { onRecover: (a) => session.fire("act", a) });
  const changedStrip = createChangedStrip(document.getElementById("changed-strip"));
  const intro = createIntro({ button: document.getElementById("about-btn"), summary: byTestId("scenario-summary") });
  // Until the link is honoured the page shows nothing of the way there (a deep link opens its
  // scenario, then goes to its step: only that step is drawn); from then on a phone follows each step.
  let booted = false;
  session.onView((v) => { if (booted) { toast.hidden = true; show(v); } });
  function show(v) {
    renderer.render(v);
    intro.update(v);
    controls.update(v);
    teach?.update(v);
    syncPicker(v);
    glossary?.decorate(document.body);
    changedStrip.update(); // before follow: the strip is part of the sticky bottom it measures
    if (booted) changedStrip.setCurrent(follow());
  }

  const editor = createEditor(document.getElementById("editor-dialog"), {
    load: (text) => session.run("load", text),
  });
  const inject = createInject(document.getElementById("inject-dialog"), {
    stepForms: () => internal.stepForms(),
    formatStep: (values) => internal.formatStep(values),
    apply: (text) => session.run("apply", text),
  });
  let embedded = null;
  const url = createURL({ session, explainer, onError: (m) => { showToast(m); embedded?.error(m); }, openEditor: (text, e) => editor.open(text, e) });
  embedded = createEmbed({ session });

  document.getElementById("open-btn").addEventListener("click", () => { session.run("pause"); editor.open(); });
  const help = () => openHelp(document.getElementById("help"), { glossary, link: location.href });
  document.getElementById("help-btn").addEventListener("click", help);
  for (const d of document.querySelectorAll("dialog.overlay")) {
    d.addEventListener("click", (ev) => { if (ev.target === d) d.close(); }); // a click on the backdrop
    d.addEventListener("close", returnFocus);
  }
  picker.addEventListener("change", () => { if (picker.value) session.fire("open", picker.value); });
  if (!embed) {
    document.addEventListener("dragover", (ev) => { if (ev.dataTransfer?.types?.includes("Files")) ev.preventDefault(); });
    document.addEventListener("drop", (ev) => {
      const f = ev.dataTransfer?.files?.[0];
      if (f) { ev.preventDefault(); session.run("pause"); editor.loadFile(f); }
    });
  }

  // Boot.
  internal.onStopped((why) => showStopped(why));
  try {
    await explainer.ready;
  } catch (e) {
    root.classList.remove("is-loading");
    root.classList.add("load-failed");
    fill(loading, h("strong", null, "The engine could not start. "), e && e.message ? e.message : String(e));
    loading.setAttribute("role", "alert");
    return;
  }
  setLegend(await internal.legend().catch(() => ({})));
  glossary = createGlossary(await internal.glossary().catch(() => []));
  teach = createTeach({ explainer, session, getName: () => session.view?.name || session.view?.title || "scenario", showToast });
  if (!embed) createScalePanel(document.getElementById("scale-dialog"), { explainer, internal, tools: document.getElementById("tools") });
  installKeyboard({
    step: () => session.fire("step"),
    back: () => session.fire("back"),
    first: () => session.fire("first"),
    last: () => session.fire("last"),
    togglePlay: () => session.fire("togglePlay"),
    action: (i) => session.fire("action", i),
    recover: () => session.fire("recover"),
    help: () => !embed && help(),
    inject: () => { if (!embed) { session.run("pause"); inject.open(); } },
    open: () => { if (!embed) { session.run("pause"); editor.open(); } },
    bugMenu: () => !embed && teach.openBugMenu(),
    explore: () => !embed && teach.explorer.open(),
    presenter: () => !embed && teach.presenter.setEnabled(!teach.presenter.enabled),
    predict: () => !embed && teach.predict.setEnabled(!teach.predict.enabled),
    presenting: () => teach.presenter.enabled,
  });

  // The first view first: the list of built-ins (the engine parses every one of them) fills the
  // picker after that view has been painted.
  const want = parseHash();
  await url.honour(want);
  loading.hidden = true;
  root.classList.remove("is-loading");
  if (session.view) show(session.view);
  booted = true;
  await afterPaint();
  try { builtins = (await explainer.scenarios()) || []; } catch (e) { builtins = []; showToast(e.message); }
  teach?.setScenarios(builtins);
  fill(picker, builtins.map((s) => h("option", { value: s.name, title: s.summary || "" }, oneLine(s.title || s.name, s.summary))));
  picker.disabled = false;
  if (session.view) syncPicker(session.view);
  if (!embed && isPlain(want)) {
    maybeWelcome(document.getElementById("welcome"), { onStart: () => document.getElementById("btn-step")?.focus() });
  }

  function syncPicker(v) {
    if (!builtins) return; // not listed yet: the picker still says "loading…"
    const known = v.name !== null && builtins.some((s) => s.name === v.name);
    let custom = picker.querySelector('option[value=""]');
    if (!known && !custom) picker.prepend(custom = h("option", { value: "" }, "(your scenario)"));
    if (known && custom) custom.remove();
    picker.value = known ? v.name : "";
    if (custom) fill(custom, "(yours) " + (v.title || "untitled"));
  }

  function showStopped(why) {
    session.run("pause");
    const box = document.getElementById("stopped");
    fill(box,
      h("p", null, h("strong", null, "The engine stopped. "), "Nothing on this page can change any more (", why, ")."),
      h("button", { type: "button", class: "btn primary", "data-testid": "reload", onclick: () => location.reload() }, "Reload the page"));
    box.hidden = false;
    root.classList.add("engine-stopped");
  }
}

/** afterPaint resolves once the browser has painted a frame (a task after the next animation frame). */
function afterPaint() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

function oneLine(title, summary) {
  const s = String(summary || "").replace(/[`*]/g, "").split("\n").map((x) => x.trim()).filter(Boolean)[0] || "";
  const t = s ? `${title} — ${s}` : title;
  return t.length > 90 ? t.slice(0, 88) + "…" : t;
}
