// The colours come from the Rust client (src/generated/palette.json, which
// a Rust test keeps fresh); the adjustments ported here give what the
// Rust ones give for every sample the file holds; every other colour a
// server may name is drawn readable too, and each is worked out once.

import assert from "node:assert/strict";
import { test } from "node:test";

import data from "../src/generated/palette.json";
import { DEFAULT, KeptColours, PALETTES, PlayerColours, contrast, creature, remembered, BACKGROUND, MIN_CONTRAST, type Rgb } from "../src/render/palette";

test("both palettes are there, the default first", () => {
  assert.deepEqual(PALETTES.map((p) => p.name), ["default", "colourblind"]);
  assert.deepEqual(BACKGROUND, [10, 10, 16]);
});

test("creature and remembered colours are the Rust client's", () => {
  assert.ok(data.checks.creature.length > 50);
  for (const [input, ...perPalette] of data.checks.creature) {
    PALETTES.forEach((p, i) => {
      const c = input as unknown as Rgb;
      assert.deepEqual(creature(p, c), perPalette[2 * i], `${p.name} creature ${JSON.stringify(c)}`);
      assert.deepEqual(remembered(p, c), perPalette[2 * i + 1], `${p.name} remembered ${JSON.stringify(c)}`);
    });
  }
});

// Past the samples: a check of the samples' colours here could not fail
// once they equal the Rust client's, whose colours reach the contrast.
test("every colour a server may name is drawn at MIN_CONTRAST, in sight and remembered", () => {
  const steps = [0, 37, 74, 111, 148, 185, 222, 255];
  for (const p of PALETTES) {
    for (const r of steps) {
      for (const g of steps) {
        for (const b of steps) {
          const c: Rgb = [r, g, b];
          assert.ok(contrast(creature(p, c), BACKGROUND) >= MIN_CONTRAST, `${p.name} creature ${JSON.stringify(c)}`);
          assert.ok(contrast(remembered(p, c), BACKGROUND) >= MIN_CONTRAST, `${p.name} remembered ${JSON.stringify(c)}`);
        }
      }
    }
  }
});

test("a colour is worked out once per palette and kept, up to a bound", () => {
  const c: Rgb = [90, 60, 0];
  assert.equal(remembered(DEFAULT, c), remembered(DEFAULT, c), "the very colour kept, not worked out again");
  assert.equal(creature(DEFAULT, c), creature(DEFAULT, c));
  const kept = new KeptColours(2);
  let worked = 0;
  const work = () => (worked++, [1, 2, 3] as const);
  for (const n of [1, 2, 3, 1, 2, 3]) kept.of(DEFAULT, [n, n, n], work);
  assert.equal(kept.size, 2, "no more than the bound");
  assert.equal(worked, 4, "the two kept worked out once, the third each time");
  kept.of(PALETTES[1]!, [1, 1, 1], work);
  assert.equal(worked, 5, "another palette's is its own");
});

test("the players' colours, given the monsters' kinds, are the Rust client's", () => {
  for (const [monsters, ...perPalette] of data.checks.player_colours) {
    const kinds = (monsters as number[][]).map((c) => ({ name: "it", glyph: "x", colour: c as [number, number, number] }));
    PALETTES.forEach((p, i) => {
      assert.deepEqual(new PlayerColours(p, kinds).colours, perPalette[i], `${p.name} with ${JSON.stringify(monsters)}`);
    });
  }
});
