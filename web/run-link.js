// run-link.js — a run as a link: the scenario text that replays it (explainer.export()),
// deflated and base64url-encoded into the URL's `run=` parameter, so a link reproduces a branched
// run or a scenario loaded from a file, injected events and choices included.

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

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** encodeRun turns scenario text into a URL-safe code. */
export async function encodeRun(text) {
  return toB64url(await pipe(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}

/** decodeRun turns a code back into scenario text; it throws a readable error on a bad code. */
export async function decodeRun(code) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await pipe(fromB64url(code), new DecompressionStream("deflate-raw")));
  } catch {
    throw new Error("this link's run= part is damaged: it does not decode to a scenario");
  }
}
