//! The `connection` fuzz target's body run for a bounded time under `cargo
//! test` (cargo-fuzz needs nightly, see README): hand-made inputs that take
//! each way through the accept path, then a few hundred drawn ones. Each
//! runs in paused time, so the whole module takes about a second.

use std::time::Duration;

use proptest::prelude::*;

use crate::accept;

const UPGRADE: &[u8] =
    b"GET / HTTP/1.1\r\nHost: fuzz\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
const PAGE: &[u8] = b"GET / HTTP/1.1\r\nHost: fuzz\r\n\r\n";

fn all_at_once(bytes: &[u8]) {
    accept::feed(&[bytes], Duration::ZERO);
}

#[test]
fn a_valid_upgrade_then_garbage() {
    all_at_once(&[UPGRADE, &[0x82, 0xff, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9][..]].concat());
    all_at_once(&[UPGRADE, &[0x88, 0x80, 1, 2, 3, 4][..]].concat());
    all_at_once(UPGRADE);
    // A hello, so that a player joins and plays, then garbage.
    let hello = gloam_tests::raw::hello("fuzz");
    all_at_once(&[UPGRADE, &hello, &[0x81, 0x85, 9, 9, 9, 9, 1, 2, 3, 4, 5][..]].concat());
}

#[test]
fn page_requests_and_refusals() {
    all_at_once(PAGE);
    all_at_once(b"HEAD /font.ttf HTTP/1.1\r\nHost: fuzz\r\n\r\n");
    all_at_once(b"GET /font.ttf HTTP/1.1\r\n\r\nand then more bytes after the head");
    all_at_once(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello");
    all_at_once(b"GET /\x01 HTTP/1.1\r\n\r\n");
    all_at_once(b"");
    all_at_once(b"\r\n\r\n");
}

#[test]
fn a_huge_head_is_refused() {
    let huge = [b"GET / HTTP/1.1\r\nX: ".as_slice(), &[b'a'; 20_000], b"\r\n\r\n"].concat();
    all_at_once(&huge);
    let many: String = (0..100).map(|i| format!("X-{i}: y\r\n")).collect();
    all_at_once(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes());
}

#[test]
fn a_dribbled_head_in_time_and_too_slow() {
    let bytes: Vec<&[u8]> = PAGE.chunks(4).collect();
    accept::feed(&bytes, Duration::from_millis(1));
    let bytes: Vec<&[u8]> = UPGRADE.chunks(1).collect();
    accept::feed(&bytes, Duration::from_millis(10));
}

/// What a drawn input starts with: nothing, or a valid start of one of
/// the two ways through.
fn start() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![Just(&b""[..]), Just(UPGRADE), Just(PAGE), Just(&b"GET / HTTP/1.1\r\n"[..])]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any bytes, alone or after a valid start, in one piece or a few.
    #[test]
    fn any_bytes_end_the_connection_cleanly(
        start in start(),
        rest in proptest::collection::vec(any::<u8>(), 0..1024),
        piece in 1usize..600,
    ) {
        let bytes = [start, &rest[..]].concat();
        let pieces: Vec<&[u8]> = bytes.chunks(piece).collect();
        accept::feed(&pieces, Duration::from_millis(3));
    }
}
