// stage-helpers.mjs — what the stage-*.test.mjs files share: is a panel really in view? (Not a
// test file: build.sh runs web/test/*.test.mjs only.)
//
// A panel is in view when, without scrolling the page, its heading lies wholly inside the part
// of the screen the panel can show (the viewport, cut by every ancestor that clips or scrolls),
// its first item (the newest, for the output log) shows at least 40 px of itself (all of it if
// smaller), and document.elementFromPoint at the middle of each of those visible parts hits the
// panel itself or something inside it — not the dock, a dialog, the bug banner or the toast.

/** The panels that show the protocol, and where a view's note and failure show. */
export const REQUIRED = ["upstream-next", "buffer", "builders", "progress", "outputs", "narration"];

/**
 * inView(frameOrPage, ids, {bottomCover}) → [problem strings] (empty when every panel is in view).
 * bottomCover: a selector whose box counts as covering the bottom of the screen (the phone's
 * sticky bottom part, when checking a stage panel there).
 */
export async function inView(target, ids, opts = {}) {
  return target.evaluate(({ ids, opts }) => {
    const SPEC = {
      "upstream-next": { item: "li" },
      buffer: { item: "li.msg, .empty" },
      builders: { item: ".builder, .empty" },
      progress: { item: ".prog, .empty" },
      outputs: { item: "li", last: true },
      narration: { head: ".narr-head", item: ".why-item, p", scope: "#narration" },
      note: { head: ".k", self: true, scope: "[data-testid=note]" },
      fatal: { head: "#fatal-title", item: "[data-testid=fatal-message]", scope: "#fatal" },
      snapshot: { item: ".lane, .empty" },
      downstream: { item: ".chip, .empty" },
      invariant: { item: ".inv-status" },
      "state-table": { item: ".vrow, .empty, h4" },
      "progress-table": { item: "tr, .empty, h4" },
      "upstream-content": { item: ".chip, .empty" },
    };
    const problems = [];
    const vw = window.innerWidth;
    let vh = window.innerHeight;
    if (opts.bottomCover) {
      const c = document.querySelector(opts.bottomCover);
      if (c && getComputedStyle(c).position === "sticky") vh = Math.min(vh, c.getBoundingClientRect().top);
    }
    const clipOf = (el) => {
      let r = { top: 0, left: 0, bottom: vh, right: vw };
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX === "visible" && cs.overflowY === "visible" && cs.display !== "contents") continue;
        if (cs.display === "contents") continue;
        const b = a.getBoundingClientRect();
        r = { top: Math.max(r.top, b.top), left: Math.max(r.left, b.left), bottom: Math.min(r.bottom, b.bottom), right: Math.min(r.right, b.right) };
      }
      return r;
    };
    const cut = (b, c) => ({ top: Math.max(b.top, c.top), left: Math.max(b.left, c.left), bottom: Math.min(b.bottom, c.bottom), right: Math.min(b.right, c.right) });
    const fmt = (r) => `[${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)}]`;
    const hits = (what, id, scope, r) => {
      const x = (r.left + r.right) / 2;
      const y = (r.top + r.bottom) / 2;
      const at = document.elementFromPoint(x, y);
      if (!at || !(scope === at || scope.contains(at))) {
        const name = at ? `${at.tagName.toLowerCase()}${at.id ? "#" + at.id : ""}${at.className && typeof at.className === "string" ? "." + at.className.trim().split(/\s+/).join(".") : ""}` : "nothing";
        problems.push(`${id}: its ${what} at (${Math.round(x)},${Math.round(y)}) is covered by ${name}`);
      }
    };
    for (const id of ids) {
      const el = document.querySelector(`[data-testid="${id}"]`);
      const spec = SPEC[id] || { item: ":scope > *" };
      if (!el) { problems.push(`${id}: not on the page`); continue; }
      if (!el.getClientRects().length) { problems.push(`${id}: not shown`); continue; }
      const scope = spec.scope ? el.closest(spec.scope) || el : el.closest(".panel") || el;
      const head = spec.head ? scope.querySelector(spec.head) : scope.querySelector("h3");
      const items = spec.self ? [el] : [...el.querySelectorAll(spec.item)].filter((x) => x.getClientRects().length);
      const item = spec.last ? items.at(-1) : items[0];
      if (!head) problems.push(`${id}: no heading`);
      else {
        const b = head.getBoundingClientRect();
        const v = cut(b, clipOf(head));
        if (v.top > b.top + 1 || v.bottom < b.bottom - 1 || v.left > b.left + 1 || v.right < Math.min(b.right, b.left + 40) - 1) {
          problems.push(`${id}: heading ${fmt(b)} is not wholly in view (visible part ${fmt(v)})`);
        } else hits("heading", id, scope, v);
      }
      if (!item) { problems.push(`${id}: no item`); continue; }
      const b = item.getBoundingClientRect();
      const v = cut(b, clipOf(item));
      const need = Math.min(b.height, 40) - 1;
      if (v.bottom - v.top < need || v.right - v.left < Math.min(b.width, 40) - 1) {
        problems.push(`${id}: its ${spec.last ? "newest" : "first"} item ${fmt(b)} shows ${Math.max(0, Math.round(v.bottom - v.top))} px (visible part ${fmt(v)})`);
      } else hits(spec.last ? "newest item" : "first item", id, scope, v);
    }
    return problems;
  }, { ids, opts });
}

