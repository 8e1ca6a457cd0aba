// The most a client keeps of anything a server sends, and the checks of
// sizes, names and texts against them (client/src/state/limits.rs). The
// numbers come from the Rust crates through generated/limits.json, never
// copied by hand.

import { REASONS, typedReason } from "./reasons";
import limits from "../generated/limits.json";
import type { DeathRecord } from "../protocol";
import { fail } from "./errors";
import { charCount } from "./text";

export const PROTOCOL_VERSION: number = limits.protocol_version;
export const MAX_NAME_CHARS: number = limits.max_name_chars;
export const MAX_WORLD_NAME_CHARS: number = limits.max_world_name_chars;
export const MAX_CHAT_CHARS: number = limits.max_chat_chars;
export const PACK_SLOTS: number = limits.pack_slots;
export const MAX_WHO: number = limits.max_who;
export const MAX_MAP_WIDTH: number = limits.max_map_width;
export const MAX_MAP_HEIGHT: number = limits.max_map_height;
export const MAX_SIGHT_RADIUS: number = limits.max_sight_radius;
/** How many lines of the message log are kept. */
export const LOG_LINES: number = limits.log_lines;
/** The longest line of the log kept, in characters; longer ones are cut. */
export const MAX_NOTE_CHARS: number = limits.max_note_chars;
/** The most players kept on the roster or in sight (and monsters in sight). */
export const MAX_ROSTER: number = limits.max_roster;
export const MAX_KINDS: number = limits.max_kinds;
export const MAX_ITEM_KINDS: number = limits.max_item_kinds;
/** The longest monster or item name (or cause of death) kept, in characters. */
export const MAX_KIND_NAME_CHARS: number = limits.max_kind_name_chars;
/** The most backgrounds kept: one a letter on the first screen. */
export const MAX_BACKGROUNDS: number = limits.max_backgrounds;
export const MAX_GRAVEYARD: number = limits.max_graveyard;
export const MAX_WATCHERS: number = limits.max_watchers;

/** A map a client will hold: not empty, and no larger than the protocol allows. */
export function checkSize(width: number, height: number): void {
  if (width === 0 || height === 0) fail(REASONS.map_with_no_cells);
  if (width > MAX_MAP_WIDTH || height > MAX_MAP_HEIGHT) {
    fail(typedReason("too_large", { width, height }));
  }
}

/** A player's name as the server allows them. */
export function checkName(name: string): void {
  if (name.length === 0 || charCount(name) > MAX_NAME_CHARS) {
    fail(REASONS.player_name_the_server_would_never_allow);
  }
}

/** A world's name a server could have been given (empty: none): not too long, no control character. */
export function checkWorldName(name: string): void {
  if (charCount(name) > MAX_WORLD_NAME_CHARS || /\p{Cc}/u.test(name)) {
    fail(REASONS.world_name_the_server_would_never_allow);
  }
}

export function checkNames(names: readonly string[]): void {
  for (const n of names) checkName(n);
}

/** Text a server may send: some, and no longer than `most` characters. */
export function checkText(text: string, most: number): void {
  if (text.length === 0 || charCount(text) > most) {
    fail(REASONS.name_empty_or_longer_than_the_protocol_allows);
  }
}

/** A graveyard record a server could have kept. */
export function checkRecord(record: DeathRecord): void {
  checkName(record.name);
  checkText(record.killed_by, MAX_KIND_NAME_CHARS);
}
