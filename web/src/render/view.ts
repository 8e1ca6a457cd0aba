// What the canvas shows, as glyphs (client/src/view.rs): the decisions of
// drawing (which cells, which characters, which colours) without the
// drawing itself, so they are tested without a browser. canvas.ts draws
// them.

import { TERRAINS, type Pos, type Terrain } from "../protocol";
import { terrainOf, type ClientState } from "../state";
import type { Scene } from "../session/scene";
import { glyphRows, textGlyphs, type Glyph } from "./glyph";
import { HUD_ROWS, MESSAGE_ROWS, hud, partyPanel, type HudLine, type Tone } from "./hud";
import { cameraOn, toMap, toView, type Camera, type Layout } from "./layout";
import { pageLines, pageSize } from "./pages";
import {
  PlayerColours,
  TEXT,
  TEXT_DIM,
  TEXT_MIDDLE,
  creature,
  fromColour,
  remembered,
  terrainColour,
  type Palette,
  type Rgb,
} from "./palette";
import { sideGlyphs } from "./side";

const GLYPH: Record<Terrain, string> = { Wall: "#", Floor: ".", StairsDown: ">", StairsUp: "<" };
const NEIGHBOURS = [
  [0, -1],
  [1, -1],
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
] as const;

/** A wall with no known open ground beside it is solid rock: not drawn. */
function isRock(state: ClientState, x: number, y: number): boolean {
  for (const [dx, dy] of NEIGHBOURS) {
    const nx = x + dx;
    const ny = y + dy;
    if (nx < 0 || ny < 0 || nx >= state.width || ny >= state.height) continue;
    const code = state.known[ny * state.width + nx] ?? 0;
    if (code > 1) return false;
  }
  return true;
}

const playerColoursOf = new WeakMap<object, Map<string, PlayerColours>>();

/** The players' colours for these kinds of monster, worked out once per list of kinds. */
export function playerColours(state: ClientState, palette: Palette): PlayerColours {
  let byPalette = playerColoursOf.get(state.kinds);
  if (byPalette === undefined) {
    byPalette = new Map();
    playerColoursOf.set(state.kinds, byPalette);
  }
  let colours = byPalette.get(palette.name);
  if (colours === undefined) {
    colours = new PlayerColours(palette, state.kinds);
    byPalette.set(palette.name, colours);
  }
  return colours;
}

/** A rectangle of the map's cells: `cols` x `rows` from (x, y), which may reach past the map. */
export interface Area {
  x: number;
  y: number;
  cols: number;
  rows: number;
}

/** The whole map of `state`. */
function wholeMap(state: ClientState): Area {
  return { x: 0, y: 0, cols: state.width, rows: state.height };
}

function inArea(a: Area, p: Pos): boolean {
  return p.x >= a.x && p.y >= a.y && p.x < a.x + a.cols && p.y < a.y + a.rows;
}

/**
 * The map's glyphs in `area` (the whole map unless told): known terrain
 * (bright in sight, dim remembered; never the unexplored nor solid rock),
 * then the top item of every pile seen, then the monsters in sight, then
 * the other players, then the player's own `@` on top, each player in its
 * own colour. A frame asks only for the camera's area: a level known whole
 * is 65536 cells, a viewport a few thousand.
 */
export function mapGlyphs(state: ClientState, palette: Palette, area: Area = wholeMap(state)): Glyph[] {
  const colours = playerColours(state, palette);
  const glyphs = terrainGlyphs(state, palette, area);
  for (const [i, pile] of state.floor) {
    if (!inArea(area, pile.at)) continue;
    const kind = state.itemKind(pile.top.kind);
    const seen = state.visible[i] === 1;
    const colour = kind === undefined ? palette.alert : seen ? creature(palette, fromColour(kind.colour)) : remembered(palette, fromColour(kind.colour));
    glyphs.push({ col: pile.at.x, row: pile.at.y, ch: kind?.glyph ?? "?", color: colour });
  }
  for (const [, m] of byId(state.monsters)) {
    if (!inArea(area, m.at)) continue;
    const kind = state.kindOf(m);
    const color = kind === undefined ? palette.alert : creature(palette, fromColour(kind.colour));
    glyphs.push({ col: m.at.x, row: m.at.y, ch: kind?.glyph ?? "?", color });
  }
  for (const [id, other] of byId(state.others)) {
    if (inArea(area, other.at)) glyphs.push({ col: other.at.x, row: other.at.y, ch: "@", color: colours.of(id) });
  }
  if (state.at !== null && state.me !== null && inArea(area, state.at)) {
    glyphs.push({ col: state.at.x, row: state.at.y, ch: "@", color: colours.of(state.me) });
  }
  return topmost(glyphs);
}

