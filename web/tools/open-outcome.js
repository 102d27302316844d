// open-outcome.js — "Open as timeline" for an explored outcome: its example schedule is loaded
// and opened where the outcome shows, at the check where the invariant broke (the engine's
// timeline mark of kind "invariant"), or at the end of the schedule when it never broke (a
// failure, or an end state that differs from another).

/** The step an outcome's timeline opens at. */
export function outcomeStep(view) {
  const broke = (view?.marks || []).find((m) => m.kind === "invariant");
  return broke ? broke.step : view?.steps ?? 0;
}

/** Load an outcome's example through the session, then go to its step. */
export async function openOutcome(session, text) {
  const v = await session.run("load", text);
  const n = outcomeStep(v);
  return v && v.step !== n ? session.run("goto", n) : v;
}
