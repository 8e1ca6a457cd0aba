// Watching (client/src/state/watching.rs): whom this client watches, who
// watches its player, and the answer to `/who`. A watcher coming or going
// is a line of the log, but for a watcher itself: it was told "You are
// watching ann." as it came, and is told its own leaving by the server.

import { REASONS } from "./reasons";
import type { PlayerId, Playing } from "../protocol";
import { fail } from "./errors";
import { MAX_WATCHERS, MAX_WHO, checkName, checkNames } from "./limits";
import { note } from "./log";
import { sightDisc } from "./map";
import type { ClientState } from "./mirror";
import { charCount } from "./text";

/** The widest line of the `/who` list, in characters. */
const WHO_LINE_CHARS = 78;

/** This client watches `player`, and speaks as `you`. */
export function watch(s: ClientState, player: string, you: PlayerId): void {
  sightDisc(s);
  checkName(player);
  note(s, "Note", `You are watching ${player}.`);
  s.watching = { player, you };
}

/** Who watches the player now: each who came or went is told. */
export function setWatchers(s: ClientState, names: string[]): void {
  sightDisc(s);
  if (names.length > MAX_WATCHERS) fail(REASONS.more_watchers_than_a_client_keeps);
  checkNames(names);
  const whom = s.watching?.player ?? "you";
  const news = (n: string) => n !== s.name;
  const came = names.filter((n) => !s.watchers.includes(n)).filter(news);
  const went = s.watchers.filter((n) => !names.includes(n)).filter(news);
  for (const name of came) note(s, "Others", `${name} is watching ${whom}.`);
  for (const name of went) note(s, "Others", `${name} stopped watching ${whom}.`);
  s.watchers = [...names];
}

/**
 * The answer to `/who`: everyone playing, as lines of the log no wider
 * than a HUD row, each name with how many watch it or that it cannot be
 * watched, and how to watch one in the page's words (words.ts: the
 * browser watches with `?watch=NAME` in the address where the window
 * takes `--watch NAME`).
 */
export function listPlayers(s: ClientState, playing: Playing[]): void {
  sightDisc(s);
  if (playing.length > MAX_WHO) fail(REASONS.longer_list_of_players_than_any_sent);
  for (const p of playing) checkName(p.name);
  let line = `Playing now (${playing.length}), watch with ${s.words.watchWith}:`;
  for (const p of playing) {
    const entry = !p.watchable
      ? `${p.name} (not to be watched)`
      : p.watchers === 0
        ? p.name
        : `${p.name} (${p.watchers} watching)`;
    if (charCount(line) + charCount(entry) + 1 > WHO_LINE_CHARS) {
      note(s, "Note", line);
      line = " ";
    }
    line += ` ${entry}`;
  }
  note(s, "Note", line);
}
