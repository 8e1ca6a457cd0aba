// The colours come from the Rust client (src/generated/palette.json, which
// a Rust test keeps fresh); the adjustments ported here give what the
// Rust ones give for every sample the file holds.

import assert from "node:assert/strict";
import { test } from "node:test";

import data from "../src/generated/palette.json";
import { PALETTES, PlayerColours, contrast, creature, remembered, BACKGROUND, MIN_CONTRAST, type Rgb } from "../src/render/palette";

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
      assert.ok(contrast(creature(p, c), BACKGROUND) >= MIN_CONTRAST);
    });
  }
});

test("the players' colours, given the monsters' kinds, are the Rust client's", () => {
  for (const [monsters, ...perPalette] of data.checks.player_colours) {
    const kinds = (monsters as number[][]).map((c) => ({ name: "it", glyph: "x", colour: c as [number, number, number] }));
    PALETTES.forEach((p, i) => {
      assert.deepEqual(new PlayerColours(p, kinds).colours, perPalette[i], `${p.name} with ${JSON.stringify(monsters)}`);
    });
  }
});
