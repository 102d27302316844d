// glossary.js — the words a newcomer meets, defined where they appear. The definitions are the
// engine's (glossary/glossary.go, the bridge's `glossary`): this page holds no copy of them.
//
// decorate(root) finds glossary words (a term or one of its aliases, whole words, any case) in the
// text of the page's labels (panel headings, captions, the phase, the narration) and makes the
// first one of each term in every label a term button: hover, focus-and-Enter, or tap shows its
// definition in a small bubble beside it (role="status", so a screen reader reads it); Esc, a
// second tap, or a tap elsewhere hides it. glossaryList() is the whole list, for the help.
import { h, fill } from "../ui/dom.js";

// The labels decorate() looks in. Chips, values and buttons are never decorated.
const LABELS = [
  ".col-head", ".panel > h3", ".panel h4", "caption", ".h-sub", ".meta", ".k", "#phase", "#epoch",
  ".why-text", ".note", ".fatal-part h3", ".fatal-meaning", ".inv-text", ".empty",
].join(", ");
// never inside these (a button cannot hold a button; chips and code are values, not words)
// (nor in a dialog: the bubble lives in the page, under a modal dialog's top layer)
const SKIP = "button, a, select, option, input, textarea, .chip, code, pre, kbd, .term, .term-tip, .sr-only, dialog";
// the regions in which each term is defined once
const SCOPES = ".col, .narration, .fatal, .topbar, .intro, .bug-banner, .predict-panel, .speaker-notes";
// aliases too short or too common to be the glossary's word wherever they appear
const NOT_WORDS = new Set(["step", "steps", "u-", "u+", "op", "ops", "reuse", "compact", "position", "positions"]);

/** createGlossary(entries) → {decorate(root), list(), lookup(word), hide()} over the engine's entries. */
export function createGlossary(entries) {
  const list = Array.isArray(entries) ? entries : [];
  const words = indexWords(list);            // {byWord, re}
  const tip = createTermTip(words.byWord);   // the bubble and the term buttons that open it
  const watch = createLabelWatch();          // the labels a change may have made decoratable
  const plain = new WeakMap();               // label → its text, when that text holds no glossary word
  const marker = { ...words, termButton: tip.termButton, plain, wordy: watch.wordy };

  /** Make the first glossary word of each term in every label under root a term button. */
  function decorate(root = document) {
    if (!words.re) return;
    tip.hideDetached();
    const labels = watch.labels(root);
    watch.forget(); // (what came before is looked at now)
    decorateLabels(labels, marker);
    watch.forget(); // (its own term buttons: nothing to look at again)
  }

  return { decorate, list: () => glossaryList(list), lookup: (w) => words.byWord.get(String(w).toLowerCase()) || null, hide: tip.hide };
}

/** indexWords(list) → {byWord: word → entry, re: a regexp of every word (longest first), or null}. */
function indexWords(list) {
  const byWord = new Map();
  for (const e of list) {
    for (const w of [e.term, ...(e.aliases || [])]) {
      const k = String(w).toLowerCase();
      if (!byWord.has(k) && !NOT_WORDS.has(k)) byWord.set(k, e);
    }
  }
  const words = [...byWord.keys()].sort((a, b) => b.length - a.length);
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = words.length ? new RegExp(`(?<![A-Za-z0-9_])(${words.map(esc).join("|")})(?![A-Za-z0-9_])`, "gi") : null;
  return { byWord, re };
}

/**
 * createTermTip(byWord) → {termButton(text), hide(), hideDetached()}: the definition bubble
 * (one for the page) and the term buttons that show it: hover, focus-and-Enter or tap shows it;
 * Esc, a second tap, a tap elsewhere or leaving (when hover showed it) hides it.
 */
