// The drawing function over a fake 2D context: every glyph of the scene is
// one copy from the atlas, at the cell the camera puts it in, each glyph
// drawn into the atlas once per colour; the cursor framed; nothing drawn
// outside the canvas. A frame's cost follows the viewport, not the level:
// it reads only the cells the camera shows, and builds the party panel
// once.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Atlas, drawFrame } from "../src/render/canvas";
import { layoutAt, toView } from "../src/render/layout";
import { DEFAULT } from "../src/render/palette";
import { camera, hudGlyphs, mapGlyphs, mapInView } from "../src/render/view";
import { sideGlyphs } from "../src/render/side";
import { applyAll, inARoom, knownWhole, playing } from "./fixtures";

type Call = [string, ...unknown[]];

/** A 2D context that records what is drawn. */
function fakeContext(calls: Call[]): CanvasRenderingContext2D {
  const record = (name: string) => (...args: unknown[]) => void calls.push([name, ...args]);
  return {
    font: "",
    textAlign: "left",
    textBaseline: "alphabetic",
    fillStyle: "",
    strokeStyle: "",
    lineWidth: 1,
    fillText: record("fillText"),
    fillRect: record("fillRect"),
    clearRect: record("clearRect"),
    strokeRect: record("strokeRect"),
    drawImage: record("drawImage"),
    measureText: () => ({ width: 8, fontBoundingBoxAscent: 12, fontBoundingBoxDescent: 3 }),
  } as unknown as CanvasRenderingContext2D;
}

function withFakeDocument<T>(body: (atlasCalls: Call[]) => T): T {
  const atlasCalls: Call[] = [];
  const g = globalThis as { document?: unknown };
  const before = g.document;
  g.document = {
    createElement: () => ({ width: 0, height: 0, getContext: () => fakeContext(atlasCalls) }),
  };
  try {
    return body(atlasCalls);
  } finally {
    g.document = before;
  }
}

test("a frame is one atlas copy per glyph, each where the camera puts it, each glyph drawn once per colour", () => {
  withFakeDocument((atlasCalls) => {
    const s = playing();
    inARoom(s.state);
    applyAll(s.state, { Note: "You see stairs." });
    const layout = layoutAt(1280, 720, 16, 8);
    const atlas = new Atlas(16, { fontPx: 13, textPx: 8 }, 1);
    const calls: Call[] = [];
    const scene = s.scene();
    drawFrame(fakeContext(calls), atlas, scene, DEFAULT, layout);
    const copies = calls.filter(([name]) => name === "drawImage");
    const glyphs =
      mapGlyphs(s.state, DEFAULT).length +
      sideGlyphs(s.state, DEFAULT, layout.sideCols, layout.mapRows).length +
      hudGlyphs(scene, DEFAULT, 0, layout.hudCols).length;
    assert.equal(copies.length, glyphs);
    // The 20 x 10 map is centred in the viewport: its (3, 2) is the player's @.
    const offset = [Math.trunc((layout.mapCols - 20) / 2), Math.trunc((layout.mapRows - 10) / 2)];
    const at = [(3 + offset[0]!) * 16, (2 + offset[1]!) * 16];
    assert.ok(copies.some((c) => c[6] === at[0] && c[7] === at[1] && c[8] === 16), `an @ at ${at}`);
    for (const c of copies) {
      const [x, y, w, h] = c.slice(6) as number[];
      assert.ok(x! >= 0 && y! >= 0 && x! + w! <= layout.width && y! + h! <= layout.height, `${c.slice(6)}`);
    }
    const drawn = atlasCalls.filter(([name]) => name === "fillText").length;
    const distinct = new Set([...mapGlyphs(s.state, DEFAULT), ...hudGlyphs(scene, DEFAULT, 0, layout.hudCols), ...sideGlyphs(s.state, DEFAULT, layout.sideCols, layout.mapRows)].map((g) => `${g.ch}${g.color}`)).size;
    assert.equal(drawn, distinct, "each glyph drawn into the atlas once per colour");
    // A second frame draws nothing new into the atlas.
    drawFrame(fakeContext([]), atlas, scene, DEFAULT, layout);
    assert.equal(atlasCalls.filter(([name]) => name === "fillText").length, drawn);
    // A look frames its cell.
    scene.look = { x: 5, y: 3 };
    const framed: Call[] = [];
    drawFrame(fakeContext(framed), atlas, scene, DEFAULT, layout);
    const frame = framed.find(([name]) => name === "strokeRect");
    assert.deepEqual(frame?.slice(1, 3), [(5 + offset[0]!) * 16 + 1, (3 + offset[1]!) * 16 + 1]);
  });
});

test("a character outside printable ASCII is drawn as ?, as the window's atlas draws it", () => {
  withFakeDocument((atlasCalls) => {
    const atlas = new Atlas(16, { fontPx: 13, textPx: 8 }, 1);
    atlas.draw(fakeContext([]), "🐉", [1, 2, 3], 0, 0, 16);
    atlas.draw(fakeContext([]), "é", [1, 2, 3], 0, 0, 16);
    const texts = atlasCalls.filter(([name]) => name === "fillText").map((c) => c[1]);
    assert.deepEqual(texts, ["?"]);
  });
});

/** `known` behind a proxy that counts the cells read from it. */
function countingReads(known: Uint8Array): { known: Uint8Array; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(known, {
    get(target, key) {
      if (typeof key === "string" && /^[0-9]+$/.test(key)) reads++;
      const v: unknown = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { known: proxy, reads: () => reads };
}

test("a frame on a level known whole reads only the cells the camera shows, and draws what the whole map's glyphs put there", () => {
  withFakeDocument(() => {
    const s = knownWhole(256);
    const scene = s.scene();
    const layout = layoutAt(1280, 720, 16, 8);
    const view: [number, number] = [layout.mapCols, layout.mapRows];
    const shown: unknown[] = [];
    mapInView(scene, DEFAULT, layout, (g, col, row) => shown.push({ ...g, col, row }));
    const cam = camera(scene, layout);
    const whole = mapGlyphs(s.state, DEFAULT).flatMap((g) => {
      const cell = toView(cam, g.col, g.row, view);
      return cell === null ? [] : [{ ...g, col: cell[0], row: cell[1] }];
    });
    assert.ok(whole.length > 1000);
    assert.deepEqual(shown, whole, "the same glyphs, in the same order, as the whole map's through the camera");
    const counted = countingReads(s.state.known);
    s.state.known = counted.known;
    drawFrame(fakeContext([]), new Atlas(16, { fontPx: 13, textPx: 8 }, 1), scene, DEFAULT, layout);
    // A cell and its eight neighbours (whether a wall is rock) at most.
    const most = 9 * view[0] * view[1];
    assert.ok(counted.reads() <= most, `${counted.reads()} cells read for a ${view[0]} x ${view[1]} viewport (at most ${most})`);
  });
});

test("a frame builds the party panel once", () => {
  withFakeDocument(() => {
    const s = knownWhole(32);
    const party = s.state.party;
    assert.equal(party.length, 3);
    let built = 0;
    // The panel is built from the party, read once each time.
    Object.defineProperty(s.state, "party", { get: () => (built++, party) });
    const layout = layoutAt(1280, 720, 16, 8);
    drawFrame(fakeContext([]), new Atlas(16, { fontPx: 13, textPx: 8 }, 1), s.scene(), DEFAULT, layout);
    assert.equal(built, 1);
  });
});
