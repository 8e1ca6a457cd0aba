// Fails unless the committed web/dist is what a fresh build of the
// sources gives: whoever builds or runs the server takes web/dist as it
// is, with no Node, so it must never fall behind the sources.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildInto } from "./build.mjs";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const committed = join(web, "dist");
const fresh = mkdtempSync(join(tmpdir(), "gloam-dist-"));
try {
  await buildInto(fresh);
  const names = (dir) => readdirSync(dir).sort();
  const stale = [];
  for (const name of new Set([...names(committed), ...names(fresh)])) {
    let a = null;
    let b = null;
    try {
      a = readFileSync(join(committed, name));
    } catch {}
    try {
      b = readFileSync(join(fresh, name));
    } catch {}
    if (a === null || b === null || !a.equals(b)) stale.push(name);
  }
  if (stale.length > 0) {
    console.error(`web/dist is stale (${stale.join(", ")} differ from a fresh build): run npm run build in web/ and commit web/dist`);
    process.exit(1);
  }
  console.log("web/dist is what the sources build");
} finally {
  rmSync(fresh, { recursive: true, force: true });
}
