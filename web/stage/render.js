// render.js — renders one view onto the stage. What the last step changed comes from the view
// itself (`changed`, `changed_vnodes`, `added_rows`): each panel whose part changed is marked
// data-changed="true" (the panel's data-testid is the key of `changed`, with - for _), and the
// panels mark the items the engine names. It computes no protocol logic.
import { $, h, fillIf, setText, richParagraphs } from "../ui/dom.js";
import { renderUpstream } from "./render-upstream.js";
import { renderExecutor } from "./render-executor.js";
import { renderDownstream } from "./render-downstream.js";
import { renderNarration } from "./render-narration.js";
import { renderFatal } from "./render-fatal.js";
import { resetLongLists } from "./longlist.js";
import { createFlashPace } from "./flash.js";

/** The stage's elements under root; prefix: the ids' prefix in a copy of the stage (compare.js). */
export function findElements(root = document, prefix = "") {
  const q = (id) => root.getElementById ? root.getElementById(prefix + id) : $("#" + prefix + id, root);
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

// The panels are the page's own elements (index.html): each is looked up once, not at every step
// (again when it left the page: the note is drawn anew with the narration).
const panelOf = new Map(); // key of `changed` → {el, panel}

/** markChanged sets data-changed on every panel the view says the last step changed. */
function markChanged(view, root = document) {
  for (const [k, on] of Object.entries(view.changed || {})) {
    let p = panelOf.get(k);
    if (!p || !p.el.isConnected) {
      const el = root.querySelector(`[data-testid="${k.replaceAll("_", "-")}"]`);
      if (!el) { panelOf.delete(k); continue; }
      p = { el, panel: el.closest(".panel") };
      panelOf.set(k, p);
    }
    if (on) { if (p.el.dataset.changed !== "true") p.el.dataset.changed = "true"; } else if ("changed" in p.el.dataset) delete p.el.dataset.changed;
    if (p.panel && p.panel.classList.contains("panel-changed") !== !!on) p.panel.classList.toggle("panel-changed", !!on);
  }
}

/** createRenderer(els, {onRecover}) → {render(view)} */
export function createRenderer(els, opts = {}) {
  let scenario = null; // which scenario the long lists were drawn for
  const flash = createFlashPace(); // views in quick succession: no change flash (flash.js)
  return {
    render(view) {
      flash.view();
      const ch = view.changed || {};
      // another scenario: its long lists start again from their first page (longlist.js)
      const now = `${view.name}\0${view.title}\0${view.config?.owned?.length}`;
      if (now !== scenario) { scenario = now; resetLongLists(); }
      // (each part is drawn again only when what it shows changed: dom.js fillIf)
      if (document.documentElement.dataset.phase !== (view.phase || "")) document.documentElement.dataset.phase = view.phase || "";
      setText(els.title, view.title || "Untitled scenario");
      fillIf(els.summary, view.summary || "", () => richParagraphs(view.summary || ""));
      fillIf(els.phase, String(view.phase), () => [h("span", { class: "sr-only" }, "phase: "), String(view.phase || "").toUpperCase()]);
      const phaseClass = "phase ph-" + (view.phase || "none") + (ch.phase ? " changed" : "");
      if (els.phase.className !== phaseClass) els.phase.className = phaseClass;
      setText(els.epoch, view.epoch ? `epoch e${view.epoch}` : "no barrier yet");
      if (els.epoch.classList.contains("changed") !== !!ch.epoch) els.epoch.classList.toggle("changed", !!ch.epoch);
      renderUpstream(view, els.upstream);
      renderExecutor(view, els.executor);
      renderDownstream(view, els.downstream);
      renderNarration(view, els.narration);
      const recover = (view.actions || []).find((a) => a.kind === "recover") || null;
      renderFatal(view, els.fatal, recover, opts.onRecover || (() => {}));
      markChanged(view);
    },
  };
}
