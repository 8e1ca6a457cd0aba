//! A connection's whole byte stream, from its first byte, fed to the
//! server's accept path (the request head reader, then the page or the
//! WebSocket upgrade and the game) over an in-memory pipe. The body is
//! `server/tests/integration/accept/mod.rs`, which `cargo test` also runs
//! for a bounded time (`server/tests/integration/accept_fuzz.rs`).
#![no_main]

#[path = "../../tests/integration/accept/mod.rs"]
mod accept;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| accept::feed(&[data], std::time::Duration::ZERO));
