// The words the page puts its own way, where the window's would be wrong in
// a browser (a page joins again with Enter, watches by its address, cannot
// close itself), and its help page: all from the one list of intended
// differences the Rust client writes (keys.json's `differences`, from
// client/src/web_export/keys.rs). The page draws in PAGE_WORDS; the
// replay of the behaviour vectors (test/screens.test.ts) gives the page
// WINDOW_WORDS, so that nothing else may differ.

import keys from "../generated/keys.json";

export interface Words {
  /** What a lost link's row says to do. */
  lostKeys: string;
  /** What the row of a link being tried again says to do. */
  retryKeys: string;
  /** How the answer to `/who` says to watch a player. */
  watchWith: string;
  /** The end page's keys for a watcher whose player's game ended (`{player}` is the player). */
  watcherEnd: string;
  /** The HUD's keys row for a watcher whose player's game ended (`{player}` is the player). */
  watcherEndKeys: string;
  /** The help page's lines. */
  help: readonly string[];
}

const words = keys.differences.words;

export const PAGE_WORDS: Words = {
  lostKeys: words.lost_keys.page,
  retryKeys: words.retry_keys.page,
  watchWith: words.watch_with.page,
  watcherEnd: words.watcher_end.page,
  watcherEndKeys: words.watcher_end_keys.page,
  help: keys.page_help,
};

export const WINDOW_WORDS: Words = {
  lostKeys: words.lost_keys.window,
  retryKeys: words.retry_keys.window,
  watchWith: words.watch_with.window,
  watcherEnd: words.watcher_end.window,
  watcherEndKeys: words.watcher_end_keys.window,
  help: keys.help,
};
