// stage.mjs — the page's stage under Node: index.html's markup read into the small DOM (dom.mjs)
// and drawn by render.js's createRenderer from the real engine's views (engine.mjs), with the
// engine's legend installed as app.js installs it. newStage() starts from a fresh document.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { install, parseHTML } from "./dom.mjs";
import { call } from "./engine.mjs";
import { ROOT } from "../harness.mjs";

let page; // index.html, parsed once
let modules;

/** newStage() → {render(view), el(id), legend}: the page's stage in a fresh document. */
export async function newStage() {
  const doc = install();
  page ??= readFileSync(join(ROOT, "index.html"), "utf8");
  const body = parseHTML(page).querySelector("body");
  doc.body.append(...body.childNodes);
  modules ??= {
    render: await import("../../stage/render.js"),
    chips: await import("../../stage/chips.js"),
  };
  const legend = await call("legend");
  modules.chips.setLegend(legend);
  const renderer = modules.render.createRenderer(modules.render.findElements(doc));
  return {
    render: (view) => renderer.render(view),
    el: (id) => doc.getElementById(id),
    legend: (k) => legend[k] ?? k,
  };
}
