// embed.js — the page inside another page: ?embed=1 shows only the stage and the step controls;
// the parent frame drives it with postMessage and hears back.
//
// In, from the parent only: {type: "explainer:goto", step} (a non-negative integer number) and
// {type: "explainer:open", scenario}. Out, to the parent: {type: "explainer:state", step, phase,
// steps, scenario} after every change; {type: "explainer:error", message, request} when a message
// from the parent is malformed or its command fails; {type: "explainer:resize", height} (the
// content height in CSS px) whenever it changes. Messages whose type does not start with
// "explainer:" are someone else's and are ignored.

export function isEmbed(search = location.search) {
  return new URLSearchParams(search).get("embed") === "1";
}

/** What is wrong with a request from the parent, or null; and the command it asks for. */
function readRequest(d) {
  if (d.type === "explainer:goto") {
    if (typeof d.step !== "number" || !Number.isInteger(d.step) || d.step < 0) {
      return { error: `explainer:goto needs step, a non-negative integer number; got ${describe(d.step)}` };
    }
    return { command: ["goto", d.step] };
  }
  if (d.type === "explainer:open") {
    if (typeof d.scenario !== "string" || !d.scenario) {
      return { error: `explainer:open needs scenario, the name of a built-in scenario; got ${describe(d.scenario)}` };
    }
    return { command: ["open", d.scenario] };
  }
  return { error: `unknown message type ${JSON.stringify(d.type)}: the explainer accepts explainer:goto and explainer:open` };
}

function describe(v) {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return `the string ${JSON.stringify(v)}`;
  return `${typeof v} ${String(v)}`;
}

/**
 * createEmbed({session}) wires the postMessage API when the page is in a frame, and returns
 * {error(message)}: what the page could not open from its own URL (an unknown scenario in the
 * hash, a step out of range) is posted to the parent as explainer:error too (request null).
 */
export function createEmbed({ session }) {
  const parent = window.parent;
  if (!parent || parent === window) return { error() {} };
  const post = (msg) => parent.postMessage(msg, "*");

  session.onView((v) => post({ type: "explainer:state", step: v.step, phase: v.phase, steps: v.steps, scenario: v.name }));

  window.addEventListener("message", (ev) => {
    if (ev.source !== parent) return; // only the embedding page
    const d = ev.data;
    if (!d || typeof d !== "object" || typeof d.type !== "string" || !d.type.startsWith("explainer:")) return;
    if (d.type === "explainer:state" || d.type === "explainer:error" || d.type === "explainer:resize") return; // ours, echoed
    const { command, error } = readRequest(d);
    if (error) { post({ type: "explainer:error", message: error, request: d }); return; }
    session.run(...command).catch((e) => post({ type: "explainer:error", message: e && e.message ? e.message : String(e), request: d }));
  });

  let height = -1;
  const measure = () => {
    const h = Math.ceil(document.body.getBoundingClientRect().height);
    if (h !== height) { height = h; post({ type: "explainer:resize", height: h }); }
  };
  // (its first report comes after the first layout: reading the height now would force one)
  new ResizeObserver(measure).observe(document.body);
  return { error: (message) => post({ type: "explainer:error", message: String(message), request: null }) };
}
