// The game's lines as a watcher reads them (client/src/state/person.rs):
// the server writes to the player ("You miss the jackal."), and a watcher
// sees through that player's eyes, so its log names the player instead
// ("ann misses the jackal.").

/**
 * Whether `line` is the server's word to a watcher about its own watching
 * ("You are watching ann: you cannot act.", "You stop watching ann."), not
 * its player's: a player never watches, so a line in the second person
 * about watching can only be to the watcher, and is not retold.
 */
export function toTheWatcher(line: string): boolean {
  return ["You are watching ", "You stop watching "].some((head) => line.startsWith(head));
}

/** `line`, written to player `name`, told of it in the third person. */
export function thirdPerson(line: string, name: string): string {
  let subjectNext = false;
  return line
    .split(" ")
    .map((word, i) => {
      const [core, tail] = splitTail(word);
      let told: string;
      if (core === "You" && i === 0) {
        subjectNext = true;
        told = name;
      } else if (core === "you") {
        told = name;
      } else if (core === "Your" && i === 0) {
        told = `${name}'s`;
      } else if (core === "your") {
        told = "their";
      } else if (core === "yourself") {
        told = "themself";
      } else if (subjectNext) {
        subjectNext = false;
        told = conjugated(core);
      } else {
        told = core;
      }
      return told + tail;
    })
    .join(" ");
}

/** A word and what follows its letters ("you." is "you" and "."). */
function splitTail(word: string): [string, string] {
  const core = /^[\p{Alphabetic}\p{N}']*/u.exec(word)?.[0] ?? "";
  return [core, word.slice(core.length)];
}

/** The verb a subject in the third person takes: "miss" is "misses", "are" is "is". */
function conjugated(verb: string): string {
  switch (verb) {
    case "are":
      return "is";
    case "were":
      return "was";
    case "have":
      return "has";
    case "do":
      return "does";
    case "go":
      return "goes";
    case "cannot":
    case "can":
    case "will":
    case "must":
    case "may":
      return verb;
  }
  return ["s", "sh", "ch", "x", "z"].some((end) => verb.endsWith(end)) ? `${verb}es` : `${verb}s`;
}
