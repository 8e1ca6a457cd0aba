// The character's life (client/src/state/life.rs): its hit points, its
// death or its escape with the artifact, and the world's graveyard.

import type { DeathRecord } from "../protocol";
import { fail } from "./errors";
import { MAX_GRAVEYARD, checkRecord } from "./limits";
import type { ClientState } from "./mirror";
import { REASONS } from "./reasons";

/** The player's hit points and their most. */
export function setVitals(s: ClientState, hp: number, max: number): void {
  if (max === 0 || hp > max) fail(REASONS.hit_points_over_their_most);
  s.hp = { hp, max };
}

/** The character died: no hit points left, and no round waits for it. */
export function die(s: ClientState, record: DeathRecord): void {
  checkRecord(record);
  if (record.escaped) fail(REASONS.death_whose_record_says_it_escaped);
  s.death = { ...record };
  s.hp = { hp: 0, max: s.hp?.max ?? 1 };
  s.waiting = [];
}

/** The character carried the artifact up and won: no round waits for it. */
export function escape(s: ClientState, record: DeathRecord): void {
  checkRecord(record);
  if (!record.escaped) fail(REASONS.escape_whose_record_says_it_died);
  s.escape = { ...record };
  s.waiting = [];
}

/** The graveyard, as the server sent it. */
export function keepGraveyard(s: ClientState, records: DeathRecord[]): void {
  if (records.length > MAX_GRAVEYARD) fail(REASONS.graveyard_longer_than_a_client_keeps);
  records.forEach(checkRecord);
  s.graveyard = records.map((r) => ({ ...r }));
}
