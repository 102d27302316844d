// export.js — the "Save ▾" menu: download the open run as a scenario file that replays it
// exactly (injected events and choices included), as the readable trace `backfill run` prints
// (explainer.text(), written by the engine), and as the trace JSON of the whole run or of the
// run up to this step, from explainer.export().
// Importing is the existing Open… (file or paste).
import { h } from "../ui/dom.js";
import { createPopover } from "../ui/popover.js";

/** Offer `text` as a download named `name` (a Blob URL, revoked after the click). */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The saved file reopens at the run's step: `open_at` (docs/scenario-format.md), the file's
 *  step matching this step of the run (export().positions). */
export function withOpenAt(text, x) {
  const at = x?.positions?.[x?.trace?.step ?? 0] ?? 0;
  if (!(Number.isInteger(at) && at > 0)) return text;
  return `${text.endsWith("\n") ? text : text + "\n"}# Saved at step ${x.trace.step} of the run: the page opens the file there.\nopen_at: ${at}\n`;
}

function slug(s) {
  return String(s || "scenario").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "scenario";
}

/** createExport({explainer, getName() → scenario name or title, onError(msg)}) → {wrap} */
export function createExport({ explainer, getName, onError }) {
  const pop = createPopover({
    label: "Save", title: "Download this run as a scenario file, a readable trace or the trace JSON",
    testid: "export-menu", panelLabel: "Download this run", className: "export-btn",
    onOpen: () => pop.panel.querySelector("button")?.focus(),
  });
  async function go(kind) {
    pop.close({ focus: true });
    try {
      const base = slug(getName());
      if (kind === "text") { download(base + ".txt", String(await explainer.text()), "text/plain;charset=utf-8"); return; }
      const x = await explainer.export();
      if (kind === "scenario") download(base + ".yaml", withOpenAt(String(x.scenario ?? ""), x), "text/yaml");
      else if (kind === "whole") download(base + ".trace.json", JSON.stringify(x.whole_trace, null, 2) + "\n", "application/json");
      else download(`${base}.step-${x.trace?.step ?? 0}.trace.json`, JSON.stringify(x.trace, null, 2) + "\n", "application/json");
    } catch (e) { onError(e && e.message ? e.message : String(e)); }
  }
  pop.panel.append(
    h("button", { type: "button", class: "menu-item", "data-testid": "download-scenario", onclick: () => go("scenario") },
      h("strong", null, "Download scenario"), h("span", { class: "muted" }, ".yaml that replays this run, injections and choices included")),
    h("button", { type: "button", class: "menu-item", "data-testid": "download-text", onclick: () => go("text") },
      h("strong", null, "Download readable trace"), h("span", { class: "muted" }, ".txt of every step: its outputs and why, as the command line prints it")),
    h("button", { type: "button", class: "menu-item", "data-testid": "download-trace", onclick: () => go("whole") },
      h("strong", null, "Download trace of the whole run"), h("span", { class: "muted" }, ".json of every step of the script, wherever you are now")),
    h("button", { type: "button", class: "menu-item", "data-testid": "download-trace-here", onclick: () => go("here") },
      h("strong", null, "Download trace up to this step"), h("span", { class: "muted" }, ".json of the outputs so far, as the page shows them")),
    h("p", { class: "menu-hint muted" }, "Open… loads a scenario file back."));
  return { wrap: pop.wrap };
}
