// diagnose.js — (lazy) the "I have an error…" dialog: paste an error message or a log excerpt,
// pick the release, and read what the engine's diagnosis says (explainer.diagnose: the same
// words as `backfill diagnose`); "Open the scenario at this step" opens the built-in at its
// failure step under that release (#scenario=NAME&step=N&release=R).
import { h, fill } from "../ui/dom.js";

const LIMIT = 64 * 1024; // what the engine reads, in bytes

/** createDiagnose(dialog, {explainer, openHash(hash)}) → {open()} */
export function createDiagnose(dialog, { explainer, openHash }) {
  const text = h("textarea", {
    id: "diagnose-text", class: "diagnose-text", rows: "7", spellcheck: "false", "data-testid": "diagnose-text",
    placeholder: "Paste an error message or a log excerpt, e.g.\nERROR actor exit with error actor_id=12 error=Actor 12 exited unexpectedly: Executor error: locality provider upstream ended unexpectedly during backfill",
  });
  const release = h("select", { id: "diagnose-release", "data-testid": "diagnose-release" },
    h("option", { value: "" }, "I don't know"));
  const answer = h("div", { class: "diagnose-answer", "data-testid": "diagnose-answer", "aria-live": "polite" });
  const run = h("button", { type: "button", class: "btn primary", "data-testid": "diagnose-run" }, "Diagnose");
  const form = h("form", { class: "help-body diagnose-form", onsubmit: (ev) => { ev.preventDefault(); diagnose(); } },
    h("label", { for: "diagnose-text" }, "The error message or the log lines"),
    text,
    h("div", { class: "diagnose-row" },
      h("label", { for: "diagnose-release" }, "RisingWave release"), release, run));
  run.addEventListener("click", () => diagnose());
  fill(dialog,
    h("div", { class: "dlg-head" }, h("h2", { id: "diagnose-title" }, "I have an error…"),
      h("button", { type: "button", class: "btn round", "aria-label": "Close", onclick: () => dialog.close() }, "×")),
    form, answer);
  let releases = null;

  async function diagnose() {
    try {
      show(await explainer.diagnose(text.value, release.value));
    } catch (e) {
      fill(answer, h("p", { role: "alert" }, e.message));
    }
  }

  function show(a) {
    const parts = [];
    if (a.truncated) parts.push(h("p", { class: "diagnose-note" }, `The text is longer than ${LIMIT >> 10} KiB: it was cut, and only its first ${LIMIT >> 10} KiB were read.`));
    if (!a.recognised) {
      parts.push(h("p", { "data-testid": "diagnose-unknown" }, "This text holds no message the diagnosis knows. It recognises these messages (and the releases that produce them):"),
        h("ul", null, a.known.map((k) => h("li", null, h("code", null, k.text), ` (${k.releases.join(", ")}${k.note ? ": " + k.note : ""})`))),
        h("p", null, "An error message it does not know may still come from RisingWave: look it up in the RisingWave source at your release."));
    }
    if (a.release_from) parts.push(h("p", { class: "diagnose-note", "data-testid": "diagnose-release-from" }, a.release_from));
    for (const m of a.matches || []) parts.push(match(m));
    fill(answer, parts);
    // on a phone the answer starts the first screen, above the form it scrolled past
    (answer.querySelector("[data-testid=diagnose-release-from]") || answer.querySelector(".diagnose-match"))?.scrollIntoView?.({ block: "start" });
  }

  // The answer first (what it means, what happens to the job, what is left behind, what to check, where to see it), then
  // who raises it and the proofs: on a phone the answer fits the first screen.
  function match(m) {
    const by = m.produced_by.join(", ") + (m.note ? ` (${m.note})` : "");
    const open = (hash) => { dialog.close(); openHash(hash); };
    return h("section", { class: "diagnose-match", "data-testid": "diagnose-match", "data-id": m.id },
      h("h3", null, m.panic ? "Panic: " : "Error: ", h("code", null, m.message)),
      h("p", { "data-testid": "diagnose-statement", class: m.produces ? "" : "diagnose-cannot" }, h("strong", null, `Release ${m.release}: `), m.statement),
      m.meaning ? h("p", { "data-testid": "diagnose-meaning" }, h("strong", null, m.produces ? "What it means: " : `What ${m.release} does instead: `), m.meaning) : null,
      m.job ? h("p", { "data-testid": "diagnose-job" }, h("strong", null, "The job: "), m.job) : null,
      m.left_behind ? h("p", { "data-testid": "diagnose-left" }, h("strong", null, "Left behind: "), m.left_behind) : null,
      m.look_next?.length ? [h("h4", null, "Where to look next, in order"),
        h("ol", { "data-testid": "diagnose-look" }, m.look_next.map((s) => h("li", null, s)))] : null,
      m.open
        ? h("p", null, h("strong", null, "See it in the explainer: "), `${m.open.scenario} at step ${m.open.step} under ${m.open.release}: ${m.open.why}. `,
          h("button", { type: "button", class: "btn", "data-testid": "diagnose-open", onclick: () => open(m.open.hash) },
            "Open the scenario at this step"))
        : h("p", null, "No built-in scenario shows it."),
      m.lesson
        ? h("p", null, h("strong", null, `Lesson (${m.lesson.minutes} minutes): `), m.lesson.title, " ",
          h("button", { type: "button", class: "btn", "data-testid": "diagnose-lesson", onclick: () => open(m.lesson.hash) }, "Start the lesson"))
        : null,
      h("p", null, h("strong", null, "Found in: "), h("code", { class: "diagnose-excerpt" }, m.excerpt)),
      h("p", null, h("strong", null, "Raised by: "), `${m.raiser}. `, h("strong", null, "Produced by: "), by + "."),
      m.phases?.length ? h("p", null, h("strong", null, "Phase: "), m.phases.join("; ")) : null,
      m.proven?.length ? [h("h4", null, "What the source proves"),
        h("ul", null, m.proven.map((c) => h("li", null, c.text, " ",
          h("a", { href: c.url, target: "_blank", rel: "noopener" }, `${c.file}:${c.lines[0]}-${c.lines[1]} at ${c.ref.length === 40 ? c.ref.slice(0, 11) : c.ref}`))))] : null);
  }

  return {
    async open() {
      if (!releases) {
        try {
          releases = (await explainer.diagnose("", "")).releases || [];
          release.append(...releases.map((r) => h("option", { value: r }, r)));
        } catch (e) { fill(answer, h("p", { role: "alert" }, e.message)); }
      }
      if (!dialog.open) dialog.showModal();
      text.focus();
    },
  };
}
