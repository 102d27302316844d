// run-link.js — a run as a link: the scenario text that replays it (explainer.export()),
// deflated and base64url-encoded into the URL's `run=` parameter, so a link reproduces a branched
// run or a scenario loaded from a file, injected events and choices included. A code never
// inflates past TEXT_LIMIT (a small link must not inflate to megabytes): inflating stops there.

/** The largest scenario text the page reads from a link or a URL (the engine's own limit). */
export const TEXT_LIMIT = 1 << 20;

const toB64url = (bytes) => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const fromB64url = (code) => {
  const b64 = code.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

/**
 * readCapped reads a byte stream to its end, or throws tooLarge() as soon as it has read more
 * than limit bytes (it reads at most one chunk past the limit, then cancels the stream).
 */
export async function readCapped(stream, limit, tooLarge) {
  const reader = stream.getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > limit) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** encodeRun turns scenario text into a URL-safe code. */
export async function encodeRun(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toB64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** decodeRun turns a code back into scenario text; it throws a readable error on a bad code. */
export async function decodeRun(code) {
  const big = new Error("this link's run= part inflates to more than 1 MiB, the limit for a scenario");
  let bytes;
  try {
    const stream = new Blob([fromB64url(code)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    bytes = await readCapped(stream, TEXT_LIMIT, () => big);
  } catch (e) {
    if (e === big) throw e;
    throw new Error("this link's run= part is damaged: it does not decode to a scenario");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error("this link's run= part is damaged: it does not decode to a scenario");
  }
}
