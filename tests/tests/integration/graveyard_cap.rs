//! The graveyard a client is sent is capped: however many have died, the
//! answer lists the deepest `MAX_GRAVEYARD`, fits the largest message a
//! client decodes, and the client keeps it.

use gloam_protocol::{ClientMsg, DeathRecord, MAX_GRAVEYARD, ServerMsg, codec};
use gloam_server::Config;
use gloam_server::store::Store;
use gloam_tests::SimClient;
use gloam_tests::server::TestServer;

/// The largest record a client accepts: a name and a cause of death of the
/// most characters allowed, each of four bytes, and every number at its
/// largest (as a varint, the longest).
fn largest_grave(depth: u16) -> DeathRecord {
    DeathRecord {
        name: "𝔸".repeat(gloam_protocol::MAX_NAME_CHARS),
        depth,
        rounds: u64::MAX,
        kills: u32::MAX,
        killed_by: "𝔹".repeat(40),
        when: u64::MAX,
        level: u8::MAX,
        escaped: true,
        morgue: 0,
    }
}

#[tokio::test]
async fn a_world_with_more_graves_than_the_cap_sends_the_deepest_cap() {
    let graves = MAX_GRAVEYARD + 100;
    let data = tempfile::tempdir().unwrap();
    {
        let (writer, _) = Store::open(data.path()).unwrap().start();
        let handle = writer.handle();
        for i in 0..graves {
            handle.bury(largest_grave(u16::MAX - i as u16));
        }
        handle.flush().await;
        drop(handle);
        tokio::task::spawn_blocking(move || writer.close()).await.unwrap();
    }
    let uncapped = codec::encode(&ServerMsg::Graveyard(
        (0..graves).map(|i| largest_grave(u16::MAX - i as u16)).collect(),
    ));
    assert!(uncapped.len() > codec::MAX_SERVER_MSG, "the test's graveyard would not fit whole");

    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(Config::quiet(3), store).await.unwrap();
    let mut ann = SimClient::join(&server.url(), "ann", None).await.unwrap();
    ann.send(&ClientMsg::Graveyard).await.unwrap();
    // Each read is bounded by the client's own timeout.
    let mut shown = None;
    for _ in 0..100 {
        // Decoded (so within the size limit) and kept by the client's mirror.
        if let ServerMsg::Graveyard(dead) = ann.recv().await.expect("the graveyard is kept") {
            shown = Some(dead);
            break;
        }
    }
    let shown = shown.expect("the graveyard came");
    assert_eq!(shown.len(), MAX_GRAVEYARD, "the cap, no more");
    let depths: Vec<u16> = shown.iter().map(|d| d.depth).collect();
    let deepest: Vec<u16> = (0..MAX_GRAVEYARD).map(|i| u16::MAX - i as u16).collect();
    assert_eq!(depths, deepest, "the deepest, deepest first");
    assert_eq!(ann.state.graveyard.as_ref().map(Vec::len), Some(MAX_GRAVEYARD), "kept");
    server.stop(std::time::Duration::from_secs(10)).await.unwrap();
}
