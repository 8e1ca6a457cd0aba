// How the look row and the aiming row name a monster: a kind with its
// article, a unique (a capitalised, proper name) as it is, as look.rs does.

import assert from "node:assert/strict";
import { test } from "node:test";

import { a, the } from "../src/render/look";

test("a unique is named without an article", () => {
  assert.equal(a("Old Mother Rot"), "Old Mother Rot");
  assert.equal(the("Old Mother Rot"), "Old Mother Rot");
  assert.equal(a("orc"), "an orc");
  assert.equal(a("jackal"), "a jackal");
  assert.equal(the("jackal"), "the jackal");
});
