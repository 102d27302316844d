// words.test.mjs — the rule the page's text is held to (plain-words.mjs, from
// internal/plainwords/words.json), checked without a browser: citations and glossed identifiers
// pass, raw ones and banned terms do not. (The page's text itself: ../words.test.mjs.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { BANNED, plainProblems } from "../plain-words.mjs";

test("the rule itself: citations and glossed identifiers pass, raw ones do not", () => {
  assert.deepEqual(plainProblems("the start signal (StartFragmentBackfill, naming fragment 7) locality_provider.rs L486–498"), []);
  assert.deepEqual(plainProblems(`the error "actor_id closed" (src/stream/src/task/actor_manager.rs:582)`), []);
  assert.deepEqual(plainProblems("a barrier (StartFragmentBackfill{7})"), ["StartFragmentBackfill{"]);
  assert.deepEqual(plainProblems("every vnode becomes Completed. pos.a VISIBLE").sort(), ["VISIBLE", "pos.a", "s Completed"]);
  assert.deepEqual(plainProblems("state not_started"), ["not_started"]);
  assert.deepEqual(plainProblems("Completed vnodes pass. RisingWave reads it in JavaScript."), []);
  assert.deepEqual(plainProblems("A Hash Map (the loop polls)").sort(), ["Hash Map", "the loop polls"], "banned terms, any case, even in parentheses");
});

test("every entry of words.json compiles and bans what it names", () => {
  assert.ok(BANNED.length >= 6);
  for (const [re, sample] of [[0, "InProgress"], [1, "update_with_buffered_rows"], [3, "fused"], [4, "HIDDEN"]]) {
    assert.ok(plainProblems(`a ${sample} b`).includes(sample), `${sample} (entry ${re}) is banned`);
  }
});
