// Playing a recording back (src/session/replay.ts, player.ts): the groups
// of one round, the playback's position, speed, keys and status line over
// an injected clock (property-tested), the recording as its connection
// brings it, the end page's `r` and its line, and the player page's HUD.

import assert from "node:assert/strict";
import { test } from "node:test";

import fc from "fast-check";

import type { ServerMsg } from "../src/protocol";
import { hud } from "../src/render/hud";
import { pageLines } from "../src/render/pages";
import { DEFAULT } from "../src/render/palette";
import { Player, unplayable, welcomeOf } from "../src/session/player";
import {
  ASKING,
  FIRST_SPEED,
  Gathering,
  PLAYER_KEYS,
  Playback,
  SPEEDS,
  STEP_MS,
  askFor,
  groupByRound,
  playerKey,
  MOST_A_TICK,
  replayPath,
  replayUrl,
  type Group,
  type Head,
  type PlayerKey,
} from "../src/session/replay";
import { Session } from "../src/session/session";
import { PROTOCOL_VERSION } from "../src/state";
import { NO_TOKENS, enterLevel, kind, record, sight, welcome } from "./fixtures";

const HEAD: Head = { player: "ann", you: 4, depth: 2, from: 10n, to: 19n };

/** `n` groups of one Note each, rounds 10, 12, 14, ... */
function groups(n: number): Group[] {
  return Array.from({ length: n }, (_, i) => ({ round: 10n + 2n * BigInt(i), msgs: [{ Note: `line ${i}` }] }));
}

test("recorded messages are grouped by round, in order, rounds without a message skipped", () => {
  const note = (t: string): ServerMsg => ({ Note: t });
  const got = groupByRound([
    { round: 5n, msg: note("a") },
    { round: 5n, msg: note("b") },
    { round: 9n, msg: note("c") },
    { round: 10n, msg: note("d") },
    { round: 10n, msg: note("e") },
  ]);
  assert.deepEqual(got, [
    { round: 5n, msgs: [note("a"), note("b")] },
    { round: 9n, msgs: [note("c")] },
    { round: 10n, msgs: [note("d"), note("e")] },
  ]);
  assert.deepEqual(groupByRound([]), []);
});

test("the first group plays at once, then one every 250 ms at x1, and playback ends after the last", () => {
  const p = new Playback(HEAD, groups(3));
  assert.equal(p.status(), "Recording: ann on depth 2, round 10 (10 to 19), x1, playing", "FROM before the first");
  assert.deepEqual(p.tick(1000).map((g) => g.round), [10n]);
  assert.deepEqual(p.tick(1249), [], "not yet");
  assert.equal(p.nextDue(1249), 1);
  assert.deepEqual(p.tick(1250).map((g) => g.round), [12n]);
  assert.equal(p.status(), "Recording: ann on depth 2, round 12 (10 to 19), x1, playing");
  assert.deepEqual(p.tick(1500).map((g) => g.round), [14n]);
  assert.equal(p.state(), "ended");
  assert.equal(p.status(), "Recording: ann on depth 2, round 14 (10 to 19), x1, ended");
  assert.deepEqual(p.tick(99_999), [], "nothing after the end");
  assert.equal(p.nextDue(99_999), null);
});

test("speeds run from x1/4 to x16 and change how long a group waits", () => {
  const p = new Playback(HEAD, groups(40));
  assert.equal(SPEEDS[FIRST_SPEED]?.name, "x1");
  p.tick(0);
  p.onKey("Faster", 0);
  assert.equal(p.interval(), STEP_MS / 2);
  assert.deepEqual(p.tick(125).map((g) => g.round), [12n], "x2: a group each 125 ms");
  for (let i = 0; i < 10; i++) p.onKey("Faster", 0);
  assert.match(p.status(), /, x16, playing$/);
  for (let i = 0; i < 10; i++) p.onKey("Slower", 0);
  assert.match(p.status(), /, x1\/4, playing$/);
  assert.equal(p.interval(), 1000);
});

