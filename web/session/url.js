// url.js — the page's state in its URL hash: #scenario=NAME&step=N&bug=MODE for a built-in,
// #run=CODE&step=N for a run that left its script or a scenario loaded from text (CODE is the
// exported scenario, deflated: run-link.js), #src=PATH to load a scenario file served beside the
// page; &release=vX.Y when the run plays another RisingWave release than the default (a
// scenario= link without it plays the default). It opens what a link names (at start and when
// the hash is edited) and keeps the hash current after every view, using the view's `name` and
// `revision` (a run= code is made again only when the script's revision changes).
//
// While a run= code is being made, the hash keeps the last complete link: it never reads a state
// that would open something else (a bare #step=3 would open the default scenario).
import { encodeRun, decodeRun, readCapped, TEXT_LIMIT } from "./run-link.js";
import { quote, quoteIn } from "../ui/bound.js";

const DEFAULT_SCENARIO = "happy-path";
const LONG_LINK = 4096;        // characters: a longer link is written once stepping pauses (createHashWriter)
const LONG_LINK_DELAY_MS = 250; // how long the views must pause for it

/** The release a view marks as the default (the page knows no release of its own). */
function defaultRelease(v) {
  return (v?.releases || []).find((r) => r.default)?.name ?? null;
}

/**
 * parseHash(hash) → what a link names; `problems` lists the parts not read (a number that is not
 * a plain decimal one: step=010, step=0x1, step=1e3, section=-1), each said, input quoted.
 */
