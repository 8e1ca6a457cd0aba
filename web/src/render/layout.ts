// Where everything goes in a canvas of a given size (client/src/layout.rs):
// the HUD's rows along the bottom, the list of monsters in sight along the
// right, and the map's viewport in the rest, all at one cell size, which
// shrinks when the page is too small for the HUD to keep MIN_TEXT_COLS
// letters a row and the map MIN_MAP_ROWS rows. A map larger than its
// viewport scrolls to keep the player (or the cursor) in view (Camera).

import limits from "../generated/limits.json";
import type { Pos } from "../protocol";

export const GAME_ROWS: number = limits.game_rows;
export const CHAT_ROWS: number = limits.chat_rows;
/** The rows of the HUD: the status row, the keys (or a prompt), the game's lines and chat. */
export const HUD_ROWS = 2 + GAME_ROWS + CHAT_ROWS;
export const MIN_TEXT_COLS: number = limits.min_text_cols;
export const MIN_MAP_ROWS: number = limits.min_map_rows;
export const SIDE_COLS: number = limits.side_cols;
export const MIN_CELL_PX: number = limits.min_cell_px;
export const ZOOM_STEPS: readonly number[] = limits.zoom_steps;
/** A page's place above the HUD in the window's default size, [letters a row, rows]: the session's until told the real one. */
export const DEFAULT_PAGE: readonly [number, number] = [limits.default_page_cols, limits.default_page_rows];

/** Where everything goes, in pixels from the canvas's top-left corner. */
export interface Layout {
  width: number;
  height: number;
  /** A map cell is this square. */
  cellPx: number;
  /** A letter of running text is this wide (and a cell high). */
  textPx: number;
  mapCols: number;
  mapRows: number;
  sideX: number;
  sideCols: number;
  hudY: number;
  hudCols: number;
  pageCols: number;
}

/** The layout of a `width` x `height` canvas at `cellPx`, letters `textPx` wide. */
export function layoutAt(width: number, height: number, cellPx: number, textPx: number): Layout {
  cellPx = Math.max(1, Math.floor(cellPx));
  textPx = Math.min(Math.max(1, Math.floor(textPx)), cellPx);
  const rows = Math.floor(height / cellPx);
  const sideX = Math.max(0, width - SIDE_COLS * textPx);
  const cols = Math.min(Math.floor(width / textPx), 0xffff);
  return {
    width,
    height,
    cellPx,
    textPx,
    mapCols: Math.floor(sideX / cellPx),
    mapRows: Math.max(0, rows - HUD_ROWS),
    sideX,
    sideCols: SIDE_COLS,
    hudY: Math.max(0, height - HUD_ROWS * cellPx),
    hudCols: cols,
    pageCols: cols,
  };
}

/**
 * The layout at the cell size `wanted`, or the largest smaller one at
 * which the HUD and the map fit; `textPx` gives a cell size's letter width.
 */
export function layoutFit(width: number, height: number, wanted: number, textPx: (cell: number) => number): Layout {
  for (let cell = Math.max(wanted, MIN_CELL_PX); cell >= MIN_CELL_PX; cell--) {
    const l = layoutAt(width, height, cell, textPx(cell));
    if (l.hudCols >= MIN_TEXT_COLS && l.mapRows >= MIN_MAP_ROWS) return l;
  }
  return layoutAt(width, height, MIN_CELL_PX, textPx(MIN_CELL_PX));
}

/**
 * The largest zoom step at which a `map` of that many cells shows whole
 * beside the list and above the HUD: the page's zoom, since the browser
 * has its own Ctrl+ and Ctrl- (which change the page's size, and so this).
 */
export function zoomFor(width: number, height: number, map: [number, number], textPx: (cell: number) => number): number {
  const fits = (cell: number) =>
    map[0] * cell + SIDE_COLS * textPx(cell) <= width && (map[1] + HUD_ROWS) * cell <= height;
  // Never smaller than readable: on a small page the map scrolls instead
  // (layoutFit still shrinks it when even the HUD would not fit).
  return Math.max([...ZOOM_STEPS].reverse().find(fits) ?? MIN_CELL_PX, READABLE_CELL_PX);
}

/** The smallest cell the page picks by itself, letters about 7 pixels wide. */
export const READABLE_CELL_PX = 12;

/** Which part of the map the viewport shows: the map's cell at its top-left corner. */
export interface Camera {
  x: number;
  y: number;
}

/**
 * The view of a `map` in a viewport of `view` cells that keeps `focus` in
 * sight: centred on it when the map is larger (never past the map's edge),
 * the whole map centred when it is smaller.
 */
export function cameraOn(focus: Pos | null, map: [number, number], view: [number, number]): Camera {
  const axis = (f: number | null, m: number, v: number) => {
    if (m <= v) return -Math.trunc((v - m) / 2);
    const at = f ?? Math.trunc(m / 2);
    return Math.min(Math.max(at - Math.trunc(v / 2), 0), m - v);
  };
  return { x: axis(focus?.x ?? null, map[0], view[0]), y: axis(focus?.y ?? null, map[1], view[1]) };
}

/** The map's cell shown at a cell of the viewport, if the map reaches there. */
export function toMap(c: Camera, col: number, row: number, map: [number, number]): Pos | null {
  const x = col + c.x;
  const y = row + c.y;
  return x >= 0 && y >= 0 && x < map[0] && y < map[1] ? { x, y } : null;
}

/** Where a cell of the map is in the viewport, if it is in it. */
export function toView(c: Camera, x: number, y: number, view: [number, number]): [number, number] | null {
  const col = x - c.x;
  const row = y - c.y;
  return col >= 0 && row >= 0 && col < view[0] && row < view[1] ? [col, row] : null;
}
