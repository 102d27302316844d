// lesson-bar.js — (lazy) a lesson on the page (docs/lesson-format.md): the bar above the stage
// (section n of m, its goal, previous/next section, the time spent against the time planned, the
// question to ask the room at this step) and the printable plan (lesson-plan.js). The engine
// reads and checks the lesson (`lesson`/`lesson_text`: the plan as JSON); this module only opens
// each section's scenario at its first step and walks its stops. PageDown/PageUp (the keyboard's
// `page` hook) go from stop to stop, and at a section's last stop on to the next section.
// The link carries `&lesson=NAME&section=N` (url.js setHashExtra). The clock is the page's own:
// only the bar shows it. A section with a `release` opens under it (the session's `release`
// command: the release picker and the link's `&release=` follow the view). At every change of
// section or question, and when the lesson closes, the bar tells presenter mode (the window event
// "explainer:lesson", speaker-link.js) so that the speaker window follows the lesson.
import { h, fill } from "../ui/dom.js";
import { setHashExtra, parseHash } from "../session/url.js";
import { quote, quoteIn } from "../ui/bound.js";
import { openPlan, rowText } from "./lesson-plan.js";

/** A predict question's answer in words: the rows downstream sees now, and those it does not. */
function predictAnswer(q) {
  return `Visible: ${q.visible.length ? q.visible.map(rowText).join("; ") : "none"}. Hidden: ${q.hidden.length ? q.hidden.map(rowText).join("; ") : "none"}.`;
}

const CLOCK_KEY = "backfill-explainer:lesson-clock";
/** The lesson's clock as this tab kept it: {name, start, section, sectionStart} or null. */
function readClock() {
  try {
    const c = JSON.parse(sessionStorage.getItem(CLOCK_KEY) || "null");
    const ok = (t) => Number.isFinite(t) && t > 0 && t <= Date.now();
    return c && typeof c.name === "string" && ok(c.start) && ok(c.sectionStart) && Number.isInteger(c.section) ? c : null;
  } catch { return null; }
}

/** mm:ss */
function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * createLessonBar({explainer, session, anchor, showToast, refreshURL}) →
 * {open(name, n, {keep}) → Promise, close(), page(dir) → bool, get plan, get index}
 * The bar goes right after `anchor`.
 */
