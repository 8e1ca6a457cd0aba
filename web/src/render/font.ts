// The font the canvas draws in: DejaVu Sans Mono, the window's, which the
// server serves at /font.ttf (loaded with the FontFace API, which the
// page's content security policy allows); a monospace font of the
// browser's while it loads or if it cannot.

/** The family the page's glyphs are drawn in. */
export const FAMILY = "Gloam Mono";
const FALLBACK = "monospace";

let loaded = false;

/** Loads the font; resolves either way (the fallback draws meanwhile). */
export async function loadFont(url = "/font.ttf"): Promise<boolean> {
  if (typeof FontFace === "undefined" || typeof document === "undefined") return false;
  try {
    const face = new FontFace(FAMILY, `url(${url})`);
    document.fonts.add(await face.load());
    loaded = true;
  } catch {
    loaded = false;
  }
  return loaded;
}

/** The CSS font of glyphs `px` high. */
export function cssFont(px: number): string {
  return `${px}px "${loaded ? FAMILY : FALLBACK}", ${FALLBACK}`;
}

/** What a cell size needs of the font: its size, and its advance (a letter of running text). */
export interface Metrics {
  fontPx: number;
  textPx: number;
}

const metrics = new Map<string, Metrics>();

/**
 * Sizes the font so a line fits a cell of `cellPx`, as the window's atlas
 * does (monospace glyphs are about 0.6 em wide and 1.17 em tall), and gives
 * its advance at that size.
 */
export function metricsFor(ctx: CanvasRenderingContext2D, cellPx: number): Metrics {
  const key = `${cssFont(1)}:${cellPx}`;
  const known = metrics.get(key);
  if (known !== undefined) return known;
  let fontPx = cellPx;
  for (; fontPx > 4; fontPx -= 0.5) {
    ctx.font = cssFont(fontPx);
    const m = ctx.measureText("M");
    const height = (m.fontBoundingBoxAscent ?? fontPx * 0.93) + (m.fontBoundingBoxDescent ?? fontPx * 0.24);
    if (height <= cellPx) break;
  }
  ctx.font = cssFont(fontPx);
  const textPx = Math.min(Math.max(Math.round(ctx.measureText("M").width), 1), cellPx);
  const found = { fontPx, textPx };
  metrics.set(key, found);
  return found;
}
