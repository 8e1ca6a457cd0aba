// Gloam's wire contract in TypeScript: the messages (types.ts) and the codec
// that turns them into the bytes of one WebSocket frame and back (codec.ts),
// equal byte for byte to the Rust crate gloam-protocol. README.md tells how
// the test vectors keep the two equal.

export * from "./types";
export { encodeClient, encodeServer, decodeClient, decodeServer } from "./codec";
export { DecodeError, EncodeError, MAX_CLIENT_MSG, MAX_SERVER_MSG, type DecodeFault } from "./wire";
