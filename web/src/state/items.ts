// The items the player knows of (client/src/state/items.rs): the kinds the
// server named, the top of every pile it saw on this level, and what it
// carries.

import type { Carried, FloorChange, ItemInfo } from "../protocol";
import { fail } from "./errors";
import { MAX_ITEM_KINDS, MAX_KIND_NAME_CHARS, PACK_SLOTS, checkText } from "./limits";
import { cellOf } from "./map";
import type { ClientState } from "./mirror";
import { isControl } from "./text";

/** The kinds of item, as the server named them. */
export function nameItemKinds(s: ClientState, kinds: ItemInfo[]): void {
  if (kinds.length > MAX_ITEM_KINDS) fail("more kinds of item than a client keeps");
  for (const kind of kinds) {
    checkText(kind.name, MAX_KIND_NAME_CHARS);
    if (isControl(kind.glyph)) fail("an item drawn as a control character");
  }
  const known = (kind: number) => kind < kinds.length;
  const piles = [...s.floor.values()];
  if (!piles.every((p) => known(p.top.kind)) || !s.pack.every((c) => known(c.kind))) {
    fail("an item known lost its kind");
  }
  s.itemKinds = kinds.map((k) => ({ name: k.name, glyph: k.glyph, colour: [...k.colour], class: k.class }));
}

/** Checks that `changes` name cells of the map and kinds the server named, changing nothing. */
export function checkFloor(s: ClientState, changes: FloorChange[]): void {
  for (const change of changes) {
    cellOf(s, change.at);
    const top = change.top;
    if (top !== null) {
      if (s.itemKind(top.kind) === undefined) fail("an item of no kind");
      if (top.count === 0) fail("a pile of no items");
    }
  }
}

/** What the player now knows lies on some cells (checked by `checkFloor`). */
export function applyFloorChecked(s: ClientState, changes: FloorChange[]): void {
  for (const { at, top } of changes) {
    const cell = cellOf(s, at);
    if (top === null) s.floor.delete(cell);
    else s.floor.set(cell, { at: { x: at.x, y: at.y }, top: { ...top } });
  }
}

/** Piles seen while the player's own view did not change. */
export function applyFloor(s: ClientState, changes: FloorChange[]): void {
  checkFloor(s, changes);
  applyFloorChecked(s, changes);
}

/** Everything the player carries now. */
export function setPack(s: ClientState, pack: Carried[]): void {
  if (pack.length > PACK_SLOTS) fail(`a pack of more than ${PACK_SLOTS} items`);
  for (const carried of pack) {
    if (s.itemKind(carried.kind) === undefined) fail("an item of no kind");
    if (carried.count === 0) fail("a pack entry of no items");
  }
  s.pack = pack.map((c) => ({ ...c }));
}
