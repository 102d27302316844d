// session.js — the one holder of the view the page shows and of the queue of engine calls, and
// the one table of commands that buttons, keys, the welcome card, the URL and postMessage use.
// Every command stops autoplay first (except play itself). Views arrive through the
// "explainer:change" event, whoever changed the timeline (this page, a test, a parent frame).
//
// createSession(explainer, hooks) → {view, commands, run(name, ...args) → Promise, playing, onView(f)}
// hooks: {interceptStep(view) → bool (predict mode takes the step over), pauseAfter(view) → bool
// (a step with `pause: true`: autoplay stops here), speedMs() → ms, setPlaying(bool), onError(message)}.

export function createSession(explainer, hooks) {
  let view = null;
  let queue = Promise.resolve();
  let playing = false;
  let timer = null;
  const listeners = [];

  window.addEventListener("explainer:change", (ev) => {
    const { view: v, method, arg } = ev.detail || {};
    if (!v) return;
    view = v;
    for (const f of listeners) f(v, { method, arg });
  });

  /** Run engine calls one at a time; a failure rejects (callers decide whether to show it). */
  function enqueue(fn) {
    const p = queue.then(fn);
    queue = p.catch(() => {});
    return p;
  }

  function stop() {
    if (!playing && timer === null) return;
    playing = false;
    clearTimeout(timer);
    timer = null;
    hooks.setPlaying(false);
  }

  function play() {
    if (!view) return Promise.resolve();
    playing = true;
    hooks.setPlaying(true);
    const start = view.step >= view.steps ? enqueue(() => explainer.goto(0)) : Promise.resolve();
    return start.then(tick, (e) => { stop(); throw e; });
  }

  function tick() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!playing) return;
      if (!view || view.step >= view.steps || hooks.interceptStep(view)) { stop(); return; }
      try { await enqueue(() => explainer.step()); } catch (e) { stop(); hooks.onError(e.message); return; }
      if (!playing) return;
      if (!view || view.step >= view.steps || view.error || hooks.pauseAfter(view)) { stop(); return; }
      tick();
    }, hooks.speedMs());
  }

  const recoverAction = () => (view?.actions || []).find((a) => a.kind === "recover") || null;

  // Each command: (…args) → Promise of the new view (or undefined when nothing was done).
  const commands = {
    step: () => {
      if (!view || view.step >= view.steps || hooks.interceptStep(view)) return Promise.resolve();
      return enqueue(() => explainer.step());
    },
    back: () => (view && view.step > 0 ? enqueue(() => explainer.back()) : Promise.resolve()),
    first: () => enqueue(() => explainer.goto(0)),
    last: () => (view ? enqueue(() => explainer.goto(view.steps)) : Promise.resolve()),
    goto: (n) => enqueue(() => explainer.goto(n)),
    /** an Action of the view: the scripted one steps (predict mode may ask first), others apply */
    act: (a) => {
      if (!a) return Promise.resolve();
      if (a.scripted) return commands.step();
      return enqueue(() => explainer.apply(a.step));
    },
    /** the i-th action (the number keys) */
    action: (i) => commands.act((view?.actions || [])[i]),
    recover: () => {
      const a = recoverAction();
      return a ? commands.act(a) : enqueue(() => explainer.apply("recover"));
    },
    apply: (text) => enqueue(() => explainer.apply(text)),
    open: (name) => enqueue(() => explainer.open(name)),
    load: (text) => enqueue(() => explainer.load(text)),
    bug: (name) => enqueue(() => explainer.bug(name)),
    release: (name) => enqueue(() => explainer.release(name)),
    create: (type) => enqueue(() => explainer.create(type)),
    togglePlay: () => (playing ? Promise.resolve(stop()) : play()),
    pause: () => Promise.resolve(stop()),
  };

  /** run(name, ...args): stop autoplay (unless this is play), then the command. */
  function run(name, ...args) {
    const c = commands[name];
    if (!c) return Promise.reject(new Error(`unknown command ${name}`));
    if (name !== "togglePlay") stop();
    return c(...args);
  }

  return {
    get view() { return view; },
    get playing() { return playing; },
    run,
    /** run a command and show its failure instead of throwing it */
    fire: (name, ...args) => run(name, ...args).catch((e) => hooks.onError(e && e.message ? e.message : String(e))),
    /** engine calls that read (explore, export …) go through the same queue */
    enqueue,
    onView(f) { listeners.push(f); },
    names: Object.keys(commands),
  };
}