function createTermTip(byWord) {
  const tip = h("div", { class: "term-tip", id: "term-tip", role: "status", "data-testid": "term-tip", hidden: true });
  document.body.append(tip);
  let open = null;     // the term button whose definition is shown
  let byHover = false; // shown because the pointer rests on it (hidden when it leaves)

  function show(btn, hover) {
    const e = byWord.get(btn.dataset.term);
    if (!e) return;
    if (open && open !== btn) open.setAttribute("aria-expanded", "false");
    open = btn;
    byHover = hover;
    btn.setAttribute("aria-expanded", "true");
    fill(tip, h("strong", null, e.term), " ", e.definition);
    tip.hidden = false;
    placeTip(tip, btn);
  }
  function hide() {
    if (!open) return;
    open.setAttribute("aria-expanded", "false");
    open = null;
    tip.hidden = true;
    tip.replaceChildren();
  }

  function termButton(text) {
    return h("button", {
      type: "button", class: "term", "data-term": text.toLowerCase(), "aria-expanded": "false",
      "aria-controls": "term-tip", "data-testid": "term",
      onclick: (ev) => {
        ev.stopPropagation();
        const btn = ev.currentTarget;
        if (open === btn && !byHover) hide(); else show(btn, false);
      },
      onmouseenter: (ev) => { if (!open || byHover) show(ev.currentTarget, true); },
      onmouseleave: (ev) => { if (open === ev.currentTarget && byHover) hide(); },
      onblur: (ev) => { if (open === ev.currentTarget && !byHover) hide(); },
    }, text);
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && open) { ev.preventDefault(); ev.stopPropagation(); const b = open; hide(); b.focus(); }
  }, true);
  document.addEventListener("pointerdown", (ev) => {
    if (open && !(ev.target instanceof Element && (ev.target.closest(".term") === open || ev.target.closest(".term-tip")))) hide();
  });
  window.addEventListener("resize", () => { if (open) placeTip(tip, open); });

  return { termButton, hide, hideDetached: () => { if (open && !open.isConnected) hide(); } };
}

/** placeTip(tip, btn): the bubble under the word, or above it when it would run off the bottom of the window. */
function placeTip(tip, btn) {
  const r = btn.getBoundingClientRect();
  const w = Math.min(340, window.innerWidth - 16);
  tip.style.maxWidth = w + "px";
  const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - w - 8));
  tip.style.left = left + "px";
  const below = r.bottom + window.scrollY + 6;
  tip.style.top = below + "px";
  const th = tip.getBoundingClientRect().height;
  if (r.bottom + 6 + th > window.innerHeight && r.top - 6 - th > 0) tip.style.top = (r.top + window.scrollY - 6 - th) + "px";
}

/** Does any text node under el hold a glossary word? */
function hasWord(el, re) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    re.lastIndex = 0;
    if (re.test(n.nodeValue)) return true;
  }
  return false;
}

/**
 * createLabelWatch() → {labels(root), forget(), wordy}: the labels to look at again. decorate
 * looks at every label once, and from then on only at those a change could have made
 * decoratable (a MutationObserver on the page says which): a label added or whose text changed,
 * and every label of a region that lost a term button (a term it defined is free again there).
 * At 256 vnodes a step redraws a handful of the stage's labels; reading them all again (a
 * querySelectorAll of the labels over the whole page, the text of each) cost more than drawing
 * the step. wordy: the labels on the page found to hold a glossary word (decorateLabels adds them).
 */
function createLabelWatch() {
  const wordy = new Set();
  // (the records delivered between two decorates are kept; past a few thousand, every label is
  // looked at again instead)
  let queued = [];
  let overflow = false;
  // (without an observer, every label at every decorate, as the page did before)
  let observer = null;
  try {
    observer = new MutationObserver((records) => {
      if (overflow) return;
      queued.push(...records);
      if (queued.length > 4000) { queued = []; overflow = true; }
    });
  } catch { /* every label, every time */ }
  let watched = null; // the root whose labels have all been looked at, and is observed since
  function forget() { queued = []; overflow = false; observer?.takeRecords(); }

  /** The labels under root to look at: those changed since the last decorate, or all of them. */
  function labels(root) {
    const changed = observer && watched === root ? changedLabels(root, [...queued, ...observer.takeRecords()]) : null;
    if (changed) return changed;
    if (observer && watched !== root) {
      observer.disconnect();
      observer.observe(root, { subtree: true, childList: true, characterData: true });
      watched = root;
    }
    return root.matches?.(LABELS) ? [root, ...root.querySelectorAll(LABELS)] : root.querySelectorAll(LABELS);
  }

  /** The labels under root the records may have made decoratable, or null for all. */
  function changedLabels(root, records) {
    if (overflow) return null;
    const labels = new Set();
    const regions = new Set();
    for (const r of records) {
      const t = r.type === "characterData" ? r.target.parentElement : r.target;
      if (r.type === "childList" && !regionsLosingTerms(r, t, regions)) return null;
      if (!t || !t.isConnected) continue; // (a detached part: looked at when it is attached)
      labelsAround(t, labels);
      if (r.type !== "childList") continue;
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1 || !n.isConnected) continue;
        if (n.matches(LABELS)) labels.add(n);
        for (const l of n.querySelectorAll(LABELS)) labels.add(l);
      }
    }
    // (of a region's labels, those that hold a glossary word: every label was looked at once,
    // and one whose text changed since is among the changed ones)
    if (regions.size) {
      for (const l of wordy) {
        if (!l.isConnected) { wordy.delete(l); continue; }
        for (const region of regions) if (region.contains(l)) { labels.add(l); break; }
      }
    }
    return [...labels].filter((l) => root.contains(l))
      .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }

  return { labels, forget, wordy };
}