test("Space pauses and resumes where it was; `.` plays one group and pauses", () => {
  const p = new Playback(HEAD, groups(5));
  p.tick(0);
  p.onKey("Pause", 10);
  assert.equal(p.state(), "paused");
  assert.match(p.status(), /round 10 .*, x1, paused$/);
  assert.deepEqual(p.tick(5000), [], "nothing plays while paused");
  assert.equal(p.nextDue(5000), null);
  p.onKey("Pause", 5000);
  assert.equal(p.state(), "playing");
  assert.deepEqual(p.tick(5249), [], "the next group waits a whole step from the resume");
  assert.deepEqual(p.tick(5250).map((g) => g.round), [12n]);
  const stepped = p.onKey("Step", 5300);
  assert.deepEqual(stepped !== "Leave" && stepped.map((g) => g.round), [14n]);
  assert.equal(p.state(), "paused");
  assert.match(p.status(), /round 14 .*paused$/);
  assert.equal(p.onKey("Leave", 0), "Leave");
});

test("faster brings the next group nearer, slower does not put it off (as the window's)", () => {
  const p = new Playback(HEAD, groups(5));
  p.tick(0);
  p.onKey("Faster", 100);
  assert.equal(p.nextDue(100), 125, "x2 from now, not from the last group");
  assert.deepEqual(p.tick(200), [], "the old interval from the last group would have played one");
  p.onKey("Slower", 200);
  p.onKey("Slower", 200);
  assert.equal(p.nextDue(200), 25, "still due at 225");
  assert.deepEqual(p.tick(225).map((g) => g.round), [12n]);
  assert.equal(p.nextDue(225), 500, "then a group each 500 ms at x1/2");
});

test("a tick long late plays at most MOST_A_TICK groups; the rest of the delay is forgiven", () => {
  const p = new Playback(HEAD, groups(30));
  p.tick(0);
  assert.equal(p.tick(60_000).length, MOST_A_TICK);
  assert.equal(p.nextDue(60_000), 0, "the next plays on the next tick");
  assert.equal(p.tick(60_000).length, 1);
  assert.equal(p.nextDue(60_000), 250);
});

test("the player's keys: Space, + = >, - <, ., Esc", () => {
  assert.equal(playerKey({ char: "." }, true), "Faster", "Shift+. is >");
  assert.equal(playerKey({ char: "," }, true), "Slower", "Shift+, is <");
  assert.equal(playerKey({ char: "," }), null);
  const got = [" ", "+", "=", ">", "-", "<", ".", "x"].map((c) => playerKey({ char: c }));
  assert.deepEqual(got, ["Pause", "Faster", "Faster", "Faster", "Slower", "Slower", "Step", null]);
  assert.equal(playerKey("Escape"), "Leave");
  assert.equal(playerKey("Enter"), null);
});

test("whatever the keys and the clock, the position never passes the end, the speed stays in range, a step pauses", () => {
  const keys: PlayerKey[] = ["Pause", "Faster", "Slower", "Step"];
  const move = fc.oneof(fc.constantFrom(...keys), fc.integer({ min: 0, max: 5000 }));
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 30 }), fc.array(move, { maxLength: 60 }), (count, moves) => {
      const all = groups(count);
      const p = new Playback(HEAD, all);
      let now = 0;
      let played: Group[] = [];
      for (const m of moves) {
        if (typeof m === "number") {
          now += m;
          played = played.concat(p.tick(now));
        } else {
          const pausedBefore = p.state() === "paused";
          const at = p.applied;
          const got = p.onKey(m, now);
          if (got !== "Leave") played = played.concat(got);
          if (m === "Step") assert.ok(p.state() !== "playing", "a step pauses");
          if (m === "Pause") assert.equal(p.applied, at, "pausing or resuming keeps the position");
          if (m === "Pause" && at < count) assert.equal(p.state() === "paused", !pausedBefore);
        }
        assert.ok(p.applied >= 0 && p.applied <= count, "never past the end");
        assert.ok(p.speed >= 0 && p.speed < SPEEDS.length);
        assert.equal(p.state() === "ended", p.applied === count);
        assert.match(p.status(), /^Recording: ann on depth 2, round \d+ \(10 to 19\), x(1\/4|1\/2|1|2|4|8|16), (playing|paused|ended)$/);
      }
      assert.deepEqual(played, all.slice(0, p.applied), "every group once, in order");
    }),
  );
});