/** One glyph a cell, as a terminal shows one letter a cell: of those given for a cell, the last (a player over a monster over an item over the terrain). Drawn all, the ones beneath showed through the gaps of the one on top (a stair inside an `@`). */
function topmost(glyphs: Glyph[]): Glyph[] {
  const top = new Map<number, Glyph>();
  for (const g of glyphs) top.set(g.row * 0x10000 + g.col, g);
  return [...top.values()];
}

/** The known terrain of the map's cells in `area`, row by row. */
function terrainGlyphs(state: ClientState, palette: Palette, area: Area): Glyph[] {
  const glyphs: Glyph[] = [];
  const wall = 1 + TERRAINS.indexOf("Wall");
  const [left, top] = [Math.max(area.x, 0), Math.max(area.y, 0)];
  const right = Math.min(area.x + area.cols, state.width);
  const bottom = Math.min(area.y + area.rows, state.height);
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      const i = y * state.width + x;
      const code = state.known[i] ?? 0;
      if (code === 0) continue;
      if (code === wall && isRock(state, x, y)) continue;
      const t = terrainOf(state, i) ?? "Wall";
      glyphs.push({ col: x, row: y, ch: GLYPH[t], color: terrainColour(palette, t, state.visible[i] === 1) });
    }
  }
  return glyphs;
}

/** A map's entries in the order of their ids, as the window's BTreeMap keeps them. */
function byId<T>(map: Map<number, T>): [number, T][] {
  return [...map.entries()].sort(([a], [b]) => a - b);
}

/** The colour of a tone of the HUD. */
function toneColour(tone: Tone, palette: Palette, colours: PlayerColours): Rgb {
  if (typeof tone === "object") return colours.of(tone.player);
  switch (tone) {
    case "Bright":
      return TEXT;
    case "Middle":
      return TEXT_MIDDLE;
    case "Dim":
      return TEXT_DIM;
    case "Alert":
      return palette.alert;
    case "Good":
      return palette.good;
    case "Warn":
      return palette.warn;
    case "Combat":
      return palette.combat;
    case "Others":
      return palette.others;
  }
}

/** How far the messages stop short of the party panel. */
const PANEL_GAP = 4;

/** Where the party panel's first column starts in a row of `width` letters, and each column's width. */
function panelPlace(panel: HudLine[], width: number): [number, number] {
  const widest = panel.reduce((n, e) => Math.max(n, [...e.text].length), 0);
  const column = widest + 3;
  const columns = Math.ceil(panel.length / MESSAGE_ROWS);
  return [Math.max(width - columns * column, PANEL_GAP), column];
}

/** The letters a row of messages holds beside `panel` in a HUD row of `cols` letters. */
function messageCols(panel: HudLine[], cols: number): number {
  return panel.length === 0 ? cols : panelPlace(panel, cols)[0] - PANEL_GAP;
}

/** One line of the HUD as glyphs from (row, col), at most `room` letters, its accents in their tones. */
function lineGlyphs(line: HudLine, row: number, col: number, room: number, colour: (t: Tone) => Rgb): Glyph[] {
  const glyphs: Glyph[] = [];
  let i = 0;
  for (const ch of line.text) {
    if (i >= room) break;
    if (ch !== " ") {
      let tone = line.tone;
      for (let a = line.accents.length - 1; a >= 0; a--) {
        const accent = line.accents[a];
        if (accent !== undefined && i >= accent[0] && i < accent[0] + accent[1]) {
          tone = accent[2];
          break;
        }
      }
      glyphs.push({ col: col + i, row, ch, color: colour(tone) });
    }
    i++;
  }
  return glyphs;
}

/**
 * The HUD's glyphs from `firstRow` down, `width` letters wide, with the
 * party panel right of the messages (built once: it sets both where the
 * messages stop and what stands beside them).
 */
