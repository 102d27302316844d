// main.js — the page's entry point: the engine (Go WebAssembly through explainer.js) driving the
// page (app.js).
import { explainer, internal } from "./explainer.js";
import { start } from "./app.js";

start(explainer, internal);