export function createLessonBar({ explainer, session, anchor, showToast, refreshURL }) {
  const L = {
    plan: null,       // the lesson's plan (the engine's JSON)
    index: 0,         // the section shown (0-based)
    sectionStart: 0,  // when it was opened (Date.now: the speaker window counts from the same)
    lessonStart: 0,
    timer: null,
    finished: false,  // PageDown at the last stop of the last section: "Lesson finished"
  };
  const ui = buildBar({
    prev: () => go(L.index - 1), next: () => go(L.index + 1), page: (dir) => page(dir), close: () => close(),
    plan: () => L.plan && openPlan(L.plan), restart: () => { L.lessonStart = Date.now(); go(0); },
  });
  anchor.after(ui.bar);
  const tell = createTell();
  const tick = () => tickClock(ui.time, L);

  setHashExtra(() => (L.plan && L.plan.name ? [["lesson", L.plan.name], ["section", String(L.index + 1)]] : []));
  session.onView((v) => show(v));
  // presenter mode turned on in a section: its stops measured again, back at the step shown
  window.addEventListener("explainer:presenter-on", () => {
    const s = section(L), v = session.view;
    if (s && onScenario(v, s)) stopsThenAt(session, s, v.step).catch(() => {});
  });
  /** follow(want, problem): a link (parseHash) honoured by url.js, with its problem (an Error or
   *  null): the lesson it names opens (or goes to its section), one naming none closes the bar;
   *  the link's problem is shown again once the lesson's own views are drawn. */
  async function follow(want, problem) {
    if (!want.lesson) { if (L.plan) close(); return; }
    if (L.plan && want.lesson === L.plan.name) {
      if (want.section !== null && want.section - 1 !== L.index) await open(want.lesson, want.section);
    } else {
      await open(want.lesson, want.section ?? 1, { keep: true });
    }
    if (problem) showToast(problem.message);
  }

  /** open(name, n): the built-in lesson `name` at section n (1-based). keep: stay at the view's
   *  step when it is already on that section's scenario (a link names both). */
  async function open(name, n = 1, { keep = false } = {}) {
    let p;
    try { p = await explainer.lesson(name); } catch (e) { showToast(`lesson ${quote(name)}: ${quoteIn(e.message, name)}`); return; }
    L.plan = p;
    // The lesson's clock survives a reload of this tab (and the speaker window reads it).
    const kept = readClock();
    const i = Math.min(Math.max(1, n), p.sections.length);
    L.lessonStart = kept && kept.name === p.name ? kept.start : Date.now();
    await go(i - 1, { keep, since: kept && kept.name === p.name && kept.section === i - 1 ? kept.sectionStart : 0 });
    // a section the lesson does not have: said, not silently replaced
    if (i !== n) showToast(`lesson ${quote(name)} has sections 1 to ${p.sections.length}; there is no section ${quote(n)}: showing section ${i}`);
  }

  async function go(i, { keep = false, atEnd = false, since = 0 } = {}) {
    if (!L.plan || i < 0 || i >= L.plan.sections.length) return;
    L.index = i;
    L.finished = false;
    L.sectionStart = since > 0 && since <= Date.now() ? since : Date.now();
    writeClock(L);
    const s = section(L);
    ui.bar.hidden = false;
    document.documentElement.classList.add("in-lesson");
    try {
      if (!(keep && onScenario(session.view, s))) await openSection(session, s, atEnd ? s.stops[s.stops.length - 1] : s.stops[0]);
    } catch (e) { showToast(`lesson section ${i + 1}: ${e.message}`); }
    show(session.view);
    refreshURL();
    tick();
  }

  function close() {
    L.plan = null;
    try { sessionStorage.removeItem(CLOCK_KEY); } catch { /* nothing kept */ }
    clearTimeout(L.timer);
    L.timer = null;
    ui.bar.hidden = true;
    document.documentElement.classList.remove("in-lesson");
    tell(null);
    refreshURL();
  }

  /** PageDown (dir 1) / PageUp (-1): the next or previous stop, or section. true: handled. */
  function page(dir) {
    const v = session.view;
    const s = section(L);
    if (!s || !onScenario(v, s)) return false;
    const to = pageTo(s, v.step, dir, L);
    if (to.section !== undefined) { if (to.section >= 0 && to.section < L.plan.sections.length) go(to.section, { atEnd: dir < 0 }); }
    else if (to.finished !== undefined) { L.finished = to.finished; show(v); }
    else if (to.step === v.step + 1) session.fire("step"); // (predict mode may ask first)
    else if (to.step === v.step - 1) session.fire("back");
    else session.fire("goto", to.step);
    return true;
  }

  function show(v) {
    const s = section(L);
    if (!s) return;
    const here = onScenario(v, s);
    if (L.finished && !(here && v.step === s.stops[s.stops.length - 1])) L.finished = false; // stepped away
    const q = here ? s.questions.find((x) => (x.predict ? x.at - 1 : x.at) === v.step) : null;
    drawBar(ui, L, s, here, q);
    tell(lessonPlace(L, s, v, here, q));
    tick();
  }

  return { open, close, page, go, follow, get plan() { return L.plan; }, get index() { return L.index; } };
}

const section = (L) => (L.plan ? L.plan.sections[L.index] : null);

/** The release a view plays, or the default when a section names none. */
const defaultRelease = (v) => (v?.releases || []).find((r) => r.default)?.name ?? "";
/** Is the page showing this section's scenario, under its release? */
function onScenario(v, s) {
  if (!v || !s) return false;
  if ((v.release || defaultRelease(v)) !== (s.release || defaultRelease(v))) return false;
  return s.scenario ? v.name === s.scenario && !v.branched : v.name === null && v.title === s.scenario_title;
}

/** openSection(session, s, at): the section's scenario, its bug mode, then its release, at step at. */
async function openSection(session, s, at) {
  if (s.scenario) await session.run("open", s.scenario);
  else await session.run("load", s.scenario_text);
  if (s.bug) await session.run("bug", s.bug);
  if (s.release) await session.run("release", s.release); // (after the bug mode, as the engine checks it)
  await stopsThenAt(session, s, at);
}

