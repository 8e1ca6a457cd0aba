// A new character's first screen (src/session/first.ts, as
// client/src/first_screen.rs and the window's session tests): the opening
// message, the screen's lines, a letter's Create, Esc, a lost link and a
// background refused.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { BackgroundInfo, ClientMsg, Token } from "../src/protocol";
import { choose, firstLines, opening, skills, FIRST_KEYS } from "../src/session/first";
import { Session } from "../src/session/session";
import { PROTOCOL_VERSION } from "../src/state";
import { NO_TOKENS, welcome } from "./fixtures";

const FIGHTER: BackgroundInfo = {
  name: "fighter",
  about: "Sword and leather.",
  hp: 36,
  to_hit: 5,
  damage: 2,
  stealth: 0,
  throwing: 0,
  kit: ["a short sword (wielded)", "a potion of healing"],
};
const SCOUT: BackgroundInfo = { name: "scout", about: "Quiet.", hp: 26, to_hit: -5, damage: 0, stealth: 40, throwing: 5, kit: ["6 darts"] };
const LIST = [FIGHTER, SCOUT];

const create = (background: string, token: Token | null = null): ClientMsg => ({
  Create: { version: PROTOCOL_VERSION, name: "ann", token, background },
});

test("a new name asks for the backgrounds, a kept token says hello, a watcher watches", () => {
  const token = Array.from({ length: 16 }, () => 1);
  assert.equal(opening("ann", null, null), "Backgrounds");
  assert.deepEqual(opening("ann", token, null), { Hello: { version: PROTOCOL_VERSION, name: "ann", token } });
  assert.deepEqual(opening("ann", null, "bob"), { Watch: { version: PROTOCOL_VERSION, name: "ann", token: null, player: "bob" } });
});

test("a new life after a death asks for the backgrounds and creates with the token", () => {
  const kept = Array.from({ length: 16 }, () => 1);
  assert.equal(opening("ann", kept, null, true), "Backgrounds");
  assert.deepEqual(choose("ann", kept, LIST, { char: "b" }), { create: create("scout", kept) });
  assert.equal(typeof opening("ann", kept, "bob", true), "object", "a watcher watches");
  // The session: the screen again, the choice with the token, and once welcomed a hello.
  const s = session();
  s.newLife = true;
  assert.equal(s.opening(kept, null), "Backgrounds", "the first screen again");
  s.onMessage({ Backgrounds: LIST });
  assert.equal(s.page(), "Backgrounds");
  assert.deepEqual(s.onKey({ char: "b" }, false, false, 0), { send: create("scout", kept) });
  assert.deepEqual(s.opening(kept, null), create("scout", kept), "a link lost before the welcome asks again");
  s.onMessage(welcome(1, 20, 10));
  assert.deepEqual(s.opening(kept, null), { Hello: { version: PROTOCOL_VERSION, name: "ann", token: kept } }, "the new life, once made, is resumed");
});

test("only the skills a background has are said", () => {
  assert.equal(skills(FIGHTER), "to-hit +5, damage +2");
  assert.equal(skills(SCOUT), "to-hit -5, stealth 40, throwing +5");
  assert.equal(skills({ ...FIGHTER, to_hit: 0, damage: 0 }), "no skills");
});

test("the screen lists each background by letter with its kit, and the keys last", () => {
  const text = firstLines("ann", LIST, 40).map(([t]) => t);
  assert.equal(text[0], "  Welcome, ann. Who will you be? Choose a background:");
  assert.equal(text[2], "  a) fighter       36 hp   to-hit +5, damage +2");
  assert.equal(text[3], "       Sword and leather.");
  assert.equal(text[4], "       Carries: a short sword (wielded), a potion of healing");
  assert.equal(text[6], "  b) scout         26 hp   to-hit -5, stealth 40, throwing +5");
  assert.equal(text.at(-1), `  ${FIRST_KEYS}`);
  const short = firstLines("ann", LIST, 5);
  assert.equal(short.length, 5);
  assert.equal(short[4]?.[0], `  ${FIRST_KEYS}`, "the keys stay on a short screen");
  assert.deepEqual(firstLines("ann", LIST, 0), []);
});