test("a /replay address names a grave; a friend's link is on the server's host", () => {
  assert.deepEqual(replayPath("/replay/ann/3"), { name: "ann", life: 3 });
  assert.deepEqual(replayPath("/replay/Zo%C3%AB/12"), { name: "Zoë", life: 12 });
  for (const no of ["/", "/replay/ann", "/replay/ann/0", "/replay/ann/x", "/replay//3", "/replay/ann/3/4", "/replay/%E0%A4%A/1", "/replay/ann/99999999999"]) {
    assert.equal(replayPath(no), null, no);
  }
  assert.equal(replayUrl("ws://game.test:8080/", { name: "ann", life: 3 }), "http://game.test:8080/replay/ann/3");
  assert.equal(replayUrl("wss://example.org/", { name: "Zoë", life: 1 }), "https://example.org/replay/Zo%C3%AB/1");
  assert.equal(replayUrl("", { name: "ann", life: 1 }), null);
  assert.deepEqual(askFor({ name: "ann", life: 3 }), { Recording: { version: PROTOCOL_VERSION, ask: { Grave: { name: "ann", life: 3, rounds: 100 } } } });
});

test("a recording comes head, messages, end; a refusal, a broken order or an early close fail it with the reason", () => {
  const g = new Gathering();
  assert.equal(g.onMessage({ Recording: { ...HEAD } }), null);
  assert.equal(g.onMessage({ Recorded: { round: 10n, msg: { Note: "a" } } }), null);
  assert.equal(g.onMessage({ Recorded: { round: 10n, msg: { Note: "b" } } }), null);
  assert.equal(g.state, "Asking");
  assert.equal(g.onMessage({ RecordingEnd: { cut: false } }), null);
  g.onClosed("the server closed the connection");
  assert.deepEqual(g.state, { came: { head: HEAD, groups: [{ round: 10n, msgs: [{ Note: "a" }, { Note: "b" }] }], cut: false } });

  const refused = new Gathering();
  refused.onMessage({ Refused: { NoRecording: { reason: "ann has no life 9" } } });
  assert.deepEqual(refused.state, { failed: "no recording: ann has no life 9" });
  const early = new Gathering();
  early.onMessage({ Recording: { ...HEAD } });
  early.onClosed("cannot connect to ws://here/");
  assert.deepEqual(early.state, { failed: "cannot connect to ws://here/" });
  const headless = new Gathering();
  assert.equal(headless.onMessage({ Recorded: { round: 1n, msg: "Stopped" } }), "a recording's message before its head");
  assert.deepEqual(headless.state, { failed: "the server is broken or hostile: a recording's message before its head" });
});

/** A session whose player `ann` died, with a grave numbered `morgue`. */
function died(morgue: number): Session {
  const s = new Session("ws://here/", NO_TOKENS, undefined, "ann");
  for (const m of [welcome(1, 20, 10), enterLevel(1, 20, 10), { Died: { ...record("ann"), morgue } } as ServerMsg]) s.onMessage(m);
  return s;
}

const endText = (s: Session) => pageLines(s.scene(), DEFAULT, 120, 40).map(([t]) => t);

