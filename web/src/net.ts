// The connection to the server (client/src/net.rs in the browser): a
// WebSocket to the page's own host, one message per binary frame, the
// hello first. A text frame, or a frame that does not decode, is the
// server's fault: it is the reason shown, and the socket is closed. The
// close code and reason the server gives are shown as the window shows
// them. Quitting says so (the quit action), then closes with the
// handshake RFC 6455 asks for, which the browser carries out.

import { DecodeError, decodeServer, encodeClient, type ClientMsg, type ServerMsg } from "./protocol";
import type { Ending } from "./session/retry";

/** What the connection tells the page. */
export interface NetEvents {
  message(msg: ServerMsg): void;
  /** The connection ended: why, in words for the HUD, and how (the session decides by it whether to try again); once. */
  closed(reason: string, ending: Ending): void;
}

/** The part of a WebSocket the connection uses (the browser's, or a test's). */
export interface Socket {
  binaryType: string;
  readonly readyState: number;
  send(data: Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string; wasClean: boolean }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

const OPEN = 1;

/** The server's address for a page at `location`: ws(s)://<host>/. */
export function serverUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
}

/** Why a close frame ended the connection, as the window words it. */
export function closeReason(code: number, reason: string, opened: boolean, url: string): string {
  if (!opened) return `cannot connect to ${url}`;
  // 1005: no code was given; 1006: the connection dropped without a close frame.
  if (code === 1006) return "the connection broke";
  const why = reason === "" ? "the server closed the connection" : `the server closed the connection: ${reason}`;
  return code === 1000 || code === 1001 || code === 1005 || code === 1012 ? why : `${why} (code ${code})`;
}

/** How a close event ended the connection: never opened, or cut (1006), is a drop; else the server's code. */
export function closeEnding(code: number, opened: boolean): Ending {
  return !opened || code === 1006 ? "Dropped" : { Code: code };
}

/** How long opening may take before the try counts as failed (the window's OPEN_WITHIN). */
export const OPEN_WITHIN_MS = 10_000;

export class Connection {
  private readonly socket: Socket;
  private opened = false;
  private ended = false;
  /** What was sent before the socket opened: the hello first. */
  private readonly queued: Uint8Array[] = [];

  constructor(
    readonly url: string,
    hello: ClientMsg,
    private readonly events: NetEvents,
    open: (url: string) => Socket = (u) => new WebSocket(u) as unknown as Socket,
  ) {
    this.queued.push(encodeClient(hello));
    this.socket = open(url);
    this.socket.binaryType = "arraybuffer";
    this.socket.onopen = () => {
      this.opened = true;
      for (const bytes of this.queued.splice(0)) this.socket.send(bytes);
    };
    this.socket.onmessage = (ev) => this.receive(ev.data);
    this.socket.onclose = (ev) => this.end(closeReason(ev.code, ev.reason, this.opened, url), closeEnding(ev.code, this.opened));
    this.socket.onerror = () => {};
  }

  /** Gives up opening (the socket closed) when it has not opened by now: the page calls it OPEN_WITHIN_MS after. */
  giveUpOpening(): void {
    if (this.opened || this.ended) return;
    try {
      this.socket.close();
    } finally {
      this.end(`cannot connect to ${this.url}: no answer in ${OPEN_WITHIN_MS / 1000} s`, "Dropped");
    }
  }

  /** Queues or sends a message; false once the connection is gone. */
  send(msg: ClientMsg): boolean {
    if (this.ended) return false;
    const bytes = encodeClient(msg);
    if (this.socket.readyState === OPEN) this.socket.send(bytes);
    else this.queued.push(bytes);
    return true;
  }

  /** Leaves as a player does: the quit action, then the closing handshake. */
  quit(): void {
    this.send({ Act: "Quit" });
    this.close("you left the game");
  }

  /** Closes with the handshake, saying `reason` as why the connection ended (this page's own end: not tried again). */
  close(reason: string, ending: Ending = { Code: 1000 }): void {
    if (this.ended) return;
    try {
      this.socket.close(1000, "");
    } finally {
      this.end(reason, ending);
    }
  }

  /** The binary frames and their bytes received so far (for measures). */
  readonly received = { frames: 0, bytes: 0 };

  private receive(data: unknown): void {
    if (this.ended) return;
    if (!(data instanceof ArrayBuffer)) {
      this.close("the server sent a text frame, not a binary message", "Unreadable");
      return;
    }
    this.received.frames += 1;
    this.received.bytes += data.byteLength;
    let msg: ServerMsg;
    try {
      msg = decodeServer(new Uint8Array(data));
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      this.close(`the server sent something unreadable: ${e.message}`, "Unreadable");
      return;
    }
    this.events.message(msg);
  }

  private end(reason: string, ending: Ending): void {
    if (this.ended) return;
    this.ended = true;
    this.events.closed(reason, ending);
  }
}
