// scale-charts.js — draws a scale summary (the engine's, as `backfill run --json` prints it): three
// time series over the barriers with uPlot (vendored into dist/web/uPlot.js by build.sh from the
// pinned npm package), the vnode × barrier heat map of progress (scale-heatmap.js, a canvas of
// our own), and the series as a table.
// Everything drawn is a number of the summary; the phase of each barrier shades the charts, and
// the barriers of a recovery or a violation are marked. Colours come from the page's CSS
// variables, so light and dark mode both read well; the charts follow their box's width (375 px
// included) and are redrawn when the colour scheme changes. Hovering shows the values.
import uPlot from "../uPlot.js";
import { h, fill } from "../ui/dom.js";
import { heatmap } from "./scale-heatmap.js";

const fmtN = (n) => (n == null ? "–" : Number(n).toLocaleString("en-US"));
const HEIGHT = 190;
// The most barriers drawn in a chart or listed in the table: beyond it every k-th barrier (and
// the last), said above the charts (9,990 barriers drew 90,129 elements; a resize took seconds).
export const MAX_BARRIERS = 1000;
const SERIES = ["epoch", "phase", "buffered_rows", "snapshot_rows", "upstream_visible", "upstream_hidden", "vnodes_in_progress", "vnodes_completed"];

/** sampled(series) → {s: the series at every k-th barrier and the last, k, n: barriers in all}. */
export function sampled(series, max = MAX_BARRIERS) {
  const n = series.epoch.length;
  if (n <= max) return { s: series, k: 1, n };
  const k = Math.ceil(n / (max - 1));
  const idx = [];
  for (let i = 0; i < n - 1; i += k) idx.push(i);
  idx.push(n - 1);
  const s = {};
  for (const key of SERIES) s[key] = idx.map((i) => series[key]?.[i]);
  return { s, k, n };
}

/** css(el) → the page's colours, read now (they differ between light and dark). */
function palette(el) {
  const cs = getComputedStyle(el);
  const v = (name, fallback) => (cs.getPropertyValue(name) || "").trim() || fallback;
  return {
    text: v("--text", "#1d2125"), muted: v("--muted", "#5d6670"), border: v("--border", "#dadcd6"),
    surface: v("--surface", "#fff"), surface2: v("--surface-2", "#eee"),
    accent: v("--accent", "#2f5f98"), ins: v("--ins", "#1c6e3d"), del: v("--del", "#a4281c"),
    upd: v("--upd", "#8a5a00"), barrier: v("--barrier", "#4b4f9a"), wm: v("--wm", "#2c6f77"),
    rec: v("--rec", "#6b3f99"), err: v("--err", "#b3261e"),
    phase: { buffering: v("--upd-bg", "#fbf1d9"), backfilling: v("--accent-soft", "#e6eef8"), forwarding: v("--ins-bg", "#e7f3ea") },
  };
}

/** rgb(a) of a CSS colour with alpha a (the variables are hex or rgb()). */
function alpha(color, a) {
  const m = /^#([0-9a-f]{6})$/i.exec(color);
  if (m) {
    const n = parseInt(m[1], 16);
    return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
  }
  return color;
}

/**
 * drawCharts(box, summary) → {destroy(), charts: [uPlot…], heat}
 * Fills box with the three charts and the heat map.
 */
