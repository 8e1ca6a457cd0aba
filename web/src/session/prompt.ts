// Item prompts (client/src/prompt.rs): an item key asks "Quaff which?" and
// lists, by pack letter, only the items that suit; a suitable letter is
// the action (or, for a throw or a zap, the aiming that comes first). The server
// still judges every action.

import type { Action, Carried, ItemClass } from "../protocol";
import type { ClientState } from "../state";
import type { PromptKey } from "./keys";

export type ItemUse = "Drop" | "Quaff" | "Read" | "Wield" | "Wear" | "TakeOff" | "Throw" | "Zap";

/** What a key in an open prompt comes to. */
export type Choice = { act: Action } | { aim: number } | "Cancel" | { refuse: string } | "Stay";

const VERBS: Record<ItemUse, string> = {
  Drop: "drop",
  Quaff: "quaff",
  Read: "read",
  Wield: "wield",
  Wear: "wear",
  TakeOff: "take off",
  Throw: "throw",
  Zap: "zap",
};

export function verb(use: ItemUse): string {
  return VERBS[use];
}

function suits(use: ItemUse, cls: ItemClass, equipped: boolean): boolean {
  switch (use) {
    case "Drop":
      return true;
    case "Quaff":
      return cls === "Potion";
    case "Read":
      return cls === "Scroll";
    case "Wield":
      return cls === "Weapon" && !equipped;
    case "Wear":
      return cls === "Armour" && !equipped;
    case "TakeOff":
      return equipped;
    case "Throw":
      return cls === "Missile";
    case "Zap":
      return cls === "Wand";
  }
}

function action(use: ItemUse, slot: number): Action | null {
  switch (use) {
    case "Drop":
      return { Drop: slot };
    case "Quaff":
      return { Quaff: slot };
    case "Read":
      return { Read: slot };
    case "Wield":
      return { Wield: slot };
    case "Wear":
      return { Wear: slot };
    case "TakeOff":
      return { TakeOff: slot };
    case "Throw":
    case "Zap":
      return null;
  }
}

/** Whether the pack's entry can be used so (an item of no named kind suits only a drop). */
function suitsCarried(use: ItemUse, state: ClientState, carried: Carried): boolean {
  const kind = state.itemKind(carried.kind);
  return kind === undefined ? use === "Drop" : suits(use, kind.class, carried.equipped);
}

/** The slots of the pack that suit, `a` first. */
export function suitable(use: ItemUse, state: ClientState): number[] {
  return state.pack.flatMap((c, i) => (suitsCarried(use, state, c) ? [i] : []));
}

/** Why the player cannot open this prompt: nothing suits. */
export function nothingTo(use: ItemUse): string {
  return `You have nothing to ${verb(use)}.`;
}

/** The prompt's question: `Quaff which? [a, c] (Esc to cancel)`. */
export function question(use: ItemUse, state: ClientState): string {
  const letters = suitable(use, state).map(letter).join(", ");
  const v = verb(use);
  return `${v.charAt(0).toUpperCase()}${v.slice(1)} which? [${letters}] (Esc to cancel)`;
}

/** What a key does while the prompt is open. */
export function choose(use: ItemUse, state: ClientState, key: PromptKey): Choice {
  if (key === "Cancel") return "Cancel";
  if (key === "Other") return "Stay";
  const slot = key.letter;
  const carried = state.pack[slot];
  if (carried === undefined) return { refuse: `You have no item ${letter(slot)}.` };
  if (!suitsCarried(use, state, carried)) {
    const already = (use === "Wield" || use === "Wear") && carried.equipped;
    return { refuse: `${already ? "You already" : "You cannot"} ${verb(use)} that.` };
  }
  const act = action(use, slot);
  return act === null ? { aim: slot } : { act };
}

/** The pack letter of a slot. */
export function letter(slot: number): string {
  return String.fromCharCode(97 + (slot % 26));
}

/** The slot of the first missile of the pack, which `f` fires. */
export function firstMissile(state: ClientState): number | null {
  return suitable("Throw", state)[0] ?? null;
}
