// embed.js — the page inside another page: ?embed=1 shows only the stage and the step controls
// (with a caption, caption.js); the parent frame drives it with postMessage and hears back.
//
// In, from the parent only: {type: "explainer:goto", step} (a non-negative integer number) and
// {type: "explainer:open", scenario, step?} (step: go there once it is open). Out, to the parent:
// {type: "explainer:state", step, phase, steps, scenario} after every change, but not for the views
// on the way to what was asked (an open's step 0 before its step, a link's scenario before its
// step): the first state of a request or a link is the one asked for, and a request or link that
// fails gets no state, only {type: "explainer:error", message, request} (request null for the
// page's own link); {type: "explainer:resize", height} (the content height in CSS px) whenever it
// changes — in a frame of at least 600 × 500 px the page is one screen as tall as the frame, so
// that is the frame's height: the host chooses it (element.js does, by a fixed rule). Messages
// whose type does not start with "explainer:" are someone else's and are ignored.
// ?embed=1&theme=light|dark|auto sets the colour scheme (auto: the reader's system's).
// On the ?embed=1 page what could not be opened (an unknown scenario, a step out of range) is
// also shown, in a notice above the stage, until a later request or link is shown.
// Everything posted and shown is bounded (bound.js): a message at most 1,000 characters, and a
// request over that is echoed as its type only.
import { quote, bounded } from "../ui/bound.js";

export function isEmbed(search = location.search) {
  return new URLSearchParams(search).get("embed") === "1";
}

/** What is wrong with a request from the parent, or null; and the command it asks for. */
function readRequest(d) {
  if (d.type === "explainer:goto") {
    if (typeof d.step !== "number" || !Number.isInteger(d.step) || d.step < 0) {
      return { error: `explainer:goto needs step, a non-negative integer number; got ${describe(d.step)}` };
    }
    return { commands: [["goto", d.step]] };
  }
  if (d.type === "explainer:open") {
    if (typeof d.scenario !== "string" || !d.scenario) {
      return { error: `explainer:open needs scenario, the name of a built-in scenario; got ${describe(d.scenario)}` };
    }
    if (d.step !== undefined && (typeof d.step !== "number" || !Number.isInteger(d.step) || d.step < 0)) {
      return { error: `explainer:open's step, when given, is a non-negative integer number; got ${describe(d.step)}` };
    }
    return { commands: d.step === undefined ? [["open", d.scenario]] : [["open", d.scenario], ["goto", d.step]] };
  }
  return { error: `unknown message type ${quote(JSON.stringify(d.type))}: the explainer accepts explainer:goto and explainer:open` };
}

function describe(v) {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return `the string ${quote(JSON.stringify(v))}`;
  return `${typeof v} ${quote(String(v))}`;
}

/** The request as echoed in explainer:error: itself, or (over 1,000 characters) its type only. */
function echo(d) {
  let n = Infinity;
  try { n = JSON.stringify(d).length; } catch { /* a cycle */ }
  return n <= 1000 ? d : { type: quote(d.type, 100), echoed: `not whole: the request is ${Number.isFinite(n) ? n.toLocaleString("en-US") + " characters" : "not JSON"}` };
}

/**
 * createEmbed({session, embed, notice}) wires the postMessage API when the page is in a frame and
 * returns {error(message), begin(), end(ok)}: error shows what the page could not open from its own
 * link (an unknown scenario in the hash, a step out of range) in the notice (on the ?embed=1 page)
 * and posts it to the parent as explainer:error (request null); begin() … end(ok) bracket a link
 * being honoured (url.js): no state is posted in between, and the link's state at the end.
 */
export function createEmbed({ session, embed = false, notice = null }) {
  const parent = window.parent !== window ? window.parent : null;
  const post = (msg) => parent?.postMessage(msg, "*");
  const postState = (v) => { if (v) post({ type: "explainer:state", step: v.step, phase: v.phase, steps: v.steps, scenario: v.name }); };
  let holding = 0; // requests and links under way: their views on the way are not posted
  const show = (message) => {
    if (!embed || !notice) return;
    message = bounded(message);
    notice.replaceChildren(Object.assign(document.createElement("span"), { textContent: message }));
    notice.title = message; // (the notice shows three lines of it)
    notice.hidden = false;
  };
  const clear = () => { if (notice && !notice.hidden) { notice.hidden = true; notice.replaceChildren(); notice.title = ""; } };
  const begin = () => { holding++; };
  const end = (ok) => {
    holding--;
    if (!ok) return;
    clear();
    if (!holding) postState(session.view);
  };

  session.onView((v) => { if (!holding) postState(v); });
  const theme = embed ? themeError() : null;
  if (theme) { show(theme); post({ type: "explainer:error", message: theme, request: null }); }
  if (!parent) return { error: show, begin, end };

  window.addEventListener("message", async (ev) => {
    if (ev.source !== parent) return; // only the embedding page
    const d = ev.data;
    if (!d || typeof d !== "object" || typeof d.type !== "string" || !d.type.startsWith("explainer:")) return;
    if (d.type === "explainer:state" || d.type === "explainer:error" || d.type === "explainer:resize") return; // ours, echoed
    const { commands, error } = readRequest(d);
    if (error) { post({ type: "explainer:error", message: bounded(error), request: echo(d) }); return; }
    begin();
    let ok = false;
    try {
      for (const c of commands) await session.run(...c);
      ok = true;
    } catch (e) {
      const message = e && e.message ? e.message : String(e);
      show(message);
      post({ type: "explainer:error", message: bounded(message), request: echo(d) });
    } finally {
      end(ok);
    }
  });

  let height = -1;
  const measure = () => {
    const h = Math.ceil(document.body.getBoundingClientRect().height);
    if (h !== height) { height = h; post({ type: "explainer:resize", height: h }); }
  };
  // (its first report comes after the first layout: reading the height now would force one)
  new ResizeObserver(measure).observe(document.body);
  return {
    // (fatal: the page cannot work at all, its engine did not start: the element shows its message)
    error: (message, fatal = false) => { show(String(message)); post({ type: "explainer:error", message: bounded(message), request: null, ...(fatal ? { fatal: true } : {}) }); },
    begin, end,
  };
}

/** ?theme=light|dark (auto, or none: the reader's system) on the ?embed=1 page: style.css's
 *  :root[data-scheme]. Another value is shown in the notice and posted as explainer:error. */
export function themeError(search = location.search, root = document.documentElement) {
  const t = new URLSearchParams(search).get("theme");
  if (t === null || t === "" || t === "auto") return null;
  if (t === "light" || t === "dark") { root.dataset.scheme = t; return null; }
  return `theme ${JSON.stringify(t.slice(0, 40))} is not a theme: light, dark or auto`;
}
