// app.js — the page put together: the engine (explainer.js) behind the session (session.js, the
// view and the one table of commands), the renderer, the controls and keyboard, the dialogs
// (editor, injection, help, first-visit card), the teaching tools, the URL (url.js) and the
// embedding API (embed.js). It holds no state of its own beyond what these modules hold.
//
// What the first view needs is imported statically; the dialogs that open on demand (the editor,
// the injection dialog, help and the first-visit card, the Scale panel; teach.js does the same for
// the explorer and compare) are lazy (lazy.js): their code is neither fetched nor run before the
// first view. Their buttons are here (or in index.html) from the start; a click or key that comes
// before the module loads it, then opens the dialog. Once the engine has started the page fetches
// them all, and enables the scenario picker (the sign that the page has started) once they are
// in: from then on a tool opens at once, as if it had come with the page.
import { h, fill, byTestId } from "../ui/dom.js";
import { createRenderer, findElements } from "../stage/render.js";
import { createControls } from "../stage/controls.js";
import { installKeyboard, returnFocus } from "../ui/keyboard.js";
import { createTeach } from "../teach/teach.js";
import { createSession } from "../session/session.js";
import { createURL, parseHash, isPlain } from "../session/url.js";
import { createEmbed, isEmbed } from "../embed/embed.js";
import { createCaption } from "../embed/caption.js";
import { setLegend } from "../stage/chips.js";
import { createGlossary } from "../help/glossary.js";
import { createIntro } from "../stage/intro.js";
import { follow, layout, reveal } from "../stage/follow.js";
import { createChangedStrip } from "../stage/changed-strip.js";
import { lazy } from "./lazy.js";
import { withSheets } from "../ui/sheet.js";
import { bounded } from "../ui/bound.js";
import { createSource } from "../tools/editor-source.js";
import { createCodeMap } from "../teach/codemap.js";

/** start(explainer, internal): run the page on an engine (the public API and the page's extras). */
export async function start(explainer, internal, { embed = isEmbed() } = {}) {
  const root = document.documentElement;
  root.classList.toggle("embed", embed);
  root.classList.add("is-loading");
  // The page's parts, each made by one function below (those made later are null until then).
  const page = {
    explainer, internal, embed, root,
    loading: document.getElementById("loading"), picker: byTestId("scenario-picker"),
    teach: null, glossary: null, builtins: null, caption: null, embedded: null, booted: false,
  };
  Object.assign(page, createToast());       // showToast, hideToast
  Object.assign(page, createDriver(page));  // controls, session
  page.show = createStage(page);            // draws a view
  Object.assign(page, createDialogs(page)); // editor, inject (loaded on first use)
  Object.assign(page, createLink(page));    // url, embedded, caption, lesson
  // (after url.js's: the address is written before the view is drawn, when writing it, which
  // brings the page's styles up to date, finds nothing to do; after the drawing it restyled
  // what the view changed, and the frame then did part of that again)
  page.session.onView((v) => { if (page.booted) { page.hideToast(); page.show(v); } });
  page.makeGlossary = glossaryLater(page);  // after the first view
  Object.assign(page, wireHeader(page));    // help, openHelp, openLesson

  // Boot.
  internal.onStopped((why) => showStopped(page, why));
  const engineFailed = engineFailure(page);
  try {
    await internal.answering;
  } catch (e) {
    engineFailed(e);
    return;
  }
  await addEngineParts(page);               // legend, glossary, teach, scale, diagnose
  installKeys(page);
  await firstView(page, engineFailed);
}

/** createToast() → {showToast(msg), hideToast()}: the alert above the stage, for 8 seconds. */
function createToast() {
  const toast = h("p", { class: "toast", role: "alert", hidden: true, "data-testid": "toast" });
  document.getElementById("toast-slot").append(toast);
  let toastTimer = null;
  function showToast(msg) {
    fill(toast, "⚠ ", bounded(msg));
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 8000);
  }
  return { showToast, hideToast: () => { if (!toast.hidden) toast.hidden = true; } };
}

/** createDriver(page) → {controls, session}: the step controls and the session they drive. */
function createDriver(page) {
  const controls = createControls({
    first: () => session.fire("first"),
    back: () => session.fire("back"),
    step: () => session.fire("step"),
    last: () => session.fire("last"),
    goto: (n) => session.fire("goto", n),
    togglePlay: () => session.fire("togglePlay"),
    act: (a) => session.fire("act", a),
    inject: () => { session.run("pause"); page.inject.use((i) => i.open()); },
  });
  const session = createSession(page.explainer, {
    interceptStep: (v) => !!page.teach && page.teach.predict.intercept(v),
    pauseAfter: (v) => !!v.pause, // the scenario asks autoplay to stop here (in every mode)
    speedMs: () => controls.speedMs(),
    setPlaying: (on) => controls.setPlaying(on),
    onError: page.showToast,
  });
  return { controls, session };
}

