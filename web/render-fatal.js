// render-fatal.js — the fatal panel, shown when the view's `error` is set: the exact error
// text, what it means, when it happens in practice, and what to do, with a Recover button.
// The texts are documentation about known error messages (written for this page from the
// error record of RisingWave's locality provider); the engine decides when an error happens.
import { h, fill } from "./dom.js";

const PINNED = "https://github.com/risingwavelabs/risingwave/blob/448c6570b1b9d636736708340f61a85900c2b7d7/src/stream/src/executor/locality_provider.rs";

const KNOWN = [
  {
    match: "locality provider upstream ended unexpectedly during backfill",
    lines: [599, 604],
    means: "While backfilling, the executor races its upstream against the snapshot and can only finish an epoch when the upstream delivers a barrier. Here the upstream stream simply stopped — no barrier, no error — so the backfill loop has nothing to break on and gives up. The rows waiting in the builders and the buffered upstream chunks are never emitted; nothing of this epoch is committed.",
    when: [
      "the upstream actor crashed or panicked in the middle of the backfill;",
      "a rescale, schema change or fragment rewrite removed the upstream while the backfill ran;",
      "the upstream reached a terminal error state, or was stopped without sending a final barrier (a scheduler bug).",
    ],
    todo: [
      "Recover: barrier-based recovery restarts the fragment from the last checkpoint, and the backfill resumes from its persisted progress (vnodes that were InProgress continue after their pos).",
      "Find the root cause upstream: look at the upstream actor's logs for the failure that ended its stream, and fix that.",
      "Avoid rescaling or DDL while a backfill is running; re-run it once the topology is stable.",
      "If it happens with a healthy upstream, it is an executor or scheduler protocol violation: report it with the fragment graph.",
    ],
  },
  {
    match: "updating vnode bitmap in place is not supported",
    means: "A barrier carried a rescale (an Update mutation with a new vnode bitmap for this actor) before the backfill was done. The locality provider cannot change the vnodes it owns in place, so it fails. Chunks drained or marked at this barrier were already emitted; nothing of this epoch is committed.",
    when: ["an online rescale or reschedule was issued while the backfill was still buffering or backfilling."],
    todo: ["Recover from the last checkpoint.", "Let the backfill finish before rescaling, or reschedule offline."],
  },
  {
    match: "failed to extract the first message",
    means: "The executor's first message must be a barrier; the upstream stream closed before sending one.",
    when: ["the upstream actor stopped or failed before the job's first barrier reached this actor."],
    todo: ["Recover, and look at why the upstream stopped before its first barrier."],
  },
  {
    match: "the first message must be a barrier",
    means: "A chunk or watermark arrived before any barrier. RisingWave panics here: the streaming protocol guarantees a barrier first, so this is a bug in whatever feeds the executor.",
    when: ["never in a healthy cluster; only with a broken upstream or a hand-made test stream."],
    todo: ["Recover; report the upstream that broke the protocol."],
  },
];

const GENERIC = {
  means: "The upstream yielded an error and the executor propagates it: the actor fails and the job must recover.",
  when: ["whatever failed upstream — an upstream actor error, a storage or network failure."],
  todo: ["Recover from the last checkpoint.", "Find the upstream's root cause in its logs."],
};

/**
 * Render the fatal panel. onRecover is called by the Recover button; recoverAction is the
 * Action whose kind is "recover" (null if the engine offers none).
 */
export function renderFatal(view, panel, recoverAction, onRecover) {
  const err = view.error;
  if (!err) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const msg = String(err.message ?? "");
  const info = KNOWN.find((k) => msg.includes(k.match)) || GENERIC;
  panel.hidden = false;
  const recoverBtn = h("button", {
    type: "button", class: "btn danger", id: "recover-btn", "data-testid": "recover",
    disabled: !recoverAction, title: "Recover (r)",
    onclick: () => recoverAction && onRecover(recoverAction),
  }, "⟲ ", recoverAction ? (recoverAction.label || "Recover") : "Recover");
  fill(panel,
    h("div", { class: "fatal-head" },
      h("span", { class: "fatal-icon", "aria-hidden": "true" }, "⚠"),
      h("div", null,
        h("h2", { id: "fatal-title" }, err.panic ? "The executor panicked" : "The executor failed",
          err.step ? h("span", { class: "h-sub" }, ` at step ${err.step}`) : null),
        h("pre", { class: "errmsg", "data-testid": "fatal-message" }, h("code", null, msg))),
      recoverBtn),
    h("div", { class: "fatal-body" },
      h("div", null, h("h3", null, "What it means"), h("p", null, info.means),
        info.lines ? h("p", null, h("a", { class: "src", href: `${PINNED}#L${info.lines[0]}-L${info.lines[1]}`, target: "_blank", rel: "noopener noreferrer" },
          `locality_provider.rs L${info.lines[0]}–${info.lines[1]}`)) : null),
      h("div", null, h("h3", null, "When it happens in practice"), h("ul", null, info.when.map((w) => h("li", null, w)))),
      h("div", null, h("h3", null, "What to do"), h("ol", null, info.todo.map((w) => h("li", null, w))))));
}