test("the end page offers the last rounds only for a life with a grave; `r` asks for them and says so", () => {
  assert.equal(endText(died(0)).at(-1), "  Enter: a new character named ann    G: the graveyard    Esc: quit");
  assert.equal(died(0).onKey({ char: "r" }, false, false, 0), "Ignore");
  const s = died(3);
  assert.equal(endText(s).at(-1), "  Enter: a new character named ann    r: watch your last rounds    G: the graveyard    Esc: quit");
  assert.ok(!endText(s).some((l) => l.includes("Recording:")), "nothing asked yet");
  assert.deepEqual(s.onKey({ char: "r" }, false, false, 0), { record: { name: "ann", life: 3 } });
  assert.equal(s.onKey({ char: "r" }, false, false, 0), "Ignore", "asked once, as the window does");
  const lines = endText(s);
  const morgue = lines.indexOf("  Morgue file:           http://here/morgue/ann/3.txt");
  assert.equal(lines[morgue + 1], `  ${"Recording:".padEnd(22)} ${ASKING}`);
  assert.equal(lines[morgue + 1], "  Recording:             asking the server...");
  s.recordingFailed("no recording: ann has no life 3");
  assert.equal(endText(s)[morgue + 1], "  Recording:             no recording: ann has no life 3");
  assert.deepEqual(s.onKey({ char: "r" }, false, false, 0), { record: { name: "ann", life: 3 } }, "asked again after a refusal");
  const came = recording();
  s.recordingCame(came);
  assert.ok(!endText(s).some((l) => l.includes("Recording:")), "the line goes once it came");
  assert.deepEqual(s.onKey({ char: "r" }, false, false, 0), { play: came }, "kept: played again without asking");
  // A watcher's end page has no `r`.
  const w = new Session("ws://here/", NO_TOKENS, undefined, "cat");
  for (const m of [welcome(1, 20, 10), { Watching: { player: "ann", you: 9 } }, enterLevel(1, 20, 10), { Died: { ...record("ann"), morgue: 3 } }] as ServerMsg[]) w.onMessage(m);
  assert.equal(w.onKey({ char: "r" }, false, false, 0), "Ignore");
});

/** A recording of ann on a 30 x 12 level: the kinds, the level, then three rounds. */
function recording() {
  const groups: Group[] = [
    { round: 10n, msgs: [{ Kinds: [kind("giant", "H")] }, { ItemKinds: [] }, enterLevel(2, 30, 12), sight({ x: 3, y: 3 })] },
    { round: 11n, msgs: [{ Note: "The giant hits you." }] },
    { round: 13n, msgs: [{ Combat: "You miss the giant." }] },
  ];
  return { head: HEAD, groups, cut: false };
}

test("a recording that enters no level is not played, in the window's words", () => {
  assert.equal(unplayable(recording()), null);
  assert.equal(unplayable({ head: HEAD, groups: [{ round: 11n, msgs: [{ Note: "a" }] }], cut: false }), "the recording holds no level to show");
});

test("the welcome of a recording's mirror is its player's, sized as its first level", () => {
  assert.deepEqual(welcomeOf(recording(), "Deepwood"), {
    Welcome: { you: 4, width: 30, height: 12, sight_radius: 8, actions_per_second: 10, token: null, world: "Deepwood" },
  });
});

