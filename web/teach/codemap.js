// codemap.js — the code map: the executor's loop in our own words, as the engine gives it (the
// view's `code_map` under the run's release; docs/view.md), beside the stage, with the lines this
// step's explanations came from (`code_lit`) marked: ▶, highlighted and aria-current. Each line
// links to its lines of the release's file on GitHub; offline the text stands without the link.
//
// Shown or hidden with `c` and the header's "Code" button; the choice is kept in localStorage
// (a preference of the reader, like the colour scheme, not part of a shared link). On the page it
// is a column of the stage, which yields it room; in the embed and at ≤ 700 px wide it folds to
// one line naming the current branch (a button that unfolds the whole map). While a predict quiz
// asks (the dock's `asking`) no line is lit: the answer would show in it.
import { h, fill } from "../ui/dom.js";
import { rangeHref } from "../stage/render-narration.js";

const KEY = "backfill-explainer:codemap"; // "1" shown, "0" hidden
const NARROW = "(max-width: 700px)";

function load() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}
function save(on) {
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* storage blocked: keep it in memory */ }
}

/** The lit lines of a view, in the map's order (what the fold and the speaker window name). */
export function litLines(view) {
  const lit = new Set(view?.code_lit || []);
  return (view?.code_map || []).filter((l) => lit.has(l.id));
}

/** "backfill loop › upstream chunk → compact, buffer" */
export function lineLabel(l) { return `${l.section} › ${l.text}`; }

/**
 * createCodeMap({stage, embed}) → {el, toggle, button, shown, setShown(on), update(view)}
 * The panel goes first in the stage; `button` is the header's toggle (null in the embed).
 */
export function createCodeMap({ stage, embed = false }) {
  const narrowQ = typeof matchMedia === "function" ? matchMedia(NARROW) : null;
  const saved = load();
  // (off by default, on a phone too: its screen is the stage's; c or the header's Code shows it)
  let shown = embed || saved === "1";
  let expanded = false; // the folded map unfolded
  let view = null;
  let asking = false;

  const title = h("h2", { class: "cm-title", id: "codemap-title" }, "Code map");
  const sub = h("span", { class: "h-sub cm-release" });
  const close = h("button", {
    type: "button", class: "btn small cm-close", "aria-label": "Hide the code map (c)", title: "Hide the code map (c)",
    onclick: () => setShown(false),
  }, "×");
  const foldLabel = h("span", { class: "cm-fold-text", "data-testid": "codemap-branch" });
  const fold = h("button", {
    type: "button", class: "cm-fold", "data-testid": "codemap-fold", "aria-expanded": "false", "aria-controls": "codemap-lines",
    title: "Where in the executor's loop this step is: show the whole code map",
    onclick: () => { expanded = !expanded; render(); },
  }, h("span", { class: "cm-fold-k" }, "Code"), foldLabel, h("span", { class: "caret", "aria-hidden": "true" }, "▾"));
  const list = h("ol", { class: "cm-lines", id: "codemap-lines", "data-testid": "codemap-lines" });
  const el = h("section", { class: "codemap", id: "codemap", "data-testid": "codemap", "aria-labelledby": "codemap-title", hidden: !shown },
    h("div", { class: "cm-head" }, title, sub, embed ? null : close), fold, list);
  stage.prepend(el);

  const button = embed ? null : h("button", {
    type: "button", class: "btn toggle", id: "codemap-btn", "data-testid": "codemap-toggle", "aria-pressed": String(shown),
    "aria-controls": "codemap", "aria-keyshortcuts": "c", title: "Code map: where in the executor's loop this step is (c)",
    onclick: () => toggle(),
  }, h("span", { class: "tg-dot", "aria-hidden": "true" }), "Code");

  let drawnMap = null; // the JSON of the code_map list the lines were drawn from (every view is a fresh object)
  let drawnRelease = "";

  function folded() { return embed || !!narrowQ?.matches; }

  function drawLines() {
    const map = view?.code_map || [];
    const sig = JSON.stringify(map);
    if (sig === drawnMap) return;
    drawnMap = sig;
    drawnRelease = view?.release || "";
    fill(list, map.map((l) => {
      const where = l.url
        ? h("a", { class: "cm-where", href: rangeHref(l.url, l.lines), target: "_blank", rel: "noopener",
          title: `${l.file.split("/").pop()} lines ${l.lines[0]}–${l.lines[1]} at ${drawnRelease} on GitHub` },
        l.lines[0] === l.lines[1] ? `${l.lines[0]}` : `${l.lines[0]}–${l.lines[1]}`)
        : h("span", { class: "cm-where muted" }, "—");
      return h("li", { class: "cm-line", "data-id": l.id, "data-depth": Math.min(l.depth, 4) },
        h("span", { class: "cm-mark", "aria-hidden": "true" }, "▶"), h("span", { class: "cm-text" }, l.text, where));
    }));
  }

  function render() {
    el.hidden = !shown;
    button?.setAttribute("aria-pressed", String(shown));
    if (!shown || !view) return;
    drawLines();
    fill(sub, view.release ? `${view.release}` : "");
    const lit = asking ? new Set() : new Set(view.code_lit || []);
    let first = null;
    for (const li of list.children) {
      const on = lit.has(li.dataset.id);
      li.classList.toggle("lit", on);
      if (on) { li.setAttribute("aria-current", "step"); first ||= li; } else li.removeAttribute("aria-current");
    }
    const isFolded = folded();
    el.classList.toggle("folded", isFolded);
    el.classList.toggle("expanded", isFolded && expanded);
    fold.setAttribute("aria-expanded", String(!isFolded || expanded));
    const lines = asking ? [] : litLines(view);
    fill(foldLabel, asking ? "answer the quiz first"
      : lines.length ? [h("span", { class: "cm-mark", "aria-hidden": "true" }, "▶ "), lineLabel(lines[0]), lines.length > 1 ? h("span", { class: "muted" }, ` (+${lines.length - 1})`) : null]
        : view.step === 0 ? "not started" : "no line at this step");
    if (first && (!isFolded || expanded)) keepInSight(first);
  }

  // Scroll the list (never the page) so the first lit line is in sight.
  function keepInSight(li) {
    const box = list;
    if (box.scrollHeight <= box.clientHeight) return;
    const top = li.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + li.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }

  function setShown(on) {
    shown = !!on;
    if (!embed) save(shown);
    render();
  }
  function toggle() { setShown(!shown); }

  narrowQ?.addEventListener?.("change", render);
  // predict.js marks the dock `asking` while its quiz is shown
  const dock = document.getElementById("dock");
  if (dock && typeof MutationObserver === "function") {
    new MutationObserver(() => {
      const now = dock.classList.contains("asking");
      if (now !== asking) { asking = now; render(); }
    }).observe(dock, { attributes: true, attributeFilter: ["class"] });
  }

  return {
    el, button, toggle, setShown,
    get shown() { return shown; },
    update(v) { view = v; render(); },
  };
}
