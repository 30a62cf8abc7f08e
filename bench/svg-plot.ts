// A tiny SVG writer for the benchmark plots: line charts (log or linear axes) and bar charts, no dependency.

export interface Series {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
  readonly dashed?: boolean;
  /** Index into the palette; series of one quantity (p50 and p95) share a colour. Default: position. */
  readonly color?: number;
}

export interface LineChart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  /** A horizontal reference line, e.g. a goal. */
  readonly guide?: { readonly y: number; readonly label: string };
  /** Both axes logarithmic (default: sizes and latencies span orders of magnitude) or linear (recall@k). */
  readonly scale?: "log" | "linear";
  /** The y axis range on a linear scale; default from zero to the largest value. */
  readonly yRange?: readonly [number, number];
}

export interface BarChart {
  readonly title: string;
  readonly yLabel: string;
  readonly bars: readonly { readonly label: string; readonly value: number }[];
  readonly guide?: { readonly y: number; readonly label: string };
}

const W = 680;
const H = 420;
const PAD = { left: 70, right: 180, top: 40, bottom: 60 };
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

const esc = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const fmt = (v: number): string => (v >= 1000 ? `${v / 1000}k` : String(Number(v.toPrecision(3))));

/** Ticks at 1, 2 and 5 times powers of ten that fall within [lo, hi]. */
function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const t = m * 10 ** e;
      if (t >= lo * 0.999 && t <= hi * 1.001) ticks.push(t);
    }
  }
  return ticks;
}

function frame(title: string, xLabel: string, yLabel: string, body: string[], legendRoom = true): string {
  const plotH = H - PAD.top - PAD.bottom;
  const titleX = legendRoom ? (W - PAD.right + PAD.left) / 2 : W / 2;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${titleX}" y="22" text-anchor="middle" font-size="15">${esc(title)}</text>`,
    `<text x="${PAD.left + (W - PAD.left - PAD.right) / 2}" y="${H - 15}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text transform="translate(18 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}

const colorOf = (s: Series, i: number): string => COLORS[(s.color ?? i) % COLORS.length] as string;

function legend(series: readonly Series[]): string[] {
  return series.flatMap((s, i) => {
    const y = PAD.top + 10 + i * 20;
    const x = W - PAD.right + 15;
    const color = colorOf(s, i);
    return [
      `<line x1="${x}" y1="${y}" x2="${x + 24}" y2="${y}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ""}/>`,
      `<text x="${x + 30}" y="${y + 4}">${esc(s.name)}</text>`,
    ];
  });
}

/** About six ticks at 1, 2 or 5 times a power of ten within [lo, hi]. */
function linearTicks(lo: number, hi: number): number[] {
  const raw = (hi - lo) / 6;
  const step = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
    ticks.push(Number(t.toPrecision(6)));
  return ticks;
}

/** A line chart on linear axes: x from its smallest to its largest value. */
function linearLineChart(chart: LineChart): string {
  const xs = chart.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = chart.series.flatMap((s) => s.points.map((p) => p[1]));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = chart.yRange ?? [0, Math.max(...ys)];
  const px = (x: number) => PAD.left + ((x - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - PAD.top - PAD.bottom);
  return drawLines(chart, px, py, linearTicks(y0, y1), linearTicks(x0, x1));
}

/** Both axes logarithmic by default: sizes and latencies span orders of magnitude. */
export function lineChart(chart: LineChart): string {
  if (chart.scale === "linear") return linearLineChart(chart);
  const xs = chart.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = [...chart.series.flatMap((s) => s.points.map((p) => p[1])), chart.guide?.y ?? Number.NaN].filter(
    (y) => y > 0,
  );
  const [x0, x1] = [Math.min(...xs) / 1.5, Math.max(...xs) * 1.5];
  const [y0, y1] = [
    10 ** Math.floor(Math.log10(Math.min(...ys))),
    10 ** Math.ceil(Math.log10(Math.max(...ys))),
  ];
  const px = (x: number) =>
    PAD.left +
    ((Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0))) * (W - PAD.left - PAD.right);
  const py = (y: number) =>
    H -
    PAD.bottom -
    ((Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0))) * (H - PAD.top - PAD.bottom);
  return drawLines(
    chart,
    px,
    py,
    logTicks(y0, y1),
    [...new Set(xs)].sort((a, b) => a - b),
  );
}

