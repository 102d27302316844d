// bridge-calls.test.mjs — the page's modules call the bridge as its declarations say
// (web/boot/bridge.d.ts, generated from wasm/api by internal/tools/bridgegen, whose Go test
// keeps it current). No TypeScript compiler here: the declarations' method lines are read, and
// every bridge call in web/ (outside the tests and benchmarks) — call("name", …), callSync(…),
// mutate(…), ask(…), tell(…) — is checked: the method is declared; it is given an argument exactly when
// its declaration takes one (an optional one may be left out); an argument whose type the call
// makes plain (a literal, String(…), Math.trunc(Number(…)), an object literal) is of the
// declared type, and an object literal has the declared fields (the required ones among them).
// The methods the stored views answer (stored.js) and those explainer.js treats as views are the
// declared ones too. No engine, no browser.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const WEB = fileURLToPath(new URL("../../", import.meta.url));
const DTS = readFileSync(join(WEB, "boot", "bridge.d.ts"), "utf8");

/** the declarations: name → {arg: null | {name, optional, type}, result} */
export function declarations(dts) {
  const body = /export interface BridgeMethods \{\n([\s\S]*?)\n\}/.exec(dts)[1];
  const out = new Map();
  for (const line of body.split("\n")) {
    const m = /^ {2}(\w+)\((?:(\w+)(\?)?: (.+))?\): (.+);$/.exec(line);
    if (!m) continue;
    out.set(m[1], { arg: m[2] ? { name: m[2], optional: !!m[3], type: m[4] } : null, result: m[5] });
  }
  return out;
}

/** an interface's fields: name → {optional, type} */
function fieldsOf(dts, name) {
  const m = new RegExp(`export interface ${name} \\{\\n([\\s\\S]*?)\\n\\}`).exec(dts);
  if (!m) return null;
  const out = new Map();
  for (const line of m[1].split("\n")) {
    const f = /^ {2}(\w+)(\?)?: (.+);$/.exec(line);
    if (f) out.set(f[1], { optional: !!f[2], type: f[3] });
  }
  return out;
}

/** the arguments of the call whose "(" is at src[open]: their source texts, split at top-level commas */
export function callArgs(src, open) {
  const args = [];
  let depth = 0, start = open + 1;
  const stack = [];
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") { // a string
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === "\\") i++;
      continue;
    }
    if (c === "`") { stack.push("`"); // a template: its ${…} nest
      for (i++; i < src.length; i++) {
        if (src[i] === "\\") { i++; continue; }
        if (src[i] === "`") break;
        if (src[i] === "$" && src[i + 1] === "{") { // skip the expression by braces
          let d = 0;
          for (i++; i < src.length; i++) { if (src[i] === "{") d++; else if (src[i] === "}" && --d === 0) break; }
        }
      }
      stack.pop();
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) { const a = src.slice(start, i).trim(); if (a) args.push(a); return args; }
    } else if (c === "," && depth === 1) { args.push(src.slice(start, i).trim()); start = i + 1; }
  }
  throw new Error("unclosed call at " + open);
}

