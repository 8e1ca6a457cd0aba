// The browser client's core against a real server: a Node process plays
// through the same Session and Connection the page uses, over Node's own
// WebSocket. It runs when GLOAM_SERVER names a built gloam-server and Node
// has a WebSocket (`npm run test:server` sets both up); otherwise it is
// skipped, so `npm test` needs no Rust build.

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { Connection, type Socket } from "../src/net";
import type { ClientMsg, ServerMsg } from "../src/protocol";
import { DEFAULT } from "../src/render/palette";
import { layoutAt } from "../src/render/layout";
import { screenText } from "../src/render/view";
import type { Key } from "../src/session/keys";
import { Session, type KeyOutcome } from "../src/session/session";
import { TokenStore } from "../src/session/tokens";
import { PAGE_WORDS, PROTOCOL_VERSION } from "../src/state";

const binary = process.env["GLOAM_SERVER"];
const skip = binary === undefined || typeof (globalThis as { WebSocket?: unknown }).WebSocket !== "function";
const why = "set GLOAM_SERVER to a built gloam-server and run Node with --experimental-websocket (npm run test:server)";

let server: ChildProcess | null = null;
let url = "";
let data = "";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A player driven as the page drives it: keys in, messages to its session. */
class Player {
  readonly session: Session;
  readonly connection: Connection;
  readonly heard: ServerMsg[] = [];
  ended: string | null = null;

  constructor(readonly storage: Map<string, string>, name: string, watch: string | null = null) {
    const store = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) };
    const tokens = new TokenStore(store, "http://test");
    tokens.keepName(name);
    this.session = new Session(url, tokens, PAGE_WORDS, name);
    const token = tokens.load()?.token ?? null;
    const hello: ClientMsg =
      watch === null ? { Hello: { version: PROTOCOL_VERSION, name, token } } : { Watch: { version: PROTOCOL_VERSION, name, token, player: watch } };
    const open = (u: string) => new (globalThis as unknown as { WebSocket: new (u: string) => Socket }).WebSocket(u);
    this.connection = new Connection(
      url,
      hello,
      {
        message: (m) => {
          this.heard.push(m);
          const refused = this.session.onMessage(m);
          if (refused !== null) this.connection.close(`the server is broken or hostile: ${refused}`);
        },
        closed: (r, ending) => {
          this.ended = r;
          this.session.onClosed(r, ending);
        },
      },
      open,
    );
  }

  press(key: Key): KeyOutcome {
    const outcome = this.session.onKey(key, false, false, performance.now());
    if (typeof outcome === "object" && "send" in outcome && this.connection.send(outcome.send)) {
      this.session.sent(outcome.send, performance.now());
    }
    if (outcome === "Quit") this.connection.quit();
    return outcome;
  }

  say(text: string): KeyOutcome {
    this.press("Enter");
    this.session.onText(text);
    return this.press("Enter");
  }

  async until(what: string, done: () => boolean, ms = 5000): Promise<void> {
    const end = Date.now() + ms;
    while (!done()) {
      assert.ok(Date.now() < end, `waited for ${what}; link ${JSON.stringify(this.session.link)}`);
      assert.doesNotMatch(JSON.stringify(this.session.link), /hostile/);
      await sleep(10);
    }
  }

  heardOf(variant: string): number {
    return this.heard.filter((m) => typeof m === "object" && variant in m).length;
  }
}

before(async () => {
  if (skip) return;
  data = mkdtempSync(join(tmpdir(), "gloam-web-e2e-"));
  const port = await freePort();
  url = `ws://127.0.0.1:${port}/`;
  server = spawn(binary ?? "", ["--bind", `127.0.0.1:${port}`, "--data", data, "--seed", "7"], { stdio: "ignore" });
  for (let i = 0; i < 200; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const ws = new (globalThis as unknown as { WebSocket: new (u: string) => Socket }).WebSocket(url);
      ws.onopen = () => {
        ws.close(1000, "");
        resolve(true);
      };
      ws.onerror = () => resolve(false);
    });
    if (up) return;
    await sleep(50);
  }
  throw new Error("the server did not start");
});