export function parseHash(hash = location.hash) {
  const p = new URLSearchParams(String(hash).replace(/^#/, ""));
  const problems = [];
  const num = (key) => {
    const raw = p.get(key);
    if (raw === null || raw === "") return null;
    if (/^(0|[1-9][0-9]{0,8})$/.test(raw)) return Number(raw);
    problems.push(`${key}=${quote(raw)} is not read: a link's ${key} is a decimal number, such as ${key}=3`);
    return null;
  };
  return {
    scenario: p.get("scenario") || null,
    step: num("step"),
    src: p.get("src") || null,
    run: p.get("run") || null,
    bug: p.get("bug") || null,
    release: p.get("release") || null,
    create: p.get("create") || null,
    lesson: p.get("lesson") || null,
    section: num("section"),
    problems,
  };
}

/** Is the page in a frame of another origin's page? (It then learns one answer for every #src= failure.) */
function crossOriginParent() {
  if (window.parent === window) return false;
  try { return window.parent.location.origin !== location.origin; } catch { return true; }
}

let hashExtra = () => []; // more [key, value] pairs for the link (a lesson's, lesson-bar.js)

/** setHashExtra(f): f() → [[key, value]…] written after the scenario's keys in every link. */
export function setHashExtra(f) { hashExtra = f; }

/** Does the link name no state at all (a plain visit)? */
export function isPlain(want) {
  return !want.scenario && want.step === null && !want.run && !want.src && !want.lesson;
}

/**
 * srcURL resolves #src= against the page: only a path relative to the page, on its own origin.
 * Anything else (another origin, //host, data:, an absolute URL or path) is refused with a
 * message saying what to do instead.
 */
function srcURL(src, base = document.baseURI) {
  const refuse = (why) => new Error(`#src=${quote(src)}: ${why}. #src takes a path relative to this page, such as scenarios/my-scenario.yaml, ` +
    "for a file served beside it; to open a file from anywhere else, download it and use Open… (or drop it on the page).");
  const s = String(src).trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return { error: refuse("a URL with a scheme is not loaded") };
  if (/^[\\/]/.test(s)) return { error: refuse("an absolute path or another host is not loaded") };
  let u;
  try { u = new URL(s, base); } catch { return { error: refuse("it is not a path") }; }
  const page = new URL(base);
  if (u.origin !== page.origin || u.protocol !== page.protocol) return { error: refuse("it leads to another origin") };
  return { url: u };
}

const SRC_HELP = "Serve the scenario file beside this page and link to it by a path relative to the page " +
  "(such as #src=scenarios/my-scenario.yaml), or open it with Open… (or drop it on the page)";

/**
 * fetchScenario fetches #src's file, at most TEXT_LIMIT bytes of it: no cookie sent, no redirect
 * followed (a link on another site must not read what a signed-in reader could).
 */
async function fetchScenario(src) {
  const { url, error } = srcURL(src);
  if (error) throw error;
  let resp;
  try { resp = await fetch(url, { credentials: "omit", redirect: "error" }); } catch (e) {
    const why = location.protocol === "file:"
      ? "a page opened from a file cannot read other files"
      : `the request failed (${e.message})`;
    throw new Error(`#src=${quote(src)}: could not fetch it: ${why}. ${SRC_HELP}`);
  }
  if (!resp.ok) {
    const why = resp.status === 404 ? "there is no such file beside this page (HTTP 404)" : `the server answered HTTP ${resp.status}`;
    throw new Error(`#src=${quote(src)}: could not fetch it: ${why}. ${SRC_HELP}`);
  }
  const bytes = await readCapped(resp.body, TEXT_LIMIT, () => new Error(`#src=${quote(src)}: the file is larger than 1 MiB, the limit for a scenario`));
  return new TextDecoder("utf-8").decode(bytes);
}

/**
 * createURL({session, explainer, onError(message), openEditor(text, error), begin(), end(ok),
 * followed(want, problem)}) →
 * {honour(want) → Promise, update(view), hold(), release(), link(view), want}
 * hold() … release(): the hash is kept in memory in between and written at release (the page
 * starts with it held, so that the first view is drawn without a history update first).
 * begin() and end(ok) bracket each link honoured (at start and at every edit of the hash): the
 * views on the way there (a scenario's step 0 before the link's step) are not the link's.
 * link(view): the hash of the link to a view (the last complete one while a run= code is made).
 * The last link wins: a link honoured while an earlier one is under way (a #src= file still
 * fetched) stops the earlier one at its next wait. openEditor null (an embed): a scenario the
 * engine rejects is the link's problem, not the editor's. followed(want, problem): after each
 * link edited in the open tab is honoured (a lesson's part of the link is the lesson bar's).
 */
export function createURL({ session, explainer, onError, openEditor, begin = () => {}, end = () => {}, followed = () => {} }) {
  // the run= code the hash carries (or will, once made): the code, the script revision it was
  // made for, and the code's step for each step of this run (export().positions; null: the same)
  const run = { code: null, revision: null, positions: null };
  let making = null;       // the revision a code is being made for
  let bugOff = false;      // the learner turned the bug mode off: written as bug=none
  const writer = createHashWriter();

  session.onView((v, { method, arg }) => {
    if (method === "open" || method === "load") bugOff = false;
    if (method === "bug") bugOff = arg === "none";
    update(v);
  });

  function update(v) {
    if (!v) return;
    const hash = hashFor(v, run, bugOff);
    if (hash) { writer.write(hash); return; }
    makeCode(v.revision); // until it is made, the hash keeps the last complete link
  }

  async function makeCode(revision) {
    if (making === revision) return;
    making = revision;
    try {
      const { scenario, positions } = await session.enqueue(() => explainer.export());
      const code = await encodeRun(scenario);
      if (making !== revision) return; // superseded by a later change of the script
      run.code = code;
      run.revision = revision;
      run.positions = Array.isArray(positions) ? positions : null;
    } catch (e) {
      onError(`this run could not be put in the link: ${e.message}`);
      return;
    } finally {
      if (making === revision) making = null;
    }
    update(session.view);
  }

  let generation = 0; // of the link being honoured: a later one supersedes it
  const opener = { session, run, onError, openEditor };

  /**
   * Open what a link names; errors are shown, and the default scenario opened if nothing is.
   * → the problem (an Error, shown), or null; a link superseded meanwhile shows nothing.
   */
  async function honour(want) {
    const gen = ++generation;
    const stale = () => gen !== generation;
    begin();
    let problem = null;
    try {
      problem = await openLink(want, stale, opener);
    } finally {
      end(!problem && !stale());
    }
    return problem === SUPERSEDED ? SUPERSEDED : problem;
  }

  window.addEventListener("hashchange", async () => {
    if (!writer.edited()) return;
    const want = parseHash();
    const problem = await honour(want);
    if (problem !== SUPERSEDED) followed(want, problem);
  });

  return {
    honour,
    update,
    hold: writer.hold,
    link: (v) => (v && hashFor(v, run, bugOff)) || writer.written,
    release: writer.release,
    get want() { return parseHash(); },
    SUPERSEDED,
  };
}

const SUPERSEDED = new Error("superseded by a later link");

/** hashFor(view, run, bugOff): the hash of the link to the view, or null while its run= code is not made. */
function hashFor(v, run, bugOff) {
  const p = new URLSearchParams();
  if (v.branched || v.name === null) {
    if (run.revision !== v.revision || !run.code) return null;
    p.set("run", run.code);
  } else {
    p.set("scenario", v.name);
  }
  // a run code may leave out steps that could not happen in this run: its own step number
  const step = v.branched || v.name === null ? (run.positions?.[v.step] ?? v.step) : v.step;
  p.set("step", String(step));
  const bug = v.bug ? v.bug.name : (bugOff ? "none" : null);
  if (bug) p.set("bug", bug);
  if (v.release && v.release !== defaultRelease(v)) p.set("release", v.release);
  if (v.create && v.create !== "foreground") p.set("create", v.create);
  for (const [k, val] of hashExtra()) p.set(k, val);
  return "#" + p.toString();
}

/**
 * createHashWriter() → {write(hash), hold(), release(), edited(), written}: the address. A long
 * link (the run= code of a large scenario: 30 KB for 4,096 rows) costs milliseconds to write
 * (5 ms and more, at every step), so it is written once the views stop coming for a moment,
 * once for any number of steps taken meanwhile (a walk, autoplay); a short one at once.
 * edited(): the address is not the one written (the reader edited it; it wins over a link not
 * yet written, and is the written one from then on).
 */
function createHashWriter() {
  let written = location.hash;
  let held = null;  // between hold() and release(): {hash} to write then, {from} the address then
  let later = null; // the long link still to write, or null
  let timer = null;
  function write(hash) {
    clearTimeout(timer);
    timer = null;
    if (hash.length > LONG_LINK) {
      later = hash;
      timer = setTimeout(flush, LONG_LINK_DELAY_MS);
      return;
    }
    later = null;
    put(hash);
  }
  function flush() {
    clearTimeout(timer);
    timer = null;
    const h = later;
    later = null;
    if (h !== null) put(h);
  }
  // (leaving the page, or hiding it, writes what is due: the link is the page's state)
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") flush(); });
  function put(hash) {
    written = hash;
    if (held) { held.hash = hash; return; }
    if (location.hash !== hash) history.replaceState(history.state, "", hash);
  }
  return {
    write,
    hold() { held ??= { hash: null, from: location.hash }; },
    release() {
      const h = held;
      held = null;
      // (an address edited in the meantime is honoured by its hashchange, and stays)
      if (h && h.hash !== null && location.hash === h.from) write(h.hash);
    },
    edited() {
      if (location.hash === written) return false;
      later = null; // the reader's link wins over one not yet written
      clearTimeout(timer);
      timer = null;
      written = location.hash;
      return true;
    },
    get written() { return written; },
  };
}

/**
 * openLink(want, stale, {session, run, onError, openEditor}) → the problem (an Error, already
 * shown), SUPERSEDED, or null: the run, file or scenario the link names, then its parts.
 */
async function openLink(want, stale, ctx) {
  const { session, onError } = ctx;
  let problem = null;
  try {
    if (await openWhat(want, stale, ctx) === SUPERSEDED) return SUPERSEDED;
  } catch (e) {
    if (stale()) return SUPERSEDED;
    problem = e;
  }
  if (!session.view) {
    await session.run("open", DEFAULT_SCENARIO).catch(() => {});
    if (problem) problem = new Error(`Showing ${DEFAULT_SCENARIO} instead: ${problem.message}`); // (what is shown first: a notice may cut a long message)
  }
  if (!problem && session.view) problem = await applyParts(want, session);
  if (stale()) return SUPERSEDED;
  // the parts of the link that were not read (a number that is not decimal), said
  if (want.problems?.length) problem = new Error([problem?.message, ...want.problems].filter(Boolean).join(". "));
  if (problem) onError(problem.message);
  return problem;
}

/** openWhat: the run= code, the #src= file or the scenario the link names (or the default); SUPERSEDED, or throws. */
async function openWhat(want, stale, { session, run, openEditor }) {
  const v = session.view;
  /** A scenario the link's text gave that the engine rejected: the editor, or (embed) the link's problem. */
  const rejected = (what, text, e) => {
    if (openEditor) { openEditor(text, e); return; }
    throw new Error(`${what}: the engine rejected it: ${e && e.message ? e.message : String(e)}`);
  };
  if (want.run) {
    if (want.run !== run.code || !v) {
      const text = await decodeRun(want.run);
      if (stale()) return SUPERSEDED;
      try { await session.run("load", text); } catch (e) { rejected("this link's run= part", text, e); }
      if (stale()) return SUPERSEDED;
      if (session.view && session.view.name === null) { run.code = want.run; run.revision = session.view.revision; run.positions = null; }
    }
  } else if (want.src) {
    // A page of another origin framing this one learns one answer for every failure
    // (missing, too large, redirected, not a scenario): never whether a path exists here.
    const hide = crossOriginParent();
    const oneAnswer = () => new Error(`#src=${quote(want.src)}: could not open it as a scenario. ${SRC_HELP}`);
    const text = await fetchScenario(want.src).catch((e) => { throw hide ? oneAnswer() : e; });
    if (stale()) return SUPERSEDED;
    try { await session.run("load", text); } catch (e) {
      if (hide) throw oneAnswer();
      rejected(`#src=${quote(want.src)}`, text, e);
    }
    if (stale()) return SUPERSEDED;
  } else if (want.scenario || !v) {
    const name = want.scenario || DEFAULT_SCENARIO;
    if (!v || v.name !== name || v.branched) await session.run("open", name);
    if (stale()) return SUPERSEDED;
  }
  return null;
}

/** applyParts(want, session) → the problem, or null: the link's bug mode, release, create type and step, in that order. */
async function applyParts(want, session) {
  let problem = null;
  try {
    // the bug mode after opening the scenario and before going to the step
    if (want.bug && want.bug !== (session.view.bug ? session.view.bug.name : "none")) await session.run("bug", want.bug);
    // the release too (a scenario= link without one: the default); a bad one is shown, and the step still taken
    const release = want.release || (want.run || want.src ? null : defaultRelease(session.view));
    if (release && release !== session.view.release) {
      await session.run("release", release).catch((e) => { problem = new Error(`Showing ${session.view.release}: ${quoteIn(e.message, release)}`); });
    }
    // how the job was created (a link without one: foreground, the default); a bad one is shown
    const create = want.create || (want.run || want.src ? null : "foreground");
    if (create && create !== session.view.create) {
      await session.run("create", create).catch((e) => { problem = new Error(`Showing a job created in the ${session.view.create}: ${e.message}`); });
    }
    if (want.step !== null && want.step !== session.view.step) {
      await session.run("goto", want.step).catch((e) => { throw new Error(`Showing step ${session.view.step}: ${e.message}`); });
    }
  } catch (e) { problem = problem ? new Error(`${problem.message}. ${e.message}`) : e; }
  return problem;
}
