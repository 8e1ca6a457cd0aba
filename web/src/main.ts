// The browser client's entry: finds the page's parts, starts the app, and
// hands it the page's events. Everything else is in app.ts and below.

import { App, type PageParts } from "./app";
import { serverUrl } from "./net";
import { replayPath } from "./session/replay";

function part<T extends HTMLElement>(id: string, kind: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof kind)) throw new Error(`the page has no ${id}`);
  return el;
}

function start(): void {
  const page: PageParts = {
    canvas: part("screen", HTMLCanvasElement),
    form: part("join", HTMLFormElement),
    nameInput: part("name", HTMLInputElement),
    why: part("join-why", HTMLElement),
    morgue: part("morgue", HTMLAnchorElement),
    replay: part("replay", HTMLAnchorElement),
    retitle: (title) => {
      document.title = title;
    },
  };
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    // Storage refused (a private window, say): nothing is kept.
  }
  const linked = replayPath(location.pathname);
  const app = new App(page, serverUrl(location), new URLSearchParams(location.search), storage, location.origin, undefined, linked);
  page.form.addEventListener("submit", (e) => {
    e.preventDefault();
    app.submitName();
  });
  document.addEventListener("keydown", (e) => {
    if (app.onKeyDown(e)) e.preventDefault();
  });
  document.addEventListener("paste", (e) => {
    if (app.onPaste(e.clipboardData?.getData("text") ?? "")) e.preventDefault();
  });
  page.canvas.addEventListener("mousedown", (e) => {
    if (e.button === 0) app.onClick(e.offsetX, e.offsetY);
  });
  window.addEventListener("resize", () => app.requestFrame());
  // For the browser tests, the measures and anyone curious: the screen as
  // text (as the window's F12 writes it), the bytes received, the time of
  // a redraw. They tell nothing the screen does not show.
  const gloam = {
    screenText: () => app.screenText(),
    received: () => app.received(),
    timeRedraws: (n: number) => app.timeRedraws(n),
  };
  Object.defineProperty(window, "gloam", { value: Object.freeze(gloam) });
  app.start();
}

start();