after(() => {
  server?.kill("SIGTERM");
  if (data !== "") rmSync(data, { recursive: true, force: true });
});

test("a character joins, walks, explores, talks, asks who plays and for the graveyard, and quits", { skip: skip ? why : false }, async () => {
  const ann = new Player(new Map(), "ann");
  await ann.until("the first sight", () => ann.session.state.at !== null);
  assert.equal(ann.session.link, "Playing");
  assert.ok(ann.session.state.depth >= 1);
  assert.match(ann.session.state.log.map((l) => l.text).join("\n"), /kept in this browser/);
  const sights = ann.heardOf("Sight");
  for (const key of ["Up", "Down", "Left", "Right", { char: "y" }, { char: "n" }, { numpad: 5 }] as Key[]) {
    ann.press(key);
    await sleep(60);
  }
  ann.press({ char: "o" });
  await ann.until("explore's steps", () => ann.heardOf("Sight") > sights + 3);
  ann.press("Escape");
  assert.deepEqual(ann.say("hello from a browser"), { send: { Chat: { to: "Depth", text: "hello from a browser" } } });
  await ann.until("her own line back", () => ann.session.state.log.some((l) => l.text === "ann: hello from a browser"));
  ann.say("/who");
  await ann.until("the answer to /who", () => ann.heardOf("Who") > 0);
  ann.press({ char: "G" });
  await ann.until("the graveyard", () => ann.session.page() === "Graveyard");
  ann.press("Escape");
  const known = ann.session.state.known.reduce((n, k) => n + (k > 0 ? 1 : 0), 0);
  assert.ok(known > 20, `${known} cells known`);
  const text = screenText(ann.session.scene(), DEFAULT, layoutAt(1280, 720, 14, 8));
  assert.match(text, /Depth \d+ {3}HP \d+\/\d+/);
  ann.press("Escape");
  assert.equal(ann.press({ char: "y" }), "Quit");
  await ann.until("the close", () => ann.ended !== null);
  assert.equal(ann.ended, "you left the game");
});

test("a reload resumes the character with its kept token; a watcher sees it play", { skip: skip ? why : false }, async () => {
  const storage = new Map<string, string>();
  const bob = new Player(storage, "bob");
  await bob.until("the first sight", () => bob.session.state.at !== null);
  const token = JSON.parse(storage.get("http://test") ?? "{}").token;
  assert.match(token, /^[0-9a-f]{32}$/);
  bob.connection.quit();
  await bob.until("the close", () => bob.ended !== null);
  await sleep(200);
  const again = new Player(storage, "bob");
  await again.until("the first sight again", () => again.session.state.at !== null);
  assert.equal(again.session.state.refused, null);
  const stranger = new Player(new Map(), "bob");
  await stranger.until("a refusal", () => stranger.ended !== null);
  assert.deepEqual(stranger.session.state.refused, "WrongToken");
  const cy = new Player(new Map(), "cy", "bob");
  await cy.until("watching bob", () => cy.session.state.watching !== null && cy.session.state.at !== null);
  assert.match(cy.session.state.log.map((l) => l.text).join("\n"), /You are watching bob\./);
  assert.doesNotMatch(cy.session.state.log.map((l) => l.text).join("\n"), /cy is watching bob/, "a watcher reads of itself as you");
  assert.equal(cy.press("Up"), "Redraw", "a watcher cannot act");
  again.press({ char: "o" });
  const seen = cy.heardOf("Sight");
  await cy.until("bob's steps, seen by the watcher", () => cy.heardOf("Sight") > seen + 2);
  cy.press("Escape");
  again.connection.quit();
  await again.until("the close", () => again.ended !== null);
});
