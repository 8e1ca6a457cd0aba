// The session's item keys (client/src/session/items.rs): an item key
// opens a prompt of the items that suit it (or says there are none); a
// letter sends the action, or for a throw or a zap starts aiming; `f` aims the
// first missile at once. Esc puts a prompt or an aim away without
// quitting. A letter that does not suit is refused in the log and closes
// the prompt; any other key leaves it open.

import { aimWith, startAim, type Aim } from "./aim";
import { aimKey, promptKey, type Key } from "./keys";
import { choose, firstMissile, nothingTo, suitable, type ItemUse } from "./prompt";
import type { KeyOutcome, Session } from "./session";

/** An item key on the map: the prompt, or why there is none. */
export function openPrompt(s: Session, use: ItemUse): KeyOutcome {
  if (s.refuseAWatcher()) return "Redraw";
  if (suitable(use, s.state).length === 0) s.note(nothingTo(use));
  else s.mode = { choosing: use };
  return "Redraw";
}

/** `f`: aim the first missile of the pack. */
export function fire(s: Session): KeyOutcome {
  if (s.refuseAWatcher()) return "Redraw";
  const slot = firstMissile(s.state);
  if (slot === null) s.note("You have nothing to fire.");
  else s.mode = { aiming: startAim(s.state, slot, false) };
  return "Redraw";
}

/** An action that was not sent closes its prompt or aim all the same. */
function closed(outcome: KeyOutcome): KeyOutcome {
  return outcome === "Ignore" ? "Redraw" : outcome;
}

/** A key while an item prompt is open. */
export function onPromptKey(s: Session, use: ItemUse, key: Key, shift: boolean, now: number): KeyOutcome {
  const choice = choose(use, s.state, promptKey(key, shift));
  if (choice === "Stay") return "Ignore";
  s.mode = "Map";
  if (choice === "Cancel") return "Redraw";
  if ("act" in choice) return closed(s.act(choice.act, false, now));
  if ("aim" in choice) {
    s.mode = { aiming: startAim(s.state, choice.aim, use === "Zap") };
    return "Redraw";
  }
  s.note(choice.refuse);
  return "Redraw";
}

/** A key while a throw is aimed. */
export function onAimKey(s: Session, aim: Aim, key: Key, shift: boolean, now: number): KeyOutcome {
  const k = aimKey(key, shift);
  if (k === null) return "Ignore";
  const outcome = aimWith(aim, s.state, k);
  if (outcome === "Moved") return "Redraw";
  if (outcome === "Cancel") {
    s.mode = "Map";
    return "Redraw";
  }
  if ("refuse" in outcome) {
    s.note(outcome.refuse);
    return "Redraw";
  }
  s.mode = "Map";
  return closed(s.act(outcome.throw, false, now));
}
