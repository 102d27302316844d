// lazy.js — a part of the page loaded on first use: its module is imported (and the part made
// from it) only when something asks for it; the page keeps its button or key in the meantime.
// In the served page the module is a chunk of its own (the build's bundle); in the offline file
// it is inside the one script and only evaluated then.
//
// lazy(importer, make, onError) → {use(f), get(), prefetch(), loaded}
//   importer() imports the module; make(module) makes the part, once, at its first use.
//   use(f): f(part). Once the module is imported this happens at once (synchronously, as for a
//     part loaded with the page); before, after the import. A failed import is reported with
//     onError(message) and tried again at the next use.
//   get() → Promise of the part.
//   prefetch() → Promise: imports the module (nothing is made); never rejects.
//   loaded: the part once made, else undefined.

export function lazy(importer, make = (m) => m, onError = () => {}) {
  let mod = null;     // the module, once imported
  let loading = null; // the promise of the module, while importing (or imported)
  let made;           // the part, once made
  function load() {
    if (!loading) {
      loading = importer().then((m) => (mod = m));
      loading.catch(() => { loading = null; }); // the next use tries again
    }
    return loading;
  }
  function part() {
    if (made === undefined) made = make(mod);
    return made;
  }
  return {
    use(f) {
      if (mod) return Promise.resolve(f(part()));
      return load().then(() => f(part()), (e) => onError(`this part of the page could not be loaded (${e && e.message ? e.message : e}); try again`));
    },
    get: () => (mod ? Promise.resolve(part()) : load().then(part)),
    prefetch: () => load().then(() => {}, () => {}),
    get loaded() { return made; },
  };
}
