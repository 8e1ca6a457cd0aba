// Coming back by itself (src/session/retry.ts, as client/src/session/
// retry.rs): the schedule of waits and its draws, which endings are tried
// again, and the session through a lost link: the countdown, the try, a
// refusal that stops it, a restart tried at once, and the world as it is
// after the welcome.

import assert from "node:assert/strict";
import { test } from "node:test";

import fc from "fast-check";

import type { Refusal } from "../src/protocol";
import { Jitter, LONGEST_WAIT_MS, next, waitMs, type Ending, type Next } from "../src/session/retry";
import { Session, type Tick } from "../src/session/session";
import { hud } from "../src/render/hud";
import { sceneOf, type Link } from "../src/session/scene";
import { enterLevel, welcome } from "./fixtures";

const NO_TOKENS = { keep: () => "kept" };

function playing(): Session {
  const s = new Session("ws://here/", NO_TOKENS, undefined, "ann");
  s.onMessage(welcome(1, 20, 10));
  s.onMessage(enterLevel(1, 20, 10));
  return s;
}

test("the first try comes within a second, and the waits grow to ten seconds", () => {
  assert.equal(waitMs(0, 0), 500);
  assert.equal(waitMs(0, 500), 1000);
  assert.equal(waitMs(1, 0), 1000);
  assert.equal(waitMs(3, 4000), 8000);
  assert.equal(waitMs(4, 0), 5000);
  assert.equal(waitMs(40, 5000), 10_000);
});

test("every wait lies in the second half of its span, none over 10 s", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (tries, draw) => {
      const span = Math.min(LONGEST_WAIT_MS, 1000 * 2 ** Math.min(tries, 4));
      const ms = waitMs(tries, draw);
      assert.ok(ms * 2 >= span && ms <= span, `${ms} of ${span}`);
      assert.ok(Number.isInteger(ms) && ms <= 10_000);
      if (tries === 0) assert.ok(ms <= 1000);
    }),
  );
});

test("the draws are the window's mulberry32, the same for the same seed", () => {
  const j = new Jitter(1);
  assert.deepEqual([j.draw(), j.draw(), j.draw()], [2_693_262_067, 11_749_833, 2_265_367_787]);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
      const [a, b] = [new Jitter(seed), new Jitter(seed)];
      for (let i = 0; i < 8; i++) assert.equal(a.draw(), b.draw());
    }),
  );
});

test("a refusal that will not change stops, one that may is tried again, whatever the code", () => {
  const cases: [Refusal, Next][] = [
    [{ WrongVersion: { server: 99 } }, "Stop"],
    [{ NameInvalid: { reason: "why" } }, "Stop"],
    ["NameTaken", "Stop"],
    ["WrongToken", "Stop"],
    [{ Unavailable: { reason: "why" } }, "Backoff"],
    [{ CannotWatch: { reason: "why" } }, "Backoff"],
    [{ Full: { players: 8 } }, "Backoff"],
  ];
  for (const [refusal, want] of cases) {
    for (const ending of [{ Code: 1008 }, { Code: 1012 }, "Dropped"] as Ending[]) {
      assert.equal(next(refusal, ending, 0), want, JSON.stringify([refusal, ending]));
    }
  }
});

test("the close code says whether to try again, and 1012 at once the first time", () => {
  const cases: [Ending, Next][] = [
    ["Dropped", "Backoff"],
    ["Unreadable", "Stop"],
    [{ Code: 1000 }, "Stop"],
    [{ Code: 1005 }, "Stop"],
    [{ Code: 1001 }, "Backoff"],
    [{ Code: 1002 }, "Stop"],
    [{ Code: 1008 }, "Stop"],
    [{ Code: 1011 }, "Backoff"],
    [{ Code: 1012 }, "AtOnce"],
    [{ Code: 1013 }, "Backoff"],
    [{ Code: 4000 }, "Stop"],
  ];
  for (const [ending, want] of cases) assert.equal(next(null, ending, 0), want, JSON.stringify(ending));
  assert.equal(next(null, { Code: 1012 }, 1), "Backoff");
});