/**
 * createStage(page) → show(view): the renderer, the changed strip, the code map and the intro,
 * and what else follows a view. Until the link is honoured the page shows nothing of the way
 * there (a deep link opens its scenario, then goes to its step: only that step is drawn); from
 * then on (page.booted) a phone follows each step.
 */
function createStage(page) {
  const { session, controls } = page;
  const renderer = createRenderer(findElements(document), { onRecover: (a) => session.fire("act", a) });
  const changedStrip = createChangedStrip(document.getElementById("changed-strip"));
  page.codemap = createCodeMap({ stage: document.getElementById("stage"), embed: page.embed });
  const intro = createIntro({ button: document.getElementById("about-btn"), summary: byTestId("scenario-summary") });
  return function show(v) {
    renderer.render(v);
    intro.update(v);
    page.caption?.update(v);
    page.codemap.update(v);
    controls.update(v);
    page.teach?.update(v);
    syncPicker(page, v);
    page.glossary?.decorate(document.body);
    page.teach?.settle(); // (presenter mode fits what is drawn, the glossary's words included)
    changedStrip.update(v.changed); // before follow: the strip is part of the sticky bottom it measures
    if (page.booted) changedStrip.setCurrent(follow(v.changed));
  };
}

/** createDialogs(page) → {editor, inject}: loaded on first use (a failed load is shown, and retried next time). */
function createDialogs({ session, internal, showToast }) {
  const editorSource = createSource({ session, builtinText: (name) => internal.builtinText(name) });
  const editor = lazy(withSheets(() => import("../tools/editor.js"), "web/tools/editor.css"), ({ createEditor }) => createEditor(document.getElementById("editor-dialog"), {
    load: (text) => session.run("load", text),
    source: editorSource,
    schema: () => internal.schema(),
  }), showToast);
  const inject = lazy(withSheets(() => import("../tools/inject.js"), "web/tools/inject.css"), ({ createInject }) => createInject(document.getElementById("inject-dialog"), {
    stepForms: () => internal.stepForms(),
    formatStep: (values) => internal.formatStep(values),
    apply: (text) => session.run("apply", text),
  }), showToast);
  return { editor, inject };
}

/**
 * createLink(page) → {url, embedded, caption, lesson}: the address (url.js), the embedding API;
 * in an embed what the link could not open is shown in a notice above the stage (embed.js), and
 * a caption names what is shown (caption.js); a lesson (lesson-bar.js), loaded when a link names one.
 */
function createLink(page) {
  const { session, explainer, embed, showToast } = page;
  const url = createURL({
    session, explainer,
    onError: (m) => { if (!embed) showToast(m); page.embedded?.error(m); },
    openEditor: embed ? null : (text, e) => page.editor.use((ed) => ed.open(text, e)), // (an embed shows its notice)
    begin: () => page.embedded?.begin(),
    end: (ok) => page.embedded?.end(ok),
    followed: (w, problem) => { if (!embed && (w.lesson || lesson.loaded)) lesson.use((b) => b.follow(w, problem)); },
  });
  const notice = embed ? h("p", { class: "embed-notice", role: "alert", "data-testid": "embed-notice", hidden: true }) : null;
  if (notice) document.querySelector(".work").prepend(notice);
  page.embedded = createEmbed({ session, embed, notice });
  const caption = embed ? createCaption({ link: (v) => url.link(v) }) : null;
  if (caption) document.querySelector(".intro-line").prepend(caption.el);
  const lesson = lazy(() => import("../teach/lesson-bar.js"), ({ createLessonBar }) => createLessonBar({
    explainer, session, anchor: document.getElementById("intro"), showToast, refreshURL: () => url.update(session.view),
  }), showToast);
  return { url, embedded: page.embedded, caption, lesson };
}

/** wireHeader(page) → {help, openHelp, openLesson}: the header's buttons, the dialogs' backdrops, the picker, a dropped file. */
function wireHeader(page) {
  const { session, editor, lesson, embed, picker, showToast, explainer } = page;
  document.getElementById("open-btn").addEventListener("click", () => { session.run("pause"); editor.use((ed) => ed.open()); });
  const help = lazy(withSheets(() => import("../help/help.js"), "web/help/help.css"), undefined, showToast);
  const openLesson = (name) => lesson.use((b) => b.open(name, 1));
  const show = () => help.use(({ openHelp }) => openHelp(document.getElementById("help"), { glossary: page.glossary, link: location.href, explainer, openLesson }));
  const openHelp = () => (page.glossary ? show() : page.makeGlossary().then(show)); // (the help lists the glossary)
  document.getElementById("help-btn").addEventListener("click", openHelp);
  for (const d of document.querySelectorAll("dialog.overlay")) {
    d.addEventListener("click", (ev) => { if (ev.target === d) d.close(); }); // a click on the backdrop
    d.addEventListener("close", returnFocus);
  }
  picker.addEventListener("change", () => { if (picker.value) session.fire("open", picker.value); });
  if (!embed) {
    document.addEventListener("dragover", (ev) => { if (ev.dataTransfer?.types?.includes("Files")) ev.preventDefault(); });
    document.addEventListener("drop", (ev) => {
      const f = ev.dataTransfer?.files?.[0];
      if (f) { ev.preventDefault(); session.run("pause"); editor.use((ed) => ed.loadFile(f)); }
    });
  }
  return { help, openHelp, openLesson };
}

