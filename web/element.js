// element.js — <backfill-explainer>, the explainer as one tag in a documentation page:
//
//   <script type="module" src="…/web/element.js"></script>
//   <backfill-explainer scenario="fatal-upstream-end" step="9"></backfill-explainer>
//
// Attributes: scenario (a built-in scenario's name), step (a step number), bug (a bug mode),
// release (a RisingWave release, e.g. v3.0: its &release=), create (foreground or background: its
// &create=), src (a scenario file, as a path
// relative to the explainer's page: its #src=), height (a fixed height: a number of CSS px from
// 120 to 10000, or a CSS length), theme (light, dark or auto: the page's ?theme=; auto, the
// default, follows the reader's system). An attribute that is not valid (step -1, " 4", 1e3; height
// banana) is refused: an `explainer-error` event (detail {type, message, attribute}) and a console
// warning name it, and the element goes on as if it were not set.
//
// Until the embedded page has said it is ready (its first explainer:state or explainer:error),
// attribute changes wait and are then sent together; moved in the document (the iframe then
// reloads), the element opens again at the step it last showed. When the page cannot be
// reached or its engine cannot start, the element shows a message with a link to the page.
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
// failures come back as explainer-error); changing `bug`, `release`, `create` or `src` (or
// `scenario` while `release` or `create` is set: opening a scenario plays the default release and
// create type) moves it by its URL hash (a fragment navigation: the page is not reloaded). Styles are set through the CSSOM only, so a
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

const MIN_PX = 120, MAX_PX = 10000; // a fixed height's bounds (CSS px)
const THEMES = ["light", "dark", "auto"];
const FAIL_AFTER = 30000;  // ms without a state from the page: it is shown as not loading
const QUIET_AFTER = 5000;  // ms after the frame loaded without a word from it: not the explainer's page

/** The height attribute as a CSS value, or {error} (null: not set). */
function cssLength(v) {
  if (v === null || v === "") return null;
  const s = String(v);
  if (/^\d{1,5}(\.\d+)?$/.test(s)) {
    const n = Number(s);
    return n >= MIN_PX && n <= MAX_PX ? `${s}px` : { error: `height ${JSON.stringify(s)} is out of bounds: a number of CSS px from ${MIN_PX} to ${MAX_PX}` };
  }
  const ok = s.length <= 100 && s === s.trim() && typeof CSS !== "undefined" && CSS.supports("height", s) && !/^(auto|inherit|initial|unset|revert|revert-layer)$/i.test(s) && /\d/.test(s);
  return ok ? `clamp(${MIN_PX}px, ${s}, ${MAX_PX}px)` : { error: `height ${JSON.stringify(s.slice(0, 40))} is not a height: a number of CSS px (${MIN_PX} to ${MAX_PX}) or a CSS length such as 40rem` };
}

/** The step attribute as a number, or {error} (null: not set). */
function readStep(v) {
  if (v === null || v === "") return null;
  return /^\d{1,6}$/.test(v) ? Number(v) : { error: `step ${JSON.stringify(String(v).slice(0, 40))} is not a step: a whole number 0 or more, in decimal digits only` };
}

