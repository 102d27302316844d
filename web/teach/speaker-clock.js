// speaker-clock.js — the speaker window's clock: the time since the talk started (this tab's
// speaker window opened, or its Restart), and, when the explainer window has a lesson open, the
// lesson's planned time beside it: how much is left, or how far over. It reads the page's own
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

  const elapsed = h("strong", { class: "sp-elapsed", "data-testid": "speaker-elapsed", role: "timer", "aria-label": "elapsed" }, "0:00");
  const plan = h("span", { class: "sp-plan", "data-testid": "speaker-plan" });
  const el = h("div", { class: "sp-clock", "data-testid": "speaker-clock" },
    h("span", { class: "sp-k" }, "Clock"), elapsed, plan,
    h("button", { type: "button", class: "btn small", "data-testid": "speaker-clock-restart", title: "Start the clock again from 0:00", onclick: () => { restart(); tick(); } }, "Restart"));

  function restart() {
    start = now();
    try { sessionStorage.setItem(key, String(start)); } catch { /* keep it in memory */ }
  }

  function tick() {
    const ms = now() - start;
    elapsed.textContent = formatDuration(ms);
    const planned = lesson && Number(lesson.planned_minutes) > 0 ? Number(lesson.planned_minutes) * 60000 : 0;
    el.classList.toggle("over", planned > 0 && ms > planned);
    if (!lesson) { fill(plan); return; }
    const where = Number(lesson.section) > 0 ? `section ${lesson.section}${Number(lesson.of) > 0 ? ` of ${lesson.of}` : ""}` : "";
    fill(plan,
      planned ? ` of ${formatDuration(planned)} planned` : null,
      planned ? h("span", { class: "sp-left", "data-testid": "speaker-left" }, ms > planned ? ` (${formatDuration(ms - planned)} over)` : ` (${formatDuration(planned - ms)} left)`) : null,
      // (the lesson's title is in the speaker window's Lesson box when the section is: not here too)
      lesson.title || where ? h("span", { class: "sp-lesson", "data-testid": "speaker-lesson" }, " · lesson",
        lesson.title && !lesson.section_title ? ` “${lesson.title}”` : "", where ? `, ${where}` : "") : null);
  }

  tick();
  setInterval(tick, 1000);
  return {
    el,
    /** the lesson the explainer window has open ({section, of, planned_minutes, title?}), or null */
    setLesson(l) { lesson = l && typeof l === "object" ? l : null; tick(); },
  };
}

function read(key) {
  try { return sessionStorage.getItem(key); } catch { return null; }
}
