// panel-check.mjs — in the page (page.evaluate(panelsHere)): the state of each of the stage's
// panels on screen, by its body's data-testid: "whole", "collapsed" (its heading only, saying so),
// "cut N" (N px of its content out of its box or its column), "hidden" (not drawn: presenter
// mode leaves the tables out); which are collapsed; and which are cut without saying so — neither
// collapsed nor marked as a panel part of whose content is out of sight (presenter-fit.js
// .clipped: a "more ↓" tab on its edge, the panel's ::after). Shared by lesson-named.test.mjs and lesson-probe.mjs.
// (Not a test file: build.sh runs web/test/*.test.mjs only.)

/** In the page: {panels: {testid: state}, collapsed: [testid], unsaid: ["testid: N px"]}. */
export function panelsHere() {
  return new Promise((resolve) => requestAnimationFrame(() => {
    const panels = {}, collapsed = [], unsaid = [];
    const after = (el) => { const c = el ? getComputedStyle(el, "::after").content : "none"; return c && c !== "none" && c !== "normal" && c !== '""' ? c : ""; };
    for (const p of document.querySelectorAll("#stage .col > .panel")) {
      const body = p.querySelector(":scope > .panel-body");
      if (!body) continue;
      const id = body.dataset.testid || body.id; // (the output log's box: outputs-box)
      if (!p.getClientRects().length) { panels[id] = "hidden"; continue; }
      if (p.classList.contains("collapsed")) { panels[id] = "collapsed"; collapsed.push(id); continue; }
      const r = p.getBoundingClientRect(), c = p.parentElement.getBoundingClientRect();
      // (out of its column's box or the window, and what its body scrolls away, down or across)
      const out = Math.max(0, r.bottom - Math.min(c.bottom, innerHeight)) + Math.max(0, Math.max(c.top, 0) - r.top);
      const hid = Math.max(0, body.scrollHeight - body.clientHeight - 1) + Math.max(0, body.scrollWidth - body.clientWidth - 1);
      const px = Math.round(out + hid);
      panels[id] = px > 0 ? `cut ${px}` : "whole";
      if (px > 0 && !after(p)) unsaid.push(`${id}: ${px} px`);
    }
    resolve({ panels, collapsed, unsaid });
  }));
}
