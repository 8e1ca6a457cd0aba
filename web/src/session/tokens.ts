// Where the character's name and secret token are kept: the browser's
// local storage, under the page's origin (so one server's key is never
// sent to another). Without the token a name cannot be played again on
// that server; a reload sends it in the hello and resumes the character.

import type { Token } from "../protocol";
import type { TokenKeeper } from "./session";

/** The part of the Storage API used (the browser's localStorage, or a test's). */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** What is kept for one server. */
export interface Kept {
  name: string;
  token: Token | null;
}

const hex = (t: Token) => t.map((b) => b.toString(16).padStart(2, "0")).join("");

function unhex(s: unknown): Token | null {
  if (typeof s !== "string" || !/^[0-9a-f]{32}$/.test(s)) return null;
  return Array.from({ length: 16 }, (_, i) => parseInt(s.slice(2 * i, 2 * i + 2), 16));
}

export class TokenStore implements TokenKeeper {
  constructor(
    private readonly storage: KeyValue | null,
    /** The page's origin: the server these are kept for. */
    private readonly origin: string,
  ) {}

  /** What is kept for this server; nothing when damaged or unreadable. */
  load(): Kept | null {
    try {
      const text = this.storage?.getItem(this.origin) ?? null;
      if (text === null) return null;
      const kept = JSON.parse(text) as { name?: unknown; token?: unknown };
      return typeof kept.name === "string" && kept.name !== "" ? { name: kept.name, token: unhex(kept.token) } : null;
    } catch {
      return null;
    }
  }

  /** Keeps the name to play as (a new name has no token yet); false when the storage refused. */
  keepName(name: string): boolean {
    const kept = this.load();
    try {
      this.write({ name, token: kept?.name === name ? kept.token : null });
      return true;
    } catch {
      return false;
    }
  }

  /** Keeps a new token for the name kept; says where, or why not, for the log. */
  keep(token: Token): string {
    const name = this.load()?.name;
    if (name === undefined) return "No name kept: your character's key is not kept.";
    try {
      this.write({ name, token });
      return `Your character's key is kept in this browser, for ${this.origin}.`;
    } catch (e) {
      return `Could not keep your character's key: ${String(e)}`;
    }
  }

  private write(kept: Kept): void {
    this.storage?.setItem(this.origin, JSON.stringify({ name: kept.name, token: kept.token === null ? null : hex(kept.token) }));
  }
}