export function drawCharts(box, summary) {
  const { s, k, n } = sampled(summary.series);
  const marks = markers(summary);
  const figs = [
    {
      id: "scale-chart-buffer", title: "Upstream buffer",
      caption: "Rows in the upstream buffer when each barrier arrived.",
      series: [{ label: "buffered rows", key: "buffered_rows", color: "accent", fill: true }],
    },
    {
      id: "scale-chart-rows", title: "Rows out per epoch",
      caption: "Snapshot rows emitted in each epoch (left axis, bars) and the upstream's changes that came out visible or hidden (right axis).",
      series: [
        { label: "snapshot rows", key: "snapshot_rows", color: "wm", bars: true, scale: "rows" },
        { label: "upstream visible", key: "upstream_visible", color: "ins", scale: "changes" },
        { label: "upstream hidden", key: "upstream_hidden", color: "del", scale: "changes", dash: [5, 3] },
      ],
      right: "changes",
    },
    {
      id: "scale-chart-vnodes", title: "Vnodes",
      caption: "Vnodes completed and in progress at each barrier.",
      series: [
        { label: "completed", key: "vnodes_completed", color: "ins", fill: true },
        { label: "in progress", key: "vnodes_in_progress", color: "accent" },
      ],
    },
  ];

  const legendPhases = h("p", { class: "scale-phases", "data-testid": "scale-phases" });
  const heatFig = h("figure", { class: "scale-fig", "data-testid": "scale-heatmap" });
  const figEls = figs.map((f) => h("figure", { class: "scale-fig", "data-testid": f.id },
    h("figcaption", null, h("strong", null, f.title), " ", h("span", { class: "muted" }, f.caption)),
    h("div", { class: "scale-plot" })));
  const note = k > 1 ? h("p", { class: "note", "data-testid": "scale-sampled" },
    `${fmtN(n)} barriers: the charts and the table show every ${fmtN(k)}th barrier and the last (${fmtN(s.epoch.length)} of them); `,
    "backfill run --json gives every one.") : null;
  fill(box, note, legendPhases, figEls, heatFig, numbers(s));

  let plots = [];
  let heat = null;
  let width = 0;

  function build() {
    for (const p of plots) p.destroy();
    heat?.destroy();
    const pal = palette(box);
    fill(legendPhases, "Shading: ",
      ["buffering", "backfilling", "forwarding"].map((ph) => [h("span", { class: `scale-swatch scale-${ph}`, "aria-hidden": "true" }), ` ${ph} `]),
      marks.length ? [" · marked: ", marks.map((m, i) => [i ? ", " : "", h("span", { class: `scale-mark-${m.kind}` }, `e${m.epoch} ${m.label}`)])] : null);
    width = Math.max(240, Math.floor(box.clientWidth || 600));
    plots = figs.map((f, i) => plot(figEls[i].querySelector(".scale-plot"), f, s, marks, pal, width));
    heat = heatmap(heatFig, summary, marks, pal, width);
  }
  build();

  const ro = new ResizeObserver(() => {
    const w = Math.max(240, Math.floor(box.clientWidth || 600));
    if (w === width) return;
    width = w;
    for (const p of plots) p.setSize({ width: w, height: HEIGHT });
    heat.resize(w);
  });
  ro.observe(box);
  const mq = matchMedia("(prefers-color-scheme: dark)");
  const rescheme = () => build();
  mq.addEventListener("change", rescheme);
  const forced = new MutationObserver(rescheme); // :root[data-scheme] forces a scheme (style.css)
  forced.observe(document.documentElement, { attributes: true, attributeFilter: ["data-scheme"] });

  return {
    get charts() { return plots; },
    get heat() { return heat; },
    destroy() {
      ro.disconnect();
      forced.disconnect();
      mq.removeEventListener("change", rescheme);
      for (const p of plots) p.destroy();
      heat?.destroy();
      plots = [];
    },
  };
}

/** The barriers to mark: each recovery, and the violation. */
function markers(summary) {
  const out = [];
  for (const r of summary.recoveries || []) {
    out.push({ epoch: r.epoch, kind: "recovery", label: r.kind === "end" ? "upstream ended, recovered" : r.kind === "error" ? "upstream error, recovered" : "recovered" });
  }
  if (summary.violation) out.push({ epoch: summary.violation.epoch, kind: "violation", label: "invariant violated" });
  return out;
}