/** The panels a view needs in view: the protocol's, its note (unless presenting) and its failure. */
export async function requiredFor(target, { presenting = false } = {}) {
  // (the two fields read in the page: a whole view carried to Node costs more than the check)
  const v = await target.evaluate(async () => { const v = await window.explainer.view(); return { note: !!v.note, error: !!v.error }; });
  const ids = [...REQUIRED];
  if (v.note && !presenting) ids.push("note");
  if (v.error) ids.push("fatal");
  return ids;
}

/** Horizontal overflow of the page, or null. */
export async function sideways(target) {
  return target.evaluate(() => {
    const de = document.documentElement;
    if (de.scrollWidth <= window.innerWidth) return null;
    const wide = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest(".sr-only"))
      .slice(0, 4).map((e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${[...e.classList].join(".")}`);
    return `scrollWidth ${de.scrollWidth} > ${window.innerWidth}: ${wide.join(", ")}`;
  });
}

/** Wait until the page stops scrolling (smooth scrolls end), then two frames more. */
export async function settle(target) {
  await target.evaluate(() => new Promise((resolve) => {
    let last = -1;
    let still = 0;
    const tick = () => {
      const y = window.scrollY;
      still = y === last ? still + 1 : 0;
      last = y;
      if (still >= 6) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
}

/** Steps of the open scenario worth checking: the start, the middle, the last, each failure/recovery/end, each note. */
export async function sampleSteps(target) {
  return target.evaluate(async () => {
    const v = await window.explainer.goto(0);
    const steps = new Set([0, Math.floor(v.steps / 2), v.steps, ...v.marks.filter((m) => m.kind !== "barrier").map((m) => m.step)]);
    return [...steps].filter((n) => n >= 0 && n <= v.steps).sort((a, b) => a - b);
  });
}

/**
 * wholeInView(frameOrPage, ids) → [problem strings]: each element (a data-testid, or "#id") is shown, wholly inside
 * the viewport and every ancestor that clips it, with nothing scrolled to get there (the page and
 * every ancestor at scroll 0), and document.elementFromPoint at its centre hits it.
 */
export async function wholeInView(target, ids) {
  return target.evaluate((ids) => {
    const problems = [];
    if (window.scrollY || window.scrollX) problems.push(`the page is scrolled to ${window.scrollX},${window.scrollY}`);
    const fmt = (r) => `[${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)}]`;
    for (const id of ids) {
      const el = document.querySelector(id.startsWith("#") ? id : `[data-testid="${id}"]`);
      if (!el || !el.getClientRects().length) { problems.push(`${id}: not shown`); continue; }
      const b = el.getBoundingClientRect();
      let clip = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.display === "contents" || (cs.overflowX === "visible" && cs.overflowY === "visible")) continue;
        if (a.scrollTop || a.scrollLeft) problems.push(`${id}: inside ${a.tagName.toLowerCase()}${a.id ? "#" + a.id : ""}, scrolled to ${a.scrollLeft},${a.scrollTop}`);
        const r = a.getBoundingClientRect();
        clip = { top: Math.max(clip.top, r.top), left: Math.max(clip.left, r.left), bottom: Math.min(clip.bottom, r.bottom), right: Math.min(clip.right, r.right) };
      }
      if (b.top < clip.top - 0.5 || b.left < clip.left - 0.5 || b.bottom > clip.bottom + 0.5 || b.right > clip.right + 0.5) {
        problems.push(`${id}: box ${fmt(b)} is cut to ${fmt(clip)}`);
        continue;
      }
      const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
      if (!at || !(at === el || el.contains(at))) problems.push(`${id}: its centre is covered by ${at ? at.tagName.toLowerCase() + (at.id ? "#" + at.id : "") + "." + [...at.classList].join(".") : "nothing"}`);
    }
    return problems;
  }, ids);
}

/**
 * drawnOver(frameOrPage) → [problem strings]: every line of text whose visible part (inside the
 * viewport and its element's clipping ancestors; a part clipped away is not drawn over, only not
 * shown) has, at that part's centre, an element that is neither the text's element, inside it nor
 * around it (document.elementFromPoint): text something else is drawn over; or lies out of its part
 * of the page (its panel, column, narration, next actions, controls, failure panel or intro line):
 * text drawn over the part beside it.
 */
export async function drawnOver(target) {
  return target.evaluate(() => {
    const PARTS = ".panel, .col, .narration, .next, .controls, .fatal, .intro";
    const out = [];
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${[...e.classList].map((c) => "." + c).join("")}`;
    for (const el of document.querySelectorAll("body *")) {
      if (el.closest(".sr-only, [hidden], dialog:not([open])")) continue;
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim())) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === "hidden" || cs.opacity === "0") continue;
      let clip = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.display === "contents" || (s.overflowX === "visible" && s.overflowY === "visible")) continue;
        const r = a.getBoundingClientRect();
        clip = { top: Math.max(clip.top, r.top), left: Math.max(clip.left, r.left), bottom: Math.min(clip.bottom, r.bottom), right: Math.min(clip.right, r.right) };
      }
      // (each line of each of its own text nodes: a box's centre can be clear while its last line is not)
      const lines = [];
      for (const n of el.childNodes) {
        if (n.nodeType !== 3 || !n.data.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        lines.push(...range.getClientRects());
      }
      for (const r of lines) {
        const v = { top: Math.max(r.top, clip.top), left: Math.max(r.left, clip.left), bottom: Math.min(r.bottom, clip.bottom), right: Math.min(r.right, clip.right) };
        if (v.bottom - v.top < 4 || v.right - v.left < 4) continue;
        const x = (v.left + v.right) / 2;
        const y = (v.top + v.bottom) / 2;
        const at = document.elementFromPoint(x, y);
        if (!at || !(at === el || el.contains(at) || at.contains(el))) {
          out.push(`${name(el)} "${el.textContent.trim().slice(0, 40)}" at (${Math.round(x)},${Math.round(y)}) is under ${at ? name(at) : "nothing"}`);
          break;
        }
        // on top, but out of its part of the page: drawn over the part beside it (unless placed
        // there on purpose: inside something positioned absolutely or fixed within the part)
        const part = el.closest(PARTS);
        let placed = false;
        for (let a = el; a && a !== part; a = a.parentElement) if (/^(absolute|fixed)$/.test(getComputedStyle(a).position)) placed = true;
        if (placed) continue;
        const p = part?.getBoundingClientRect();
        if (p && (v.top < p.top - 1 || v.bottom > p.bottom + 1 || v.left < p.left - 1 || v.right > p.right + 1)) {
          out.push(`${name(el)} "${el.textContent.trim().slice(0, 40)}" at (${Math.round(x)},${Math.round(y)}) spills out of ${name(part)} ${Math.round(p.top)}–${Math.round(p.bottom)}`);
          break;
        }
      }
    }
    return out;
  });
}
