import { prettyUnit } from '../../results-format/field-summary.ts';
import { type ColorRange, formatTick, normalize, siPrefix, ticks } from '../color/color-scale.ts';
import { type ColorMapName, colorAt } from '../color/colormaps.ts';

export interface LegendState {
  title: string;
  units: string;
  range: ColorRange;
  map: ColorMapName;
  auto: boolean;
}

export const LEGEND_WIDTH = 118;

/** Units that take no SI prefix on a legend (a "kK" or "mdeg" reads wrong); their ticks stay unscaled. */
const UNPREFIXED_UNITS = new Set(['K', '°C', 'deg', '°', 'dB', '']);

export function takesPrefix(units: string): boolean {
  return !UNPREFIXED_UNITS.has(units);
}

/** Kelvin legends show degrees Celsius beside every tick: engineers read both. */
const WITH_CELSIUS = 'K';

function unitLabel(prefix: string, units: string): string {
  if (units === WITH_CELSIUS) return 'K (°C)';
  return `${takesPrefix(units) ? prefix : ''}${prettyUnit(units)}`;
}

/**
 * A tick label with as many decimals as the tick spacing needs: a narrow range far from zero (360.07 to
 * 360.08 K) must not print the same "360" at every tick.
 */
export function tickLabel(value: number, factor: number, units: string, step: number): string {
  const spacing = Math.abs(step / factor);
  // Ticks are round (1, 2 or 5 × 10ᵏ): the spacing's first significant decimal is enough.
  const decimals = spacing > 0 && spacing < 1 ? Math.min(6, Math.ceil(-Math.log10(spacing) - 1e-9)) : 0;
  const text = (v: number) =>
    decimals > 0 && Math.abs(v) < 1e4 ? v.toFixed(decimals) : formatTick(v * factor, factor);
  const main = text(value / factor);
  return units === WITH_CELSIUS ? `${main} (${text(value - 273.15)})` : main;
}

export const LEGEND_HEIGHT = 270;

/** The title's sizes: it starts at 13 px, may shrink to 12 px on one line, else wraps onto two; 11 px is the
 * floor (qa: "Displacement (mode shape)" shrunk to 9 px on one line, too small to read). */
const TITLE_SIZES = [13, 12] as const;
const TITLE_MIN = 11;
const TITLE_LINE = 15;
const TITLE_WIDTH = LEGEND_WIDTH - 20;
const titleFont = (px: number) => `600 ${px}px system-ui, -apple-system, "Segoe UI", sans-serif`;

/**
 * The legend title's lines and size, for `measure(text, px)` (the canvas's measureText at that size): one line
 * at 13 or 12 px when it fits, else two lines split at the space that balances them best, at the largest
 * size from 13 px down to 11 px at which both fit (a single word too long for the box shrinks, not below 11 px,
 * and is drawn narrower to stay inside the box).
 */
export function legendTitle(
  title: string,
  measure: (text: string, px: number) => number,
): { lines: string[]; size: number } {
  for (const size of TITLE_SIZES) if (measure(title, size) <= TITLE_WIDTH) return { lines: [title], size };
  const words = title.split(' ');
  let best: string[] = [title];
  let bestWidth = Number.POSITIVE_INFINITY;
  for (let i = 1; i < words.length; i++) {
    const pair = [words.slice(0, i).join(' '), words.slice(i).join(' ')];
    const width = Math.max(...pair.map((line) => measure(line, TITLE_MIN)));
    if (width < bestWidth) [best, bestWidth] = [pair, width];
  }
  for (let size = 13; size > TITLE_MIN; size--)
    if (best.every((line) => measure(line, size) <= TITLE_WIDTH)) return { lines: best, size };
  return { lines: best, size: TITLE_MIN };
}

