// The behaviour vectors (written by client/src/web_export/screens.rs):
// sessions the window's headless Session played, step by step, replayed
// through the page's Session, which must send the same, refuse the same
// and show the same screen after every step. Where the page differs on
// purpose, it is in the one list (keys.json's `differences`), and only
// there: the page is given the window's words and help (WINDOW_WORDS), and
// a different outcome of a key is forgiven only when listed.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import keys from "../src/generated/keys.json";
import { decodeServer, type ClientMsg, type ServerMsg } from "../src/protocol";
import { layoutAt, type Layout } from "../src/render/layout";
import { DEFAULT } from "../src/render/palette";
import { cellUnder, screenText } from "../src/render/view";
import type { Key } from "../src/session/keys";
import { Player, unplayable } from "../src/session/player";
import { Gathering, askFor } from "../src/session/replay";
import type { Ending } from "../src/session/retry";
import { Session, type KeyOutcome } from "../src/session/session";
import type { Scene } from "../src/session/scene";
import { WINDOW_WORDS } from "../src/state";
import { asJson, fromHex, parseJson, type Json } from "./json";

interface Step {
  at: number;
  key?: Key;
  shift?: boolean;
  repeat?: boolean;
  text?: string;
  click?: [number, number];
  msg?: string;
  variant?: string;
  closed?: string;
  /** How the connection ended, with `closed`. */
  ending?: Ending;
  /** Time passed (a step with no input). */
  wait?: boolean;
  /** The tick after the step asked to connect again. */
  connect?: boolean;
  /** The window resized to [width, height, cell, letter]. */
  resize?: [number, number, number, number];
  /** A message on the recording's own connection (after `r`'s Ask), its frame in hex. */
  recording?: string;
  /** The recording's connection ended, why (with `ending`). */
  recording_closed?: string;
  out?: Json;
  refused?: string | null;
  /** The rows of the screen that changed, by index. */
  rows?: [number, string][];
  /** The number of rows, when it changed. */
  height?: number;
  /** The window's title, when the step changed it. */
  title?: string;
}

interface Recorded {
  name: string;
  /** The name the session joins under. */
  who: string;
  layout: [number, number, number, number];
  start: string[];
  /** The window's title before the first step. */
  title: string;
  steps: Step[];
}

// Tests run bundled from build/test/, two folders below web/.
const file = parseJson(readFileSync(new URL("../../test/screens.json", import.meta.url), "utf8")) as unknown as {
  token_note: string;
  sessions: Recorded[];
};

/** A key's outcome as the vectors write the window's. */
function outcomeJson(outcome: KeyOutcome): unknown {
  if (typeof outcome === "string") return outcome;
  if ("send" in outcome) return { Send: asJson(outcome.send) };
  // The page names the grave; the window the message its own connection opens with.
  if ("record" in outcome) return { Ask: asJson(askFor(outcome.record)) };
  // The page's app plays the kept recording; the window's session shows it and redraws.
  if ("play" in outcome) return "Redraw";
  return { Zoom: outcome.zoom };
}

/** The states the list of differences names, each as the page's session shows it before the key. */
const WHEN: Record<string, (s: Session) => boolean> = {
  watcher_at_the_end: (s) => s.page() === "End" && s.state.watching !== null,
  link_lost: (s) => typeof s.link === "object" && "lost" in s.link && s.page() === "Map",
};

/** How often each listed difference forgave a step, to check that none is stale. */
const forgiven = new Map<string, number>();

/** Whether the one list of differences allows the page `page` where the window gave `window`, in the state `s` was in. */
function intended(step: Step, window: Json | undefined, page: unknown, when: (name: string) => boolean): boolean {
  const found = keys.differences.outcomes.find(
    (d) => JSON.stringify(step.key) === JSON.stringify(d.key) && window === d.window && page === d.page && when(d.when),
  );
  if (found !== undefined) forgiven.set(found.when, (forgiven.get(found.when) ?? 0) + 1);
  return found !== undefined;
}