/**
 * engineFailure(page) → failed(error): the engine could not start (before the first view, or
 * when loaded after a stored first view): the page says so, once, and an embed tells its
 * element (which shows its message with a link).
 */
function engineFailure(page) {
  const { root, loading } = page;
  let failedOnce = false;
  return (e) => {
    if (failedOnce) return;
    failedOnce = true;
    root.classList.remove("is-loading");
    root.classList.add("load-failed");
    loading.hidden = false;
    fill(loading, h("strong", null, "The engine could not start. "), e && e.message ? e.message : String(e));
    page.embedded?.error(`The engine could not start: ${e && e.message ? e.message : String(e)}`, true);
    loading.setAttribute("role", "alert");
  };
}

/** addEngineParts(page): what needs the engine's answers: the legend, the teaching tools, Scale and diagnose (the glossary comes after the first view). */
async function addEngineParts(page) {
  const { explainer, internal, session, embed, showToast } = page;
  setLegend(await internal.legend().catch(() => ({})));
  page.teach = createTeach({ explainer, session, getName: () => session.view?.name || session.view?.title || "scenario", showToast });
  page.scale = lazy(withSheets(() => import("../scale/scale-panel.js"), "web/tools/explorer.css", "web/scale/scale.css", "web/uPlot.min.css"), ({ createScalePanel }) =>
    createScalePanel(document.getElementById("scale-dialog"), { explainer, internal }), showToast);
  page.diagnose = lazy(withSheets(() => import("../tools/diagnose.js"), "web/tools/diagnose.css"), ({ createDiagnose }) =>
    createDiagnose(document.getElementById("diagnose-dialog"), { explainer, openHash: (hash) => { location.hash = hash; } }), showToast);
  page.openDiagnose = () => { if (!embed) { session.run("pause"); page.diagnose.use((d) => d.open()); } };
  if (!embed) {
    document.getElementById("tools").append(h("button", {
      type: "button", class: "btn", id: "diagnose-btn", "aria-haspopup": "dialog", "data-testid": "diagnose-btn",
      title: "What an error message or a log line means, and where to look next (d)", onclick: page.openDiagnose,
    }, "I have an error…"));
    document.getElementById("tools").append(page.codemap.button, h("button", {
      type: "button", class: "btn", id: "scale-btn", "aria-haspopup": "dialog", "data-testid": "scale-btn",
      title: "Run a workload at production size (a million rows over 256 vnodes) and chart it",
      onclick: () => page.scale.use((p) => p.open()),
    }, "Scale…"));
  }
}

/**
 * glossaryLater(page) → make() → Promise of the glossary: its index of words and the term buttons
 * in the labels shown are not part of the first view (their dotted underline comes a moment
 * later): made once, when the browser is idle after the first view, or at once when the help,
 * which lists the terms, opens first.
 */
function glossaryLater(page) {
  let made = null;
  return () => (made ??= page.internal.glossary().catch(() => []).then((entries) => {
    page.glossary = createGlossary(entries);
    page.glossary.decorate(document.body);
    page.teach?.settle(); // (presenter mode fits the stage again: a term button can wrap a line differently)
    return page.glossary;
  }));
}

/** installKeys(page): the page's keys (keyboard.js). */
function installKeys({ session, teach, embed, inject, editor, codemap, lesson, openHelp, openDiagnose }) {
  installKeyboard({
    step: () => session.fire("step"),
    next: () => { if (teach.predict.asking) { session.run("pause"); teach.predict.reveal(); } else session.fire("step"); },
    back: () => session.fire("back"),
    first: () => session.fire("first"),
    last: () => session.fire("last"),
    togglePlay: () => session.fire("togglePlay"),
    action: (i) => session.fire("action", i),
    recover: () => session.fire("recover"),
    help: () => !embed && openHelp(),
    inject: () => { if (!embed) { session.run("pause"); inject.use((i) => i.open()); } },
    open: () => { if (!embed) { session.run("pause"); editor.use((ed) => ed.open()); } },
    bugMenu: () => !embed && teach.openBugMenu(),
    explore: () => !embed && teach.openExplorer(),
    presenter: () => !embed && teach.presenter.setEnabled(!teach.presenter.enabled),
    predict: () => !embed && teach.predict.setEnabled(!teach.predict.enabled),
    codeMap: () => codemap.toggle(),
    page: (dir) => !embed && !!lesson.loaded?.page(dir),
    diagnose: openDiagnose,
  });
}

