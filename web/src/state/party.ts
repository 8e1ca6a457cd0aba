// The player's party (client/src/state/party.rs): those it shares a round
// with, itself first, with their hit points and levels.

import type { Member } from "../protocol";
import { NOT_WELCOMED, fail } from "./errors";
import { MAX_ROSTER, checkName } from "./limits";
import type { ClientState } from "./mirror";
import { REASONS } from "./reasons";

/** The party, named afresh: each member once, the player first. */
export function setParty(s: ClientState, members: Member[]): void {
  const me = s.me ?? fail(NOT_WELCOMED);
  if (members.length > MAX_ROSTER) fail(REASONS.party_larger_than_any_depth_holds);
  const first = members[0];
  if (first !== undefined && first.id !== me) fail(REASONS.party_that_does_not_start_with_the_player);
  const ids = new Set<number>();
  for (const m of members) {
    if (ids.has(m.id)) fail(REASONS.party_member_twice);
    ids.add(m.id);
  }
  for (const m of members) {
    checkName(m.name);
    if (m.max === 0 || m.hp > m.max) fail(REASONS.party_members_hit_points_over_their_most);
  }
  s.party = members.map((m) => ({ ...m }));
}
