// icons.js — the few transport icons, as inline SVG built with createElementNS (no icon
// fonts: system fonts lack some media glyphs). 16×16, drawn in currentColor.
const NS = "http://www.w3.org/2000/svg";
const PATHS = {
  first: "M3 2h2v12H3z M14 2v12L6 8z",
  back: "M12 2v12L4 8z",
  play: "M4 2v12l10-6z",
  pause: "M4 2h3v12H4z M9 2h3v12H9z",
  step: "M3 2v12l8-6z M11 2h2v12h-2z",
  last: "M2 2v12l8-6z M11 2h2v12h-2z",
  plus: "M7 2h2v5h5v2H9v5H7V9H2V7h5z",
};

export function icon(name) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "icon");
  const p = document.createElementNS(NS, "path");
  p.setAttribute("d", PATHS[name] || "");
  p.setAttribute("fill", "currentColor");
  svg.append(p);
  return svg;
}

/** Put icons into every element with data-icon="name" (keeps its other text). */
export function installIcons(root = document) {
  for (const el of root.querySelectorAll("[data-icon]")) {
    if (!el.querySelector("svg.icon")) el.prepend(icon(el.dataset.icon));
  }
}
