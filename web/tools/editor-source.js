// editor-source.js — the open scenario's text, for the editor to start from: a built-in's file
// as written (the bridge's builtin_text) or the text last loaded (a file, a paste, a link). It
// watches the session's views from the page's start, so it knows what was loaded before the
// editor's module arrives.

/**
 * createSource({session, builtinText(name) → Promise<string>}) → current() → Promise<{key, text} | null>
 * `key` names the scenario the text is of (it changes with every open or load).
 */
export function createSource({ session, builtinText }) {
  let loaded = null; // {key, text} of the last load
  let loads = 0;
  session.onView((v, { method, arg } = {}) => {
    if (method === "load" && typeof arg === "string") loaded = { key: `load:${++loads}`, text: arg };
  });
  return async function current() {
    const v = session.view;
    if (!v) return null;
    if (v.name) return { key: `builtin:${v.name}`, text: await builtinText(v.name) };
    return loaded;
  };
}