/** Draws the colour legend (title with units, gradient bar, ticks, range mode) at (x, y) in CSS px. */
export function drawLegend(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  state: LegendState,
): { lines: string[]; size: number } {
  const { range } = state;
  const { factor, prefix } = takesPrefix(state.units)
    ? siPrefix(Math.max(Math.abs(range.min), Math.abs(range.max)))
    : { factor: 1, prefix: '' };
  const barX = x + 12;
  const title = legendTitle(state.title, (text, px) => {
    ctx.font = titleFont(px);
    return ctx.measureText(text).width;
  });
  // a second title line moves the units and the bar down by one line
  const below = (title.lines.length - 1) * TITLE_LINE;
  const barY = y + 44 + below;
  const barW = 16;
  const barH = LEGEND_HEIGHT - 70 - below;
  ctx.save();
  ctx.fillStyle = 'rgba(14, 18, 24, 0.72)';
  roundRect(ctx, x, y, LEGEND_WIDTH, LEGEND_HEIGHT, 8);
  ctx.fill();
  ctx.fillStyle = '#e8edf3';
  ctx.textBaseline = 'top';
  ctx.font = titleFont(title.size);
  title.lines.forEach((line, i) => {
    ctx.fillText(line, x + 12, y + 10 + i * TITLE_LINE, TITLE_WIDTH);
  });
  ctx.font = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
  ctx.fillStyle = '#aab4c0';
  ctx.fillText(`${unitLabel(prefix, state.units)}${range.log ? ' · log' : ''}`, x + 12, y + 26 + below);
  for (let i = 0; i < barH; i++) {
    const [r, g, b] = colorAt(state.map, 1 - i / (barH - 1));
    ctx.fillStyle = `rgb(${r},${g},${b})`;
    ctx.fillRect(barX, barY + i, barW, 1);
  }
  ctx.strokeStyle = 'rgba(255,255,255,0.35)';
  ctx.lineWidth = 1;
  ctx.strokeRect(barX - 0.5, barY - 0.5, barW + 1, barH + 1);
  ctx.font = '11px ui-monospace, "SF Mono", Menlo, Consolas, monospace';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#dfe5ec';
  const values = ticks(range, 5);
  const step = values.length > 1 ? Math.abs((values[1] ?? 0) - (values[0] ?? 0)) : 0;
  let lastY = Number.POSITIVE_INFINITY;
  for (const v of values) {
    const ty = barY + (1 - normalize(v, range)) * (barH - 1);
    if (Math.abs(ty - lastY) < 13) continue;
    lastY = ty;
    ctx.fillRect(barX + barW, Math.round(ty), 5, 1);
    ctx.fillText(
      tickLabel(v, factor, state.units, step),
      barX + barW + 8,
      ty,
      x + LEGEND_WIDTH - barX - barW - 12,
    );
  }
  ctx.fillStyle = '#8d98a6';
  ctx.font = '10px system-ui, -apple-system, "Segoe UI", sans-serif';
  ctx.textBaseline = 'top';
  const mode = state.auto ? 'auto range' : 'fixed range';
  ctx.fillText(mode, x + 12, y + LEGEND_HEIGHT - 18);
  ctx.restore();
  return title;
}

export function roundRect(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** The legend as a DOM canvas in the viewer's corner. */
export class LegendView {
  readonly canvas = document.createElement('canvas');
  private state: LegendState | null = null;
  /** the title as last drawn: its lines and font size in CSS px (the browser tests read it) */
  title: { lines: string[]; size: number } | null = null;

  constructor(parent: HTMLElement) {
    this.canvas.className = 'fl-legend';
    this.canvas.style.width = `${LEGEND_WIDTH}px`;
    this.canvas.style.height = `${LEGEND_HEIGHT}px`;
    parent.appendChild(this.canvas);
    this.show(null);
  }

  show(state: LegendState | null): void {
    this.state = state;
    this.title = null;
    this.canvas.style.display = state ? 'block' : 'none';
    if (!state) return;
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    this.canvas.width = LEGEND_WIDTH * dpr;
    this.canvas.height = LEGEND_HEIGHT * dpr;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, LEGEND_WIDTH, LEGEND_HEIGHT);
    this.title = drawLegend(ctx, 0, 0, state);
  }

  get current(): LegendState | null {
    return this.state;
  }
}