test("the player page draws the recording's mirror with its status on top of the game's lines and its keys", () => {
  const player = new Player(recording(), "ws://here/");
  player.tick(0);
  let rows = hud(player.scene(), 120, 80).map((r) => r.text);
  assert.match(rows[0] ?? "", /^Depth 2 /, "the game's status row, as the game draws it");
  assert.equal(rows[1], PLAYER_KEYS);
  assert.equal(rows[1], "Space: pause    +/-: faster, slower    .: one round    Esc: back");
  assert.equal(rows[2], "Recording: ann on depth 2, round 10 (10 to 19), x1, playing");
  player.tick(250);
  rows = hud(player.scene(), 120, 80).map((r) => r.text);
  assert.ok(rows.includes("The giant hits you."), rows.join("\n"));
  assert.equal(player.onKey({ char: " " }, 300), "Redraw");
  assert.match(hud(player.scene(), 120, 80)[2]?.text ?? "", /round 11 .*, paused$/);
  player.onKey({ char: "." }, 400);
  rows = hud(player.scene(), 120, 80).map((r) => r.text);
  assert.equal(rows[2], "Recording: ann on depth 2, round 13 (10 to 19), x1, ended");
  assert.ok(rows.includes("You miss the giant."));
  assert.deepEqual(player.onKey({ ctrl: "=" }, 450), { zoom: 1 }, "Ctrl+ zooms, as in the game");
  assert.equal(player.onKey({ ctrl: "p" }, 450), "Ignore", "no log of the game's over a recording");
  assert.equal(player.onKey("Escape", 500), "Leave");
});

test("Space at the end plays the recording again from its start, at the speed it had, in a fresh mirror", () => {
  const player = new Player(recording(), "ws://here/");
  player.onKey({ char: "+" }, 0);
  for (let i = 0; i < 3; i++) player.onKey({ char: "." }, 0);
  let rows = hud(player.scene(), 120, 80).map((r) => r.text);
  assert.equal(rows[1], "Space: play again    +/-: faster, slower    Esc: back");
  assert.equal(rows[2], "Recording: ann on depth 2, round 13 (10 to 19), x2, ended");
  assert.equal(player.onKey({ char: " " }, 1000), "Redraw");
  rows = hud(player.scene(), 120, 80).map((r) => r.text);
  assert.equal(rows[1], PLAYER_KEYS);
  assert.equal(rows[2], "Recording: ann on depth 2, round 10 (10 to 19), x2, playing");
  assert.ok(!rows.includes("You miss the giant."), "a fresh mirror");
  assert.equal(player.tick(1000), true, "the first group at once");
  assert.equal(player.nextDue(1000), 125);
});

/** A session of ann in play that asked for the graveyard (`G`) and got eve (escaped, life 2), bob (life 4) and old (no grave). */
function atTheGraveyard(): Session {
  const s = new Session("ws://here/", NO_TOKENS, undefined, "ann");
  for (const m of [welcome(1, 20, 10), enterLevel(1, 20, 10)]) s.onMessage(m);
  assert.deepEqual(s.onKey({ char: "G" }, false, false, 0), { send: "Graveyard" });
  s.onMessage({ Graveyard: GRAVES });
  assert.equal(s.page(), "Graveyard");
  return s;
}

const GRAVES = [{ ...record("bob"), morgue: 4 }, record("old"), { ...record("eve", true, "the Gloamstone"), morgue: 2 }];

test("a graveyard letter asks for that fall; other keys put the page away and give up an ask under way", () => {
  const s = atTheGraveyard();
  assert.equal(endText(s).at(-1), "  a-b: watch a fall    any other key: back");
  assert.equal(s.onKey({ char: "c" }, false, false, 0), "Redraw", "no grave c");
  assert.equal(s.page(), "Map");
  s.onKey({ char: "G" }, false, false, 0);
  s.onMessage({ Graveyard: GRAVES });
  assert.deepEqual(s.onKey({ char: "b" }, false, false, 0), { record: { name: "bob", life: 4 } });
  assert.ok(s.asking());
  assert.equal(endText(s).at(-1), "  Recording: asking the server...    a-b: watch a fall    any other key: back");
  assert.equal(s.onKey({ char: "a" }, false, false, 0), "Ignore", "once");
  assert.equal(s.onKey("Escape", false, false, 0), "Redraw");
  assert.equal(s.page(), "Map");
  assert.ok(!s.asking(), "given up");
  assert.equal(s.recordingCame(recording()), false, "not played over the game later");
  s.onKey({ char: "G" }, false, false, 0);
  s.onMessage({ Graveyard: GRAVES });
  assert.deepEqual(s.onKey({ char: "a" }, false, false, 0), { record: { name: "eve", life: 2 } });
  s.recordingFailed("no recording: eve's life 2 ended before recordings were kept");
  const refused = "  Recording: no recording: eve's life 2 ended before recordings were kept    a-b: watch a fall    any other key: back";
  assert.equal(endText(s).at(-1), refused);
  assert.equal(s.onKey({ char: "a" }, true, false, 0), "Redraw", "a capital is no letter");
  assert.equal(s.page(), "Map");
  // One that came is kept: played again without asking; another is asked for.
  s.onKey({ char: "G" }, false, false, 0);
  s.onMessage({ Graveyard: GRAVES });
  s.onKey({ char: "b" }, false, false, 0);
  const came = recording();
  assert.equal(s.recordingCame(came), true);
  assert.deepEqual(s.onKey({ char: "b" }, false, false, 0), { play: came });
  assert.equal(s.page(), "Graveyard", "where Esc on the player page comes back to");
  assert.deepEqual(s.onKey({ char: "a" }, false, false, 0), { record: { name: "eve", life: 2 } });
});