/** Names the first row where two screens differ, with both rows. */
function firstDifference(want: string[], got: string[]): string | null {
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    if (want[i] !== got[i]) {
      return `row ${i} differs:\n  window: ${JSON.stringify(want[i] ?? "(no row)")}\n  page:   ${JSON.stringify(got[i] ?? "(no row)")}`;
    }
  }
  return null;
}

function what(step: Step): string {
  if (step.key !== undefined) return `key ${JSON.stringify(step.key)}${step.shift === true ? " +Shift" : ""}${step.repeat === true ? " (repeat)" : ""}`;
  if (step.text !== undefined) return `text ${JSON.stringify(step.text)}`;
  if (step.click !== undefined) return `click at ${step.click.join(", ")}`;
  if (step.msg !== undefined) return `message ${step.variant ?? ""} ${step.msg.slice(0, 40)}`;
  if (step.resize !== undefined) return `resized to ${step.resize.join(", ")}`;
  if (step.recording !== undefined) return `recording's message ${step.variant ?? ""} ${step.recording.slice(0, 40)}`;
  if (step.recording_closed !== undefined) return `recording's connection closed: ${step.recording_closed}`;
  if (step.wait === true) return `time passes to ${step.at} ms`;
  return `closed: ${step.closed ?? ""}`;
}

/**
 * The page's recording side as app.ts drives it (watchGrave, afterAsking,
 * play, playTick, onPlayerKey, carryOut): the grave `r` or a graveyard's
 * letter asked for on a connection of its own, what that connection brings
 * gathered, then the player page over the session's page until Esc.
 */
class Watch {
  private gathering: Gathering | null = null;
  player: Player | null = null;

  constructor(private readonly s: Session) {}

  /** A key gave `outcome`: a grave's ask opens its connection; one no longer wanted (the graveyard put away) is let go. */
  carryOut(outcome: KeyOutcome): void {
    if (typeof outcome === "object" && "record" in outcome) this.gathering = new Gathering();
    if (typeof outcome === "object" && "play" in outcome) this.player = new Player(outcome.play, this.s.server, this.s.state.world);
    if (!this.s.asking()) this.gathering = null;
  }

  onMessage(msg: ServerMsg): void {
    this.gathering?.onMessage(msg);
    this.settle();
  }

  onClosed(reason: string): void {
    this.gathering?.onClosed(reason);
    this.settle();
  }

  /** As app.ts's afterAsking: a recording come whole plays, or why none came shows on the end page. */
  private settle(): void {
    const came = this.gathering?.state;
    if (came === undefined || came === "Asking") return;
    this.gathering = null;
    const why = "came" in came ? unplayable(came.came) : null;
    const asked = why === null ? came : { failed: why };
    if ("came" in asked) {
      if (this.s.recordingCame(asked.came)) this.player = new Player(asked.came, this.s.server, this.s.state.world);
    } else this.s.recordingFailed(asked.failed);
  }

  /** A key on the player page, its outcome as the window names it (Esc redraws the end page). */
  onKey(player: Player, key: Key, shift: boolean, now: number): KeyOutcome {
    const outcome = player.onKey(key, now, shift);
    if (outcome !== "Leave") return outcome;
    this.player = null;
    return "Redraw";
  }

  scene(): Scene {
    return this.player?.scene() ?? this.s.scene();
  }
}

/** Plays one step on the page's session: the outcome of a key, or the reason a message was refused. */
function play(s: Session, watch: Watch, step: Step, layout: Layout): { out?: KeyOutcome; refused?: string | null } {
  const now = step.at;
  if (step.recording !== undefined) {
    watch.onMessage(decodeServer(fromHex(step.recording)));
    return {};
  }
  if (step.recording_closed !== undefined) {
    watch.onClosed(step.recording_closed);
    return {};
  }
  if (step.key !== undefined && watch.player !== null) return { out: watch.onKey(watch.player, step.key, step.shift === true, now) };
  if (step.key !== undefined) {
    const out = s.onKey(step.key, step.shift === true, step.repeat === true, now);
    watch.carryOut(out);
    return { out };
  }
  if (step.text !== undefined) return { out: s.onText(step.text) };
  if (step.click !== undefined) {
    const [x, y] = step.click;
    return { out: s.onClick(cellUnder(s.scene(), layout, x, y), now) };
  }
  if (step.msg !== undefined) return { refused: s.onMessage(decodeServer(fromHex(step.msg))) };
  if (step.closed !== undefined) s.onClosed(step.closed, step.ending ?? "Dropped");
  return {};
}

