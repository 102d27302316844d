// render-downstream.js — the DOWNSTREAM column: the output log (barriers, chunks with each
// row ✓ visible / ✗ hidden, watermarks, recoveries), downstream's rows, and the invariant. What
// the last step added comes from the view (new_outputs, added_rows, changed).
import { h, fillIf, setText, key, keyed, toggleClass } from "../ui/dom.js";
import { longList } from "./longlist.js";

const OUTPUTS_PAGE = 40; // outputs drawn at first: the newest (the view has at most 200)
import { chipList, chipListPart, messageBody, stepBadge, legend } from "./chips.js";

export function renderDownstream(view, els) {
  renderOutputs(view, els.outputs, els.outputsSub, els.outputsBox);
  const ds = view.downstream || { rows: [] };
  setText(els.downstreamSub, `durable e${ds.durable_epoch ?? 0}`);
  const added = new Set((view.added_rows?.downstream || []).map(key));
  keyed(els.downstream, [chipListPart("rows", ds.rows, {
    empty: view.dropped ? legend("downstream.dropped") : "no rows yet",
    changed: (r) => added.has(key(r)),
  })]);
  renderInvariant(view, els.invariant);
}

function renderOutputs(view, ol, sub, box) {
  const outs = view.outputs || [];
  const total = view.outputs_total ?? outs.length;
  const first = view.outputs_first ?? 0;
  const fresh = view.new_outputs ?? 0;
  // (and what the #N beside each output is: the step that emitted it)
  fillIf(sub, `${total} ${fresh}`, () => [`${total} in all` + (fresh ? ` · ${fresh} new this step` : "") + " · ",
    h("span", { class: "step-key", title: legend("outputs.step_key"), "data-testid": "outputs-step-key" }, "#N = step")]);
  // Keyed by position in the whole log: a step builds only the outputs it added or re-marked.
  // The newest end is in view: a long log is drawn a page at a time from there (longlist.js), the
  // marker before it counting the earlier outputs the view has and those it leaves out.
  const head = [];
  if (!outs.length) head.push({ key: "empty", sig: "", build: () => h("li", { class: "msg empty" }, "nothing emitted yet") });
  const rolled = view.rolled_back || [];
  const item = (i) => {
    const o = outs[i];
    const isNew = i >= outs.length - fresh;
    const rb = rolled.find((r) => first + i >= r.from && first + i < r.to) || null;
    return {
      key: "o" + (first + i), sig: (rb ? "r" + rb.step : "") + outputKey(o), hl: isNew ? "n" : "",
      patch: markNew,
      build: () => h("li", { class: ["msg", "msg-" + o.type, isNew && "new", isNew && "changed", rb && "rolled-back"], "data-rolled-back": rb ? String(rb.step) : null },
        stepBadge(o.step, "output"),
        isNew ? srNew() : null,
        messageBody(o),
        rb ? h("span", { class: "rb-tag", "data-testid": "rolled-back", title: `the recovery at step ${rb.step} went back to e${rb.epoch}: downstream undid this` },
          h("span", { "aria-hidden": "true" }, "⟲ "), `rolled back at step ${rb.step}`) : null),
    };
  };
  longList(ol, outs.length, item, {
    page: OUTPUTS_PAGE, fromEnd: true, tag: "li", markerClass: "msg more", head, always: first > 0,
    more: (n) => n === 0
      ? `… ${first} earlier output${first === 1 ? "" : "s"} not shown`
      : `… ${n + first} earlier output${n + first === 1 ? "" : "s"}` + (first ? ` (${first} of them not in this view)` : ""),
  });
  // Keep the newest output in sight: style.css lays the log's box out from its bottom (its
  // scroll origin is there), so the newest output stays in sight as outputs come and as the box
  // changes size, without a layout read here at every step; after the reader scrolled up the
  // log, the next view brings it back down (0 is the bottom).
  if (box) {
    watchAway(box);
    if (away.has(box)) { away.delete(box); box.scrollTop = 0; }
  }
}

// An output's signature, kept with the output object (a view is drawn more than once: the
// stage, the phone's layout, presenter mode), so it is written out once per view.
const outputKeys = new WeakMap();
function outputKey(o) {
  let k = outputKeys.get(o);
  if (k === undefined) outputKeys.set(o, k = key(o));
  return k;
}

const srNew = () => h("span", { class: "sr-only sr-new" }, "new: ");

/** markNew(li, on): an output drawn before marked new (hl "n") or no longer new. */
function markNew(li, hl) {
  const on = hl === "n";
  toggleClass(li, "new", on);
  toggleClass(li, "changed", on);
  const sr = li.querySelector(":scope > .sr-new");
  if (on && !sr) {
    const badge = li.firstChild?.classList?.contains("stepno") ? li.firstChild : null;
    li.insertBefore(srNew(), badge ? badge.nextSibling : li.firstChild);
  } else if (!on && sr) sr.remove();
}

const away = new WeakSet();    // output boxes the reader scrolled up
const watched = new WeakSet();
function watchAway(box) {
  if (watched.has(box)) return;
  watched.add(box);
  box.addEventListener("scroll", () => { if (box.scrollTop < -1) away.add(box); else away.delete(box); }, { passive: true });
}

const INV = {
  holds: { glyph: "✓", text: "holds" },
  violated: { glyph: "✗", text: "violated" },
  unchecked: { glyph: "–", text: "not checked yet" },
  dropped: { glyph: "–", text: "not checked" }, // (a dropped job's never will be)
};

function renderInvariant(view, box) {
  const inv = view.invariant || { status: "unchecked" };
  const m = (view.dropped && inv.status === "unchecked" ? INV.dropped : INV[inv.status]) || { glyph: "?", text: inv.status };
  const changed = !!view.changed?.invariant;
  fillIf(box, key([inv, changed]), () => invariantParts(inv, m, changed));
}

function invariantParts(inv, m, changed) {
  const parts = [
    h("p", { class: ["inv-status", "inv-" + inv.status, changed && "changed"] },
      h("span", { class: "glyph", "aria-hidden": "true" }, m.glyph), " ",
      h("strong", null, "invariant " + m.text),
      inv.step && inv.status !== "unchecked" ? h("span", { class: "h-sub" }, ` · checked at step ${inv.step}` + (inv.epoch ? `, e${inv.epoch}` : "")) : null),
  ];
  if (inv.text) parts.push(h("p", { class: "inv-text" }, inv.text));
  if (inv.missing && inv.missing.length)
    parts.push(h("div", { class: "inv-diff" }, h("span", { class: "k" }, "missing downstream: "), chipList(inv.missing, { extraClass: "missing" })));
  if (inv.extra && inv.extra.length)
    parts.push(h("div", { class: "inv-diff" }, h("span", { class: "k" }, "extra downstream: "), chipList(inv.extra, { extraClass: "extra" })));
  return parts;
}
