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
import { decodeServer, type ClientMsg } from "../src/protocol";
import { layoutAt, type Layout } from "../src/render/layout";
import { DEFAULT } from "../src/render/palette";
import { cellUnder, screenText } from "../src/render/view";
import type { Key } from "../src/session/keys";
import { Session, type KeyOutcome } from "../src/session/session";
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
  out?: Json;
  refused?: string | null;
  screen?: string[];
}

interface Recorded {
  name: string;
  layout: [number, number, number, number];
  start: string[];
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
  return { Zoom: outcome.zoom };
}

/** Whether the one list of differences allows the page `page` where the window gave `window`. */
function intended(step: Step, window: Json | undefined, page: unknown): boolean {
  return keys.differences.outcomes.some(
    (d) => JSON.stringify(step.key) === JSON.stringify(d.key) && window === d.window && page === d.page,
  );
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
  return `closed: ${step.closed ?? ""}`;
}

/** Plays one step on the page's session: the outcome of a key, or the reason a message was refused. */
function play(s: Session, step: Step, layout: Layout): { out?: KeyOutcome; refused?: string | null } {
  const now = step.at;
  if (step.key !== undefined) return { out: s.onKey(step.key, step.shift === true, step.repeat === true, now) };
  if (step.text !== undefined) return { out: s.onText(step.text) };
  if (step.click !== undefined) {
    const [x, y] = step.click;
    return { out: s.onClick(cellUnder(s.scene(), layout, x, y), now) };
  }
  if (step.msg !== undefined) return { refused: s.onMessage(decodeServer(fromHex(step.msg))) };
  s.onClosed(step.closed ?? "");
  return {};
}

function replay(recorded: Recorded): void {
  const [w, h, cell, letter] = recorded.layout;
  const layout = layoutAt(w, h, cell, letter);
  const s = new Session("ws://here", { keep: () => file.token_note }, WINDOW_WORDS);
  const screenOf = () => screenText(s.scene(), DEFAULT, layout).split("\n").slice(0, -1);
  let want = recorded.start;
  const before = firstDifference(want, screenOf());
  assert.equal(before, null, `${recorded.name}, before the first step: ${before}`);
  recorded.steps.forEach((step, i) => {
    const where = `${recorded.name}, step ${i} (${what(step)})`;
    const done = play(s, step, layout);
    if (done.out !== undefined) {
      const got = outcomeJson(done.out);
      if (!intended(step, step.out, got)) assert.deepEqual(got, step.out, `${where}: the outcome differs`);
      if (typeof done.out === "object" && "send" in done.out) s.sent(done.out.send as ClientMsg, step.at);
    }
    if (step.msg !== undefined) assert.equal(done.refused, step.refused, `${where}: the refusal differs`);
    want = step.screen ?? want;
    const differs = firstDifference(want, screenOf());
    assert.equal(differs, null, `${where}: the screen's ${differs}`);
  });
}

test("the vectors hold sessions of every kind", () => {
  const names = file.sessions.map((r) => r.name).join("\n");
  for (const part of ["arrival", "walking", "talking", "items", "looking", "log", "help", "dying", "graveyard", "quitting", "hostile", "random keys", "random messages", "every key"]) {
    assert.ok(names.includes(part), `no ${part} session`);
  }
});

for (const recorded of file.sessions) {
  test(`the page plays "${recorded.name}" as the window did`, () => replay(recorded));
}
