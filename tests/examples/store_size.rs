//! What the store holds per character: N players each explore and go down
//! DEPTHS levels on a server keeping a store on disk, then the server stops
//! and the file is measured.
//! `cargo run --release -p gloam-tests --example store_size -- [N] [DEPTHS]`

use std::time::Duration;

use gloam_server::Config;
use gloam_server::mapgen::GeneratorSetting;
use gloam_server::store::{STORE_FILE, Store};
use gloam_tests::{SimClient, TestServer};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let players: usize = args.next().map(|n| n.parse()).transpose()?.unwrap_or(50);
    let depths: usize = args.next().map(|n| n.parse()).transpose()?.unwrap_or(3);
    let dir = tempfile::tempdir()?;
    let file = dir.path().join(STORE_FILE);
    let empty = {
        let store = Store::open(dir.path())?;
        drop(store);
        std::fs::metadata(&file)?.len()
    };
    let config = Config {
        seed: 2026,
        generator: GeneratorSetting::Mixed,
        actions_per_second: 10_000,
        action_burst: 10_000,
        ..Config::default()
    };
    let server = TestServer::start_with_store(config, Store::open(dir.path())?).await?;
    let url = server.url();
    let mut walkers = Vec::new();
    for i in 0..players {
        let url = url.clone();
        walkers.push(tokio::spawn(async move {
            let mut sim = SimClient::join(&url, &format!("p{i}"), None).await?;
            let mut reached = 1;
            for _ in 0..depths {
                if sim.find_and_descend(3_000).await.is_err() {
                    break;
                }
                reached += 1;
            }
            // Look around the last depth a little, as a player would.
            let _ = sim.explore_until(|_| false, 100).await;
            anyhow::Ok((reached, sim.state.known_cells().count()))
        }));
    }
    let mut visited = 0;
    let mut cells = 0;
    for walker in walkers {
        let (reached, known) = walker.await??;
        visited += reached;
        cells += known;
    }
    server.stop(Duration::from_secs(30)).await?;
    let size = std::fs::metadata(&file)?.len();
    println!(
        "{players} characters, {visited} depths visited in all ({:.1} each)",
        visited as f64 / players as f64
    );
    println!(
        "cells remembered on the last depth: {:.0} per character",
        cells as f64 / players as f64
    );
    println!("store file: {size} bytes ({empty} empty)");
    println!(
        "per character: {:.0} bytes, {:.0} per depth visited",
        (size - empty) as f64 / players as f64,
        (size - empty) as f64 / visited as f64
    );
    Ok(())
}
