// main.js — the page's entry point: the engine (Go WebAssembly through explainer.js) driving the
// page (app.js); or, in the speaker-notes window presenter mode opens (?speaker=1), the notes
// (speaker.js), which start no engine of their own.
if (new URLSearchParams(location.search).get("speaker") === "1") {
  import("./speaker.js").then((m) => m.startSpeaker());
} else {
  Promise.all([import("./explainer.js"), import("./app.js")])
    .then(([{ explainer, internal }, { start }]) => start(explainer, internal));
}
