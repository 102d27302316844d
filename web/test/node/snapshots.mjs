// snapshots.mjs — snapshot files for the Node render tests: matchSnapshot(name, text) compares
// text with web/test/node/snapshots/NAME.html and fails on a difference; UPDATE_SNAPSHOTS=1
// writes the file instead (as the Go goldens' -update does). A missing file is a failure too.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import assert from "node:assert/strict";
import { ROOT } from "../harness.mjs";

export const SNAPSHOTS = join(ROOT, "web", "test", "node", "snapshots");
const update = process.env.UPDATE_SNAPSHOTS === "1";

export function matchSnapshot(name, text) {
  const file = join(SNAPSHOTS, `${name}.html`);
  const body = text.endsWith("\n") ? text : text + "\n";
  if (update) {
    mkdirSync(SNAPSHOTS, { recursive: true });
    writeFileSync(file, body);
    return;
  }
  assert.ok(existsSync(file), `${file} is missing: UPDATE_SNAPSHOTS=1 node --test web/test/node/ writes it`);
  const want = readFileSync(file, "utf8");
  if (want === body) return;
  // the first differing line, then the whole text for the diff node:test shows
  const a = want.split("\n"), b = body.split("\n");
  const i = a.findIndex((l, j) => l !== b[j]);
  assert.equal(body, want, `${name}: the drawn stage differs from its snapshot at line ${i + 1}:\n  want ${a[i]}\n  got  ${b[i]}\n(UPDATE_SNAPSHOTS=1 rewrites it)`);
}
