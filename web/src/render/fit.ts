// Text made to fit a row of so many letters (client/src/fit.rs): a row of
// items keeps the items that fit; a message is wrapped onto more rows.

import { chars, charCount, takeChars } from "../state";

/**
 * `text`, a row of items parted by `sep`, cut to at most `cols` letters:
 * the items that fit from the first, and always the last; at worst, its
 * first letters.
 */
export function fit(text: string, cols: number, sep: string): string {
  if (charCount(text) <= cols) return text;
  const items = text.split(sep);
  const last = items.pop() ?? "";
  let kept = "";
  for (const item of items) {
    const wanted = charCount(kept) + charCount(item) + 2 * charCount(sep);
    if (wanted + charCount(last) > cols) break;
    kept += item + sep;
  }
  return takeChars(kept + last, cols);
}

/**
 * `text` wrapped onto rows of at most `cols` letters, at spaces where it
 * can be (a word longer than a row is broken): each row with the letter
 * of `text` it starts at.
 */
export function wrap(text: string, cols: number): [number, string][] {
  cols = Math.max(cols, 1);
  const letters = chars(text);
  const rows: [number, string][] = [];
  let start = 0;
  while (letters.length - start > cols) {
    let at = -1;
    for (let i = cols; i > 0; i--) {
      if (letters[start + i] === " ") {
        at = i;
        break;
      }
    }
    const cut = at > 0 ? at : cols;
    // Rust's trim_end: Unicode's White_Space, which is not quite `\s`.
    rows.push([start, letters.slice(start, start + cut).join("").replace(/\p{White_Space}+$/u, "")]);
    start += cut;
    while (letters[start] === " ") start++;
  }
  rows.push([start, letters.slice(start).join("")]);
  return rows;
}
