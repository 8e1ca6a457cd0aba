//! Any bytes given to either decoder: an error or a message that encodes
//! back to exactly those bytes; never a panic, an abort or a huge allocation.
#![no_main]

use gloam_protocol::codec::{decode_client, decode_server, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = decode_client(data) {
        assert_eq!(encode(&msg), data);
    }
    if let Ok(msg) = decode_server(data) {
        assert_eq!(encode(&msg), data);
    }
});
