// Drawing a scene on the canvas (client/src/render/ in the browser): the
// map through the camera (with the aiming or look cursor), the list of
// monsters beside it or a page of text in its place, and the HUD, each
// glyph copied from an atlas of glyphs drawn once per colour, so a frame
// is a few thousand image copies and no text layout.

import type { Scene } from "../session/scene";
import { cssFont, metricsFor, type Metrics } from "./font";
import type { Glyph } from "./glyph";
import { toView, type Layout } from "./layout";
import { BACKGROUND, CURSOR, cssColour, type Palette, type Rgb } from "./palette";
import { sideGlyphs } from "./side";
import { camera, cursorCell, hudGlyphs, mapInView, pageGlyphs } from "./view";

/** The characters the atlas holds: printable ASCII, as the window's; others are drawn as `?`. */
function drawable(ch: string): string {
  const c = ch.charCodeAt(0);
  return ch.length === 1 && c >= 32 && c <= 126 ? ch : "?";
}

const PER_ROW = 32;
/** Past so many glyphs the atlas starts afresh (a hostile server's colours cannot grow it without end). */
const MOST_SLOTS = 4096;

/** Every glyph drawn once, in its colour, centred in a cell-sized slot. */
export class Atlas {
  private readonly canvas: HTMLCanvasElement;
  private ctx: CanvasRenderingContext2D;
  private readonly slots = new Map<string, number>();
  /** A slot's side, in the canvas's pixels. */
  readonly side: number;

  constructor(
    readonly cellPx: number,
    readonly metrics: Metrics,
    readonly scale: number,
  ) {
    this.side = Math.max(1, Math.round(cellPx * scale));
    this.canvas = document.createElement("canvas");
    this.canvas.width = PER_ROW * this.side;
    this.canvas.height = this.side;
    this.ctx = this.context();
  }

  private context(): CanvasRenderingContext2D {
    const ctx = this.canvas.getContext("2d");
    if (ctx === null) throw new Error("no 2D canvas");
    ctx.font = cssFont(this.metrics.fontPx * this.scale);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    return ctx;
  }

  /** The slot of `ch` in `color`, drawn on first use. */
  private slot(ch: string, color: Rgb): number {
    const key = `${ch}${cssColour(color)}`;
    const known = this.slots.get(key);
    if (known !== undefined) return known;
    if (this.slots.size >= MOST_SLOTS) this.slots.clear();
    const i = this.slots.size;
    const rows = Math.floor(i / PER_ROW) + 1;
    if (rows * this.side > this.canvas.height) this.grow(rows * 2);
    const x = (i % PER_ROW) * this.side;
    const y = Math.floor(i / PER_ROW) * this.side;
    this.ctx.clearRect(x, y, this.side, this.side);
    this.ctx.fillStyle = cssColour(color);
    this.ctx.fillText(ch, x + this.side / 2, y + this.side / 2);
    this.slots.set(key, i);
    return i;
  }

  private grow(rows: number): void {
    const old = document.createElement("canvas");
    old.width = this.canvas.width;
    old.height = this.canvas.height;
    old.getContext("2d")?.drawImage(this.canvas, 0, 0);
    this.canvas.height = Math.min(rows, Math.ceil(MOST_SLOTS / PER_ROW)) * this.side;
    this.ctx = this.context();
    this.ctx.drawImage(old, 0, 0);
  }

  /**
   * Copies `ch` in `color` into the cell whose top-left corner is (x, y),
   * `width` wide (a map cell, or a letter's advance: the middle of the slot).
   */
  draw(target: CanvasRenderingContext2D, ch: string, color: Rgb, x: number, y: number, width: number): void {
    const i = this.slot(drawable(ch), color);
    const w = Math.min(width, this.cellPx);
    const inset = ((this.cellPx - w) / 2) * this.scale;
    const sx = (i % PER_ROW) * this.side + inset;
    const sy = Math.floor(i / PER_ROW) * this.side;
    target.drawImage(this.canvas, sx, sy, w * this.scale, this.side, x, y, w, this.cellPx);
  }
}

/** The atlas for a cell size and scale: kept while they stay. */
export function atlasFor(ctx: CanvasRenderingContext2D, last: Atlas | null, cellPx: number, scale: number): Atlas {
  const metrics = metricsFor(ctx, cellPx);
  if (last !== null && last.cellPx === cellPx && last.scale === scale && last.metrics === metrics) return last;
  return new Atlas(cellPx, metrics, scale);
}

/** Paints the whole page in the background colour (nothing shown: the name form over it). */
export function clear(ctx: CanvasRenderingContext2D, layout: Layout): void {
  ctx.fillStyle = cssColour(BACKGROUND);
  ctx.fillRect(0, 0, layout.width, layout.height);
}

/** Draws one whole frame of `scene` as `layout` places it. */
export function drawFrame(ctx: CanvasRenderingContext2D, atlas: Atlas, scene: Scene, palette: Palette, layout: Layout): void {
  clear(ctx, layout);
  if (scene.page === "Map") {
    drawMap(ctx, atlas, scene, palette, layout);
    drawText(ctx, atlas, sideGlyphs(scene.state, palette, layout.sideCols, layout.mapRows), layout, layout.sideX, 0);
  } else {
    drawText(ctx, atlas, pageGlyphs(scene, palette, layout), layout, 0, 0);
  }
  drawText(ctx, atlas, hudGlyphs(scene, palette, 0, layout.hudCols), layout, 0, layout.hudY);
}

/** The map's glyphs in the viewport, through the camera that keeps the player (or the cursor) in view. */
function drawMap(ctx: CanvasRenderingContext2D, atlas: Atlas, scene: Scene, palette: Palette, layout: Layout): void {
  const view: [number, number] = [layout.mapCols, layout.mapRows];
  const cursor = cursorCell(scene);
  const at = cursor === null ? null : toView(camera(scene, layout), cursor.x, cursor.y, view);
  if (at !== null) drawCursor(ctx, at[0] * layout.cellPx, at[1] * layout.cellPx, layout.cellPx);
  mapInView(scene, palette, layout, (g, col, row) => {
    atlas.draw(ctx, g.ch, g.color, col * layout.cellPx, row * layout.cellPx, layout.cellPx);
  });
}

/** Running text: each glyph at its letter and row from (x, y). */
function drawText(ctx: CanvasRenderingContext2D, atlas: Atlas, glyphs: Glyph[], layout: Layout, x: number, y: number): void {
  for (const g of glyphs) atlas.draw(ctx, g.ch, g.color, x + g.col * layout.textPx, y + g.row * layout.cellPx, layout.textPx);
}

/** The aiming or look cursor: the cell framed bright, two pixels thick (one on the smallest cells). */
function drawCursor(ctx: CanvasRenderingContext2D, x: number, y: number, cell: number): void {
  ctx.strokeStyle = cssColour(CURSOR);
  const thickness = cell >= 12 ? 2 : 1;
  ctx.lineWidth = thickness;
  ctx.strokeRect(x + thickness / 2, y + thickness / 2, cell - thickness, cell - thickness);
}