/**
 * firstView(page, engineFailed): the first view first, then the engine (at low priority; an
 * embed's when the reader acts on it), then the list of built-ins (the engine parses every one
 * of them), which fills the picker after that view has been painted.
 */
async function firstView(page, engineFailed) {
  const { explainer, internal, session, url, embed, root, lesson } = page;
  const want = parseHash();
  url.hold(); // the address follows once the first view is painted
  const problem = await url.honour(want);
  page.loading.hidden = true;
  root.classList.remove("is-loading");
  if (session.view) page.show(session.view);
  page.booted = true;
  // A link that opens at a failure shows it: on a phone the failure panel is otherwise below the
  // header and under the sticky bottom part (the one-screen layouts show it as they are).
  const failed = document.getElementById("fatal");
  if (session.view?.error && layout() === "flow" && failed && !failed.hidden) reveal(failed, { smooth: false });
  await afterPaint();
  mark("explainer:first-view");
  whenIdle(() => page.makeGlossary());
  const loadEngine = (opts) => { internal.loadEngine(opts); explainer.ready.catch(engineFailed); };
  if (!embed) loadEngine({ priority: "low" });
  else for (const ev of ["pointerdown", "keydown", "focusin"]) window.addEventListener(ev, () => loadEngine(), { once: true });
  url.release();
  if (want.lesson && !embed && problem !== url.SUPERSEDED) lesson.use((b) => b.follow(want, problem));
  await afterFirstView(page, want);
}

/**
 * afterFirstView(page, want): the dialogs' modules, fetched once the engine has started; on a
 * plain first visit the first-visit card, before the list of built-ins; then the picker,
 * enabled: the sign that the page has started.
 */
async function afterFirstView(page, want) {
  const { explainer, embed, picker, help, editor, inject, scale, teach, diagnose, openLesson } = page;
  // (once the engine has taken over, or failed to: fetched with the engine, their modules took
  // the page's thread while the engine started)
  const prefetch = () => Promise.all([help, editor, inject, scale, teach, diagnose].map((t) => t.prefetch()));
  const tools = embed ? null : explainer.ready.then(prefetch, prefetch);
  if (!embed && isPlain(want)) {
    await help.get().then(({ maybeWelcome }) => {
      maybeWelcome(document.getElementById("welcome"), { onStart: () => document.getElementById("btn-step")?.focus(), explainer, openLesson });
    }, () => {});
  }
  try { page.builtins = (await explainer.scenarios()) || []; } catch (e) { page.builtins = []; page.showToast(e.message); }
  teach?.setScenarios(page.builtins);
  fill(picker, page.builtins.map((s) => h("option", { value: s.name, title: s.summary || "" }, oneLine(s.title || s.name, s.summary))));
  if (page.session.view) syncPicker(page, page.session.view);
  // (a module that has not arrived in a few seconds still loads at its first use)
  if (tools) await Promise.race([tools, new Promise((r) => setTimeout(r, 3000))]);
  await page.makeGlossary(); // (made by now, in an idle moment: the page has started with its words)
  picker.disabled = false;
}

/** syncPicker(page, view): the picker names the open built-in, or "(yours)" and its title. */
function syncPicker({ builtins, picker }, v) {
  if (!builtins) return; // not listed yet: the picker still says "loading…"
  const known = v.name !== null && builtins.some((s) => s.name === v.name);
  let custom = picker.querySelector('option[value=""]');
  if (!known && !custom) picker.prepend(custom = h("option", { value: "" }, "(your scenario)"));
  if (known && custom) custom.remove();
  picker.value = known ? v.name : "";
  if (custom) fill(custom, "(yours) " + (v.title || "untitled"));
}

function showStopped({ session, root }, why) {
  session.run("pause");
  const box = document.getElementById("stopped");
  fill(box,
    h("p", null, h("strong", null, "The engine stopped. "), "Nothing on this page can change any more (", why, ")."),
    h("button", { type: "button", class: "btn primary", "data-testid": "reload", onclick: () => location.reload() }, "Reload the page"));
  box.hidden = false;
  root.classList.add("engine-stopped");
}

function mark(name) { try { performance.mark(name); } catch { /* no performance here */ } }

/** whenIdle(f): f() when the page's thread is idle (within a second at most). */
function whenIdle(f) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => f(), { timeout: 1000 });
  else setTimeout(f, 50);
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