/** Phase shading and the markers, drawn under the series. */
function underlay(s, marks, pal) {
  return (u) => {
    const { ctx } = u;
    const { top, height } = u.bbox;
    const ep = s.epoch;
    ctx.save();
    for (let i = 0, j; i < ep.length; i = j) { // one band per run of barriers in the same phase
      for (j = i + 1; j < ep.length && s.phase[j] === s.phase[i]; j++);
      const x0 = Math.round(u.valToPos(ep[i] - 0.5, "x", true));
      const x1 = Math.round(u.valToPos(ep[j - 1] + 0.5, "x", true));
      ctx.fillStyle = pal.phase[s.phase[i]] || "transparent";
      ctx.fillRect(x0, top, x1 - x0, height);
    }
    ctx.lineWidth = 2 * devicePixelRatio;
    for (const m of marks) {
      const x = Math.round(u.valToPos(m.epoch, "x", true));
      ctx.strokeStyle = m.kind === "violation" ? pal.err : pal.rec;
      ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    }
    ctx.restore();
  };
}

function plot(el, f, s, marks, pal, width) {
  const axis = (extra) => ({
    stroke: pal.muted, grid: { stroke: alpha(pal.border, 0.9), width: 1 }, ticks: { stroke: pal.border, width: 1 },
    font: "11px system-ui, sans-serif", labelFont: "11px system-ui, sans-serif", ...extra,
  });
  const compact = (u, vals) => vals.map((v) => (v == null ? "" : Math.abs(v) >= 10000 ? `${Math.round(v / 1000)}k` : fmtN(v)));
  const scales = { x: { time: false, range: [s.epoch[0] - 0.5, s.epoch[s.epoch.length - 1] + 0.5] } };
  const axes = [axis({ label: "epoch", labelSize: 18, size: 32, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], values: (u, vals) => vals.map((v) => (Number.isInteger(v) ? `e${v}` : "")) })];
  const series = [{
    label: "barrier",
    value: (u, v, si, idx) => (idx == null ? "–" : `e${s.epoch[idx]} · ${s.phase[idx]}`),
  }];
  const used = [...new Set(f.series.map((x) => x.scale || "y"))];
  for (const sc of used) scales[sc] = { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] };
  used.forEach((sc, i) => {
    axes.push(axis({ scale: sc, side: i === 0 ? 3 : 1, size: 46, values: compact, grid: i === 0 ? { stroke: alpha(pal.border, 0.9), width: 1 } : { show: false } }));
  });
  for (const x of f.series) {
    const c = pal[x.color];
    series.push({
      label: x.label, scale: x.scale || "y", stroke: c, width: 2,
      fill: x.bars ? alpha(c, 0.45) : x.fill ? alpha(c, 0.16) : undefined,
      dash: x.dash,
      paths: x.bars ? uPlot.paths.bars({ size: [0.7, 48] }) : undefined,
      points: { show: !x.bars, size: 5, fill: pal.surface },
      value: (u, v) => fmtN(v),
    });
  }
  const data = [s.epoch, ...f.series.map((x) => s[x.key])];
  return new uPlot({
    width, height: HEIGHT, class: "scale-uplot",
    scales, axes, series,
    cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 7 } },
    legend: { live: true },
    hooks: { drawClear: [underlay(s, marks, pal)] },
  }, data, el);
}

/** The series as a table (for the keyboard and screen readers: the charts' values without hovering). */
function numbers(s) {
  const cols = [
    ["barrier", (i) => `e${s.epoch[i]}`], ["phase", (i) => s.phase[i]],
    ["buffered", (i) => fmtN(s.buffered_rows[i])], ["snapshot", (i) => fmtN(s.snapshot_rows[i])],
    ["visible", (i) => fmtN(s.upstream_visible[i])], ["hidden", (i) => fmtN(s.upstream_hidden[i])],
    ["in progress", (i) => fmtN(s.vnodes_in_progress[i])], ["completed", (i) => fmtN(s.vnodes_completed[i])],
  ];
  return h("details", { class: "scale-numbers", "data-testid": "scale-numbers" },
    h("summary", null, "The numbers, barrier by barrier"),
    h("div", { class: "scrollbox", tabindex: "0", role: "region", "aria-label": "The scale summary's series" },
      h("table", { class: "scale-table" },
        h("thead", null, h("tr", null, cols.map(([k]) => h("th", { scope: "col" }, k)))),
        h("tbody", null, s.epoch.map((_, i) => h("tr", null, cols.map(([, f]) => h("td", null, f(i)))))))));
}
