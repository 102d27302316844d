// element.js — <backfill-explainer>, the explainer as one tag in a documentation page:
//
//   <script type="module" src="…/web/element.js"></script>
//   <backfill-explainer scenario="fatal-upstream-end" step="9"></backfill-explainer>
//
// Attributes: scenario (a built-in scenario's name), step (a step number), bug (a bug mode),
// release (a RisingWave release, e.g. v3.0: its &release=), create (foreground or background: its
// &create=), src (a scenario file, as a path
// relative to the explainer's page: its #src=), height (a fixed height: a number of CSS px or any
// CSS length).
//
// Its height, without `height`, comes from a fixed rule, never from the embedded page (whose
// one-screen layout is as tall as its frame: following it fed the height back on itself): the
// CSS custom property --backfill-explainer-height if the documentation page sets one, else
// 720 px when the element is at least 600 px wide (the page's one-screen layouts: compact up to
// 999 px, wide from 1000 px) and 640 px when narrower (the phone layout, which scrolls inside the
// frame with the step controls kept in view, and leaves a phone's page some screen to scroll by),
// and never more than the screen's height (100svh).
//
// It is lazy: until the element comes near the viewport (an IntersectionObserver, 400 px ahead)
// nothing of the explainer loads — no iframe, no wasm. Then it wraps the ?embed=1 page, found
// relative to this module's own URL (../index.html), in an iframe, and re-dispatches the page's
// `explainer:state` and `explainer:error` messages as DOM CustomEvents `explainer-state` and
// `explainer-error` on the element (event.detail is the message). Changing `scenario` or `step`
// moves the embedded page (postMessage explainer:open with the step / explainer:goto, whose
// failures come back as explainer-error); changing `bug`, `release` or `src` (or `scenario` while
// `release` is set: opening a scenario plays the default release) moves it by its URL hash (a
// fragment navigation: the page is not reloaded). Styles are set through the CSSOM only, so a
// strict CSP (style-src 'self') has nothing to refuse.

const PAGE = new URL("../index.html", import.meta.url);
const NEAR = "400px 0px";   // how far ahead of the viewport loading starts
const ONE_SCREEN = 600;     // CSS px: from this width the embedded page is one screen (style.css)
const HEIGHT = 720;         // CSS px, the height of an element that wide
const PHONE_HEIGHT = 640;   // CSS px, the height of a narrower one
const HEIGHT_VAR = "--backfill-explainer-height";

/** The rule: the height (a CSS value) of an element `width` CSS px wide, without `height`. */
export function autoHeight(width) {
  const px = width >= ONE_SCREEN ? HEIGHT : PHONE_HEIGHT;
  return `var(${HEIGHT_VAR}, min(${px}px, 100svh))`;
}

function cssLength(v) {
  const s = String(v ?? "").trim();
  if (!s) return null;
  return /^\d+(\.\d+)?$/.test(s) ? `${s}px` : s;
}

let observer = null;
function observe(el) {
  if (typeof IntersectionObserver !== "function") { el.load(); return; }
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) { observer.unobserve(e.target); e.target.load(); }
    }
  }, { rootMargin: NEAR });
  observer.observe(el);
}

export class BackfillExplainer extends HTMLElement {
  static get observedAttributes() { return ["scenario", "step", "bug", "release", "create", "src", "height"]; }

  constructor() {
    super();
    this.iframe = null;
    this.lastState = null;       // the last explainer:state the page posted
    this._width = 0;             // the element's width, as its ResizeObserver last saw it
    this._changed = new Set();   // attributes changed since the last flush
    this._flushing = false;
    this._onMessage = (ev) => this._message(ev);
    this._resize = new ResizeObserver((entries) => {
      const w = entries.at(-1).contentRect.width;
      if ((w >= ONE_SCREEN) !== (this._width >= ONE_SCREEN)) { this._width = w; this._size(); } else this._width = w;
    });
  }

  connectedCallback() {
    this.style.display = "block";
    this._size();
    this._resize.observe(this);
    if (!this.iframe) observe(this);
  }

