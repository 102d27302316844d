// run.mjs runs the browser tests: every web/test/*.test.mjs, or the files named.
//
//   node web/test/run.mjs                      # all, in TEST_CONCURRENCY (default 2) workers
//   node web/test/run.mjs web/test/keys.test.mjs
//   TEST_CONCURRENCY=1 TEST_LABEL="node tests" node web/test/run.mjs web/test/node/*.test.mjs
//                                              # (build.sh: the render tests, one engine for all)
//
// Each worker is one Node process that runs one file at a time, each file as a suite of its own
// (its before/after hooks stay its own), and asks for the next file when it is done, the largest
// files first. The files a worker runs share one Chromium, one server per site folder and the
// harness's spare contexts (harness.mjs, BACKFILL_TESTS_SHARED): a page opens in a context that
// has loaded the engine before, ~1.6 s of CPU instead of ~5.8 s for a fresh context, and
// Chromium starts twice a run instead of once a file. What a test sees is what it saw in a
// process of its own: a new page, storage as its options ask, a server log of its file's
// requests. `node --test web/test/X.test.mjs` still runs one file in a process of its own.
//
// Each file's report is printed whole when it is done, with the file's time; at the end the 10
// slowest files and the sum of all files' times (about the run's time × the workers); the exit status is 1 when a test failed,
// a worker died or a file was not run.

import { fork } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

if (process.argv[2] === "--worker") await worker();
else await main(process.argv.slice(2));

async function main(args) {
  const files = args.length
    ? args.map((f) => resolve(f))
    : readdirSync(HERE).filter((f) => f.endsWith(".test.mjs")).map((f) => join(HERE, f));
  // the largest first: the long files start early and the short ones fill in at the end
  files.sort((a, b) => statSync(b).size - statSync(a).size || a.localeCompare(b));
  const queue = [...files];
  const n = Math.max(1, Math.min(Number(process.env.TEST_CONCURRENCY) || 2, files.length));
  const problems = [];
  const ran = new Set();
  const took = new Map(); // file → seconds, from its start to its end in its worker
  const started = Date.now();

  await Promise.all(Array.from({ length: n }, (_, i) => new Promise((done) => {
    const child = fork(fileURLToPath(import.meta.url), ["--worker"], {
      execArgv: ["--test-reporter=spec"],
      env: { ...process.env, BACKFILL_TESTS_SHARED: "1" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let out = "";
    let current = null;
    let since = 0;
    const flush = () => { if (out) process.stdout.write(out); out = ""; };
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { out += d; });
    const next = () => {
      current = queue.shift() || null;
      since = Date.now();
      child.send({ file: current });
    };
    child.on("message", (m) => {
      if (m.ready) return next();
      if (m.done) {
        ran.add(m.done);
        took.set(m.done, (Date.now() - since) / 1000);
        out += `(${rel(m.done)}: ${took.get(m.done).toFixed(1)} s)\n`;
        flush();
        next();
      }
    });
    child.on("exit", (code, signal) => {
      // what is left of the report comes after the last file's end, with the worker's totals
      setImmediate(() => {
        flush();
        if (code !== 0) problems.push(`worker ${i + 1} exited with ${code ?? signal}${current ? ` while running ${rel(current)}` : ""}`);
        done();
      });
    });
  })));

  const missed = files.filter((f) => !ran.has(f));
  for (const f of missed) problems.push(`not run: ${rel(f)}`);
  const secs = Math.round((Date.now() - started) / 1000);
  // each file's time (wall, in its worker: the other worker's file shares the cores), the slowest
  // first; their sum over the workers is about the run's time
  const slow = [...took].sort((a, b) => b[1] - a[1]);
  const sum = slow.reduce((s, [, t]) => s + t, 0);
  console.log(`\nthe slowest files (of ${slow.length}, ${Math.round(sum)} s in all):`);
  for (const [f, t] of slow.slice(0, 10)) console.log(`  ${t.toFixed(1).padStart(6)} s  ${rel(f)}`);
  console.log(`\n${process.env.TEST_LABEL || "browser tests"}: ${ran.size} of ${files.length} files in ${n} workers, ${secs} s`);
  if (problems.length) {
    console.log(problems.map((p) => `  ${p}`).join("\n"));
    console.log("(a failed test's report is above, under its file)");
    process.exitCode = 1;
  }
}

function rel(f) {
  return relative(process.cwd(), f);
}

// worker asks the parent for a file, runs it as a suite, says it is done and asks again; with
// no file left it closes what the files shared. node:test reports the failures and sets the exit
// status.
async function worker() {
  const { closeShared } = await import("./harness.mjs"); // first: its hooks are the root's
  const { describe } = await import("node:test");
  const ask = () => new Promise((res) => process.once("message", (m) => res(m.file)));
  let answer = ask();
  process.send({ ready: true });
  for (let file = await answer; file; file = await answer) {
    await describe(rel(file), async () => { await import(pathToFileURL(file).href); });
    answer = ask();
    process.send({ done: file }); // answered with the next file
  }
  await closeShared();
  process.disconnect();
}
