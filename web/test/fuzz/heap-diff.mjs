// heap-diff.mjs — what grew between two heap snapshots of the page (Chromium's .heapsnapshot, as
// random-actions.mjs writes them with FUZZ_SNAPSHOT): objects counted and their self sizes summed
// by constructor (a node's type and name), the largest growths first; with --retainers NAME, the
// retainers of NAME's objects in B (edge and holder), counted; with --path NAME, the shortest
// paths (no weak edges) from the GC roots to NAME's objects in B, one per distinct path.
//
//   node web/test/fuzz/heap-diff.mjs A.heapsnapshot B.heapsnapshot [--top 40] [--retainers Name] [--path Name]

import { readFileSync } from "node:fs";

function load(path) {
  const s = JSON.parse(readFileSync(path, "utf8"));
  const m = s.snapshot.meta;
  const nf = m.node_fields, ef = m.edge_fields;
  const N = nf.length, E = ef.length;
  const types = m.node_types[0], etypes = m.edge_types[0];
  const iType = nf.indexOf("type"), iName = nf.indexOf("name"), iSize = nf.indexOf("self_size"), iEdges = nf.indexOf("edge_count");
  const eType = ef.indexOf("type"), eName = ef.indexOf("name_or_index"), eTo = ef.indexOf("to_node");
  const nodes = s.nodes, edges = s.edges, strings = s.strings;
  const count = nodes.length / N;
  const key = (i) => {
    const t = types[nodes[i * N + iType]];
    const name = strings[nodes[i * N + iName]];
    if (t === "string" || t === "concatenated string" || t === "sliced string") return `(${t})`;
    if (t === "code" || t === "number" || t === "hidden") return `(${t}) ${name.slice(0, 40)}`;
    return `${t === "object" ? "" : `(${t}) `}${name.slice(0, 80)}`;
  };
  const by = new Map();
  for (let i = 0; i < count; i++) {
    const k = key(i);
    const e = by.get(k) || { n: 0, size: 0 };
    e.n++; e.size += nodes[i * N + iSize];
    by.set(k, e);
  }
  return { by, count, nodes, edges, strings, N, E, key, types, etypes, iEdges, eType, eName, eTo };
}

const args = process.argv.slice(2);
const opt = (name, d) => { const i = args.indexOf(name); return i < 0 ? d : args.splice(i, 2)[1]; };
const top = Number(opt("--top", 40));
const retainersOf = opt("--retainers", null);
const pathTo = opt("--path", null);
const [a, b] = args;
if (!a || !b) { console.error("usage: node web/test/fuzz/heap-diff.mjs A.heapsnapshot B.heapsnapshot [--top N] [--retainers Name]"); process.exit(2); }
const A = load(a), B = load(b);
let total = 0;
for (const v of A.by.values()) total -= v.size;
for (const v of B.by.values()) total += v.size;
console.log(`nodes ${A.count} → ${B.count}; self size ${total >= 0 ? "+" : ""}${total} bytes`);
const rows = [];
for (const k of new Set([...A.by.keys(), ...B.by.keys()])) {
  const x = A.by.get(k) || { n: 0, size: 0 }, y = B.by.get(k) || { n: 0, size: 0 };
  if (x.n !== y.n || x.size !== y.size) rows.push({ k, dn: y.n - x.n, ds: y.size - x.size, n: y.n });
}
rows.sort((p, q) => q.ds - p.ds);
for (const r of rows.slice(0, top)) console.log(`${String(r.ds).padStart(10)} B ${String(r.dn).padStart(7)} objects (now ${r.n})  ${r.k}`);

if (retainersOf) {
  // every edge into a node whose key is retainersOf: the holder's key and the edge's name
  const { nodes, edges, strings, N, E, key, etypes, iEdges, eType, eName, eTo } = B;
  const held = new Map();
  let first = 0;
  for (let i = 0; i < B.count; i++) {
    const ec = nodes[i * N + iEdges];
    for (let j = first; j < first + ec; j++) {
      const to = edges[j * E + eTo] / N;
      if (key(to) !== retainersOf) continue;
      const et = etypes[edges[j * E + eType]];
      const en = et === "element" || et === "hidden" ? `[${edges[j * E + eName]}]` : strings[edges[j * E + eName]];
      const k = `${key(i)} --${et}:${en}-->`;
      held.set(k, (held.get(k) || 0) + 1);
    }
    first += ec;
  }
  console.log(`\nretainers of ${retainersOf} in B:`);
  for (const [k, n] of [...held].sort((p, q) => q[1] - p[1]).slice(0, top)) console.log(`${String(n).padStart(7)}  ${k}`);
}

if (pathTo) {
  // breadth first from the snapshot's root (node 0) over strong edges: each node's first parent
  const { nodes, edges, strings, N, E, key, etypes, iEdges, eType, eName, eTo } = B;
  const firstEdge = new Uint32Array(B.count + 1);
  for (let i = 0; i < B.count; i++) firstEdge[i + 1] = firstEdge[i] + nodes[i * N + iEdges];
  const parent = new Int32Array(B.count).fill(-1), via = new Int32Array(B.count).fill(-1);
  parent[0] = 0;
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    for (let j = firstEdge[i]; j < firstEdge[i + 1]; j++) {
      if (etypes[edges[j * E + eType]] === "weak") continue;
      const to = edges[j * E + eTo] / N;
      if (parent[to] !== -1) continue;
      parent[to] = i; via[to] = j; queue.push(to);
    }
  }
  const seen = new Set();
  console.log(`\npaths from the roots to ${pathTo} in B:`);
  for (let i = 0; i < B.count && seen.size < top; i++) {
    if (key(i) !== pathTo || parent[i] === -1) continue;
    const steps = [];
    for (let k = i; k !== 0; k = parent[k]) {
      const j = via[k], et = etypes[edges[j * E + eType]];
      const en = et === "element" || et === "hidden" ? `[${edges[j * E + eName]}]` : strings[edges[j * E + eName]];
      steps.push(`${key(parent[k]).slice(0, 60)} .${en}`);
    }
    const p = steps.reverse().join(" → ");
    if (seen.has(p)) continue;
    seen.add(p);
    console.log("- " + p);
  }
}
