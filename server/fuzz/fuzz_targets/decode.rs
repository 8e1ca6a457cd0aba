//! Any bytes given to either decoder: an error, or a message that survives
//! encoding and decoding again unchanged (bincode also accepts longer,
//! non-canonical spellings of the same integers, so the bytes may differ);
//! never a panic, an abort or a huge allocation.
#![no_main]

use gloam_protocol::codec::{decode_client, decode_server, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(msg) = decode_client(data) {
        assert_eq!(decode_client(&encode(&msg)), Ok(msg));
    }
    if let Ok(msg) = decode_server(data) {
        assert_eq!(decode_server(&encode(&msg)), Ok(msg));
    }
});
