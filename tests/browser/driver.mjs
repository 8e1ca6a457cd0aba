// Drives a headless Chromium for Gloam's browser tests: one command a line
// on standard input (JSON), one answer a line on standard output (JSON:
// {"ok": value} or {"error": "why"}), in order. tests/src/browser.rs is the
// other end; it bounds every wait, so a page that hangs fails its test
// instead of hanging it.
//
// Commands (`page` is the number `open` gave):
//   {"cmd": "open", "url": U, "width": W, "height": H}   -> page number
//   {"cmd": "key", "page": P, "key": K}                   (Playwright's key names)
//   {"cmd": "type", "page": P, "text": T}
//   {"cmd": "eval", "page": P, "expr": E}                  -> E's value, as JSON
//   {"cmd": "wait", "page": P, "expr": E, "ms": N}         -> E's first truthy value
//   {"cmd": "screenshot", "page": P, "path": F}
//   {"cmd": "reload", "page": P}
//   {"cmd": "close", "page": P}
//   {"cmd": "errors", "page": P}                           -> the page's uncaught errors
//
// Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM), started with the
// flags this closed network needs: without the background-networking ones
// it tries Google's hosts at every start.
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

const pages = new Map();
const errors = new Map();
let next = 1;

function page(n) {
  const p = pages.get(n);
  if (!p) throw new Error(`no page ${n}`);
  return p;
}

async function run(c) {
  switch (c.cmd) {
    case "open": {
      // Each page its own context: its own storage, as another browser's.
      const context = await browser.newContext({
        viewport: { width: c.width ?? 1280, height: c.height ?? 800 },
      });
      const p = await context.newPage();
      const n = next++;
      pages.set(n, p);
      errors.set(n, []);
      p.on("pageerror", (e) => errors.get(n).push(String(e)));
      await p.goto(c.url);
      return n;
    }
    case "key":
      await page(c.page).keyboard.press(c.key);
      return null;
    case "type":
      await page(c.page).keyboard.type(c.text);
      return null;
    case "eval":
      return await page(c.page).evaluate(c.expr);
    case "wait": {
      // Polled by evaluating the expression, as `eval` does: Playwright's
      // waitForFunction compiles it in the page, which the page's content
      // security policy (no 'unsafe-eval') forbids.
      const p = page(c.page);
      const until = Date.now() + (c.ms ?? 30000);
      for (;;) {
        const value = await p.evaluate(c.expr);
        if (value) return value;
        if (Date.now() > until) throw new Error(`waited ${c.ms} ms for ${c.expr}`);
        await new Promise((wake) => setTimeout(wake, 20));
      }
    }
    case "screenshot":
      await page(c.page).screenshot({ path: c.path, type: "png" });
      return null;
    case "reload":
      await page(c.page).reload();
      return null;
    case "close": {
      const p = page(c.page);
      pages.delete(c.page);
      await p.context().close();
      return null;
    }
    case "errors":
      return errors.get(c.page) ?? [];
    default:
      throw new Error(`unknown command ${JSON.stringify(c.cmd)}`);
  }
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let answer;
  try {
    answer = { ok: (await run(JSON.parse(line))) ?? null };
  } catch (e) {
    answer = { error: String(e && e.message ? e.message : e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await browser.close();