/** what an argument's source says of its type: "string", "integer", "integer|null", {object: keys} or null (unknown) */
export function argKind(a) {
  if (/^(["'`])[\s\S]*\1$/.test(a) || /^String\(/.test(a)) return "string";
  if (/^-?\d+$/.test(a) || /^Math\.trunc\(Number\(.*\)\)$/.test(a)) return "integer";
  if (/^[^?]+\? *Math\.trunc\(Number\(.*\)\) *: *null$/.test(a)) return "integer|null";
  if (a === "null" || a === "undefined") return "null";
  if (/^\{[\s\S]*\}$/.test(a)) {
    const inner = a.slice(1, -1);
    const keys = [];
    let depth = 0, start = 0;
    const parts = [];
    for (let i = 0; i < inner.length; i++) {
      const c = inner[i];
      if ("([{".includes(c)) depth++;
      else if (")]}".includes(c)) depth--;
      else if (c === "," && depth === 0) { parts.push(inner.slice(start, i)); start = i + 1; }
    }
    parts.push(inner.slice(start));
    for (const p of parts.map((x) => x.trim()).filter(Boolean)) keys.push(/^["']?(\w+)["']?/.exec(p)[1]);
    return { object: keys };
  }
  return null;
}

/** does an argument of kind k fit the declared type t (a .d.ts type text)? */
function fits(k, t, dts) {
  if (k === null) return true; // (an expression the check cannot type: the bridge refuses a wrong one at run time)
  if (k === "string") return t === "string";
  if (k === "integer") return t === "number" || t === "number | null";
  if (k === "integer|null" || k === "null") return t === "number | null";
  if (k.object) {
    if (t.startsWith("{[field: string]")) return true;
    const fields = fieldsOf(dts, t);
    if (!fields) return false;
    return k.object.every((x) => fields.has(x)) && [...fields].every(([n, f]) => f.optional || k.object.includes(n));
  }
  return false;
}

function sources(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) { if (!["test", "bench", "bundle", "views"].includes(e.name)) out.push(...sources(p)); }
    else if (e.name.endsWith(".js")) out.push(p);
  }
  return out;
}

/** every bridge call in the page's modules: {where, method, args} */
export function bridgeCalls() {
  const calls = [];
  for (const file of sources(WEB)) {
    const src = readFileSync(file, "utf8");
    const re = /\b(?:call|callSync|mutate|ask|tell)\(\s*"(\w+)"/g;
    for (let m; (m = re.exec(src));) {
      const open = m.index + m[0].indexOf("(");
      const args = callArgs(src, open);
      const line = src.slice(0, m.index).split("\n").length;
      calls.push({ where: `${relative(WEB, file)}:${line}`, method: m[1], args: args.slice(1) });
    }
  }
  return calls;
}

test("the declarations list the bridge's methods with their arguments", () => {
  const d = declarations(DTS);
  assert.ok(d.size >= 30, `${d.size} methods read from bridge.d.ts`);
  assert.deepEqual(d.get("step"), { arg: null, result: "View" });
  assert.deepEqual(d.get("goto"), { arg: { name: "n", optional: false, type: "number" }, result: "View" });
  for (const gone of ["lean", "marks", "code_map", "outputs"]) assert.ok(!d.has(gone), `${gone} is no method of the bridge`);
});

/** what is wrong with a call of method with args (their source texts), or "" */
function problemOf(d, method, args) {
  const m = d.get(method);
  if (!m) return `${method} is not declared`;
  if (args.length > 1) return `${method} is given ${args.length} arguments; the bridge takes one`;
  const a = args[0];
  if (!m.arg) return a === undefined ? "" : `${method}() takes no argument, given ${a}`;
  if (a === undefined) return m.arg.optional ? "" : `${method} needs its argument ${m.arg.name}: ${m.arg.type}`;
  return fits(argKind(a), m.arg.type, DTS) ? "" : `${method}(${m.arg.name}: ${m.arg.type}) given ${a}`;
}

test("every bridge call in web/ names a declared method with its declared argument", () => {
  const d = declarations(DTS);
  const calls = bridgeCalls();
  assert.ok(calls.length >= 40, `${calls.length} calls found`);
  const problems = calls.map((c) => [c.where, problemOf(d, c.method, c.args)]).filter(([, p]) => p).map((x) => x.join(": "));
  assert.deepEqual(problems, []);
});

test("the check finds a wrong call", () => {
  const d = declarations(DTS);
  const wrong = [
    ['call("nonsense")', "not declared"], ['call("step", 1)', "no argument"], ['mutate("goto")', "needs its argument"],
    ['call("open", 3)', "given 3"], ['call("goto", String(n))', "given String"], ['call("diagnose", { text: t, rel: r })', "given {"],
    ['call("diagnose", { release: r })', "given {"], ['call("open", a, b)', "2 arguments"], ['ask("explore", "x")', "given"],
  ];
  for (const [src, why] of wrong) {
    const args = callArgs(src, src.indexOf("(")).slice(1);
    assert.match(problemOf(d, /"(\w+)"/.exec(src)[1], args), new RegExp(why.replace(/[({]/g, "\\$&")), src);
  }
  for (const src of ['call("step")', 'call("goto", 3)', 'call("explore")', 'call("explore", x ? Math.trunc(Number(x)) : null)',
    'call("diagnose", { text: t, release: r })', 'call("compare", { left: {}, right: {} })', 'call("format_step", values)']) {
    assert.equal(problemOf(d, /"(\w+)"/.exec(src)[1], callArgs(src, src.indexOf("(")).slice(1)), "", src);
  }
});

test("the methods the stored views answer and those explainer.js takes for views are declared ones", () => {
  const d = declarations(DTS);
  const stored = readFileSync(join(WEB, "boot", "stored.js"), "utf8");
  const answered = new Set([...stored.matchAll(/case "(\w+)":/g)].map((m) => m[1]));
  for (const m of /const LISTS = \{([^}]*)\}/.exec(stored)[1].matchAll(/(\w+):/g)) answered.add(m[1]);
  for (const m of answered) assert.ok(d.has(m), `stored.js answers ${m}, which the bridge does not declare`);
  const explainer = readFileSync(join(WEB, "boot", "explainer.js"), "utf8");
  const views = new Set(JSON.parse(/const VIEWS = new Set\((\[[^\]]*\])\)/.exec(explainer)[1]));
  const declaredViews = new Set([...d].filter(([, m]) => m.result === "View").map(([n]) => n));
  assert.deepEqual([...views].sort(), [...declaredViews].sort(), "explainer.js's VIEWS are the methods declared to answer a View");
});
