// Coming back by itself (client/src/session/retry.rs): what the session
// does when its connection ends, as plain functions of what the server
// said, the same rules and the same seeded draws as the window's, so the
// behaviour vectors cover them. The page only keeps the timer and opens
// the socket (app.ts).
//
// Tried again: a refusal the server may lift (Unavailable, CannotWatch, Full;
// never Draining: the world is closing, and the refusal names where to go);
// a connection that could not be opened or dropped without a close frame;
// the close codes 1001, 1011, 1013 and 1014 after a wait, and 1012 (the
// server restarts) at once, the first time. Never: a wrong key, a name
// taken or invalid, another protocol version; 1000 and a close without a
// code (meant: a death, a watcher sent away); 1008 (a policy, a takeover
// by another connection among them); any other code; a server whose frame
// could not be read. A name taken is never the client's own old connection
// (the server hands a name to its key, a watcher's as a player's), so it
// stays final for a watcher coming back too. The waits: within a second, then twice as long each
// try to at most 10 s, each drawn between half and all of its span.

import type { Refusal } from "../protocol";

/** How a connection ended, as the connection saw it. */
export type Ending =
  /** No close frame: it could not be opened, or was reset or cut. */
  | "Dropped"
  /** This client ended it: the server sent what it cannot read. */
  | "Unreadable"
  /** The server closed it with this close code (1005 when it gave none). */
  | { Code: number };

/** What the session does after its connection ended. */
export type Next = "Stop" | "Backoff" | "AtOnce";

/** The close code of a server that restarts ("come back soon"). */
export const SERVICE_RESTART = 1012;

const TRIED_AGAIN = [1001, 1011, 1013, 1014];

export const FIRST_WAIT_MS = 1000;
export const LONGEST_WAIT_MS = 10_000;

/** Whether a refusal may be lifted by waiting. */
export function triedAgain(refusal: Refusal): boolean {
  const name = typeof refusal === "string" ? refusal : Object.keys(refusal)[0];
  return name === "Unavailable" || name === "CannotWatch" || name === "Full";
}

/** What to do after a connection ended so (`tries`: tries since the link was last good). */
export function next(refused: Refusal | null, ending: Ending, tries: number): Next {
  if (refused !== null) return triedAgain(refused) ? "Backoff" : "Stop";
  if (ending === "Dropped") return "Backoff";
  if (ending === "Unreadable") return "Stop";
  if (ending.Code === SERVICE_RESTART) return tries === 0 ? "AtOnce" : "Backoff";
  return TRIED_AGAIN.includes(ending.Code) ? "Backoff" : "Stop";
}

/** The wait in ms before try number `tries` (0: the first since the link was lost), given a draw. */
export function waitMs(tries: number, draw: number): number {
  const span = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(tries, 4));
  const half = Math.floor(span / 2);
  return half + (draw % (span - half + 1));
}

/** A seeded stream of draws (mulberry32, as the window's `Jitter`). */
export class Jitter {
  constructor(private state: number) {
    this.state = state >>> 0;
  }

  draw(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}
