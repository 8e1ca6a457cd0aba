// What a frame costs on the largest map known whole (256 x 256, fixtures'
// knownWhole): the map's glyphs of the whole level, the map's glyphs the
// camera shows (what a frame draws), and one whole frame (map, list and
// HUD) over a 2D context that draws nothing. Each figure is the median of
// RUNS runs of a run's mean, in milliseconds. `npm run bench` in web/.

import { performance } from "node:perf_hooks";

import { Atlas, drawFrame } from "../src/render/canvas";
import { layoutAt } from "../src/render/layout";
import { DEFAULT } from "../src/render/palette";
import { mapGlyphs, mapInView } from "../src/render/view";
import { knownWhole } from "./fixtures";

const RUNS = 15;
const PER_RUN = 40;

/** A 2D context (and the atlas's canvas) that draws nothing. */
const nothing = new Proxy({}, { get: (_, key) => (key === "measureText" ? () => ({ width: 8 }) : () => {}) });
(globalThis as { document?: unknown }).document = { createElement: () => ({ width: 0, height: 0, getContext: () => nothing }) };
const ctx = nothing as unknown as CanvasRenderingContext2D;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The median over RUNS runs of the mean milliseconds of `body`. */
function timed(body: () => void): number {
  for (let i = 0; i < PER_RUN; i++) body();
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    for (let i = 0; i < PER_RUN; i++) body();
    runs.push((performance.now() - start) / PER_RUN);
  }
  return median(runs);
}

const session = knownWhole(256);
const scene = session.scene();
const layout = layoutAt(1280, 720, 16, 8);
const atlas = new Atlas(16, { fontPx: 13, textPx: 8 }, 1);
let sink = 0;
const figures = {
  "mapGlyphs, the whole level": timed(() => void (sink += mapGlyphs(session.state, DEFAULT).length)),
  [`mapInView, the ${layout.mapCols} x ${layout.mapRows} cells shown`]: timed(() => mapInView(scene, DEFAULT, layout, () => sink++)),
  "drawFrame, a whole frame": timed(() => drawFrame(ctx, atlas, scene, DEFAULT, layout)),
};
for (const [what, ms] of Object.entries(figures)) console.log(`${ms.toFixed(3).padStart(8)} ms  ${what}`);
if (sink < 0) console.log(sink);
