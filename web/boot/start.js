// start.js — the first script of the page (index.html loads it first in <head>, a plain script:
// Chromium ran it async only after the page's first paint, after the modules had loaded, and
// the first view's stored views were then asked for last): it fetches what the first view
// needs while the page's modules load, instead of after them — the stored views of the run the
// link shows (stored.js), or, for a link that needs the engine (#run=, #src=, lesson=) and in the
// offline file, the engine itself (fetched and compiled at once). It is a classic script with no
// import or export, so that it can run that early; boot.js imports it too (a file that only
// assigns globals means the same as a module), for compileEngine in the explorer's worker.
//
// globalThis.__backfillCompileEngine({url, base64, priority}) → Promise<WebAssembly.Module>: fetch
//   and compile (streaming when the server says application/wasm), or compile the offline file's
//   inlined gzip+base64 copy.
// globalThis.__backfillWasmModule: in a page, the promise of the page's engine once started
//   (here, or by explainer.js); explainer.js boots from it.
// globalThis.__backfillViews(path) → Promise of web/views/PATH's JSON, each fetched once (not in
//   the offline file).
(() => {
  // Once is enough: in the page this file runs as its first script and again inside the module
  // graph (boot.js imports it; the served page's bundle holds a copy).
  if (typeof globalThis.__backfillCompileEngine === "function") return;
  async function inlinedBytes(b64) {
    const bin = Uint8Array.from(atob(b64.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
    const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).arrayBuffer();
  }

  async function compileEngine({ url, base64, priority } = {}) {
    if (typeof base64 === "string" && base64.length) {
      return WebAssembly.compile(await inlinedBytes(base64));
    }
    let resp;
    try {
      resp = await fetch(url, priority ? { priority } : undefined);
    } catch (e) {
      throw new Error(`could not fetch ${url}: ${e.message}`);
    }
    if (!resp.ok) throw new Error(`could not fetch ${url}: HTTP ${resp.status} (build it with ./build.sh build)`);
    if (WebAssembly.compileStreaming && (resp.headers.get("content-type") || "").includes("application/wasm")) {
      return WebAssembly.compileStreaming(resp);
    }
    return WebAssembly.compile(await resp.arrayBuffer());
  }

  globalThis.__backfillCompileEngine = compileEngine;
  try { performance.mark("backfill:start"); } catch { /* no performance in this realm */ }
  if (typeof document === "undefined" || new URLSearchParams(location.search).get("speaker") === "1") return;
  const base64 = globalThis.__backfillWasmBase64;
  const inline = typeof base64 === "string" && base64.length > 0;
  const inlineViews = globalThis.__backfillViewsBase64; // the offline file's (internal/site/offline.go)
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  // The engine at once only where the first view needs it: a link to a run, a file or a lesson,
  // or an offline file without stored views. Else a built-in's first view is its stored views
  // (web/views/, stored.js), fetched here, and the engine loads later (explainer.js).
  if (hash.has("run") || hash.has("src") || hash.has("lesson") || (inline && typeof inlineViews !== "string")) {
    if (!globalThis.__backfillWasmModule) {
      const module = compileEngine({ url: new URL("web/explainer.wasm", document.baseURI).href, base64 });
      module.catch(() => {}); // explainer.js reports a failure when it boots from it
      globalThis.__backfillWasmModule = module;
    }
    if (inline && typeof inlineViews !== "string") return;
  }
  // globalThis.__backfillViews(path) → Promise of web/views/PATH's JSON (each fetched once; the
  // offline file's from its inlined copy)
  const got = new Map();
  const inlined = typeof inlineViews === "string" ? new Response(new Blob([Uint8Array.from(atob(inlineViews), (c) => c.charCodeAt(0))])
    .stream().pipeThrough(new DecompressionStream("gzip"))).json() : null;
  const views = (path) => {
    if (inlined) return inlined.then((m) => (path in m ? m[path] : Promise.reject(new Error(`web/views/${path}: not in this file`))));
    if (!got.has(path)) {
      const p = fetch(new URL("web/views/" + path, document.baseURI)).then((r) => {
        if (!r.ok) throw new Error(`web/views/${path}: HTTP ${r.status}`);
        return r.json();
      });
      p.catch(() => got.delete(path));
      got.set(path, p);
    }
    return got.get(path);
  };
  globalThis.__backfillViews = views;
  // the index (preloaded by index.html), then the run the link (or a plain visit) shows
  const name = hash.get("scenario") || (hash.has("run") || hash.has("src") ? null : "happy-path");
  views("index.json").then((x) => {
    const o = x.open?.[name];
    const release = hash.get("release") || x.default_release, bug = hash.get("bug") || o?.bug;
    if (!o || !x.runs[name].includes(`${release}.${bug}`)) return;
    views(release === x.default_release && bug === o.bug ? `${name}.json` : `${name}/${release}.${bug}.json`).catch(() => {});
  }, () => {});
})();
