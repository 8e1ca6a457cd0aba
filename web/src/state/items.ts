// The items the player knows of (client/src/state/items.rs): the kinds the
// server named, the top of every pile it saw on this level, and what it
// carries.

import type { Carried, FloorChange, ItemInfo } from "../protocol";
import { fail } from "./errors";
import { MAX_ITEM_KINDS, MAX_KIND_NAME_CHARS, PACK_SLOTS, checkText } from "./limits";
import { cellOf } from "./map";
import type { ClientState } from "./mirror";
import { REASONS } from "./reasons";
import { isControl } from "./text";

/** The kinds of item, as the server named them. */
export function nameItemKinds(s: ClientState, kinds: ItemInfo[]): void {
  if (kinds.length > MAX_ITEM_KINDS) fail(REASONS.more_kinds_of_item_than_a_client_keeps);
  for (const kind of kinds) {
    checkText(kind.name, MAX_KIND_NAME_CHARS);
    if (isControl(kind.glyph)) fail(REASONS.item_drawn_as_a_control_character);
  }
  const known = (kind: number) => kind < kinds.length;
  const piles = [...s.floor.values()];
  if (!piles.every((p) => known(p.top.kind)) || !s.pack.every((c) => known(c.kind))) {
    fail(REASONS.item_known_lost_its_kind);
  }
  s.itemKinds = kinds.map((k) => ({
    name: k.name,
    glyph: k.glyph,
    colour: [...k.colour],
    class: k.class,
    known: k.known,
  }));
}

/** Checks that `changes` name cells of the map and kinds the server named, changing nothing. */
export function checkFloor(s: ClientState, changes: FloorChange[]): void {
  for (const change of changes) {
    cellOf(s, change.at);
    const top = change.top;
    if (top !== null) {
      if (s.itemKind(top.kind) === undefined) fail(REASONS.item_of_no_kind);
      if (top.count === 0) fail(REASONS.pile_of_no_items);
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
  if (pack.length > PACK_SLOTS) fail(REASONS.pack_of_more_than_26_items);
  for (const carried of pack) {
    if (s.itemKind(carried.kind) === undefined) fail(REASONS.item_of_no_kind);
    if (carried.count === 0) fail(REASONS.pack_entry_of_no_items);
  }
  s.pack = pack.map((c) => ({ ...c }));
}
