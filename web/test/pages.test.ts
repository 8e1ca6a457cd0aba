// The pages that take the map's place: the graveyard, the pack, the end of
// a game, an item prompt, the log and the help, as pages.rs and reading.rs
// write them.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { DeathRecord } from "../src/protocol";
import { sceneOf, type Page } from "../src/session/scene";
import type { ClientState } from "../src/state";
import { pageLines, whenUtc } from "../src/render/pages";
import { logScrollMost } from "../src/render/reading";
import { DEFAULT } from "../src/render/palette";
import { applyAll, onLevel, record } from "./fixtures";

function text(s: ClientState, page: Page): string[] {
  return pageLines(sceneOf(s, "Playing", page), DEFAULT, 120, 40).map(([t]) => t);
}

function position(lines: string[], part: string): number {
  const i = lines.findIndex((l) => l.includes(part));
  assert.ok(i >= 0, `${part}: ${lines.join("\n")}`);
  return i;
}

const rec = (name: string, depth: number, level: number, by: string, escaped: boolean): DeathRecord => ({
  ...record(name, escaped, by),
  depth,
  level,
  rounds: 321n,
  kills: 12,
});

/** A pack of a potion, darts, a wielded dagger, a dagger, worn leather, a scroll and the artifact. */
function packed(): ClientState {
  const kind = (name: string, cls: "Potion" | "Missile" | "Weapon" | "Armour" | "Scroll" | "Artifact") => ({ name, glyph: "!", colour: [1, 2, 3] as [number, number, number], class: cls });
  const item = (k: number, count: number, equipped: boolean) => ({ kind: k, count, equipped });
  return applyAll(
    onLevel(),
    { ItemKinds: [kind("potion of healing", "Potion"), kind("dart", "Missile"), kind("dagger", "Weapon"), kind("leather armour", "Armour"), kind("scroll of mapping", "Scroll"), kind("Gloamstone", "Artifact")] },
    { Pack: [item(0, 2, false), item(1, 9, false), item(2, 1, true), item(2, 1, false), item(3, 1, true), item(4, 1, false), item(5, 1, false)] },
  );
}

test("the graveyard lists the living above the dead, with their levels", () => {
  const s = applyAll(onLevel(), { Graveyard: [rec("eve", 9, 11, "the Gloamstone", true), rec("bob", 7, 5, "an ogre", false)] });
  const lines = text(s, "Graveyard");
  const hall = position(lines, "The hall of the living");
  const eve = position(lines, "eve                  9    11     321    12  the Gloamstone");
  const yard = position(lines, "The graveyard");
  const bob = position(lines, "bob                  7     5     321    12  an ogre");
  assert.ok(hall < eve && eve < yard && yard < bob);
  assert.ok(lines[hall + 1]?.endsWith("escaped with") && lines[yard + 1]?.endsWith("by"));
  applyAll(s, { Graveyard: [rec("bob", 7, 5, "an ogre", false)] });
  position(text(s, "Graveyard"), "Nobody has escaped yet.");
});

test("a long graveyard fits above the HUD", () => {
  const records = [...new Array(20).fill(rec("zed", 9, 11, "it", true)), ...new Array(200).fill(rec("bob", 7, 5, "an ogre", false))];
  const s = applyAll(onLevel(), { Graveyard: records });
  for (const page of ["Graveyard", "End"] as const) {
    if (page === "End") applyAll(s, { Died: rec("ann", 3, 2, "a rat", false) });
    const lines = text(s, page);
    assert.ok(lines.length <= 39, `${page}: ${lines.length}`);
    assert.equal(lines.filter((l) => l.includes("zed")).length, 6, page);
    assert.ok(lines.filter((l) => l.includes("bob")).length >= 10, page);
    assert.equal(lines.at(-1)?.includes("Enter"), page === "End");
  }
});

