// render-upstream.js — the UPSTREAM column: the messages still to come, the snapshot
// lanes (each vnode's rows in pk order with a cursor at `next`), and the upstream's content.
// The lanes and rows the last step changed are the view's changed_vnodes and added_rows.
import { h, fillIf, key, keyed, part, toggleClass } from "../ui/dom.js";
import { longList } from "./longlist.js";
import { chipListPart, rowChip, messageBody, stepBadge, vnodeLabel, fmtTuple, legend } from "./chips.js";

export function renderUpstream(view, els) {
  renderNext(view, els.next);
  renderSnapshot(view, els.snapshot, els.snapshotHead);
  const added = new Set((view.added_rows?.upstream_content || []).map(key));
  keyed(els.content, [chipListPart("content", view.upstream?.content || [], {
    empty: "no rows",
    changed: (r) => added.has(key(r)),
  })]);
}

function renderNext(view, ol) {
  const up = view.upstream || {};
  // Keyed by the message's step: a delivery rebuilds the message that became the next one and
  // the one that came into the list, not the dozen that stayed.
  const items = (up.next || []).map((msg, i) => ({
    key: "m" + msg.step, sig: key(msg), hl: i === 0 ? "n" : "", patch: markNext,
    build: () => h("li", { class: ["msg", "msg-" + msg.type, i === 0 && "is-next"] },
      stepBadge(msg.step, "upstream"),
      i === 0 ? srNext() : null,
      messageBody(msg, { markVisible: false })),
  }));
  if (up.more > 0) items.push({ key: "\0more", sig: String(up.more), build: () => h("li", { class: "msg more" }, `… and ${up.more} more`) });
  if (items.length === 0) {
    const text = up.ended ? legend("upstream.ended") : legend("upstream.nothing");
    items.push({ key: "\0empty", sig: text, build: () => h("li", { class: "msg empty" }, text) });
  } else if (up.ended) {
    items.unshift({ key: "\0ended", sig: "", build: () => h("li", { class: "msg ended" }, legend("upstream.ended_first")) });
  }
  keyed(ol, items);
}

const srNext = () => h("span", { class: "sr-only sr-next" }, "next: ");

/** markNext(li, hl): a message drawn before becomes the next one (hl "n"). */
function markNext(li, hl) {
  const on = hl === "n";
  toggleClass(li, "is-next", on);
  const sr = li.querySelector(":scope > .sr-next");
  if (on && !sr) {
    const badge = li.firstChild?.classList?.contains("stepno") ? li.firstChild : null;
    li.insertBefore(srNext(), badge ? badge.nextSibling : li.firstChild);
  } else if (!on && sr) sr.remove();
}

function renderSnapshot(view, box, head) {
  const snap = view.snapshot;
  if (head) {
    fillIf(head, snap ? "e" + snap.epoch : "", () => ["Snapshot", snap ? h("span", { class: "h-sub" }, " as of e" + snap.epoch) : null]);
  }
  if (!snap) {
    keyed(box, [{ key: "\0none", sig: "", build: () => h("p", { class: "empty" }, legend("snapshot.none")) }]);
    return;
  }
  const movedLanes = new Set(view.changed_vnodes?.snapshot || []);
  const opened = snap.refreshed_at_step === view.step && view.step > 0;
  const meta = () => h("p", { class: "meta" },
    h("span", null, `${snap.remaining} item${snap.remaining === 1 ? "" : "s"} to deliver`, h("span", { class: "gloss" }, ` (${legend("snapshot.end_counts")})`)),
    snap.refreshed_at_step !== undefined && snap.refreshed_at_step !== null
      ? h("span", { class: ["tag", opened && "changed"] }, "stream (re)started at step " + snap.refreshed_at_step)
      : null);
  // One keyed node per lane: a step rebuilds only the lanes it moved; a long list of lanes is
  // drawn a page at a time (longlist.js).
  const vnodes = snap.vnodes || [];
  const laneItem = (i) => {
    const lane = vnodes[i];
    const moved = movedLanes.has(lane.vnode);
    return {
      key: lane.vnode, sig: key(lane), hl: moved ? "1" : "", build: () => laneNode(lane, moved),
      patch: (node, hl) => { for (const c of node.querySelectorAll(".cursor")) toggleClass(c, "changed", hl === "1"); },
    };
  };
  keyed(box, [
    { key: "meta", sig: key([snap.remaining, snap.refreshed_at_step, opened]), build: meta },
    part("lanes", () => h("div", { class: "lanes" }), (lanes) => vnodes.length
      ? longList(lanes, vnodes.length, laneItem, { page: 16, more: (n) => `… ${n} more lane${n === 1 ? "" : "s"}` })
      : keyed(lanes, [{ key: "\0empty", sig: "", build: () => h("p", { class: "empty" }, legend("snapshot.no_lanes")) }])),
  ]);
}

function laneNode(lane, moved) {
  const rows = lane.rows || [];
  const offset = lane.offset || 0;                 // a long lane comes as a window of its rows
  const total = lane.total ?? offset + rows.length;
  const track = h("div", { class: "lane-rows" });
  if (offset > 0) track.append(h("span", { class: "lane-more" }, `… ${offset} earlier`));
  rows.forEach((r, i) => {
    if (i === lane.next) track.append(cursor(moved));
    track.append(rowChip(r, { extraClass: i < lane.next ? "read" : null }));
  });
  const later = total - offset - rows.length;
  if (later > 0) track.append(h("span", { class: "lane-more" }, `${later} more …`));
  else if (lane.next >= rows.length) track.append(cursor(moved), h("span", { class: "lane-end" }, rows.length ? "done" : "no rows"));
  return h("div", { class: "lane", "data-vnode": lane.vnode, "aria-label": `vnode ${lane.vnode}: ${offset + lane.next} of ${total} rows read` },
    vnodeLabel(lane.vnode),
    h("div", { class: "lane-body" },
      track,
      // pos is the vnode's progress: rows read into its builder are not in it yet
      h("div", { class: ["lane-pos", !lane.pos && "none"] }, lane.pos ? `${legend("snapshot.pos")} ${fmtTuple(lane.pos)}` : legend("snapshot.no_pos"))));
}

function cursor(changed) {
  return h("span", { class: ["cursor", changed && "changed"], title: "next row the snapshot delivers", "aria-hidden": "true" }, "▶");
}
