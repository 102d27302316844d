// render-fatal.test.mjs — the fatal panel (web/stage/render-fatal.js) drawn under Node from the real
// engine's views (engine.mjs) into a small DOM (dom.mjs): at the failing step of every built-in
// that fails, under every bug mode, the panel shows exactly the view's failure, each part in its
// place with its links; a panic says so. (The browser suite keeps the Recover button and key, the
// timeline mark and the layout: fatal.test.mjs.)

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { install } from "./dom.mjs";
import { call } from "./engine.mjs";

let renderFatal;
before(async () => {
  install();
  ({ renderFatal } = await import("../../stage/render-fatal.js"));
});

// L12–15, or L12 for one line
const lines = ([a, b]) => (a === b ? `L${a}` : `L${a}–${b}`);
const squash = (s) => String(s ?? "").replace(/\s+/g, " ").trim();
const part = (panel, id) => panel.querySelector(`[data-testid="${id}"]`) ?? document.getElementById("fatal-more").querySelector(`[data-testid="${id}"]`);

/** A fatal panel and its details (#fatal-more, after the stage) in the document, as on the page. */
function fatalPanel() {
  const panel = document.createElement("section");
  const more = document.createElement("section");
  more.id = "fatal-more";
  document.body.replaceChildren(panel, more);
  return panel;
}

/** The failing views: every built-in, as written and under every bug mode, at its failing steps. */
async function failures() {
  const names = (await call("scenarios")).map((s) => s.name);
  const bugs = [null, ...(await call("bugs")).map((b) => b.name)];
  const out = [];
  for (const name of names) {
    for (const bug of bugs) {
      await call("open", name);
      if (bug) await call("bug", bug);
      let v = await call("goto", 0);
      while (v.step < v.steps && !v.error) v = await call("step");
      if (v.error) out.push({ where: `${name}${bug ? ` (${bug})` : ""} step ${v.step}`, view: v });
    }
  }
  return out;
}

/** What the panel shows of each part of view.failure, as the browser test reads it. */
function shown(panel) {
  const items = (id) => part(panel, id).querySelectorAll("li").map((li) => ({
    text: li.firstChild.textContent, link: li.querySelector("a.src")?.getAttribute("href") ?? null,
    label: li.querySelector("a.src")?.textContent ?? null,
  }));
  return {
    meaning: part(panel, "fatal-meaning")?.textContent, proven: items("fatal-proven"), inferred: items("fatal-inferred"),
    left: part(panel, "fatal-left").querySelector("p").textContent, recovery: part(panel, "fatal-recovery").querySelector("p").textContent,
  };
}

test("at the failing step of every built-in and bug mode, the fatal panel is the view's failure", async () => {
  const all = await failures();
  assert.ok(all.length >= 3, `failing runs: ${all.map((f) => f.where).join(", ")}`);
  assert.ok(all.some((f) => f.view.error.panic), "a panic among them");
  for (const { where, view: v } of all) {
    const panel = fatalPanel();
    let recovered = null;
    const recover = v.actions.find((a) => a.kind === "recover") ?? null;
    renderFatal(v, panel, recover, (a) => { recovered = a; });
    assert.equal(panel.hidden, false, where);
    const f = v.failure;
    assert.ok(f, `${where}: the view explains the failure`);
    assert.equal(part(panel, "fatal-message").textContent, v.error.message, where);
    const title = panel.querySelector("#fatal-title").textContent;
    assert.equal(title, `${v.error.panic ? "The executor panicked" : "The executor failed"} at step ${v.step}`, where);
    const s = shown(panel);
    if (f.meaning) assert.equal(s.meaning, f.meaning, where);
    assert.deepEqual(s.proven.map((p) => squash(p.text)), f.proven.map((c) => squash(c.text)), where);
    assert.deepEqual(s.proven.map((p) => p.link), f.proven.map((c) => c.url), where);
    assert.deepEqual(s.proven.map((p) => p.label), f.proven.map((c) => `${c.file.split("/").pop()} ${lines(c.lines)}`), where);
    assert.deepEqual(s.inferred.map((p) => squash(p.text)), f.inferred.map(squash), `${where}: the inferred causes, apart`);
    assert.ok(s.inferred.every((p) => p.link === null), `${where}: an inference cites no lines`);
    assert.equal(s.left, f.left_behind, where);
    assert.equal(s.recovery, f.recovery, where);
    // the lead says what happens to data in the engine's short headline; the details, the whole one
    assert.ok(f.data.short, `${where}: the engine gives a short headline`);
    assert.equal(part(panel, "fatal-data-headline").textContent, f.data.short, `${where}: the lead's headline`);
    assert.equal(part(panel, "fatal-data-full").querySelector(".fatal-headline").textContent, f.data.headline, `${where}: the whole headline in the details`);
    // the Recover button is the view's recover action
    const btn = part(panel, "recover");
    assert.equal(btn.disabled, !recover, where);
    btn.click();
    assert.equal(recovered, recover, `${where}: Recover hands over the view's recover action`);
  }
});

// (moved from fatal.test.mjs: it read only what the panel draws from view.failure)
test("a panic: the panel says so and cites the executor framework, all from view.failure", async () => {
  await call("open", "first-message-not-barrier");
  let v = await call("goto", 0);
  while (v.step < v.steps && !v.error) v = await call("step");
  const panel = fatalPanel();
  renderFatal(v, panel, null, () => {});
  assert.match(panel.textContent, /The executor panicked at step \d+/);
  assert.equal(v.failure.panic, true);
  assert.ok(v.failure.proven.some((c) => c.file.endsWith("executor/mod.rs")), "cites mod.rs");
  assert.match(squash(part(panel, "fatal-proven").textContent), /mod\.rs L\d+–\d+/);
});

test("no error: the panel is hidden and empty", async () => {
  await call("open", "happy-path");
  const v = await call("goto", 3);
  const panel = document.createElement("section");
  panel.append(document.createElement("p"));
  renderFatal(v, panel, null, () => {});
  assert.equal(panel.hidden, true);
  assert.equal(panel.firstChild, null);
});

// A dropped job's title says why, in the engine's words (view.dropped.reason): before its first
// checkpoint every create type is dropped, so a background job dropped there is titled "no
// checkpoint yet", not by how it was created; a creating foreground job is titled by that.
test("a dropped job: the title gives the engine's reason, not the create type", async () => {
  const cases = [
    { name: "first-message-not-barrier", release: "v3.1", create: "background", reason: "no checkpoint yet" },
    { name: "first-message-not-barrier", release: "v3.0", create: "foreground", reason: "no checkpoint yet" },
    { name: "fatal-upstream-end", release: "v3.0", create: "foreground", reason: "created in the foreground" },
  ];
  for (const c of cases) {
    const where = `${c.name} ${c.release} ${c.create}`;
    await call("open", c.name);
    await call("release", c.release);
    let v = await call("create", c.create);
    v = await call("goto", 0);
    while (v.step < v.steps && v.phase !== "dropped") v = await call("step");
    assert.equal(v.phase, "dropped", `${where}: the recovery drops the job`);
    assert.equal(v.dropped.reason, c.reason, where);
    const panel = fatalPanel();
    renderFatal(v, panel, null, () => {});
    assert.equal(part(panel, "dropped-title").textContent, `The recovery dropped the job · ${c.release} · ${c.reason}`, where);
  }
});
