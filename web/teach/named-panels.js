// named-panels.js — the panels a lesson's section goal or question names ("the state table",
// "which buffered rows…", "what is never emitted"): presenter mode shows them whole at every stop
// of the section (presenter.js marks them .named; presenter-fit.js keeps them as it keeps the
// changed ones), even those it hides otherwise (the state and progress tables).

// [words, the panels' data-testid]
const NAMES = [
  [/\bstate table\b/i, ["state-table"]],
  [/\bprogress table\b|\bdurable\b/i, ["progress-table"]],
  [/\bbuffer(ed|s|ing)?\b/i, ["buffer"]],
  [/\bbuilders?\b/i, ["builders"]],
  // ("progress reports" go to the meta service: not the panel)
  [/\bper-vnode progress\b|\bprogress\b(?!\s+(table|reports?)\b)|\bmark(s|ing|ed)?\b/i, ["progress"]],
  [/\bnever emitted\b|\bleft behind\b/i, ["builders", "buffer"]],
];

/** The data-testids of the panels `text` names (each once, in the order above). */
export function namedPanels(text) {
  const out = [];
  for (const [re, ids] of NAMES) if (re.test(String(text || ""))) for (const id of ids) if (!out.includes(id)) out.push(id);
  return out;
}