/** The screen after `step`: `before` with the rows it changed, cut or grown to its height. */
function screenAfter(before: string[], step: Step): string[] {
  if (step.rows === undefined && step.height === undefined) return before;
  const after = Array.from({ length: step.height ?? before.length }, (_, i) => before[i] ?? "");
  for (const [i, row] of step.rows ?? []) after[i] = row;
  return after;
}

function replay(recorded: Recorded): void {
  const [w, h, cell, letter] = recorded.layout;
  let layout = layoutAt(w, h, cell, letter);
  const s = new Session("ws://here", { keep: () => file.token_note }, WINDOW_WORDS, recorded.who);
  // As the page tells its session on every resize, and the window's harness did.
  s.resize(layout.pageCols, layout.mapRows);
  const watch = new Watch(s);
  const screenOf = () => screenText(watch.scene(), DEFAULT, layout).split("\n").slice(0, -1);
  let want = recorded.start;
  let title = recorded.title;
  assert.equal(s.title(), title, `${recorded.name}, before the first step: the title differs`);
  const before = firstDifference(want, screenOf());
  assert.equal(before, null, `${recorded.name}, before the first step: ${before}`);
  recorded.steps.forEach((step, i) => {
    const where = `${recorded.name}, step ${i} (${what(step)})`;
    // Which of the listed states the session was in before the step.
    const was = new Set(Object.entries(WHEN).flatMap(([name, holds]) => (holds(s) ? [name] : [])));
    if (step.resize !== undefined) {
      layout = layoutAt(...step.resize);
      s.resize(layout.pageCols, layout.mapRows);
    }
    const done = step.resize !== undefined ? {} : play(s, watch, step, layout);
    if (done.out !== undefined) {
      const got = outcomeJson(done.out);
      if (!intended(step, step.out, got, (name) => was.has(name))) assert.deepEqual(got, step.out, `${where}: the outcome differs`);
      if (typeof done.out === "object" && "send" in done.out) s.sent(done.out.send as ClientMsg, step.at);
    }
    if (step.msg !== undefined) assert.equal(done.refused, step.refused, `${where}: the refusal differs`);
    // As the window ticks after every event (the player page's playback while it shows).
    if (watch.player !== null) watch.player.tick(step.at);
    else assert.equal(s.tick(step.at) === "Connect", step.connect === true, `${where}: whether to connect again differs`);
    want = screenAfter(want, step);
    const differs = firstDifference(want, screenOf());
    assert.equal(differs, null, `${where}: the screen's ${differs}`);
    title = step.title ?? title;
    assert.equal(s.title(), title, `${where}: the title differs`);
  });
}

test("the vectors hold sessions of every kind", () => {
  const names = file.sessions.map((r) => r.name).join("\n");
  for (const part of ["arrival", "walking", "talking", "items", "looking", "log", "help", "dying", "graveyard", "quitting", "hostile", "random keys", "random messages", "every key", "restarting", "full", "a watcher told of a restart", "playing back", "playing back refused", "playing back resized"]) {
    assert.ok(names.includes(part), `no ${part} session`);
  }
});

for (const recorded of file.sessions) {
  test(`the page plays "${recorded.name}" as the window did`, () => replay(recorded));
}

// Last (node:test runs a file's tests in order): a listed difference the
// vectors never meet is stale, or its state is named wrong.
test("every difference listed is met in the vectors, in the state it names", () => {
  for (const d of keys.differences.outcomes) {
    assert.ok(d.when in WHEN, `keys.json names a state the replay does not know: ${d.when}`);
    assert.ok((forgiven.get(d.when) ?? 0) > 0, `no step meets the listed difference "${d.when}" (${d.why})`);
  }
});
