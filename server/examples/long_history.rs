//! Makes a world whose depth has a long history, to time its rebuild:
//! `cargo run --release -p gloam-server --example long_history -- DIR
//! [ENTRIES] [PLAYERS]` plays PLAYERS (50) wanderers on depth 1 of a new
//! world in DIR until the depth's log holds ENTRIES (1,000,000) commands,
//! each a step or a wait (the dead come back; the monsters they kill are
//! regained every [`RESTOCK`] commands, so the depth never empties of
//! them as a quiet one would), handing the log to the store
//! as the server's save tick does, snapshots included, and stops as a crash
//! would stop it, its players still on the depth. Then
//! `gloam-server replay --data DIR --depth 1` rebuilds the depth as a
//! restarted server would, and with `--whole` from its history's start.

use gloam_protocol::{Action, Dir, PlayerId};
use gloam_server::Config;
use gloam_server::config::WorldWish;
use gloam_server::store::Store;
use gloam_server::world::{
    Arrival, DepthState, Outcome, Player, RULES_VERSION, SNAPSHOT_EVERY, fresh_depth, keep_history,
};
use rand::{RngExt, SeedableRng};

const DEPTH: u16 = 1;
/// Commands between two hand-overs: a quarter second (five of the
/// server's, made every 50 ms) of 1,000 players acting 5 times a second.
const TICK: u64 = 1_250;
/// Commands between two restocks.
const RESTOCK: u64 = 20_000;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or_else(|| anyhow::anyhow!("give the data folder"))?;
    let entries: u64 = args.next().map_or(Ok(1_000_000), |a| a.parse())?;
    let players: u32 = args.next().map_or(Ok(50), |a| a.parse())?;
    let store = Store::open(std::path::Path::new(&dir))?;
    let wish = WorldWish { seed: Some(1), ..WorldWish::default() };
    let config = Config::default().playing(store.settle_world(&wish, || 1)?);
    let (writer, _) = store.start();
    let handle = writer.handle();
    handle.start_history(DEPTH, 0, RULES_VERSION);
    let mut state = fresh_depth(&config, DEPTH);
    let started = std::time::Instant::now();
    let logged = wander(&mut state, &handle, entries, players);
    let took = std::time::Instant::now();
    let bytes = state.snapshot().len();
    let took = took.elapsed();
    let on = state.player_count();
    println!("a snapshot of the depth with {on} players on it: {bytes} bytes in {took:?}");
    keep_history(&mut state, &handle, SNAPSHOT_EVERY, true);
    writer.close();
    println!(
        "depth {DEPTH}: {logged} commands played by {players} players in {:.1} s, {} rounds; checksum {:016x}",
        started.elapsed().as_secs_f64(),
        state.rounds(),
        state.checksum()
    );
    Ok(())
}

/// Plays `players` wanderers on `state` until `entries` commands of theirs
/// are logged (and the restocks among them), handing the log to `store` every [`TICK`] of them; gives how
/// many were logged.
fn wander(
    state: &mut DepthState,
    store: &gloam_server::store::StoreHandle,
    entries: u64,
    players: u32,
) -> u64 {
    let mut dice = rand_pcg::Pcg64Mcg::seed_from_u64(40);
    let mut logged = 0;
    while logged < entries {
        for id in (1..=players).map(PlayerId) {
            if logged == entries {
                break;
            }
            if state.player(id).is_none() {
                state.arrive(Player::new(id, format!("w{}", id.0)), Arrival::Join);
            } else if dice.random_ratio(1, 8) {
                state.act(id, Action::Wait);
            } else {
                state.act(id, Action::Move(Dir::ALL[dice.random_range(0..8)]));
            }
            logged += 1;
            if logged % RESTOCK == 0 {
                state.restock(8);
            }
            if logged % TICK == 0 {
                // Those who stood still hear of the movers, as the task
                // tells them (else what they are yet to hear piles up).
                state.tell_all_the_still(&mut Outcome::default());
                keep_history(state, store, SNAPSHOT_EVERY, true);
            }
        }
    }
    logged
}
