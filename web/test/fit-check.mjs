// fit-check.mjs — presenter mode's check, shared by presenter-fit.test.mjs and
// lesson-walk.test.mjs: run in the page (page.evaluate(problemsHere)), it lists what of the
// current view's changed panels is out of the viewport, cut by its column or its own box
// (a long list: its changed items outside the list's box, but for an output log bounded by its
// full column that shows its newest), or covered (document.elementFromPoint
// at its corners and middle), and whether the scenario's title is cut; the same for the panels a
// lesson's goal or question names (.named), and whether the lesson's goal or question is cut. [] when all is whole.
// (Not a test file: build.sh runs web/test/*.test.mjs only.)

/** In the page: what of the current view's changed panels and title is cut, covered or out of view. */
export function problemsHere() {
  // a column with no room left: its last panel ends at its bottom
  const columnFull = (col) => {
    if (!col) return false;
    const last = [...col.children].filter((k) => k.getClientRects().length).at(-1);
    const c = col.getBoundingClientRect();
    return c.bottom - parseFloat(getComputedStyle(col).paddingBottom) - last.getBoundingClientRect().bottom < 2;
  };
  return window.explainer.view().then((v) => new Promise((resolve) => requestAnimationFrame(() => {
    const bad = [];
    const fmt = (r) => `[${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)}]`;
    // the changed panels, and those a lesson's goal or question names (presenter.js .named)
    const keys = Object.entries(v.changed || {}).filter(([, on]) => on).map(([k]) => [k, `[data-testid="${k.replaceAll("_", "-")}"]`]);
    for (const p of document.querySelectorAll("#stage .panel.named > .panel-body[data-testid]")) keys.push([`named ${p.dataset.testid}`, `[data-testid="${p.dataset.testid}"]`]);
    for (const [key, sel] of keys) {
      const el = document.querySelector(sel);
      if (!el || !el.getClientRects().length) continue; // not projected (the note, the tables)
      const panel = el.closest(".panel") || el;
      const r = panel.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
        bad.push(`${key}: box ${fmt(r)} is not inside the ${innerWidth}×${innerHeight} viewport`);
        continue;
      }
      const col = panel.closest(".col");
      if (col) {
        const c = col.getBoundingClientRect();
        if (r.bottom > c.bottom + 0.5 || r.top < c.top - 0.5) bad.push(`${key}: box ${fmt(r)} is cut by its column ${fmt(c)}`);
      }
      // (the corners of a panel; a pill — the phase, the epoch — is rounded: its middle)
      const mid = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
      const points = panel.matches(".panel") ? [[r.left + 6, r.top + 6], [r.right - 6, r.top + 6], [r.left + 6, r.bottom - 6], [r.right - 6, r.bottom - 6], mid] : [mid];
      for (const [x, y] of points) {
        const at = document.elementFromPoint(x, y);
        if (!at || !(at === panel || panel.contains(at))) {
          bad.push(`${key}: (${Math.round(x)},${Math.round(y)}) is covered by ${at ? at.tagName.toLowerCase() + (at.id ? "#" + at.id : "") + "." + [...at.classList].join(".") : "nothing"}`);
          break;
        }
      }
      const body = panel.matches(".panel") ? panel.querySelector(".panel-body") : null;
      if (!body) continue;
      if (panel.matches(".panel-next, .panel-outputs")) {
        // a long list: the items the step changed are in sight inside it
        const items = panel.matches(".panel-outputs") ? [...body.querySelectorAll("#outputs > li.new")] : [...body.querySelectorAll("li")].slice(0, 1);
        const b = body.getBoundingClientRect();
        const outside = (it) => { const ir = it.getBoundingClientRect(); return ir.top < b.top - 0.5 || ir.bottom > b.bottom + 0.5; };
        const cutItem = items.find(outside);
        // (more new outputs than the column has room for: the log is bounded, its column full,
        // and shows the newest of them)
        if (cutItem && !(panel.matches(".panel-outputs") && !outside(items.at(-1)) && columnFull(col))) {
          bad.push(`${key}: changed item ${fmt(cutItem.getBoundingClientRect())} is outside its list's box ${fmt(b)}`);
        }
      } else if (body.scrollHeight > body.clientHeight + 1) {
        bad.push(`${key}: ${body.scrollHeight - body.clientHeight} px of its content are cut`);
      }
    }
    // a lesson's question and goal, whole
    const bar = document.querySelector('[data-testid="lesson-bar"]');
    if (bar && !bar.hidden) {
      for (const el of bar.querySelectorAll(".lesson-goal, .lesson-ask:not([hidden])")) {
        const r = el.getBoundingClientRect();
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 || r.bottom > innerHeight + 0.5 || r.top < -0.5) bad.push(`lesson: ${el.className} is cut`);
      }
    }
    const t = document.getElementById("scenario-title");
    if (t.scrollWidth > t.clientWidth + 0.5 || t.scrollHeight > t.clientHeight + 0.5) bad.push(`title cut: ${t.scrollWidth}×${t.scrollHeight} in ${t.clientWidth}×${t.clientHeight}`);
    resolve(bad);
  })));
}

/**
 * In the page: what of the narration (the step's explanations beside the stage) is cut, covered
 * or out of view. No explanation is cut mid-sentence: each is whole in its box or, past the
 * first, wholly below it (the box scrolls to it); `all`: every explanation whole in view.
 */
export function narrationHere(all = false) {
  return new Promise((resolve) => requestAnimationFrame(() => {
    const bad = [];
    const live = document.getElementById("narration-live");
    if (!live || !live.getClientRects().length) return resolve(bad);
    const fmt = (r) => `[${Math.round(r.left)},${Math.round(r.top)} → ${Math.round(r.right)},${Math.round(r.bottom)}]`;
    const box = live.querySelector(".why");
    const b = (box || live).getBoundingClientRect();
    const items = [...live.querySelectorAll(":scope > .narr-head, .why-item, :scope > p.muted")];
    items.forEach((it, i) => {
      const r = it.getBoundingClientRect();
      const said = `"${it.textContent.trim().slice(0, 40)}…" ${fmt(r)}`;
      if (box?.contains(it)) {
        const below = r.top >= b.bottom - 0.5;
        if (below && (all || it === box.firstElementChild)) return bad.push(`narration: ${said} is below its box ${fmt(b)}`);
        if (below) return;
        if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) return bad.push(`narration: ${said} is cut mid-sentence by its box ${fmt(b)}`);
      }
      if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) return bad.push(`narration: ${said} is cut by the viewport`);
      const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      if (at && !(at === it || it.contains(at) || at.contains(it))) bad.push(`narration: ${said} is covered`);
    });
    resolve(bad);
  }));
}

/** In the page: the smallest computed font size of the stage's rendered text, and where. */
export function stageFontFloor() {
  const stage = document.getElementById("stage");
  let px = Infinity, where = "";
  const walk = document.createTreeWalker(stage, NodeFilter.SHOW_TEXT, { acceptNode: (t) => (t.data.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT) });
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const el = t.parentElement;
    if (!el.getClientRects().length || el.closest(".sr-only") || getComputedStyle(el).visibility !== "visible") continue;
    const f = parseFloat(getComputedStyle(el).fontSize);
    if (f < px) { px = f; where = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${t.data.trim().slice(0, 20)}"`; }
  }
  return { px, where };
}
