// sheet.js — a dialog's stylesheet, added to the page at its first use: the first view fetches
// only style.css, and a dialog shows only once its rules apply (no unstyled flash).
//
// sheet(path) → Promise, resolved once the sheet applies. path is relative to the page
//   ("web/tools/editor.css"), a string literal: the offline build finds the sheets so, and puts
//   each in the file as <style media="not all" data-sheet="PATH">, which this switches on (the
//   file's policy allows its inline styles by hash; nothing can be fetched from file://).
//   Served, it adds <link rel="stylesheet"> once (style-src 'self'). A sheet that fails to load
//   rejects, and is tried again at the next call.
// withSheets(importer, ...paths) → importer for lazy.js: the module and its sheets, in parallel.

const loads = new Map(); // path → Promise

export function sheet(path) {
  let p = loads.get(path);
  if (!p) {
    p = load(path);
    loads.set(path, p);
    p.catch(() => loads.delete(path));
  }
  return p;
}

function load(path) {
  const inline = [...document.querySelectorAll("style[data-sheet]")].find((s) => s.dataset.sheet === path);
  if (inline) {
    inline.media = "all";
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(path, document.baseURI).href;
    link.onload = () => resolve();
    link.onerror = () => { link.remove(); reject(new Error(`its stylesheet ${path} could not be loaded`)); };
    document.head.append(link);
  });
}

export function withSheets(importer, ...paths) {
  return () => Promise.all([importer(), ...paths.map(sheet)]).then(([m]) => m);
}