export function hudGlyphs(scene: Scene, palette: Palette, firstRow: number, width: number): Glyph[] {
  const colours = playerColours(scene.state, palette);
  const colour = (t: Tone) => toneColour(t, palette, colours);
  const panel = partyPanel(scene.state);
  const firstMessage = HUD_ROWS - MESSAGE_ROWS;
  const [left, column] = panelPlace(panel, width);
  const besidePanel = messageCols(panel, width);
  const glyphs: Glyph[] = [];
  hud(scene, width, besidePanel).forEach((line, i) => {
    const room = i >= firstMessage ? besidePanel : width;
    glyphs.push(...lineGlyphs(line, firstRow + i, 0, room, colour));
  });
  if (panel.length === 0) return glyphs;
  const messageRow = (i: number) => firstRow + firstMessage + (i % MESSAGE_ROWS);
  for (let i = 0; i < MESSAGE_ROWS; i++) glyphs.push({ col: left - 2, row: messageRow(i), ch: "|", color: TEXT_DIM });
  panel.forEach((entry, i) => {
    glyphs.push(...lineGlyphs(entry, messageRow(i), left + Math.floor(i / MESSAGE_ROWS) * column, column, colour));
  });
  return glyphs;
}

/** The cell the cursor is on, when a throw is aimed or a look goes on, on the map. */
export function cursorCell(scene: Scene): Pos | null {
  const cursor = scene.aim?.at ?? scene.look;
  return scene.page === "Map" ? cursor : null;
}

/** The camera the map's viewport in `layout` is drawn through: on the cursor, else the player. */
export function camera(scene: Scene, layout: Layout): Camera {
  const focus = cursorCell(scene) ?? scene.state.at;
  return cameraOn(focus, [scene.state.width, scene.state.height], [layout.mapCols, layout.mapRows]);
}

/** The map's cell drawn under the pixel (x, y): none outside the viewport, off the map, or under a page. */
export function cellUnder(scene: Scene, layout: Layout, x: number, y: number): Pos | null {
  if (scene.page !== "Map" || x < 0 || y < 0) return null;
  const cell = Math.max(layout.cellPx, 1);
  const col = Math.floor(x / cell);
  const row = Math.floor(y / cell);
  if (col >= layout.mapCols || row >= layout.mapRows) return null;
  return toMap(camera(scene, layout), col, row, [scene.state.width, scene.state.height]);
}

/** The running text on the scene's page, in `rows` rows of `width` letters from the top. */
export function pageTextGlyphs(scene: Scene, palette: Palette, width: number, rows: number): Glyph[] {
  return textGlyphs(pageLines(scene, palette, width, pageSize(rows)), 1, width);
}

/** Each of the map's glyphs the camera shows, with its cell of the viewport. */
export function mapInView(scene: Scene, palette: Palette, layout: Layout, see: (g: Glyph, col: number, row: number) => void): void {
  const view: [number, number] = [layout.mapCols, layout.mapRows];
  const cam = camera(scene, layout);
  for (const g of mapGlyphs(scene.state, palette, { x: cam.x, y: cam.y, cols: view[0], rows: view[1] })) {
    const cell = toView(cam, g.col, g.row, view);
    if (cell !== null) see(g, cell[0], cell[1]);
  }
}

/** A page's running text, the rows the map's place holds. */
export function pageGlyphs(scene: Scene, palette: Palette, layout: Layout): Glyph[] {
  return pageTextGlyphs(scene, palette, layout.pageCols, layout.mapRows).filter((g) => g.row < layout.mapRows);
}

/**
 * The text of the scene as `layout` shows it, row by row: the map's
 * viewport (a cell a letter) with the list beside it past the map, or the
 * page of text in their place, padded to the map's rows; then the HUD's
 * rows. The window's `view::screen_text` (what its F12 writes), which the
 * behaviour vectors (test/screens.json) compare this with; what a test
 * reads instead of pixels.
 */
export function screenText(scene: Scene, palette: Palette, layout: Layout): string {
  const top: Glyph[] = [];
  if (scene.page === "Map") {
    mapInView(scene, palette, layout, (g, col, row) => top.push({ ...g, col, row }));
    const side = sideGlyphs(scene.state, palette, layout.sideCols, layout.mapRows);
    // A map cell is a letter of the text; the list starts past the map.
    for (const g of side) top.push({ ...g, col: layout.mapCols + 1 + g.col });
  } else {
    top.push(...pageGlyphs(scene, palette, layout));
  }
  const rows = glyphRows(top);
  while (rows.length < layout.mapRows) rows.push("");
  rows.push(...glyphRows(hudGlyphs(scene, palette, 0, layout.hudCols)));
  return `${rows.join("\n")}\n`;
}
