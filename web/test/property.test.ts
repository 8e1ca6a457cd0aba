// Random messages of every variant survive encode then decode unchanged.

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";

import {
  MAX_CLIENT_MSG,
  decodeClient,
  decodeServer,
  encodeClient,
  encodeServer,
} from "../src/protocol";
import { clientMsg, serverMsg } from "./arbitrary";

test("client messages round-trip", () => {
  fc.assert(
    fc.property(clientMsg, (msg) => {
      const bytes = encodeClient(msg);
      assert.ok(bytes.length <= MAX_CLIENT_MSG, "within the limit");
      assert.deepEqual(decodeClient(bytes), msg);
    }),
    { numRuns: 3000 },
  );
});

test("server messages round-trip", () => {
  fc.assert(
    fc.property(serverMsg, (msg) => {
      assert.deepEqual(decodeServer(encodeServer(msg)), msg);
    }),
    { numRuns: 3000 },
  );
});
