// main.js — the page's entry point: the engine (Go WebAssembly through explainer.js) driving the
// page (app.js); or, in the speaker-notes window presenter mode opens (?speaker=1), the notes
// (speaker.js, loaded only there), which start no engine of their own. explainer.js and app.js
// are imported statically, so window.explainer exists once the page's scripts have run (before
// its load event), as embedders expect.
import { explainer, internal } from "./explainer.js";
import { start } from "./app.js";
import { isSpeakerWindow } from "../teach/speaker-link.js";

if (isSpeakerWindow()) {
  document.documentElement.classList.remove("is-loading"); // (no first view to wait for)
  import("../teach/speaker.js").then(({ startSpeaker }) => startSpeaker());
}
else start(explainer, internal);
