// stored.js — the built-ins' views read from the files the build stores beside the wasm
// (web/views/, internal/firstview): the page shows a built-in, steps it and goes back before the
// engine has loaded. It answers a method the way the bridge (wasm/bridge.go) answers it, the same
// JSON: a view in its final shape, as the engine writes it (the run file's marks, code map and
// log of outputs, stored once, are in every view it answers); what it cannot answer (a branch, an
// edit, a method it has no data for, a call the engine would refuse) is the engine's
// (explainer.js).
//
// createStored({fetchJSON(path) → Promise}) → {
//   can(method, arg) → bool: answerable now (with its files once `prepare` has them)
//   prepare(method, arg) → Promise<bool>: fetches what the answer needs; false when it cannot
//   answer(method, arg) → the result, synchronously (a view is a fresh object)
//   state() → {scenario, release, bug, step, revision} of the open run, or null
// }
// The runs' revisions are numbered -1, -2, … so that they never meet the engine's.

export function createStored({ fetchJSON }) {
  let index = null;            // views/index.json, once read
  let indexing = null;
  const runs = new Map();      // file → Promise of the run
  const read = new Map();      // file → the run, once read
  let cur = null;              // {scenario, release, bug, step, revision, run}
  let revisions = 0;

  const loadIndex = () => (indexing ??= fetchJSON("index.json").then((x) => (index = x)));
  // (NAME.json: the run a link #scenario=NAME shows, the default release under the file's own bug
  // mode, fetched by start.js before the index arrives; internal/firstview Run.File)
  const file = (scenario, release, bug) => (release === index.default_release && bug === index.open[scenario].bug
    ? `${scenario}.json` : `${scenario}/${release}.${bug}.json`);
  const stored = (scenario, release, bug) => !!index?.runs?.[scenario]?.includes(`${release}.${bug}`);
  function loadRun(f) {
    if (!runs.has(f)) {
      const p = fetchJSON(f).then((r) => { read.set(f, r); return r; });
      p.catch(() => runs.delete(f));
      runs.set(f, p);
    }
    return runs.get(f);
  }

  // The run file a method moves to (open, bug, release), or null when it stays on the open one.
  function target(method, arg) {
    if (method === "open") {
      const o = index?.open?.[arg];
      return o && stored(arg, o.release, o.bug) ? { scenario: arg, release: o.release, bug: o.bug } : undefined;
    }
    if (method === "bug" && cur) return stored(cur.scenario, cur.release, arg) ? { ...cur, bug: arg } : undefined;
    if (method === "release" && cur) return stored(cur.scenario, arg, cur.bug) ? { ...cur, release: arg } : undefined;
    return null;
  }

  // the lists: in the index what the first view asks for, the others in lists.json (after it)
  const LISTS = { scenarios: "lists.json", bugs: "index.json", legend: "index.json", glossary: "index.json", lessons: "lists.json" };
  const list = (method) => (LISTS[method] === "index.json" ? index : read.get("lists.json"))?.[method];
  const isStep = (n) => Number.isInteger(n) && n >= 0;
  const steps = () => cur.run.views.length - 1;

  function can(method, arg) {
    if (method in LISTS) return list(method) !== undefined;
    const t = target(method, arg);
    if (t === undefined) return false;
    if (t) return read.has(file(t.scenario, t.release, t.bug));
    if (!cur) return false;
    switch (method) {
      case "view": case "steps": case "actions": return arg == null;
      case "step": return arg == null && cur.step < steps();
      case "back": return arg == null && cur.step > 0;
      case "goto": return isStep(arg) && arg <= steps();
      default: return false;
    }
  }

  async function prepare(method, arg) {
    try { await loadIndex(); } catch { return false; }
    if (LISTS[method] === "lists.json") {
      try { await loadRun("lists.json"); } catch { return false; }
    }
    const t = target(method, arg);
    if (t === undefined) return false;
    if (t) {
      try { await loadRun(file(t.scenario, t.release, t.bug)); } catch { return false; }
    }
    return can(method, arg);
  }

  // The view at step n of the open run: step 0's keys, then every later step's changes, and the
  // run's marks, code map and window of its log [outputs_first, outputs_total).
  function viewAt(n) {
    const { keys, views, marks, code_map: codeMap, outputs } = cur.run;
    const v = {};
    for (const k of keys) v[k] = undefined;
    for (let i = 0; i <= n; i++) Object.assign(v, views[i]);
    v.revision = cur.revision;
    v.marks = marks;
    v.code_map = codeMap;
    v.outputs = (outputs || []).slice(v.outputs_first, v.outputs_total);
    return JSON.parse(JSON.stringify(v)); // a fresh object, as the engine's answer is
  }

  function answer(method, arg) {
    if (method in LISTS) return JSON.parse(JSON.stringify(list(method)));
    const t = target(method, arg);
    if (t) {
      const step = method === "open" ? 0 : Math.min(cur.step, 0 + read.get(file(t.scenario, t.release, t.bug)).views.length - 1);
      cur = { ...t, step, revision: -(++revisions), run: read.get(file(t.scenario, t.release, t.bug)) };
      return viewAt(cur.step);
    }
    switch (method) {
      case "step": cur.step++; return viewAt(cur.step);
      case "back": cur.step--; return viewAt(cur.step);
      case "goto": cur.step = arg; return viewAt(cur.step);
      case "view": return viewAt(cur.step);
      case "steps": return steps();
      case "actions": return viewAt(cur.step).actions;
    }
    throw new Error(`stored views: ${method} is not answered here`);
  }

  return {
    can, prepare, answer,
    index: loadIndex,
    state: () => (cur ? { scenario: cur.scenario, release: cur.release, bug: cur.bug, step: cur.step, revision: cur.revision } : null),
    /** the run as the file opens it: {release, bug} */
    opens: (name) => index?.open?.[name] || null,
  };
}