/** The theme attribute, or {error} (null: not set). */
function readTheme(v) {
  if (v === null || v === "") return null;
  return THEMES.includes(v) ? v : { error: `theme ${JSON.stringify(String(v).slice(0, 40))} is not a theme: light, dark or auto` };
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
  static get observedAttributes() { return ["scenario", "step", "bug", "release", "create", "src", "height", "theme"]; }

  constructor() {
    super();
    this.iframe = null;
    this.lastState = null;       // the last explainer:state the page posted
    this._width = 0;             // the element's width, as its ResizeObserver last saw it
    this._changed = new Set();   // attributes changed since the last flush
    this._flushing = false;
    this._ready = false;         // the embedded page has said it is ready (a state or an error)
    this._heard = false;         // anything at all from it
    this._failTimer = 0;
    this._fallback = null;       // the message shown when it cannot load
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
    clearTimeout(this._failTimer);
    // (a move reloads the iframe: the element opens again where it was, pageURL keeps the step)
    if (this.iframe) { this.iframe.remove(); this.iframe = null; }
    this._ready = false;
    this._heard = false;
  }

  /** An attribute that is not valid: an explainer-error event and a console warning naming it. */
  _refuse(attribute, message) {
    console.warn(`<backfill-explainer> ${message}`);
    this.dispatchEvent(new CustomEvent("explainer-error", { detail: { type: "explainer:error", message, attribute, request: null }, bubbles: true, composed: true }));
  }

  /** The step to open at: the step attribute, or the one last shown when the page is opened again. */
  _step() {
    const a = readStep(this.getAttribute("step"));
    const valid = a !== null && typeof a === "number" ? a : null;
    if (this.lastState && Number.isInteger(this.lastState.step) && !this._changed.has("step")) return this.lastState.step;
    return valid;
  }

  /** The embedded page's URL for the attributes now. */
  pageURL() {
    const u = new URL(PAGE);
    u.search = "?embed=1";
    const p = new URLSearchParams();
    const src = this.getAttribute("src"), scenario = this.getAttribute("scenario");
    const step = this._step(), bug = this.getAttribute("bug");
    const theme = readTheme(this.getAttribute("theme"));
    if (typeof theme === "string") u.search += `&theme=${theme}`;
    if (src) p.set("src", src);
    else if (scenario) p.set("scenario", scenario);
    if (step !== null) p.set("step", String(step));
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
    this._ready = false;
    this._heard = false;
    this._size();
    this.replaceChildren(f);
    this._changed.clear();
    this._fallback = null;
    // a page that cannot be reached (the frame loads, and nothing in it speaks), or one whose
    // engine says nothing: the message with a link
    clearTimeout(this._failTimer);
    this._failTimer = setTimeout(() => { if (!this._ready) this._fail("it did not answer"); }, FAIL_AFTER);
    f.addEventListener("load", () => {
      setTimeout(() => { if (this.iframe === f && !this._heard) this._fail("its page could not be reached"); }, QUIET_AFTER);
    }, { once: true });
  }

  /** The element cannot show the explainer: a message, and a link to the page on its own. */
  _fail(why) {
    if (!this.iframe || this._fallback) return;
    const link = new URL(this.pageURL());
    link.search = "";
    const box = document.createElement("div");
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "explainer-fallback");
    const s = box.style;
    s.display = "flex"; s.flexDirection = "column"; s.justifyContent = "center"; s.gap = "0.5em";
    s.boxSizing = "border-box"; s.minHeight = "8em"; s.height = "100%"; s.padding = "1.5em";
    s.border = "1px solid #b9bdb5"; s.borderRadius = "8px"; s.font = "inherit";
    const p = document.createElement("p");
    p.style.margin = "0";
    p.textContent = `The backfill explainer could not load here: ${why}.`;
    const a = document.createElement("a");
    a.href = link.href;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = "Open the explainer on its own page";
    const more = document.createElement("p");
    more.style.margin = "0";
    more.append(a);
    box.append(p, more);
    this._fallback = box;
    this.iframe.style.display = "none";
    this.style.height = this.iframe.style.height;
    this.append(box);
    this.dispatchEvent(new CustomEvent("explainer-error", { detail: { type: "explainer:error", message: p.textContent, request: null }, bubbles: true, composed: true }));
  }

  /** The page spoke after all: the message goes. */
  _unfail() {
    if (!this._fallback) return;
    this._fallback.remove();
    this._fallback = null;
    this.style.height = "";
    if (this.iframe) this.iframe.style.display = "block";
  }

  attributeChangedCallback(name, oldValue, value) {
    if (oldValue === value) return;
    if (name === "height") { this._size(); return; }
    const read = name === "step" ? readStep : name === "theme" ? readTheme : null;
    const r = read ? read(value) : null;
    if (r && r.error) { this._refuse(name, r.error); return; }
    if (!this.iframe) return; // the URL made at load time carries it
    this._changed.add(name);
    if (!this._ready || this._flushing) return; // (sent when the page says it is ready)
    this._flushing = true;
    queueMicrotask(() => { this._flushing = false; this._flush(); }); // scenario and step set together: one move
  }

  _flush() {
    const changed = this._changed;
    if (!this.iframe || !changed.size) return;
    if (changed.has("theme")) {
      this.lastState = this.lastState && { ...this.lastState, step: changed.has("step") ? this._step() : this.lastState.step };
      this._changed = new Set();
      const f = this.iframe;
      this.iframe = null;
      f.remove();
      this.load(); // another ?theme=: the page loads again, at its step
      return;
    }
    if (changed.has("bug") || changed.has("src") || changed.has("release") || changed.has("create")
      || (changed.has("scenario") && (this.getAttribute("release") || this.getAttribute("create")))) {
      this.iframe.src = this.pageURL(); // only the hash differs: the page follows it without reloading
      this._changed = new Set();
      return;
    }
    const step = this._step();
    this._changed = new Set();
    if (changed.has("scenario")) {
      // one request: its first state is the step asked for, not the scenario's step 0
      this._post({ type: "explainer:open", scenario: this.getAttribute("scenario") || "", ...(step === null ? {} : { step }) });
    } else if (step !== null && changed.has("step")) {
      this._post({ type: "explainer:goto", step });
    }
  }

  _post(msg) {
    this.iframe?.contentWindow?.postMessage(msg, PAGE.origin === "null" ? "*" : PAGE.origin);
  }

  _size() {
    let fixed = cssLength(this.getAttribute("height"));
    if (fixed && fixed.error) {
      if (this._refusedHeight !== this.getAttribute("height")) { this._refusedHeight = this.getAttribute("height"); this._refuse("height", fixed.error); }
      fixed = null;
    }
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
    this._heard = true;
    if (d.type === "explainer:error" && d.fatal === true) { this._fail(`its engine could not start (${String(d.message || "").slice(0, 200)})`); return; }
    if ((d.type === "explainer:state" || d.type === "explainer:error") && !this._ready) {
      this._ready = true;
      clearTimeout(this._failTimer);
      this._unfail();
      if (this._changed.size) queueMicrotask(() => this._flush()); // what was set while it started
    }
    if (d.type === "explainer:state") {
      this.lastState = d;
      this.dispatchEvent(new CustomEvent("explainer-state", { detail: d, bubbles: true, composed: true }));
    } else if (d.type === "explainer:error") {
      this.dispatchEvent(new CustomEvent("explainer-error", { detail: d, bubbles: true, composed: true }));
    }
  }
}

if (!customElements.get("backfill-explainer")) customElements.define("backfill-explainer", BackfillExplainer);
