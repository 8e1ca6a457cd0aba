// The mirror of what the player knows: ClientState.apply(ServerMsg) and
// what the HUD and the session read of it.

export { ClientState, RESTARTING, type Experience, type OtherPlayer, type Pile, type SeenMonster } from "./mirror";
export { Disc } from "./disc";
export { PAGE_WORDS, WINDOW_WORDS, type Words } from "./words";
export { ageLog, isChat, isNews, note, shown, refusalText, type LogLine, type Topic } from "./log";
export { indexOf, isVisible, posOf, terrainAt, terrainOf } from "./map";
export * from "./limits";
export { charCount, chars, compareText, isControl, takeChars } from "./text";
