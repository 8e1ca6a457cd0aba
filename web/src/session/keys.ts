// Keys to intents, one table per mode: the window's own tables
// (client/src/input.rs), read from src/generated/keys.json, which the
// Rust client writes from its functions over every key (see
// client/src/web_export/keys.rs), so the page never keeps a copy. On
// the map: arrows move in four directions; vi-keys (hjkl yubn) and the
// numpad in eight; Enter opens a line to talk, Esc quits (or stops an
// order under way); the rest is on the help page. The page turns its
// keyboard events into Keys (keyboard.ts), so the tables are tested
// without a browser.

import keys from "../generated/keys.json";
import { ACTION_VARIANTS, DIRS, type Action, type Dir } from "../protocol";
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
  | "Discoveries"
  | "Look"
  | "Enter"
  | "ScrollBack"
  | "ScrollForward"
  | { zoom: number }
  | "Log"
  | "Quit";

const ITEM_USES: readonly ItemUse[] = ["Drop", "Quaff", "Read", "Wield", "Wear", "TakeOff", "Throw", "Zap"];

/** A key and Shift as one name, to look up in the tables. */
function keyName(key: Key, shift: boolean): string {
  return `${JSON.stringify(key)}${shift ? "+shift" : ""}`;
}

/**
 * One table of keys.json read into a lookup, each meaning checked by
 * `read`: a key bound to a meaning the page does not know (a key added to
 * the window's tables for something new) fails as the tables load.
 */
export function table<T>(name: string, rows: readonly (readonly unknown[])[], read: (m: unknown) => T | null): Map<string, T> {
  const found = new Map<string, T>();
  for (const [key, shift, meaning] of rows) {
    const read_ = read(meaning);
    if (read_ === null) {
      throw new Error(`keys.json binds ${JSON.stringify(key)}${shift === true ? " with Shift" : ""} in ${name} to ${JSON.stringify(meaning)}, which the page does not know`);
    }
    found.set(keyName(key as Key, shift === true), read_);
  }
  return found;
}

/** The one-key object `{ name: value }`'s value, when `m` is one. */
function field(m: unknown, name: string): unknown {
  return typeof m === "object" && m !== null && name in m ? (m as Record<string, unknown>)[name] : undefined;
}

const PLAIN_INTENTS = ["Fire", "Graveyard", "Pack", "Help", "Discoveries", "Look", "Enter", "ScrollBack", "ScrollForward", "Log", "Quit"] as const;

function readAction(a: unknown): Action | null {
  const name = typeof a === "string" ? a : typeof a === "object" && a !== null ? Object.keys(a)[0] : undefined;
  return name !== undefined && (ACTION_VARIANTS as readonly string[]).includes(name) ? (a as Action) : null;
}

/** An intent as keys.json names it (Rust's names), or null for one the page does not know. */
export function readIntent(m: unknown): Intent | null {
  if (typeof m === "string") return (PLAIN_INTENTS as readonly string[]).includes(m) ? (m as Intent) : null;
  const act = field(m, "Act");
  if (act !== undefined) return readAction(act) === null ? null : { act: act as Action };
  const use = field(m, "Use");
  if (typeof use === "string" && (ITEM_USES as readonly string[]).includes(use)) return { use: use as ItemUse };
  const zoom = field(m, "Zoom");
  return typeof zoom === "number" ? { zoom } : null;
}

function readAimKey(m: unknown): AimKey | null {
  if (m === "Next" || m === "Previous" || m === "Throw" || m === "Cancel") return m;
  const step = field(m, "Step");
  return typeof step === "string" && (DIRS as readonly string[]).includes(step) ? { step: step as Dir } : null;
}

function readPromptKey(m: unknown): PromptKey | null {
  if (m === "Cancel") return m;
  const letter = field(m, "Letter");
  return typeof letter === "number" ? { letter } : null;
}

const MAP = table("map", keys.map, readIntent);
const CTRL = table("ctrl", keys.ctrl, readIntent);
const PROMPT = table("prompt", keys.prompt, readPromptKey);
const AIM = table("aim", keys.aim, readAimKey);
const LOOK = table("look", keys.look, readAimKey);

/**
 * The intent of a key on the map, with whether Shift is held (so
 * Shift+`.` is `>` where a keyboard reports the unshifted key).
 */
export function intent(key: Key, shift: boolean): Intent | null {
  return MAP.get(keyName(key, shift)) ?? null;
}

/** The intent of a key with Ctrl held. */
export function ctrlIntent(c: string): Intent | null {
  return CTRL.get(keyName({ ctrl: c }, false)) ?? null;
}

/** A key while an item prompt is open: a pack letter's slot (0 is `a`), Esc, or another. */
export type PromptKey = { letter: number } | "Cancel" | "Other";

export function promptKey(key: Key, shift: boolean): PromptKey {
  return PROMPT.get(keyName(key, shift)) ?? "Other";
}

/** A key while aiming a throw (or looking). */
export type AimKey = { step: Dir } | "Next" | "Previous" | "Throw" | "Cancel";

export function aimKey(key: Key, shift: boolean): AimKey | null {
  return AIM.get(keyName(key, shift)) ?? null;
}

/** A key while looking: the aiming cursor's moves, and Esc or `x` to leave (nothing is thrown). */
export function lookKey(key: Key, shift: boolean): AimKey | null {
  return LOOK.get(keyName(key, shift)) ?? null;
}

/**
 * Whether a key press becomes an action now: a fresh press always does; a
 * held key's repeat only once the last action was answered and the
 * server's pace allows another, and never once a monster came into view
 * since the key went down (`monsterCame`): the player is stopped, as a
 * standing order is.
 */
export function shouldSend(
  repeat: boolean,
  monsterCame: boolean,
  unanswered: number,
  sinceLastMs: number,
  actionsPerSecond: number,
): boolean {
  const pace = 1000 / Math.max(actionsPerSecond, 1);
  return !repeat || (!monsterCame && unanswered === 0 && sinceLastMs >= pace);
}

/** The keys row of the HUD, the window's own. */
export const KEYS_HELP: string = keys.keys_row;

/** The item keys, as the pack's page lists them. */
export const ITEM_KEYS: string = keys.item_keys;