  disconnectedCallback() {
    observer?.unobserve(this);
    this._resize.disconnect();
    window.removeEventListener("message", this._onMessage);
    if (this.iframe) { this.iframe.remove(); this.iframe = null; }
  }

  /** The embedded page's URL for the attributes now. */
  pageURL() {
    const u = new URL(PAGE);
    u.search = "?embed=1";
    const p = new URLSearchParams();
    const src = this.getAttribute("src"), scenario = this.getAttribute("scenario");
    const step = this.getAttribute("step"), bug = this.getAttribute("bug");
    if (src) p.set("src", src);
    else if (scenario) p.set("scenario", scenario);
    if (step !== null && step !== "") p.set("step", step);
    if (bug) p.set("bug", bug);
    const release = this.getAttribute("release");
    if (release) p.set("release", release);
    const create = this.getAttribute("create");
    if (create) p.set("create", create);
    u.hash = p.toString();
    return u.href;
  }

  /** Create the iframe now (the observer calls this when the element comes near the viewport). */
  load() {
    if (this.iframe || !this.isConnected) return;
    window.addEventListener("message", this._onMessage);
    const f = document.createElement("iframe");
    f.title = this.getAttribute("title") || "The backfill explainer";
    f.src = this.pageURL();
    f.style.display = "block";
    f.style.width = "100%";
    f.style.border = "0";
    this.iframe = f;
    this._size();
    this.replaceChildren(f);
    this._changed.clear();
  }

  attributeChangedCallback(name, oldValue, value) {
    if (oldValue === value) return;
    if (name === "height") { this._size(); return; }
    if (!this.iframe) return; // the URL made at load time carries it
    this._changed.add(name);
    if (this._flushing) return;
    this._flushing = true;
    queueMicrotask(() => { this._flushing = false; this._flush(); }); // scenario and step set together: one move
  }

  _flush() {
    const changed = this._changed;
    this._changed = new Set();
    if (!this.iframe || !changed.size) return;
    if (changed.has("bug") || changed.has("src") || changed.has("release") || changed.has("create") || (changed.has("scenario") && this.getAttribute("release"))) {
      this.iframe.src = this.pageURL(); // only the hash differs: the page follows it without reloading
      return;
    }
    const s = this.getAttribute("step");
    const step = s === null || s === "" ? undefined : /^\d+$/.test(s) ? Number(s) : s;
    if (changed.has("scenario")) {
      // one request: its first state is the step asked for, not the scenario's step 0
      this._post({ type: "explainer:open", scenario: this.getAttribute("scenario") || "", ...(step === undefined ? {} : { step }) });
    } else if (step !== undefined && changed.has("step")) {
      this._post({ type: "explainer:goto", step });
    }
  }

  _post(msg) {
    this.iframe?.contentWindow?.postMessage(msg, PAGE.origin === "null" ? "*" : PAGE.origin);
  }

  _size() {
    const fixed = cssLength(this.getAttribute("height"));
    const target = this.iframe ? this.iframe.style : this.style;
    // (a plain length first: a browser without svh keeps it, as it drops the value it cannot read)
    const h = fixed ?? `${this._width >= ONE_SCREEN ? HEIGHT : PHONE_HEIGHT}px`;
    const prop = this.iframe ? "height" : "minHeight"; // before the iframe: room kept, so the layout does not jump
    target[prop] = h;
    if (!fixed) target[prop] = autoHeight(this._width);
    if (this.iframe) this.style.minHeight = "";
  }

  _message(ev) {
    if (!this.iframe || ev.source !== this.iframe.contentWindow) return;
    const d = ev.data;
    if (!d || typeof d !== "object" || typeof d.type !== "string") return;
    if (d.type === "explainer:state") {
      this.lastState = d;
      this.dispatchEvent(new CustomEvent("explainer-state", { detail: d, bubbles: true, composed: true }));
    } else if (d.type === "explainer:error") {
      this.dispatchEvent(new CustomEvent("explainer-error", { detail: d, bubbles: true, composed: true }));
    }
  }
}

if (!customElements.get("backfill-explainer")) customElements.define("backfill-explainer", BackfillExplainer);
