// scale-heatmap.js — the vnode × barrier heat map of a scale summary's progress, on a canvas of
// our own (uPlot has no heat map): one row per vnode, one column per barrier of the summary's
// progress, the colour the fraction of the vnode's snapshot rows passed there (the engine's
// number); hover or touch shows it. Colours come from the palette scale-charts.js reads from the
// page's CSS variables. Canvas sizes are set through the CSSOM (a strict CSP allows it).
import { h, fill } from "../ui/dom.js";

function rgbOf(color) {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (!m) return [128, 128, 128];
  const n = parseInt(m[1], 16);
  return [n >> 16, (n >> 8) & 255, n & 255];
}

/**
 * heatmap(fig, summary, marks, pal, width) → {resize(w), destroy(), canvas}
 * One row per vnode (with more than 256 vnodes, 256 rows of several vnodes each, their mean,
 * said so on hover), one column per barrier of the summary's progress; colour = the fraction of
 * the vnode's snapshot rows passed at that barrier. Hover or touch shows the value.
 */
export function heatmap(fig, summary, marks, pal, width) {
  const prog = summary.progress || [];
  const cols = prog[0] ? prog[0].length : 0;
  const bar = summary.progress_barriers || [...Array(cols).keys()];
  const epochOf = (k) => summary.series.epoch[bar[k]] ?? k + 1;
  const nv = prog.length;
  const rows = Math.min(nv, 256);
  const per = nv / Math.max(1, rows); // vnodes per row
  const ML = 44, MB = 22, MT = 6, MR = 8; // margins (CSS px)
  const plotH = Math.max(128, rows);

  const canvas = h("canvas", { class: "scale-heat", role: "img", "data-testid": "scale-heat-canvas",
    "aria-label": `Progress of each of the ${nv} vnodes (rows) at each of the ${cols} barriers (columns): the darker, the more of the vnode's snapshot rows passed.` });
  const tip = h("div", { class: "scale-tip", role: "status", "data-testid": "scale-heat-tip", hidden: true });
  const key = h("div", { class: "scale-heat-key" }, h("span", null, "0%"), h("span", { class: "scale-heat-ramp", "aria-hidden": "true" }), h("span", null, "100% of the vnode's snapshot rows passed"));
  fill(fig,
    h("figcaption", null, h("strong", null, "Progress, vnode × barrier"), " ",
      h("span", { class: "muted" }, "Each row a vnode, each column a barrier; the colour is how much of that vnode's snapshot the backfill had passed.")),
    h("div", { class: "scale-heat-wrap" }, canvas, tip), key);

  const lo = rgbOf(pal.surface2), hi = rgbOf(pal.accent);
  const cellColor = (f) => {
    const t = Math.max(0, Math.min(1, f));
    return `rgb(${Math.round(lo[0] + (hi[0] - lo[0]) * t)}, ${Math.round(lo[1] + (hi[1] - lo[1]) * t)}, ${Math.round(lo[2] + (hi[2] - lo[2]) * t)})`;
  };
  const rowValue = (r, k) => {
    const a = Math.floor(r * per), b = Math.max(a + 1, Math.floor((r + 1) * per));
    let sum = 0;
    for (let v = a; v < b; v++) sum += prog[v][k];
    return { a, b: b - 1, f: sum / (b - a) };
  };
  let w = width;

  function draw() {
    const dpr = devicePixelRatio || 1;
    const cssH = MT + plotH + MB;
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(cssH * dpr);
    canvas.style.width = `${w}px`;
    canvas.style.height = `${cssH}px`;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, cssH);
    const pw = w - ML - MR;
    const cw = pw / Math.max(1, cols), rh = plotH / Math.max(1, rows);
    for (let k = 0; k < cols; k++) {
      for (let r = 0; r < rows; r++) {
        ctx.fillStyle = cellColor(rowValue(r, k).f);
        const x0 = Math.round(ML + k * cw), y0 = Math.round(MT + r * rh);
        ctx.fillRect(x0, y0, Math.round(ML + (k + 1) * cw) - x0, Math.round(MT + (r + 1) * rh) - y0);
      }
    }
    ctx.strokeStyle = pal.rec;
    ctx.lineWidth = 2;
    ctx.setLineDash([6, 4]);
    for (const m of marks) {
      const k = [...Array(cols).keys()].find((i) => epochOf(i) === m.epoch);
      if (k === undefined) continue;
      ctx.strokeStyle = m.kind === "violation" ? pal.err : pal.rec;
      ctx.beginPath();
      ctx.moveTo(ML + (k + 0.5) * cw, MT);
      ctx.lineTo(ML + (k + 0.5) * cw, MT + plotH);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    ctx.fillStyle = pal.muted;
    ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const v of [0, Math.floor(nv / 4), Math.floor(nv / 2), Math.floor((3 * nv) / 4), nv - 1]) {
      ctx.fillText(`v${v}`, ML - 6, MT + ((v + 0.5) / nv) * plotH);
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    const every = Math.max(1, Math.ceil(cols / Math.max(1, Math.floor(pw / 34))));
    for (let k = 0; k < cols; k += every) ctx.fillText(`e${epochOf(k)}`, ML + (k + 0.5) * cw, MT + plotH + 5);
  }

  function at(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    const x = clientX - rect.left - ML, y = clientY - rect.top - MT;
    const pw = w - ML - MR;
    if (x < 0 || y < 0 || x >= pw || y >= plotH) return null;
    const k = Math.floor((x / pw) * cols), r = Math.floor((y / plotH) * rows);
    return { k, r, x: clientX - rect.left, y: clientY - rect.top };
  }

  function hover(ev) {
    const p = at(ev.clientX, ev.clientY);
    if (!p) { tip.hidden = true; return; }
    const { a, b, f } = rowValue(p.r, p.k);
    const who = a === b ? `vnode ${a}` : `vnodes ${a}–${b} (mean)`;
    tip.textContent = `${who}, e${epochOf(p.k)} (${summary.series.phase[bar[p.k]] ?? ""}): ${(100 * f).toFixed(f > 0 && f < 0.001 ? 3 : 1)}% passed`;
    tip.hidden = false;
    const left = Math.min(p.x + 12, w - tip.offsetWidth - 4);
    tip.style.left = `${Math.max(0, left)}px`;
    tip.style.top = `${Math.max(0, p.y - 30)}px`;
  }
  const leave = () => { tip.hidden = true; };
  canvas.addEventListener("pointermove", hover);
  canvas.addEventListener("pointerdown", hover);
  canvas.addEventListener("pointerleave", leave);
  draw();

  return {
    canvas,
    resize(nw) { w = nw; draw(); },
    destroy() {
      canvas.removeEventListener("pointermove", hover);
      canvas.removeEventListener("pointerdown", hover);
      canvas.removeEventListener("pointerleave", leave);
    },
  };
}