/**
 * regionsLosingTerms(record, target, regions): a term button left: every label of its region
 * (and of the regions around it) again, added to regions; false for the whole page, when that
 * region cannot be told (it left the page too, or none).
 */
function regionsLosingTerms(r, t, regions) {
  for (const n of r.removedNodes) {
    if (n.nodeType !== 1 || !(n.matches(".term") || n.querySelector(".term"))) continue;
    let region = t.isConnected ? t.closest(SCOPES) : null;
    if (!region) return false;
    for (; region; region = region.parentElement?.closest(SCOPES)) regions.add(region);
  }
  return true;
}

function labelsAround(node, into) {
  for (let l = node?.closest?.(LABELS); l; l = l.parentElement?.closest(LABELS)) into.add(l);
}

/**
 * decorateLabels(labels, {re, byWord, termButton, plain, wordy}): one definition of a term per
 * region (a column, the narration, the fatal panel, the header): the terms a region holds, read
 * once per region and kept up to date as terms are added (reading them again for every label
 * cost a querySelectorAll per label: 256 vnodes' labels).
 */
function decorateLabels(labels, marker) {
  const { re, byWord, plain, wordy } = marker;
  const seenIn = new Map();
  for (const label of labels) {
    // a label whose text holds no glossary word at all has nothing to decorate until its text
    // changes: at 256 vnodes most labels are the same from step to step
    const whole = label.textContent;
    if (plain.get(label) === whole) continue;
    if (!hasWord(label, re)) { plain.set(label, whole); continue; }
    wordy.add(label);
    if (label.closest(SKIP) || label.querySelector(":scope .term")) continue;
    const region = label.closest(SCOPES) || label;
    let seen = seenIn.get(region);
    if (!seen) {
      seen = new Set([...region.querySelectorAll(".term")].map((b) => byWord.get(b.dataset.term)?.term));
      seenIn.set(region, seen);
    }
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (n.parentElement && !n.parentElement.closest(SKIP) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
    });
    const texts = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n);
    for (const node of texts) markText(node, region, seen, seenIn, marker);
  }
}

/** markText: the text node with each unseen term of its region made a term button. */
function markText(node, region, seen, seenIn, { re, byWord, termButton }) {
  const s = node.nodeValue;
  re.lastIndex = 0;
  let m;
  let last = 0;
  const out = [];
  while ((m = re.exec(s)) !== null) {
    const e = byWord.get(m[1].toLowerCase());
    if (!e || seen.has(e.term)) continue;
    seen.add(e.term);
    // a region inside another: the outer one (if read already) now holds the term too
    for (let r = region.parentElement?.closest(SCOPES); r; r = r.parentElement?.closest(SCOPES)) seenIn.get(r)?.add(e.term);
    // punctuation against the word stays on its line with it (a button is a box: a line may
    // break beside it, and end with the "(" or start with the ";")
    const open = /[([]+$/.exec(s.slice(last, m.index))?.[0] ?? "";
    out.push(s.slice(last, m.index - open.length));
    last = m.index + m[1].length;
    const close = /^[,.;:!?)\]]+/.exec(s.slice(last))?.[0] ?? "";
    last += close.length;
    out.push(open || close ? h("span", { class: "term-glue" }, open || null, termButton(m[1]), close || null) : termButton(m[1]));
  }
  if (!out.length) return;
  out.push(s.slice(last));
  node.replaceWith(...out.filter((x) => x !== ""));
}

/** The whole glossary, for the help: a definition list in the engine's order. */
function glossaryList(list) {
  return h("dl", { class: "glossary", "data-testid": "glossary" }, list.flatMap((e) => [
    h("dt", { id: "gloss-" + e.term.replace(/[^a-z0-9]+/gi, "-") }, e.term,
      e.aliases && e.aliases.length ? h("span", { class: "gloss-aka" }, " — also " + e.aliases.join(", ")) : null),
    h("dd", null, e.definition),
  ]));
}