test("the end page after a death gives the record, then the graveyard; after an escape what it escaped with", () => {
  const s = applyAll(onLevel(), { Died: rec("ann", 5, 3, "an ogre", false) }, { Graveyard: [rec("ann", 5, 3, "an ogre", false)] });
  const lines = text(s, "End");
  assert.equal(lines[0], "  ann died on depth 5, killed by an ogre.");
  position(lines, "Experience level:      3");
  position(lines, "Monsters killed:       12");
  position(lines, "Died:                  1970-01-01 00:00 UTC");
  position(lines, "ann                  5     3     321    12  an ogre");
  position(lines, "Enter: a new character named ann");
  const won = applyAll(onLevel(), { Escaped: rec("ann", 9, 8, "the Gloamstone", true) });
  assert.equal(text(won, "End")[0], "  You escaped with the Gloamstone!");
  position(text(won, "End"), "The graveyard is not known yet.");
  const watched = applyAll(onLevel(), { Watching: { player: "ann", you: 9 } }, { Escaped: rec("ann", 9, 8, "the Gloamstone", true) });
  assert.equal(text(watched, "End")[0], "  ann escaped with the Gloamstone!");
  assert.equal(text(watched, "End").at(-1), "  Enter: watch ann again");
});

test("a short end page keeps its keys on the last line", () => {
  const ann = rec("ann", 5, 3, "an ogre", false);
  const s = applyAll(onLevel(), { Died: ann }, { Graveyard: Array.from({ length: 30 }, () => ann) });
  for (const rows of [1, 2, 5, 12, 20, 30, 39]) {
    const lines = pageLines(sceneOf(s, "Playing", "End"), DEFAULT, 120, rows).map(([t]) => t);
    assert.ok(lines.length <= rows, `${rows} rows: ${lines.join("\n")}`);
    assert.match(lines.at(-1) ?? "", /Enter: a new character named ann/, `${rows} rows`);
  }
});

test("dates are told in UTC as the window tells them", () => {
  assert.equal(whenUtc(0n), "1970-01-01 00:00 UTC");
  assert.equal(whenUtc(1_700_000_000n), "2023-11-14 22:13 UTC");
  assert.match(whenUtc((1n << 64n) - 1n), /UTC$/, "a hostile date is no exception");
});

test("the pack page marks the weapon in hand and the armour worn; a prompt lists only what suits", () => {
  const s = packed();
  const lines = text(s, "Pack");
  position(lines, "On the map: d drop  q quaff");
  assert.deepEqual(lines.slice(2, 9), [
    "  a) potion of healing (2)",
    "  b) dart (9)",
    "  c) dagger (in hand)",
    "  d) dagger",
    "  e) leather armour (worn)",
    "  f) scroll of mapping",
    "  g) Gloamstone",
  ]);
  assert.deepEqual(text(s, { choose: "TakeOff" }), ["  Take off which? [c, e] (Esc to cancel)", "", "  c) dagger (in hand)", "  e) leather armour (worn)"]);
  const empty = text(onLevel(), "Pack");
  position(empty, "You carry nothing");
});

test("the log page shows chat and the game's lines together, and scrolls back to the first", () => {
  const s = onLevel();
  for (let i = 0; i < 30; i++) applyAll(s, { Combat: `blow ${i}` }, { Chat: { from: 2, name: "bob", to: "Depth", text: `hi ${i}` } });
  const scene = sceneOf(s, "Playing", "Log");
  const lines = pageLines(scene, DEFAULT, 80, 13);
  assert.ok(lines[0]?.[0].includes("Messages"));
  assert.deepEqual(lines.slice(2, 4).map(([t]) => t), ["  blow 25", "  bob: hi 25"]);
  assert.deepEqual(lines[2]?.[1], DEFAULT.combat);
  const most = logScrollMost(s, 80, 13);
  assert.equal(most, 50);
  scene.logScroll = most + 100;
  const oldest = pageLines(scene, DEFAULT, 80, 13);
  assert.equal(oldest[2]?.[0], "  blow 0");
  assert.ok(oldest.at(-1)?.[0].includes("50 newer rows below"));
});

test("the help names every key the page reads", () => {
  const help = text(onLevel(), "Help").join("\n");
  for (const key of ["h j k l y u b n", "> (or .)", "  o:", "click a cell", "g or ,", "q / r", "w / W / T", "t (choose", "f (the first", "Enter", "PgUp PgDn", "Ctrl+P", "Esc (then y)", "?watch=NAME"]) {
    assert.ok(help.includes(key), key);
  }
});
