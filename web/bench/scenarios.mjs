// scenarios.mjs — the generated scenarios the benchmarks step through (bench.mjs, trace.mjs).

// wide256 is a 256-vnode backfill (crc32 over an int key, chunk_size 8: builders of 8) of a
// 4,096-row table, with upstream chunks and barriers while it reads: each step renders 256
// builders, lanes and progress rows.
export function wide256() {
  const lines = ["title: bench 256 vnodes", "table: {columns: [a:int, id], locality: [a], stream_key: [id]}",
    "vnodes: {count: 256}", "chunk_size: 8"];
  const rows = [];
  for (let i = 0; i < 4096; i++) rows.push(`[${i}, ${i}]`);
  lines.push(`start: {state_table: [${rows.join(", ")}]}`, "steps:", "  - barrier: 1", "  - barrier: {epoch: 2, start_backfill: [1]}");
  let epoch = 2, left = 4097, next = 100000; // 4,096 rows and the snapshot's end
  while (left > 0) {
    const n = Math.min(32, left);
    left -= n;
    lines.push(`  - snapshot: ${n}`);
    if (left > 0) {
      const chunk = [];
      for (let j = 0; j < 4; j++) { next++; chunk.push(`"+ ${next} ${next}"`); }
      lines.push(`  - chunk: [${chunk.join(", ")}]`);
    }
    const m = Math.min(32, left);
    if (m > 0) { left -= m; lines.push(`  - snapshot: ${m}`); }
    lines.push(`  - barrier: ${++epoch}`);
  }
  return lines.join("\n") + "\n";
}

// long10k is a 10,000-step scenario: a buffering actor taking chunk+barrier pairs.
export function long10k() {
  const lines = ["title: bench 10000 steps", "table: {columns: [a, id], locality: [a], stream_key: [id]}",
    "vnodes: {count: 4, rule: modulo}", "chunk_size: 4", "steps:", "  - barrier: 1"];
  let epoch = 1;
  for (let i = 0; lines.length - 5 < 10000; i++) lines.push(`  - chunk: ["+ ${i} ${i}"]`, `  - barrier: ${++epoch}`);
  return lines.slice(0, 5 + 10000).join("\n") + "\n";
}
