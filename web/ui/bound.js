// bound.js — every text the page shows or posts that carries its input is bounded: an input is
// quoted at most QUOTE characters, a whole message at most MESSAGE (a 1 MB value in a link or a
// request must not come back whole in a notice or a message to the parent frame).

export const QUOTE = 200;
export const MESSAGE = 1000;

/** quote(s): s, or its first QUOTE characters and how long it was. */
export function quote(s, max = QUOTE) {
  const t = String(s);
  return t.length <= max ? t : `${t.slice(0, max)}… (${t.length.toLocaleString("en-US")} characters)`;
}

/** bounded(message): the message, cut at MESSAGE characters. */
export function bounded(message, max = MESSAGE) {
  const t = String(message);
  return t.length <= max ? t : `${t.slice(0, max)}… (cut: ${t.length.toLocaleString("en-US")} characters)`;
}

/** quoteIn(message, input): the message with each whole copy of a long input quoted (an engine's
 *  error that names what it was given, such as an unknown release). */
export function quoteIn(message, input) {
  const m = String(message), s = String(input ?? "");
  return s.length > QUOTE ? m.split(s).join(quote(s)) : m;
}
