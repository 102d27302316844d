// stored.test.mjs — the stored views (dist/web/views/, internal/firstview) read by the page's
// reader (web/boot/stored.js) equal the real engine's answers (engine.mjs, the built wasm) for
// every stored run of every built-in (every release; the file's bug mode and none), reached as
// the page reaches it (open, then the bug mode, then the release), at every step by goto and by
// step and back; and so do the lists the page asks the stored views for. Run after ./build.sh build.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DIST } from "../harness.mjs";
import { call } from "./engine.mjs";
import { createStored } from "../../boot/stored.js";

const VIEWS = join(DIST, "web", "views");
const reader = () => createStored({ fetchJSON: async (p) => JSON.parse(await readFile(join(VIEWS, p), "utf8")) });

/** a method answered by the reader (which must be able to answer it) */
async function ask(st, method, arg) {
  assert.ok(await st.prepare(method, arg), `the stored views cannot answer ${method}(${JSON.stringify(arg)})`);
  return st.answer(method, arg);
}

/** a view's JSON, its revision 0 (the reader numbers its runs' revisions itself): the reader
 * answers a view in the engine's own shape, nothing put back (one render path) */
const engineView = (v) => JSON.stringify({ ...v, revision: 0 });
const whole = (_st, v) => engineView(v);

test("the lists the page reads before the engine are the engine's", async () => {
  const st = reader();
  for (const m of ["scenarios", "bugs", "legend", "glossary", "lessons"]) {
    assert.deepEqual(await ask(st, m), await call(m), m);
  }
});

test("every stored run equals the engine at every step, by goto, step and back", async () => {
  const idx = JSON.parse(await readFile(join(VIEWS, "index.json"), "utf8"));
  let runs = 0;
  for (const [name, stored] of Object.entries(idx.runs)) {
    for (const key of stored) {
      const [, release, bug] = /^(v\d+\.\d+)\.(.+)$/.exec(key);
      const st = reader();
      const open = idx.open[name];
      const reach = async (f) => {
        const out = [await f("open", name)];
        if (bug !== open.bug) out.push(await f("bug", bug));
        if (release !== open.release) out.push(await f("release", release));
        return out.at(-1);
      };
      let mine = await reach((m, a) => ask(st, m, a));
      let theirs = await reach(call);
      const where = `${name} ${key}`;
      assert.equal(whole(st, mine), engineView(theirs), `${where}: step 0`);
      const steps = await ask(st, "steps");
      assert.equal(steps, await call("steps"), `${where}: steps`);
      for (let n = 1; n <= steps; n++) {
        mine = await ask(st, "step");
        theirs = await call("step");
        assert.equal(whole(st, mine), engineView(theirs), `${where}: step ${n} (step)`);
        assert.deepEqual(await ask(st, "actions"), await call("actions"), `${where}: actions at ${n}`);
      }
      for (let n = steps - 1; n >= 0; n--) {
        assert.equal(whole(st, await ask(st, "back")), engineView(await call("back")), `${where}: step ${n} (back)`);
      }
      for (const n of [steps, 0, Math.floor(steps / 2), steps - 1].filter((n) => n >= 0)) {
        assert.equal(whole(st, await ask(st, "goto", n)), engineView(await call("goto", n)), `${where}: step ${n} (goto)`);
        assert.equal(whole(st, await ask(st, "view")), engineView(await call("view")), `${where}: view at ${n}`);
      }
      // what the engine refuses, the reader leaves to it
      await ask(st, "goto", steps);
      assert.equal(st.can("step"), false, `${where}: a step past the end is the engine's`);
      assert.equal(st.can("goto", steps + 1), false, `${where}: goto past the end is the engine's`);
      assert.equal(st.can("apply", "barrier"), false, `${where}: apply is the engine's`);
      runs++;
    }
  }
  assert.ok(runs >= 23 * 4, `only ${runs} runs stored`);
});
