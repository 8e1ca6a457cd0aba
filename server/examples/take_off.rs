//! Times the steps of a depth's rebuild after a crash, on a store that
//! `long_history` made: `cargo run --release -p gloam-server --example
//! take_off -- DIR [RUNS]` reads depth 1's history from its newest
//! snapshot, restores it, replays the entries after it, then takes off the
//! players the crash left there (what `Rules::resume` does last), RUNS
//! (3) times, and prints each step's time and the checksum at the end (the
//! same from every build that keeps the rules).

use gloam_server::Config;
use gloam_server::store::{Reading, Store};
use gloam_server::world::{decode_history, fresh_depth};
use std::time::Instant;

const DEPTH: u16 = 1;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or_else(|| anyhow::anyhow!("give the data folder"))?;
    let runs: u32 = args.next().map_or(Ok(3), |a| a.parse())?;
    let store = Store::open(std::path::Path::new(&dir))?;
    let world = store.world()?.ok_or_else(|| anyhow::anyhow!("the folder holds no world"))?;
    let config = Config::default().playing(world);
    for _ in 0..runs {
        let stored = store.read_history(DEPTH, Reading::FromSnapshot)?;
        let snapshot = stored.snapshot.ok_or_else(|| anyhow::anyhow!("no snapshot"))?;
        let entries = decode_history(&stored.entries).map_err(anyhow::Error::msg)?;
        let mut state = fresh_depth(&config, DEPTH);
        let started = Instant::now();
        state.restore(&snapshot.bytes, snapshot.checksum).map_err(anyhow::Error::msg)?;
        let restored = started.elapsed();
        let started = Instant::now();
        state.replay(&entries).map_err(anyhow::Error::msg)?;
        let replayed = started.elapsed();
        let stranded = state.player_count();
        let started = Instant::now();
        let after = snapshot.after + entries.len() as u64;
        state.resume(after, &[]).map_err(anyhow::Error::msg)?;
        let taken_off = started.elapsed();
        println!(
            "restored in {:.2} ms, {} entries replayed in {:.1} ms, {stranded} players taken off in {:.1} ms ({:.1} µs each); checksum {:016x}",
            ms(restored),
            entries.len(),
            ms(replayed),
            ms(taken_off),
            ms(taken_off) * 1000.0 / stranded.max(1) as f64,
            state.checksum()
        );
    }
    Ok(())
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
