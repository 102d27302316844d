// render-narration.test.mjs — the narration (web/stage/render-narration.js) drawn under Node from the
// real engine's views (engine.mjs) into a small DOM (dom.mjs), at every step of a few built-ins,
// as written and under a bug mode: one item per explanation, in order, with its kind's tag, its
// text and its source link; the note, with a caveat apart when the engine gives one; the error.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { install } from "./dom.mjs";
import { call, views } from "./engine.mjs";

let renderNarration, KIND_LABEL;
before(async () => {
  install();
  ({ renderNarration, KIND_LABEL } = await import("../../stage/render-narration.js"));
});

const lines = (l) => (!l?.length ? "" : l.length === 1 || l[0] === l[1] ? `L${l[0]}` : `L${l[0]}–${l[1]}`);

function check(v, where) {
  const live = document.createElement("div");
  renderNarration(v, live);
  assert.equal(live.querySelector("h3.narr-head").textContent, v.step === 0 ? "Before the first step" : `Step ${v.step}: why`, where);
  const items = live.querySelectorAll("ul.why li");
  const exps = v.explanations || [];
  assert.equal(items.length, exps.length, where);
  exps.forEach((e, i) => {
    const li = items[i];
    const at = `${where}, explanation ${i}`;
    assert.equal(li.dataset.kind, e.kind || undefined, at);
    assert.equal(li.querySelector(".tag.kind")?.textContent, e.kind ? KIND_LABEL[e.kind] || e.kind : undefined, at);
    assert.equal(li.classList.contains("why-bug"), e.kind === "bug", at);
    assert.ok(li.querySelector(".why-text").textContent.startsWith(e.text ?? ""), at);
    const src = li.querySelectorAll("a.src").find((a) => !a.classList.contains("fix"));
    // the link anchors the whole range of lines (#L658-L667), not only its first line
    const want = !e.url ? null : !e.lines?.length || e.lines.length === 1 || e.lines[0] === e.lines[1] ? e.url
      : e.url.replace(/#.*$/, "") + `#L${e.lines[0]}-L${e.lines[1]}`;
    assert.equal(src?.getAttribute("href") ?? null, want, at);
    if (e.url) assert.equal(src.textContent, `${decodeURIComponent(new URL(e.url).pathname.split("/").pop())} ${lines(e.lines)}`.trim(), at);
    assert.equal(li.querySelector("a.fix")?.getAttribute("href") ?? null, e.fix || null, at);
  });
  if (!exps.length) assert.match(live.querySelector("p.muted").textContent, v.step === 0 ? /^Nothing has happened yet/ : /^Nothing to explain/, where);
  const note = live.querySelector('[data-testid="note"]');
  assert.equal(!!note, !!v.note, `${where}: a note when the view has one`);
  if (v.note) {
    const cav = v.note_caveat || "";
    assert.equal(live.querySelector('[data-testid="note-caveat"]')?.textContent ?? "", cav.trim(), where);
    assert.equal(note.textContent.replace(/^Note /, "").replace(/\s+/g, " ").trim(), (cav ? (v.note.startsWith(cav) ? v.note : cav) : v.note).replace(/\s+/g, " ").trim(), where);
  }
  assert.equal(live.querySelector(".narr-fatal code")?.textContent, v.error ? v.error.message : undefined, where);
}

for (const [name, bug] of [["happy-path"], ["fatal-upstream-end"], ["mixed-visibility", "mark-before-drain"]]) {
  test(`${name}${bug ? ` under ${bug}` : ""}: at every step the narration is the view's explanations and note`, async () => {
    await call("open", name);
    const { steps } = await call("view");
    const all = await views(name, Array.from({ length: steps + 1 }, (_, i) => i), { bug });
    assert.ok(all.some((v) => v.explanations?.length), "some step explains something");
    for (const v of all) check(v, `${name} step ${v.step}`);
  });
}

// A note written for the scripted run, after an injected step: the caveat apart, before it.
test("after a branch, a note kept from the script shows its caveat apart", async () => {
  await call("open", "happy-path");
  await call("goto", 6);
  await call("apply", `chunk: ["+ 5 104"]`);
  let v = await call("view");
  for (let i = 0; i < 20 && !(v.note && v.note_caveat) && v.step < v.steps; i++) v = await call("step");
  assert.ok(v.note && v.note_caveat, "a note with a caveat after the branch");
  check(v, `happy-path after a branch, step ${v.step}`);
});