/** stopsThenAt(session, s, at): step `at` of section s; in presenter mode the section's other
 *  stops drawn once first, so that presenter mode finds the type all of them fit in and keeps it
 *  from stop to stop (presenter.js, "explainer:section-fit"). */
async function stopsThenAt(session, s, at) {
  const measure = document.documentElement.classList.contains("presenter") && s.stops.length > 1;
  if (measure) window.dispatchEvent(new CustomEvent("explainer:section-fit", { detail: "start" }));
  const stop = () => window.dispatchEvent(new CustomEvent("explainer:section-fit", { detail: "stop" }));
  try {
    if (measure) for (const x of s.stops) if (x !== at) { await session.run("goto", x); stop(); }
    if (session.view && session.view.step !== at) await session.run("goto", at);
    if (measure) stop();
  } finally {
    if (measure) window.dispatchEvent(new CustomEvent("explainer:section-fit", { detail: "end" }));
  }
}

/**
 * pageTo(s, pos, dir, L) → where PageDown (dir 1) or PageUp (-1) goes from step pos of section
 * s: {step} the next or previous stop, {section} the next section (or the previous one, at its
 * end; out of range: nowhere), or {finished} "Lesson finished" shown or left.
 */
function pageTo(s, pos, dir, L) {
  if (dir > 0) {
    const nextStop = s.stops.find((x) => x > pos);
    if (nextStop !== undefined) return { step: nextStop };
    return L.index + 1 < L.plan.sections.length ? { section: L.index + 1 } : { finished: true };
  }
  if (L.finished) return { finished: false }; // back from "Lesson finished" to the last stop
  const before = s.stops.filter((x) => x < pos);
  if (!before.length) return { section: L.index > 0 ? L.index - 1 : -1 };
  return { step: before[before.length - 1] };
}

function writeClock(L) {
  try { sessionStorage.setItem(CLOCK_KEY, JSON.stringify({ name: L.plan.name, start: L.lessonStart, section: L.index, sectionStart: L.sectionStart })); } catch { /* in memory only */ }
}

/** createTell() → tell(info): tells presenter mode (and through it the speaker window) the lesson's place (null when closed), each change once. */
function createTell() {
  let told = "null"; // what presenter mode last heard (a JSON text)
  return (info) => {
    const text = JSON.stringify(info);
    if (text === told) return;
    told = text;
    window.dispatchEvent(new CustomEvent("explainer:lesson", { detail: info }));
  };
}

/** buildBar({prev(), next(), page(dir), close(), plan(), restart()}) → the bar's parts: the line, the goal, the question, "Lesson finished". */
function buildBar(act) {
  const ui = {
    count: h("span", { class: "lesson-count", "data-testid": "lesson-count" }),
    title: h("strong", { class: "lesson-section", "data-testid": "lesson-section-title" }),
    rel: h("span", { class: "tag lesson-release", "data-testid": "lesson-release", title: "The RisingWave release this section plays", hidden: true }),
    goal: h("p", { class: "lesson-goal", "data-testid": "lesson-goal" }),
    ask: h("p", { class: "lesson-ask", "data-testid": "lesson-ask", "aria-live": "polite", hidden: true }),
    time: h("span", { class: "lesson-time", "data-testid": "lesson-time", title: "time in this section / planned; in the lesson / planned up to this section's end" }),
    lessonTitle: h("span", { class: "lesson-title", "data-testid": "lesson-title" }),
  };
  ui.prev = h("button", { type: "button", class: "btn small", "data-testid": "lesson-prev", title: "Previous section (PageUp at a section's first step)", "aria-label": "Previous section", onclick: () => act.prev() }, "◀", h("span", { class: "lesson-btn-text", "aria-hidden": "true" }, " Previous section"));
  ui.next = h("button", { type: "button", class: "btn small", "data-testid": "lesson-next", title: "Next section (PageDown at a section's last step)", "aria-label": "Next section", onclick: () => act.next() }, h("span", { class: "lesson-btn-text", "aria-hidden": "true" }, "Next section "), "▶");
  const planBtn = h("button", { type: "button", class: "btn small", "data-testid": "lesson-plan-btn", "aria-haspopup": "dialog", title: "The lesson plan, one page per section, to print", onclick: () => act.plan() }, "Plan");
  const closeBtn = h("button", { type: "button", class: "btn small", "data-testid": "lesson-close", "aria-label": "End the lesson", title: "End the lesson", onclick: () => act.close() }, "✕");
  ui.bar = h("section", { class: "lesson-bar", id: "lesson-bar", "data-testid": "lesson-bar", "aria-label": "Lesson", hidden: true },
    h("div", { class: "lesson-line" },
      h("span", { class: "lesson-k" }, "Lesson"), ui.lessonTitle, ui.count, ui.title, ui.rel,
      h("span", { class: "lesson-nav" }, ui.prev, ui.next, ui.time, planBtn, closeBtn)),
    ui.goal, ui.ask,
    h("p", { class: "lesson-finished", "data-testid": "lesson-finished", role: "status", hidden: true },
      h("strong", null, "Lesson finished. "),
      h("button", { type: "button", class: "btn small", "data-testid": "lesson-finished-back", title: "Back to the last stop (PageUp)", onclick: () => act.page(-1) }, "◀ Back to the last stop"),
      " ",
      h("button", { type: "button", class: "btn small", "data-testid": "lesson-restart", title: "The lesson again from section 1", onclick: () => act.restart() }, "Start again")));
  ui.finishedEl = ui.bar.querySelector(".lesson-finished");
  return ui;
}

