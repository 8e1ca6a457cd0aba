// Who is in sight (client/src/state/in_sight.rs): the other players and
// the monsters, changed by the sights and lists of changes the server
// sends, and the kinds of monster as the server named them. A list of
// changes is checked whole (every place on the map, nothing changing that
// is not in sight, never more in sight than a depth holds) before any of
// it is applied.

import type { KindInfo, MonsterChange, PlayerChange, Pos } from "../protocol";
import { fail } from "./errors";
import { MAX_KIND_NAME_CHARS, MAX_KINDS, MAX_ROSTER, checkName, checkText } from "./limits";
import { cellOf, sightDisc } from "./map";
import type { ClientState } from "./mirror";
import { REASONS } from "./reasons";
import { isControl } from "./text";

/** One change to who is in sight, as `checkSteps` sees it. */
type Step = { appears: Pos } | { moves: Pos } | "stays" | "vanishes";

/** Other players coming into sight, moving in it, leaving it. */
export function applyPlayers(s: ClientState, changes: PlayerChange[]): void {
  sightDisc(s);
  checkPlayers(s, changes);
  for (const c of changes) applyPlayer(s, c);
}

/** Monsters coming into sight, moving or hurt in it, leaving it. */
export function applyMonsters(s: ClientState, changes: MonsterChange[]): void {
  sightDisc(s);
  checkMonsters(s, changes);
  for (const c of changes) applyMonster(s, c);
}

/** The kinds of monster, named afresh: every monster in sight keeps one. */
export function nameKinds(s: ClientState, kinds: KindInfo[]): void {
  if (kinds.length > MAX_KINDS) fail(REASONS.more_kinds_of_monster_than_a_client_keeps);
  for (const kind of kinds) {
    checkText(kind.name, MAX_KIND_NAME_CHARS);
    if (isControl(kind.glyph)) fail(REASONS.monster_drawn_as_a_control_character);
  }
  for (const m of s.monsters.values()) {
    if (m.kind >= kinds.length) fail(REASONS.monster_in_sight_lost_its_kind);
  }
  s.kinds = kinds.map((k) => ({ name: k.name, glyph: k.glyph, colour: [...k.colour] }));
}

/** Checks that `changes` fit the players in sight, in order, without changing anything. */
export function checkPlayers(s: ClientState, changes: PlayerChange[]): void {
  const steps = changes.map((c): [number, Step] => {
    if ("Appeared" in c) {
      checkName(c.Appeared.name);
      return [c.Appeared.id, { appears: c.Appeared.at }];
    }
    if ("Moved" in c) return [c.Moved.id, { moves: c.Moved.at }];
    return [c.Vanished.id, "vanishes"];
  });
  checkSteps(s, steps, (id) => s.others.has(id), s.others.size);
}

/** Checks that `changes` fit the monsters in sight, in order, without changing anything. */
export function checkMonsters(s: ClientState, changes: MonsterChange[]): void {
  const steps = changes.map((c): [number, Step] => {
    if ("Appeared" in c) {
      if (c.Appeared.kind >= s.kinds.length) fail(REASONS.monster_of_a_kind_never_named);
      return [c.Appeared.id, { appears: c.Appeared.at }];
    }
    if ("Moved" in c) return [c.Moved.id, { moves: c.Moved.at }];
    if ("Hurt" in c) return [c.Hurt.id, "stays"];
    if ("Slept" in c) return [c.Slept.id, "stays"];
    return [c.Vanished.id, "vanishes"];
  });
  checkSteps(s, steps, (id) => s.monsters.has(id), s.monsters.size);
}

/**
 * Checks a run of changes to who is in sight, followed one by one: every
 * place on the map, nothing moving, hurt or vanishing that is not in
 * sight, and never more in sight than any depth holds.
 */
function checkSteps(
  s: ClientState,
  steps: [number, Step][],
  inSight: (id: number) => boolean,
  count: number,
): void {
  // In the window's order, so that a message wrong in several ways is
  // refused for the same reason: every cell, then who is in sight, then
  // how many.
  for (const [, step] of steps) {
    if (typeof step !== "string") cellOf(s, "appears" in step ? step.appears : step.moves);
  }
  const now = new Map<number, boolean>();
  const changes = steps.map(([id, step]) => {
    const before = now.get(id) ?? inSight(id);
    const after = step !== "vanishes";
    if (!before && !(typeof step === "object" && "appears" in step)) {
      fail(REASONS.change_to_something_not_in_sight);
    }
    now.set(id, after);
    return Number(after) - Number(before);
  });
  for (const change of changes) {
    count += change;
    if (count > MAX_ROSTER) fail(REASONS.more_in_sight_than_any_depth_holds);
  }
}

/** Applies one change that `checkPlayers` passed. */
export function applyPlayer(s: ClientState, c: PlayerChange): void {
  if ("Appeared" in c) {
    const { id, name, at } = c.Appeared;
    s.others.set(id, { name, at: { x: at.x, y: at.y } });
  } else if ("Moved" in c) {
    const other = s.others.get(c.Moved.id);
    if (other) other.at = { x: c.Moved.at.x, y: c.Moved.at.y };
  } else {
    s.others.delete(c.Vanished.id);
  }
}

/** Applies one change that `checkMonsters` passed. */
export function applyMonster(s: ClientState, c: MonsterChange): void {
  if ("Appeared" in c) {
    const { id, kind, at, wound, asleep } = c.Appeared;
    s.monsters.set(id, { kind, at: { x: at.x, y: at.y }, wound, asleep });
    return;
  }
  if ("Vanished" in c) {
    s.monsters.delete(c.Vanished.id);
    return;
  }
  const id = "Moved" in c ? c.Moved.id : "Hurt" in c ? c.Hurt.id : c.Slept.id;
  const m = s.monsters.get(id);
  if (!m) return;
  if ("Moved" in c) m.at = { x: c.Moved.at.x, y: c.Moved.at.y };
  else if ("Hurt" in c) m.wound = c.Hurt.wound;
  else m.asleep = c.Slept.asleep;
}
