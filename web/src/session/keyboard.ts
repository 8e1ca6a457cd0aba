// The browser's keyboard events as the game's keys. The browser gives the
// character a key typed (`W`, `>`, `?`) on the player's own layout, so a
// typed character is taken as it is and Shift is not added to it (the
// window's tables read Shift only for keyboards that report the unshifted
// key). Keypad digits are the numpad's, whatever Num Lock says; Alt
// combinations and the Ctrl keys the game does not read are the browser's.

import type { Key } from "./keys";

/** The fields of a KeyboardEvent this reads. */
export interface KeyEvent {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const NAMED: Partial<Record<string, Key>> = {
  ArrowUp: "Up",
  ArrowDown: "Down",
  ArrowLeft: "Left",
  ArrowRight: "Right",
  Escape: "Escape",
  Enter: "Enter",
  Tab: "Tab",
  Backspace: "Backspace",
  Delete: "Delete",
  Home: "Home",
  End: "End",
  PageUp: "PageUp",
  PageDown: "PageDown",
};

/** The key an event is, or null for one the game does not read. */
export function keyOf(e: KeyEvent): Key | null {
  if (e.altKey) return null;
  if (e.ctrlKey || e.metaKey) {
    if (e.key === "+" || e.key === "=" || e.code === "NumpadAdd") return { ctrl: "+" };
    if (e.key === "-" || e.code === "NumpadSubtract") return { ctrl: "-" };
    return /^[a-zA-Z]$/.test(e.key) ? { ctrl: e.key.toLowerCase() } : null;
  }
  const pad = /^Numpad([0-9])$/.exec(e.code);
  if (pad !== null) return { numpad: Number(pad[1]) };
  if (e.code === "NumpadAdd") return { char: "+" };
  if (e.code === "NumpadSubtract") return { char: "-" };
  const named = NAMED[e.key];
  if (named !== undefined) return named;
  return typedChar(e) === null ? null : { char: e.key };
}

/** The character a key typed, for the line being typed (keypad digits too). */
export function typedChar(e: KeyEvent): string | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  return [...e.key].length === 1 ? e.key : null;
}
