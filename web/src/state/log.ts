// The message log (client/src/state/log.rs): the server's notes, the lines
// about fights and about other players, and the lines of chat, each with
// its topic for its colour; at most LOG_LINES, the oldest dropped first. A
// line that repeats the last of its stream (the game's, or chat) is
// counted on it instead of kept again: "You miss the jackal. (x3)".
//
// A line is news until the player acts again, then old: the HUD dims the
// game's old lines, so that "You see a dagger here." does not read as
// current once the player walked on. Exactly: every line said so far
// becomes old when this client sends an action (ageLog, from the
// session's `sent`), and at the latest when the answer to the player's
// next action ends (its Sight): then every line said before the previous
// answer ended is old (answered). A watcher, which never sends an action,
// learns of its player's so. A line said again is news again, counted on
// its row.

import { REASONS } from "./reasons";
import type { ChatTo, PlayerId, Refusal } from "../protocol";
import { fail } from "./errors";
import { LOG_LINES, MAX_CHAT_CHARS, MAX_NOTE_CHARS, checkName } from "./limits";
import { sightDisc } from "./map";
import type { ClientState } from "./mirror";
import { thirdPerson, toTheWatcher } from "./person";
import { charCount, hasControl, takeChars } from "./text";

/** What a line of the log is about, for its colour. */
export type Topic = "Note" | "Combat" | "Others" | "Chat";

export interface LogLine {
  topic: Topic;
  text: string;
  /** In a line of chat, who spoke and where its name stands in `text` (first character, length). */
  speaker: { id: PlayerId; from: number; len: number } | null;
  /** How many times it was said in a row (at least 1). */
  repeats: number;
  /** When it was last said, counted in lines said since the session began: news while at least the state's `newsFrom`. */
  said: number;
}

export function isChat(line: LogLine): boolean {
  return line.topic === "Chat";
}

/** The line as shown: with how many times it was said, if more than once. */
export function shown(line: LogLine): string {
  return line.repeats > 1 ? `${line.text} (x${line.repeats})` : line.text;
}

/** A line about `topic`, cut at MAX_NOTE_CHARS. */
export function note(s: ClientState, topic: Topic, text: string): void {
  logLine(s, { topic, text: takeChars(text, MAX_NOTE_CHARS), speaker: null, repeats: 1, said: 0 });
}

/** A line the server wrote to the player: a watcher reads it of its player by name, but for the server's words to the watcher itself (toTheWatcher). */
export function told(s: ClientState, topic: Topic, text: string): void {
  const watched = s.watched();
  // Cut before turning it, so a hostile line costs no more than a kept one.
  const line = takeChars(text, MAX_NOTE_CHARS);
  note(s, topic, watched === null || toTheWatcher(line) ? line : thirdPerson(line, watched));
}

function sameSpeaker(a: LogLine["speaker"], b: LogLine["speaker"]): boolean {
  if (a === null || b === null) return a === b;
  return a.id === b.id && a.from === b.from && a.len === b.len;
}

/** Keeps `line` (said now), or counts it on the last of its stream when it repeats that one. */
function logLine(s: ClientState, line: LogLine): void {
  const said = s.said++;
  for (let i = s.log.length - 1; i >= 0; i--) {
    const last = s.log[i];
    if (last === undefined || isChat(last) !== isChat(line)) continue;
    if (last.topic === line.topic && last.text === line.text && sameSpeaker(last.speaker, line.speaker)) {
      last.repeats++;
      last.said = said;
      return;
    }
    break;
  }
  if (s.log.length >= LOG_LINES) s.log.shift();
  line.said = said;
  s.log.push(line);
}

/** Whether `line` is news: said since the player last acted. */
export function isNews(s: ClientState, line: LogLine): boolean {
  return line.said >= s.newsFrom;
}

/** The player acts: every line said so far is old. */
export function ageLog(s: ClientState): void {
  s.newsFrom = s.said;
}

/**
 * An action of the player's was answered (the Sight that ends the answer
 * came): what was said before the last answer ended was said before this
 * action was taken, and is old; what came since is news until the next
 * answer (or the next action this client sends).
 */
export function answered(s: ClientState): void {
  s.newsFrom = Math.max(s.newsFrom, s.lastAnswer);
  s.lastAnswer = s.said;
}

/** Checks a line of chat as `hear` would, without keeping it (a muted speaker's lines). */
export function checkChat(s: ClientState, name: string, to: ChatTo, text: string): void {
  sightDisc(s);
  checkName(name);
  if (typeof to === "object") checkName(to.Player);
  if (charCount(text) > MAX_CHAT_CHARS || hasControl(text)) fail(REASONS.line_of_chat_no_server_sends);
}

/**
 * A line of chat: "bob: ...", "bob shouts: ...", "bob whispers: ...", or
 * "You whisper to bob: ..." for this player's own whisper.
 */
export function hear(s: ClientState, from: PlayerId, name: string, to: ChatTo, text: string): void {
  checkChat(s, name, to, text);
  // A watcher's own lines carry its own id, not its player's.
  const mine = s.isMe(from);
  const speaker = { id: from, from: 0, len: charCount(name) };
  let line: LogLine;
  if (typeof to === "object" && mine) {
    line = { topic: "Chat", text: `You whisper to ${to.Player}: ${text}`, speaker: null, repeats: 1, said: 0 };
  } else if (typeof to === "object") {
    line = { topic: "Chat", text: `${name} whispers: ${text}`, speaker, repeats: 1, said: 0 };
  } else if (to === "Everyone") {
    line = { topic: "Chat", text: `${name} shouts: ${text}`, speaker, repeats: 1, said: 0 };
  } else {
    line = { topic: "Chat", text: `${name}: ${text}`, speaker, repeats: 1, said: 0 };
  }
  logLine(s, line);
}

/** Why the server turned the handshake down, in words (protocol's Display for Refusal). */
export function refusalText(r: Refusal): string {
  if (r === "NameTaken") return "that name is taken by a connected player";
  if (r === "WrongToken") return "that name belongs to another player (its secret token did not match)";
  if ("WrongVersion" in r) return `wrong protocol version: the server speaks version ${r.WrongVersion.server}`;
  if ("NameInvalid" in r) return `invalid name: ${r.NameInvalid.reason}`;
  if ("Unavailable" in r) return `the server cannot take you now: ${r.Unavailable.reason}`;
  if ("Full" in r) return `The server is full (${r.Full.players} players); try again later.`;
  if ("NoSuchBackground" in r) return `no background is called ${r.NoSuchBackground.name} here`;
  if ("NoRecording" in r) return `no recording: ${r.NoRecording.reason}`;
  if ("Draining" in r) {
    const closing = "this world is closing and takes no newcomers";
    return r.Draining.elsewhere === null ? closing : `${closing}: join ${r.Draining.elsewhere} instead`;
  }
  return `cannot watch: ${r.CannotWatch.reason}`;
}
