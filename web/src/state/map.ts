// The level as this player knows it (client/src/state/map.rs): each
// cell's terrain once seen, which cells are in sight now, and where the
// player stands. A level is entered with what the player remembers of
// it; each sight then hides, shows and reveals cells of the disc around
// the player, named by their index in the disc.

import { TERRAINS, type Pos, type SightDiff, type Terrain } from "../protocol";
import type { Disc } from "./disc";
import { NOT_WELCOMED, fail, offTheMap, outsideDisc } from "./errors";
import { applyMonster, applyPlayer, checkMonsters, checkPlayers } from "./in_sight";
import { applyFloorChecked, checkFloor } from "./items";
import { checkSize } from "./limits";
import type { ClientState } from "./mirror";
import { REASONS } from "./reasons";

/** A terrain as `known` stores it. */
const CODE: Record<Terrain, number> = { Wall: 1, Floor: 2, StairsDown: 3, StairsUp: 4 };

/** The disc of cells in sight, known once welcomed. */
export function sightDisc(s: ClientState): Disc {
  return s.disc ?? fail(NOT_WELCOMED);
}

export interface Level {
  depth: number;
  width: number;
  height: number;
  /** The cells remembered, as a bitset over the map, row-major. */
  remembered: number[];
  /** The terrain of each remembered cell, in order. */
  terrain: Terrain[];
}

/** A new level: its map, nothing in sight, and nobody known on it yet. */
export function enterLevel(s: ClientState, level: Level): void {
  sightDisc(s);
  checkSize(level.width, level.height);
  const cells = level.width * level.height;
  const remembered = rememberedCells(level.remembered, level.terrain, cells);
  s.depth = level.depth;
  s.width = level.width;
  s.height = level.height;
  s.at = null;
  s.known = new Uint8Array(cells);
  s.visible = new Uint8Array(cells);
  remember(s, remembered, level.terrain);
  s.others.clear();
  s.monsters.clear();
  s.floor.clear();
  s.roster = [];
  s.waiting = [];
}

/** Cells learnt without seeing them: added to what is remembered, nothing brought into sight. */
export function addMapped(s: ClientState, bitset: number[], terrain: Terrain[]): void {
  if (s.known.length === 0) fail(REASONS.map_of_a_level_never_entered);
  remember(s, rememberedCells(bitset, terrain, s.known.length), terrain);
}

function remember(s: ClientState, cells: number[], terrain: Terrain[]): void {
  cells.forEach((cell, i) => {
    s.known[cell] = CODE[terrain[i] ?? "Wall"];
  });
}

/**
 * The cells a bitset over a map of `cells` cells names (bit i % 8 of byte
 * i / 8 is cell i): checked whole, no bit off the map and one terrain
 * entry a bit, before the list is made.
 */
function rememberedCells(bitset: number[], terrain: Terrain[], cells: number): number[] {
  if (bitset.length > Math.ceil(cells / 8)) fail(REASONS.remembered_bitset_longer_than_the_map);
  let count = 0;
  for (let i = 0; i < bitset.length; i++) {
    const byte = bitset[i] ?? 0;
    for (let bit = 0; bit < 8; bit++) {
      if ((byte >> bit) & 1) {
        if (i * 8 + bit >= cells) fail(REASONS.remembered_cell_off_the_map);
        count++;
      }
    }
  }
  if (count !== terrain.length) fail(REASONS.not_one_terrain_entry_per_remembered_cell);
  const list: number[] = [];
  bitset.forEach((byte, i) => {
    for (let bit = 0; bit < 8; bit++) if ((byte >> bit) & 1) list.push(i * 8 + bit);
  });
  return list;
}

/** The map index of `pos`, when it is on the map of a level entered. */
export function indexOf(s: ClientState, pos: Pos): number | null {
  return pos.x < s.width && pos.y < s.height && s.known.length > 0 ? pos.y * s.width + pos.x : null;
}

/** The map index of `pos`, or the message is refused. */
export function cellOf(s: ClientState, pos: Pos): number {
  return indexOf(s, pos) ?? offTheMap(pos);
}

/** The cell at map index `i`. */
export function posOf(s: ClientState, i: number): Pos {
  const w = Math.max(s.width, 1);
  return { x: i % w, y: Math.floor(i / w) };
}

/** The map index of the cell `index` names in the sight disc around `centre`. */
function discCell(s: ClientState, disc: Disc, centre: Pos, index: number): number {
  const offset = disc.offset(index) ?? outsideDisc(index);
  const x = centre.x + offset[0];
  const y = centre.y + offset[1];
  if (x < 0 || y < 0 || x > 0xffff || y > 0xffff) outsideDisc(index);
  return cellOf(s, { x, y });
}

/**
 * A new sight: the cells it hides (named from the last centre), shows and
 * reveals, and the players, monsters and piles that came, went or moved.
 */
export function applySight(s: ClientState, diff: SightDiff): void {
  const disc = sightDisc(s);
  cellOf(s, diff.at);
  const before = s.at;
  if (before === null && diff.hidden.length > 0) fail(REASONS.cells_hidden_before_any_sight);
  const hidden = before === null ? [] : diff.hidden.map((i) => discCell(s, disc, before, i));
  const shown = diff.shown.map((i) => discCell(s, disc, diff.at, i));
  if (shown.some((c) => s.known[c] === 0)) fail(REASONS.cell_shown_again_was_never_revealed);
  const revealed = diff.revealed.map(([i, t]) => [discCell(s, disc, diff.at, i), CODE[t]] as const);
  checkPlayers(s, diff.players);
  checkMonsters(s, diff.monsters);
  checkFloor(s, diff.floor);
  // Checked whole: from here on nothing fails.
  for (const c of hidden) s.visible[c] = 0;
  for (const c of shown) s.visible[c] = 1;
  for (const [c, t] of revealed) {
    s.known[c] = t;
    s.visible[c] = 1;
  }
  s.at = { x: diff.at.x, y: diff.at.y };
  for (const c of diff.players) applyPlayer(s, c);
  for (const c of diff.monsters) applyMonster(s, c);
  applyFloorChecked(s, diff.floor);
}

/** What the player knows of a cell: null when never seen. */
export function terrainAt(s: ClientState, pos: Pos): Terrain | null {
  const i = indexOf(s, pos);
  return i === null ? null : terrainOf(s, i);
}

/** The terrain known at map index `i`, or null. */
export function terrainOf(s: ClientState, i: number): Terrain | null {
  const code = s.known[i] ?? 0;
  return code === 0 ? null : (TERRAINS[code - 1] ?? null);
}

/** True when the cell is in sight now. */
export function isVisible(s: ClientState, pos: Pos): boolean {
  const i = indexOf(s, pos);
  return i !== null && s.visible[i] === 1;
}