test("a lost link counts down in whole seconds, tries, waits longer after a failed try, and a welcome ends it", () => {
  const s = playing();
  s.onClosed("the server went away", "Dropped");
  assert.deepEqual(s.link, { retrying: "the server went away", left: 1 });
  assert.equal(s.state.log.at(-1)?.text, "Connection lost: the server went away.");
  let at = 1000;
  let tick: Tick = s.tick(at);
  while (typeof tick === "object") {
    assert.ok(tick.within <= 1000);
    at += tick.within;
    tick = s.tick(at);
  }
  assert.equal(tick, "Connect");
  assert.ok(at - 1000 >= 500 && at - 1000 <= 1000, `${at}`);
  assert.deepEqual(s.link, { retrying: "the server went away", left: null });
  assert.equal(s.tick(at), "Idle", "one try at a time");
  s.onClosed("cannot connect to ws://here/", "Dropped");
  s.tick(at);
  const link = s.link as Link;
  const left = typeof link === "object" && "retrying" in link ? link.left : null;
  assert.ok(left === 1 || left === 2, `${left}`);
  assert.equal(s.tick(at + 2000), "Connect");
  s.onMessage(welcome(1, 20, 10));
  assert.equal(s.link, "Playing");
  assert.equal(s.tick(at + 3000), "Idle");
  assert.equal(hud(sceneOf(s.state, s.link, "Map"), 120, 80)[0]?.text, "Joining...");
});

test("a wrong key on the try is shown and never tried again; Enter and Esc on a countdown", () => {
  const s = playing();
  s.onClosed("connection reset", "Dropped");
  s.tick(0);
  assert.equal(s.onKey("Enter", false, false, 0), "Redraw", "Enter tries now");
  assert.equal(s.tick(0), "Connect");
  s.onMessage({ Refused: "WrongToken" });
  s.onClosed("the server closed the connection", { Code: 1008 });
  assert.match(JSON.stringify(s.link), /refused: that name belongs to another player/);
  assert.equal(s.tick(60_000), "Idle");
  const t = playing();
  t.onClosed("connection reset", "Dropped");
  t.tick(0);
  assert.equal(t.onKey("Escape", false, false, 0), "Quit");
  t.giveUp();
  assert.deepEqual(t.link, { lost: "connection reset" });
  assert.equal(t.tick(60_000), "Idle");
});

test("a restart is tried again at once; the watched player not back yet is tried again later", () => {
  const s = playing();
  s.onClosed("the server closed the connection: The server is restarting", { Code: 1012 });
  assert.equal(s.tick(5), "Connect");
  s.onMessage({ Refused: { CannotWatch: { reason: "ann is not playing" } } });
  s.onClosed("the server closed the connection", { Code: 1008 });
  assert.deepEqual(s.link, { retrying: "refused: cannot watch: ann is not playing", left: 1 });
  assert.equal(s.state.refused !== null, true);
  assert.equal(typeof s.tick(5), "object");
  assert.equal(s.tick(1005), "Connect");
  assert.equal(s.state.refused, null, "forgotten for the new try");
});

test("back after a lost link: nothing live from before, the log and the name kept as old news", () => {
  const s = playing();
  s.onMessage({ Kinds: [{ name: "rat", glyph: "r", colour: [1, 2, 3] }] });
  s.onMessage({ Players: [{ Appeared: { id: 2, name: "bob", at: { x: 3, y: 3 } } }] });
  s.onMessage({ Note: "before" });
  assert.equal(s.state.others.size, 1);
  s.onClosed("connection reset", "Dropped");
  s.tick(0);
  s.tick(1000);
  s.onMessage(welcome(1, 20, 10));
  assert.equal(s.state.others.size + s.state.kinds.length + s.state.monsters.size, 0);
  assert.equal(s.state.name, "ann");
  const texts = s.state.log.map((l) => l.text);
  assert.ok(texts.includes("before") && texts.includes("Connection lost: connection reset."), texts.join("|"));
  assert.equal(s.state.newsFrom, s.state.said, "all of it old news");
});

test("after a death a dropped link is not tried again", () => {
  const s = playing();
  s.onMessage({
    Died: { name: "ann", depth: 1, rounds: 3n, kills: 0, killed_by: "a rat", when: 0n, level: 1, escaped: false, morgue: 0 },
  });
  s.onClosed("connection reset", "Dropped");
  assert.deepEqual(s.link, { lost: "connection reset" });
});