test("after a death, G shows the graveyard over the end page, and any other key the end page again", () => {
  const s = new Session("ws://here/", NO_TOKENS, undefined, "ann");
  for (const m of [welcome(1, 20, 10), enterLevel(1, 20, 10), { Died: { ...record("ann"), morgue: 3 } }, { Graveyard: GRAVES }] as ServerMsg[]) s.onMessage(m);
  s.onClosed("your character died", { Code: 1000 });
  assert.equal(s.onKey({ char: "g" }, true, false, 0), "Redraw");
  assert.equal(s.page(), "Graveyard");
  assert.deepEqual(s.onKey({ char: "a" }, false, false, 0), { record: { name: "eve", life: 2 } });
  assert.equal(s.onKey("Enter", false, false, 0), "Redraw", "Enter puts the graveyard away: no new character from it");
  assert.equal(s.page(), "End");
  assert.ok(!endText(s).some((l) => l.includes("Recording:")), "eve's ask is not the end page's");
  assert.deepEqual(s.onKey({ char: "r" }, false, false, 0), { record: { name: "ann", life: 3 } });
  s.onKey({ char: "G" }, false, false, 0);
  s.onKey("Escape", false, false, 0);
  assert.ok(s.asking(), "the character's own goes on");
  assert.ok(endText(s).includes("  Recording:             asking the server..."));
  // A watcher's end has no graveyard key.
  const w = new Session("ws://here/", NO_TOKENS, undefined, "cat");
  for (const m of [welcome(1, 20, 10), { Watching: { player: "ann", you: 9 } }, enterLevel(1, 20, 10), { Died: { ...record("ann"), morgue: 3 } }] as ServerMsg[]) w.onMessage(m);
  assert.equal(w.onKey({ char: "G" }, false, false, 0), "Ignore");
});

test("the player page leaves the chat rows blank: a recording holds no chat (as the window's)", () => {
  const player = new Player(recording(), "ws://here/");
  player.tick(0);
  const rows = hud(player.scene(), 120, 80).map((r) => r.text);
  assert.ok(!rows.some((r) => r.startsWith("Chat shows here")), rows.join("\n"));
  assert.equal(rows.at(-1), "", "the last row, the chat's, is blank");
});

test("a recorded message the mirror refuses ends playback there, its reason in the log", () => {
  const r = recording();
  r.groups[1]?.msgs.push(enterLevel(3, 0xffff, 0xffff));
  const player = new Player(r, "ws://here/");
  player.tick(0);
  player.tick(250);
  assert.equal(player.playback.state(), "ended");
  assert.equal(player.nextDue(250), null);
  assert.match(hud(player.scene(), 120, 80)[2]?.text ?? "", /round 11 .*ended$/);
  assert.ok(player.state.log.some((l) => l.text.startsWith("The recording does not play on: ")));
});
