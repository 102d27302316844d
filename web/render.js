// render.js — renders one view onto the stage. It keeps the previously rendered view and
// hands it to each panel, which highlights what changed; it computes no protocol logic.
import { $, h, fill, richParagraphs } from "./dom.js";
import { renderUpstream } from "./render-upstream.js";
import { renderExecutor } from "./render-executor.js";
import { renderDownstream } from "./render-downstream.js";
import { renderNarration } from "./render-narration.js";
import { renderFatal } from "./render-fatal.js";

const PHASE_TEXT = {
  starting: "starting", buffering: "buffering", backfilling: "backfilling", completing: "completing",
  forwarding: "forwarding", ended: "ended", failed: "failed",
};

export function findElements(root = document) {
  const q = (id) => root.getElementById ? root.getElementById(id) : $("#" + id, root);
  return {
    title: q("scenario-title"), summary: q("scenario-summary"),
    phase: q("phase"), epoch: q("epoch"), fatal: q("fatal"),
    upstream: { next: q("upstream-next"), snapshot: q("snapshot"), snapshotHead: q("h-snapshot"), content: q("upstream-content") },
    executor: {
      sub: q("executor-sub"), buffer: q("buffer"), builders: q("builders"), buildersSub: q("builders-sub"),
      progress: q("progress"), stateTable: q("state-table"), stateTableSub: q("state-table-sub"),
      progressTable: q("progress-table"), progressTableSub: q("progress-table-sub"),
    },
    downstream: {
      outputs: q("outputs"), outputsSub: q("outputs-sub"), outputsBox: q("outputs-box"),
      downstream: q("downstream"), downstreamSub: q("downstream-sub"), invariant: q("invariant"),
    },
    narration: q("narration-live"),
  };
}

/**
 * createRenderer(els, {onRecover}) → {render(view, {fresh}), reset()}
 * `fresh: true` (a newly opened scenario) renders without change highlights.
 */
export function createRenderer(els, opts = {}) {
  let last = null;
  return {
    reset() { last = null; },
    get last() { return last; },
    render(view, { fresh = false } = {}) {
      const prev = fresh || !last || last.title !== view.title ? null : last;
      document.documentElement.dataset.phase = view.phase || "";
      // Header and intro.
      fill(els.title, view.title || "Untitled scenario");
      fill(els.summary, richParagraphs(view.summary || ""));
      fill(els.phase, h("span", { class: "sr-only" }, "phase: "), (PHASE_TEXT[view.phase] || view.phase || "").toUpperCase());
      els.phase.className = "phase ph-" + (view.phase || "none") + (prev && prev.phase !== view.phase ? " changed" : "");
      fill(els.epoch, view.epoch ? `epoch e${view.epoch}` : "no barrier yet");
      els.epoch.classList.toggle("changed", !!(prev && prev.epoch !== view.epoch));
      // The three columns, the narration and the fatal panel.
      renderUpstream(view, prev, els.upstream);
      renderExecutor(view, prev, els.executor);
      renderDownstream(view, prev, els.downstream);
      renderNarration(view, els.narration);
      const recover = (view.actions || []).find((a) => a.kind === "recover") || null;
      renderFatal(view, els.fatal, recover, opts.onRecover || (() => {}));
      last = view;
    },
  };
}
