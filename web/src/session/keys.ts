// Keys to intents, one table per mode, as the window's (client/src/input.rs).
// On the map: arrows move in four directions; vi-keys (hjkl yubn) and the
// numpad in eight; `.` or `>` descend, `<` ascends, `5` (or numpad 5)
// waits; `g` or `,` picks up, `d` drops, `q` quaffs, `r` reads, `w`
// wields, `W` wears, `T` takes off, `t` throws and `f` fires; `o`
// explores, `R` rests; `x` looks; `i` shows the pack, `?` the help and
// `G` the graveyard; Enter opens a line to talk (after the game ended,
// starts again), PgUp and PgDn scroll the messages, Esc quits (or stops
// an order under way). The page turns its keyboard events into Keys
// (keyboard.ts), so the tables are tested without a browser.

import type { Action, Dir } from "../protocol";
import type { ItemUse } from "./prompt";

/** A key, as far as the game cares. */
export type Key =
  | "Up"
  | "Down"
  | "Left"
  | "Right"
  | "Escape"
  | "Enter"
  | "Tab"
  | "Backspace"
  | "Delete"
  | "Home"
  | "End"
  | "PageUp"
  | "PageDown"
  /** A key that types this character (as typed: `W` with Shift, `>`). */
  | { char: string }
  /** A numeric keypad digit. */
  | { numpad: number }
  /** A key with Ctrl held: never taken for the key alone. */
  | { ctrl: string };

/** What a key press on the map asks for. */
export type Intent =
  | { act: Action }
  | { use: ItemUse }
  | "Fire"
  | "Graveyard"
  | "Pack"
  | "Help"
  | "Look"
  | "Enter"
  | "ScrollBack"
  | "ScrollForward"
  | { zoom: number }
  | "Log"
  | "Quit";

/** The direction a key moves in (the player, or a cursor). */
export function direction(key: Key): Dir | null {
  if (typeof key === "string") {
    const arrows: Partial<Record<string, Dir>> = { Up: "N", Down: "S", Left: "W", Right: "E" };
    return arrows[key] ?? null;
  }
  if ("numpad" in key) {
    const pad: Partial<Record<number, Dir>> = { 8: "N", 2: "S", 4: "W", 6: "E", 7: "NW", 9: "NE", 1: "SW", 3: "SE" };
    return pad[key.numpad] ?? null;
  }
  if ("char" in key) {
    const vi: Partial<Record<string, Dir>> = { k: "N", j: "S", h: "W", l: "E", y: "NW", u: "NE", b: "SW", n: "SE" };
    return vi[key.char] ?? null;
  }
  return null;
}

/**
 * The intent of a key on the map, with whether Shift is held (so
 * Shift+`.` is `>` where a keyboard reports the unshifted key).
 */
export function intent(key: Key, shift: boolean): Intent | null {
  const dir = direction(key);
  if (dir !== null) return { act: { Move: dir } };
  switch (key) {
    case "Escape":
      return "Quit";
    case "Enter":
      return "Enter";
    case "PageUp":
      return "ScrollBack";
    case "PageDown":
      return "ScrollForward";
  }
  if (typeof key === "string") return null;
  if ("numpad" in key) return key.numpad === 5 ? { act: "Wait" } : null;
  if ("ctrl" in key) return ctrlIntent(key.ctrl);
  return charIntent(key.char, shift);
}

/** The intent of a key with Ctrl held. */
export function ctrlIntent(c: string): Intent | null {
  if (c === "+" || c === "=") return { zoom: 1 };
  if (c === "-") return { zoom: -1 };
  if (c === "p") return "Log";
  return null;
}

/** The intent of a key that types `c`. */
function charIntent(c: string, shift: boolean): Intent | null {
  const use = (u: ItemUse): Intent => ({ use: u });
  if ((c === "." && shift) || c === ">") return { act: "Descend" };
  if ((c === "," && shift) || c === "<") return { act: "Ascend" };
  if (c === ".") return { act: "Descend" };
  if (c === "5" && !shift) return { act: "Wait" };
  if ((c === "," || c === "g") && !shift) return { act: "PickUp" };
  if ((c === "g" && shift) || c === "G") return "Graveyard";
  if (c === "i" && !shift) return "Pack";
  if (c === "o" && !shift) return { act: "Explore" };
  if ((c === "r" && shift) || c === "R") return { act: "Rest" };
  if (c === "x" && !shift) return "Look";
  if (c === "?" || (c === "/" && shift)) return "Help";
  if (c === "d" && !shift) return use("Drop");
  if (c === "q" && !shift) return use("Quaff");
  if (c === "r" && !shift) return use("Read");
  if (c === "w" && !shift) return use("Wield");
  if ((c === "w" && shift) || c === "W") return use("Wear");
  if (c === "t" && !shift) return use("Throw");
  if ((c === "t" && shift) || c === "T") return use("TakeOff");
  if (c === "f" && !shift) return "Fire";
  return null;
}

/** A key while an item prompt is open: a pack letter's slot (0 is `a`), Esc, or another. */
export type PromptKey = { letter: number } | "Cancel" | "Other";

export function promptKey(key: Key, shift: boolean): PromptKey {
  if (key === "Escape") return "Cancel";
  if (typeof key === "object" && "char" in key && !shift && /^[a-z]$/.test(key.char)) {
    return { letter: key.char.charCodeAt(0) - 97 };
  }
  return "Other";
}

/** A key while aiming a throw (or looking). */
export type AimKey = { step: Dir } | "Next" | "Previous" | "Throw" | "Cancel";

export function aimKey(key: Key, shift: boolean): AimKey | null {
  const dir = direction(key);
  if (dir !== null) return { step: dir };
  if (key === "Escape") return "Cancel";
  if (key === "Enter") return "Throw";
  if (key === "Tab") return "Next";
  if (typeof key !== "object" || !("char" in key)) return null;
  const c = key.char;
  if ((c === "t" || c === "f") && !shift) return "Throw";
  if (c === " " || c === "+" || (c === "=" && shift)) return "Next";
  if (c === "-" && !shift) return "Previous";
  return null;
}

/** A key while looking: the aiming cursor's moves, and Esc or `x` to leave (nothing is thrown). */
export function lookKey(key: Key, shift: boolean): AimKey | null {
  if (typeof key === "object" && "char" in key && key.char === "x" && !shift) return "Cancel";
  const k = aimKey(key, shift);
  return k === "Throw" ? null : k;
}

/**
 * Whether a key press becomes an action now: a fresh press always does; a
 * held key's repeat only once the last action was answered and the
 * server's pace allows another.
 */
export function shouldSend(repeat: boolean, unanswered: number, sinceLastMs: number, actionsPerSecond: number): boolean {
  const pace = 1000 / Math.max(actionsPerSecond, 1);
  return !repeat || (unanswered === 0 && sinceLastMs >= pace);
}

/** The keys line of the HUD (the window's, less its zoom and screenshot keys). */
export const KEYS_HELP =
  "hjklyubn move  o explore  > < stairs  x look  R rest  click travel  g pick up  i pack and item keys  Enter talk  Ctrl+P log  Esc quit  ? help";

/** The item keys, as the pack's page lists them. */
export const ITEM_KEYS = "d drop  q quaff  r read  w wield  W wear  T take off  t throw  f fire";
