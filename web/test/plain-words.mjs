// plain-words.mjs — the rule for what a person reads, from internal/plainwords/words.json (the
// one list the Go tests of the docs and of the command line read too): a banned term never
// appears, not even in parentheses; an identifier only in a citation or in parentheses beside
// its meaning in plain words.

import { readFileSync } from "node:fs";

const rules = JSON.parse(readFileSync(new URL("../../internal/plainwords/words.json", import.meta.url), "utf8"));
export const BANNED = rules.banned.map((p) => new RegExp(p.re, p.ignore_case ? "gi" : "g"));
const IDENTIFIER = new RegExp(rules.identifier, "g");
const CITATION = new RegExp(rules.citation, "g");
const NAMES = new Set(rules.names);

/** What `text` shows that a person should not have to decode (as cmd/backfill/words_test.go's plainProblems). */
export function plainProblems(text) {
  let t = text.replace(CITATION, " ");
  const out = new Set();
  for (const b of BANNED) for (const m of t.matchAll(b)) out.add(m[0]);
  for (let prev = ""; prev !== t;) { prev = t; t = t.replace(/\([^()]*\)/g, " "); }
  for (const m of t.matchAll(IDENTIFIER)) if (!NAMES.has(m[0])) out.add(m[0]);
  return [...out];
}