/** drawBar(ui, L, s, here, q): the bar for section s (here: the page shows its scenario; q: the question at this step). */
function drawBar(ui, L, s, here, q) {
  const { plan, index, finished } = L;
  fill(ui.lessonTitle, plan.title);
  fill(ui.count, `Section ${index + 1} of ${plan.sections.length}`);
  fill(ui.title, s.title);
  ui.rel.hidden = !s.release;
  fill(ui.rel, s.release ? `as ${s.release}` : "");
  fill(ui.goal, h("span", { class: "lesson-k2" }, "Goal "), s.goal || "");
  ui.prev.disabled = index === 0;
  ui.next.disabled = index + 1 >= plan.sections.length;
  ui.finishedEl.hidden = !finished;
  ui.bar.classList.toggle("finished", finished);
  ui.bar.classList.toggle("off-scenario", !here);
  ui.ask.hidden = !q;
  if (q) fill(ui.ask, h("span", { class: "lesson-k2" }, "Ask the room "), q.ask);
}

/** lessonPlace(L, s, v, here, q): what presenter mode is told of the lesson's place. */
function lessonPlace(L, s, v, here, q) {
  const { plan, index, finished } = L;
  const planned = plan.sections.slice(0, index + 1).reduce((n, x) => n + x.minutes, 0);
  // where PageDown goes from here: the section's next stop, the next section, or the end
  const nextStop = here ? s.stops.find((x) => x > v.step) : s.stops[0];
  const after = plan.sections[index + 1];
  return { section: index + 1, of: plan.sections.length, planned_minutes: planned, title: plan.title,
    section_title: s.title, section_minutes: s.minutes, minutes: plan.minutes, goal: s.goal || "",
    release: s.release || "", finished, ask: q ? q.ask : "", answer: q ? (q.predict ? predictAnswer(q) : q.answer) : "",
    notes: s.notes || "", next_stop: finished ? 0 : nextStop ?? 0,
    next_section: finished || nextStop !== undefined || !after ? "" : after.title, stops: s.stops.length,
    stop: here ? s.stops.indexOf(v.step) + 1 : 0, started: L.lessonStart, section_started: L.sectionStart };
}

/** tickClock(time, L): the time in the section and in the lesson against the plan, again when either clock turns a second (as the speaker window's, speaker-clock.js). */
function tickClock(time, L) {
  const { plan, index, sectionStart, lessonStart } = L;
  if (!plan) return;
  const s = section(L);
  const now = Date.now();
  const planned = plan.sections.slice(0, index + 1).reduce((n, x) => n + x.minutes, 0);
  const inSection = now - sectionStart;
  fill(time, `${clock(inSection)} / ${s.minutes} min · lesson ${clock(now - lessonStart)} / ${planned} of ${plan.minutes} min`);
  time.classList.toggle("over", inSection > s.minutes * 60000);
  clearTimeout(L.timer);
  const wait = Math.min(1000 - ((now - lessonStart) % 1000), 1000 - ((now - sectionStart) % 1000));
  L.timer = setTimeout(() => tickClock(time, L), Math.max(1, wait));
}