test("a letter creates its background and Esc leaves", () => {
  assert.deepEqual(choose("ann", null, LIST, { char: "b" }), { create: create("scout") });
  assert.equal(choose("ann", null, LIST, { char: "c" }), "Nothing", "no third background");
  assert.equal(choose("ann", null, LIST, { char: "B" }), "Nothing", "a capital names none");
  assert.equal(choose("ann", null, LIST, "Enter"), "Nothing");
  assert.equal(choose("ann", null, LIST, "Escape"), "Leave");
});

function session(): Session {
  return new Session("ws://here/", NO_TOKENS, undefined, "ann");
}

test("the session shows the first screen once listed, and a letter sends the Create once", () => {
  const s = session();
  assert.equal(s.page(), "Map", "nothing to choose before the list");
  assert.equal(s.onMessage({ Backgrounds: LIST }), null);
  assert.equal(s.page(), "Backgrounds");
  assert.equal(s.onKey({ char: "z" }, false, false, 0), "Ignore");
  assert.deepEqual(s.onKey({ char: "b" }, false, false, 0), { send: create("scout") });
  assert.equal(s.page(), "Map", "put away while the welcome comes");
  assert.equal(s.onKey({ char: "a" }, false, false, 0), "Ignore", "once");
  s.onMessage(welcome(1, 20, 10));
  assert.equal(s.link, "Playing");
  s.onMessage({ Backgrounds: LIST });
  assert.equal(s.page(), "Map", "a list after the welcome opens no screen");
});

test("Esc on the first screen leaves and Ctrl keys still zoom", () => {
  const s = session();
  s.onMessage({ Backgrounds: LIST });
  assert.deepEqual(s.onKey({ ctrl: "+" }, false, false, 0), { zoom: 1 });
  assert.equal(s.onKey("Escape", false, false, 0), "Quit");
});

test("a first screen whose connection ended stays, and the choice connects again", () => {
  const s = session();
  assert.equal(s.opening(null, null), "Backgrounds");
  s.onMessage({ Backgrounds: LIST });
  // The server waited for a hello as long as it waits.
  s.onClosed("no hello in time: try again", { Code: 1013 });
  assert.equal(s.page(), "Backgrounds", "the list stays to be read");
  assert.equal(s.tick(0), "Idle", "nothing is tried by itself");
  assert.equal(s.onKey({ char: "b" }, false, false, 0), "Redraw");
  assert.equal(s.page(), "Map", "chosen");
  assert.equal(s.tick(0), "Connect", "the choice connects");
  assert.deepEqual(s.opening(null, null), create("scout"), "with the choice first");
  assert.equal(s.tick(0), "Idle", "once");
  // Lost before the welcome: tried again as any lost link, the same choice first.
  s.onClosed("reset", "Dropped");
  assert.equal(typeof s.tick(0), "object");
  assert.equal(s.tick(11_000), "Connect");
  assert.deepEqual(s.opening(null, null), create("scout"));
  assert.deepEqual(s.opening(null, "bob"), { Watch: { version: PROTOCOL_VERSION, name: "ann", token: null, player: "bob" } });
  const token = Array.from({ length: 16 }, () => 3);
  assert.deepEqual(s.opening(token, null), { Hello: { version: PROTOCOL_VERSION, name: "ann", token } }, "a kept token says hello");
});

test("a background the server lacks is shown with its reason and not tried again", () => {
  const s = session();
  s.onMessage({ Backgrounds: LIST });
  s.onKey({ char: "a" }, false, false, 0);
  s.onMessage({ Refused: { NoSuchBackground: { name: "fighter" } } });
  s.onClosed("refused", { Code: 1000 });
  assert.deepEqual(s.link, { lost: "refused: no background is called fighter here" });
  assert.equal(s.page(), "Map");
  assert.equal(s.tick(0), "Idle");
});
