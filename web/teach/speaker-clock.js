// speaker-clock.js — the speaker window's clock: the time since the talk started (this tab's
// speaker window opened, or its Restart), or, when the explainer window has a lesson open, the
// lesson's own clock (the lesson bar's: since the lesson started) with its planned time beside
// it (how much is left, or how far over) and the time in this section. It reads the page's own
// clock only (Date.now); nothing of it leaves the window.
import { h, fill } from "../ui/dom.js";

const START_KEY = "backfill-explainer:speaker-start:";

/** "m:ss" under an hour, "h:mm:ss" from one (negative durations count as 0). */
export function formatDuration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hh > 0 ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/**
 * createClock(id, {now}) → {el, setLesson(lesson|null)}: the clock's box (it ticks once a second).
 * `lesson` is what the explainer window sends: {section, of, planned_minutes, title?}.
 */
export function createClock(id, { now = () => Date.now() } = {}) {
  const key = START_KEY + id;
  let start = Number(read(key));
  if (!Number.isFinite(start) || start <= 0 || start > now()) restart();
  let lesson = null;
  let timer = 0;

  const elapsed = h("strong", { class: "sp-elapsed", "data-testid": "speaker-elapsed", role: "timer", "aria-label": "elapsed" }, "0:00");
  const plan = h("span", { class: "sp-plan", "data-testid": "speaker-plan" });
  const restartBtn = h("button", { type: "button", class: "btn small", "data-testid": "speaker-clock-restart", title: "Start the clock again from 0:00", onclick: () => { restart(); tick(); } }, "Restart");
  const el = h("div", { class: "sp-clock", "data-testid": "speaker-clock" },
    h("span", { class: "sp-k" }, "Clock"), elapsed, plan,
    restartBtn);

  function restart() {
    start = now();
    try { sessionStorage.setItem(key, String(start)); } catch { /* keep it in memory */ }
  }

  function tick() {
    // A lesson open in the explainer window has its own clock (lesson-bar.js: kept over a reload
    // of either window): the same time as the lesson bar. Else the time since this window started.
    const lessonStart = lesson && Number(lesson.started) > 0 && Number(lesson.started) <= now() ? Number(lesson.started) : 0;
    const ms = now() - (lessonStart || start);
    // the next tick when the clock turns a second (the lesson bar turns at the same instants)
    clearTimeout(timer);
    timer = setTimeout(tick, 1000 - (ms % 1000));
    elapsed.textContent = formatDuration(ms);
    restartBtn.hidden = !!lessonStart;
    const planned = lesson && Number(lesson.planned_minutes) > 0 ? Number(lesson.planned_minutes) * 60000 : 0;
    el.classList.toggle("over", planned > 0 && ms > planned);
    if (!lesson) { fill(plan); return; }
    const where = Number(lesson.section) > 0 ? `section ${lesson.section}${Number(lesson.of) > 0 ? ` of ${lesson.of}` : ""}` : "";
    const sectionStart = Number(lesson.section_started) > 0 && Number(lesson.section_started) <= now() ? Number(lesson.section_started) : 0;
    const sectionMs = sectionStart ? now() - sectionStart : 0;
    fill(plan,
      planned ? ` of ${formatDuration(planned)} planned` : null,
      planned ? h("span", { class: "sp-left", "data-testid": "speaker-left" }, ms > planned ? ` (${formatDuration(ms - planned)} over)` : ` (${formatDuration(planned - ms)} left)`) : null,
      sectionStart ? h("span", { class: "sp-section-clock", "data-testid": "speaker-section-clock" },
        ` · this section ${formatDuration(sectionMs)}${Number(lesson.section_minutes) > 0 ? ` of ${lesson.section_minutes} min` : ""}`) : null,
      // (the lesson's title is in the speaker window's Lesson box when the section is: not here too)
      lesson.title || where ? h("span", { class: "sp-lesson", "data-testid": "speaker-lesson" }, " · lesson",
        lesson.title && !lesson.section_title ? ` “${lesson.title}”` : "", where ? `, ${where}` : "") : null);
  }

  tick();
  return {
    el,
    /** the lesson the explainer window has open ({section, of, planned_minutes, title?}), or null */
    setLesson(l) { lesson = l && typeof l === "object" ? l : null; tick(); },
  };
}

function read(key) {
  try { return sessionStorage.getItem(key); } catch { return null; }
}
