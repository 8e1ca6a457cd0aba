// One character in one cell of the grid: what the drawing functions take,
// and what tests read instead of pixels.

import type { Rgb } from "./palette";

export interface Glyph {
  col: number;
  row: number;
  ch: string;
  color: Rgb;
}

/** A line of a page and its colour. */
export type PageLine = [string, Rgb];

/** Lines of text as glyphs, one row each from `firstRow`, cut at `width` (spaces left out). */
export function textGlyphs(lines: readonly PageLine[], firstRow: number, width: number, firstCol = 0): Glyph[] {
  const glyphs: Glyph[] = [];
  lines.forEach(([text, color], i) => {
    let col = 0;
    for (const ch of text) {
      if (col >= width) break;
      if (ch !== " ") glyphs.push({ col: firstCol + col, row: firstRow + i, ch, color });
      col++;
    }
  });
  return glyphs;
}

/** Glyphs as rows of text, the first row first, each cut after its last letter. */
export function glyphRows(glyphs: readonly Glyph[]): string[] {
  const rows = glyphs.reduce((n, g) => Math.max(n, g.row + 1), 0);
  const lines: string[][] = Array.from({ length: rows }, () => []);
  for (const g of glyphs) {
    const line = lines[g.row];
    if (line === undefined) continue;
    while (line.length <= g.col) line.push(" ");
    line[g.col] = g.ch;
  }
  return lines.map((l) => l.join(""));
}
