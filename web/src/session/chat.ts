// Talking, on the client's side (client/src/chat.rs): the line being
// typed (a cursor and a text field's edits), what a typed line asks for
// (`/shout`, `/w NAME`, `/mute NAME`, `/unmute NAME`, `/who`, `/nowatch`,
// `/allowwatch`, `/kick NAME`, or plain speech to the depth), and the
// names muted (kept here, never told to the server).

import type { AudienceCmd, ChatTo } from "../protocol";
import { MAX_CHAT_CHARS, chars, isControl } from "../state";

/** What the player is typing, as characters, with the cursor as a count of them. */
export class Line {
  private letters: string[] = [];
  cursor = 0;

  get text(): string {
    return this.letters.join("");
  }

  get length(): number {
    return this.letters.length;
  }

  /**
   * Types `typed` at the cursor: control characters are left out (a
   * pasted line break is a space), and the line stops at the longest a
   * server passes on.
   */
  insert(typed: string): void {
    for (let c of chars(typed)) {
      if (c === "\n" || c === "\t") c = " ";
      if (isControl(c) || this.letters.length >= MAX_CHAT_CHARS) continue;
      this.letters.splice(this.cursor, 0, c);
      this.cursor++;
    }
  }

  backspace(): void {
    if (this.cursor > 0) {
      this.cursor--;
      this.letters.splice(this.cursor, 1);
    }
  }

  delete(): void {
    if (this.cursor < this.letters.length) this.letters.splice(this.cursor, 1);
  }

  left(): void {
    this.cursor = Math.max(0, this.cursor - 1);
  }

  right(): void {
    this.cursor = Math.min(this.cursor + 1, this.letters.length);
  }

  home(): void {
    this.cursor = 0;
  }

  end(): void {
    this.cursor = this.letters.length;
  }
}

/** What a typed line asks for. */
export type Command =
  | { say: ChatTo; text: string }
  | { mute: string }
  | { unmute: string }
  | { audience: AudienceCmd }
  | "Who"
  | "Nothing"
  | { unknown: string };

const HELP =
  "Say a line to your depth, or: /shout TEXT, /w NAME TEXT, /mute NAME, /unmute NAME, /who, /nowatch, /allowwatch, /kick NAME.";

/**
 * Rust's `trim`: white space at both ends, as Rust's `char::is_whitespace`
 * means it (Unicode's White_Space: U+0085 is, U+FEFF is not, unlike `\s`).
 */
const trim = (s: string) => s.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");

/** `s` cut at its first white space, as Rust's `split_once(char::is_whitespace)`. */
function splitOnce(s: string): [string, string] {
  const m = /\p{White_Space}/u.exec(s);
  return m === null ? [s, ""] : [s.slice(0, m.index), s.slice(m.index + m[0].length)];
}

/** Reads a typed line. */
export function parse(typed: string): Command {
  const line = trim(typed);
  if (!line.startsWith("/")) return line === "" ? "Nothing" : { say: "Depth", text: line };
  const command = line.slice(1);
  const [word, after] = splitOnce(command);
  const rest = trim(after);
  const [name, tail] = splitOnce(rest);
  const said = trim(tail);
  if (rest === "" && ["shout", "w", "mute", "unmute", "kick"].includes(word)) return "Nothing";
  switch (word) {
    case "shout":
      return { say: "Everyone", text: rest };
    case "w":
      return said === "" ? "Nothing" : { say: { Player: name }, text: said };
    case "mute":
      return { mute: name };
    case "unmute":
      return { unmute: name };
    case "nowatch":
      return { audience: "Refuse" };
    case "allowwatch":
      return { audience: "Allow" };
    case "kick":
      return { audience: { Kick: name } };
    case "who":
      return "Who";
  }
  return { unknown: `No command /${word}. ${HELP}` };
}