function drawLines(
  chart: LineChart,
  px: (x: number) => number,
  py: (y: number) => number,
  yTicks: readonly number[],
  xTicks: readonly number[],
): string {
  const body: string[] = [];
  for (const t of yTicks) {
    body.push(`<line x1="${PAD.left}" y1="${py(t)}" x2="${W - PAD.right}" y2="${py(t)}" stroke="#ddd"/>`);
    body.push(`<text x="${PAD.left - 6}" y="${py(t) + 4}" text-anchor="end">${fmt(t)}</text>`);
  }
  for (const t of xTicks) {
    body.push(`<line x1="${px(t)}" y1="${PAD.top}" x2="${px(t)}" y2="${H - PAD.bottom}" stroke="#eee"/>`);
    body.push(`<text x="${px(t)}" y="${H - PAD.bottom + 18}" text-anchor="middle">${fmt(t)}</text>`);
  }
  if (chart.guide) {
    const y = py(chart.guide.y);
    body.push(
      `<line x1="${PAD.left}" y1="${y}" x2="${W - PAD.right}" y2="${y}" stroke="#555" stroke-dasharray="2 4"/>`,
    );
    body.push(
      `<text x="${W - PAD.right - 4}" y="${y - 5}" text-anchor="end" fill="#555">${esc(chart.guide.label)}</text>`,
    );
  }
  chart.series.forEach((s, i) => {
    const color = colorOf(s, i);
    const d = s.points
      .map(([x, y], j) => `${j ? "L" : "M"}${px(x).toFixed(1)} ${py(y).toFixed(1)}`)
      .join(" ");
    body.push(
      `<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ""}/>`,
    );
    for (const [x, y] of s.points) body.push(`<circle cx="${px(x)}" cy="${py(y)}" r="3" fill="${color}"/>`);
  });
  return frame(chart.title, chart.xLabel, chart.yLabel, [...body, ...legend(chart.series)]);
}

/** Vertical bars from zero on a linear axis, each labelled with its value. */
export function barChart(chart: BarChart): string {
  const top = Math.max(...chart.bars.map((b) => b.value), chart.guide?.y ?? 0) * 1.15;
  const plotW = W - PAD.left - PAD.right + 150;
  const py = (y: number) => H - PAD.bottom - (y / top) * (H - PAD.top - PAD.bottom);
  const slot = plotW / chart.bars.length;
  const body: string[] = [
    `<line x1="${PAD.left}" y1="${py(0)}" x2="${PAD.left + plotW}" y2="${py(0)}" stroke="#333"/>`,
  ];
  chart.bars.forEach((b, i) => {
    const x = PAD.left + i * slot + slot * 0.15;
    const w = slot * 0.7;
    body.push(
      `<rect x="${x}" y="${py(b.value)}" width="${w}" height="${py(0) - py(b.value)}" fill="${COLORS[i % 2]}"/>`,
    );
    body.push(
      `<text x="${x + w / 2}" y="${py(b.value) - 5}" text-anchor="middle">${Math.round(b.value)}</text>`,
    );
    body.push(
      `<text x="${x + w / 2}" y="${py(0) + 16}" text-anchor="middle" font-size="11">${esc(b.label)}</text>`,
    );
  });
  if (chart.guide) {
    const y = py(chart.guide.y);
    body.push(
      `<line x1="${PAD.left}" y1="${y}" x2="${PAD.left + plotW}" y2="${y}" stroke="#555" stroke-dasharray="4 4"/>`,
    );
    body.push(`<text x="${PAD.left + 4}" y="${y - 5}" fill="#555">${esc(chart.guide.label)}</text>`);
  }
  return frame(chart.title, "", chart.yLabel, body, false);
}
