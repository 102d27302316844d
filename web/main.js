// main.js — the page's entry point: the real engine (Go WebAssembly through explainer.js)
// driving the page (app.js). The dev preview uses app.js with fixtures instead; this never does.
import { explainer } from "./explainer.js";
import { start } from "./app.js";

start(explainer);
