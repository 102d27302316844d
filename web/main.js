// main.js — the page's entry point: the engine (Go WebAssembly through explainer.js) driving the
// page (app.js); or, in the speaker-notes window presenter mode opens (?speaker=1), the notes
// (speaker.js), which start no engine of their own. The imports are static, so window.explainer
// exists once the page's scripts have run (before its load event), as embedders expect.
import { explainer, internal } from "./explainer.js";
import { start } from "./app.js";
import { startSpeaker } from "./speaker.js";
import { isSpeakerWindow } from "./speaker-link.js";

if (isSpeakerWindow()) startSpeaker();
else start(explainer, internal);
