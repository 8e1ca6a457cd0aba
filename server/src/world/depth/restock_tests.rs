//! A depth left alone regains monsters (`rules::restock`): how many, where,
//! and that a replay of its log regains the same ones.

use std::collections::BTreeSet;

use gloam_protocol::{Dir, SIGHT_RADIUS, Terrain};

use super::testing::{PlayAndTell, commands_of};
use super::tests::level_from;
use super::*;
use crate::config::Config;
use crate::seeds::DepthSeeds;
use crate::world::fresh_depth;

/// Two halls; '<' is where arrivals stand, far from most of the floor.
const HALLS: &[&str] = &[
    "##############################",
    "#<.......#...................#",
    "#........#...................#",
    "#........#.........#.........#",
    "#............................#",
    "#........#..................>#",
    "##############################",
];

const ANN: PlayerId = PlayerId(1);

/// Every monster: its id, kind and cell.
fn roll_call(d: &DepthState) -> Vec<(MonsterId, KindId, Pos)> {
    d.monsters().map(|m| (m.id, m.kind, m.pos)).collect()
}

/// Takes every monster off the depth, as if slain (not through the log).
fn slay_all(d: &mut DepthState) {
    d.rules.monsters = Default::default();
}

/// The halls with one kobold in the far one, full as they stand, keeping
/// their log.
fn halls(seed: u64) -> DepthState {
    let level = level_from(HALLS);
    let bestiary = Arc::new(Bestiary::default());
    let mut d = DepthState::with_bestiary(2, level, 8, bestiary, DepthSeeds::from_level_seed(seed));
    d.keep_log();
    let kobold = d.rules.bestiary.find("kobold").unwrap();
    d.spawn(kobold, Pos::new(22, 2)).unwrap();
    d.mark_full();
    d
}

/// Ann comes beside the kobold of [`halls`], strikes it until it dies
/// (its dice are the depth's: a bounded number of blows), and leaves.
fn kill_the_kobold(d: &mut DepthState) {
    let at = Pos::new(21, 2);
    d.come(Player::new(ANN, "ann".into()), Arrival::Resume(at));
    assert_eq!(d.player(ANN).map(|p| p.pos), Some(at));
    for _ in 0..200 {
        let Some(kobold) = d.monsters().next() else { break };
        let dir = Dir::ALL.into_iter().find(|&dir| at.step(dir) == Some(kobold.pos));
        d.play(ANN, Action::Move(dir.expect("the kobold stays by ann")));
    }
    assert_eq!(d.monsters().count(), 0, "ann killed the kobold");
    d.go(ANN, Leaving::Quit);
}

/// A depth its seed filled, emptied and left alone, regains a quarter of
/// what it misses a period, at least one, never more than it started
/// with; each where the level's first monsters may stand.
#[test]
fn a_depth_left_alone_regains_its_monsters_up_to_its_first_count() {
    for (seed, depth) in [(1, 1), (2, 3), (3, 6), (4, 9)] {
        let config = Config::with_seed(seed);
        let mut d = fresh_depth(&config, depth);
        let full = d.monsters().count();
        assert!(full >= 2, "seed {seed}, depth {depth}: {full} monsters");
        slay_all(&mut d);
        let quarter = (full / 4).max(1);
        assert_eq!(d.restock(1), quarter, "a quarter in one period, at least one");
        assert_eq!(d.restock(0), 0, "nothing without a period");
        let back = d.restock(1_000);
        assert_eq!(back, full - quarter, "the rest in many");
        assert_eq!(d.monsters().count(), full);
        assert_eq!(d.restock(1_000), 0, "a full depth gains nothing");
        let level = d.level();
        let sight = level.grid.fov(level.arrival, SIGHT_RADIUS);
        let mut cells = BTreeSet::new();
        for m in d.monsters() {
            assert_eq!(level.terrain(m.pos), Terrain::Floor, "{m:?}: on floor, off the stairs");
            assert!(!sight.sees(m.pos), "{m:?}: in sight of the arrival");
            assert!(cells.insert(m.pos), "two monsters on {:?}", m.pos);
            assert!(d.rules.bestiary.kind(m.kind).lives_at(depth), "{m:?} lives at {depth}");
        }
    }
}

/// A depth that lost one of its monsters regains one, on a free cell, and
/// the restock is logged, so the log replays to the same depth: the same
/// monsters, the same checksum.
#[test]
fn a_log_with_a_restock_replays_to_the_live_depth() {
    let mut live = halls(5);
    kill_the_kobold(&mut live);
    assert_eq!(live.restock(3), 1, "the one it lost");
    assert_eq!(live.log().last().map(|e| &e.what), Some(&Command::Restock { periods: 3 }));
    live.come(Player::new(ANN, "ann".into()), Arrival::Join);
    let mut again = halls(5);
    again.replay(live.log()).unwrap();
    assert_eq!(roll_call(&again), roll_call(&live));
    assert_eq!(again.checksum(), live.checksum());
    // The same commands: the marks of what the views did are the live
    // depth's alone (a replay tells nobody).
    assert_eq!(again.log(), commands_of(live.log()));
}

/// Restocks roll from a stream of their own that each one advances: a
/// depth emptied twice regains other monsters the second time, and one
/// whose stream went on (a restock whose monsters then died) has another
/// checksum than one that never restocked.
#[test]
fn each_restock_rolls_anew_and_the_checksum_holds_where_the_stream_stands() {
    let mut d = fresh_depth(&Config::with_seed(8), 4);
    let full = d.monsters().count();
    slay_all(&mut d);
    let untouched = d.checksum();
    d.restock(1_000);
    let first: Vec<(KindId, Pos)> = d.monsters().map(|m| (m.kind, m.pos)).collect();
    slay_all(&mut d);
    assert_ne!(d.checksum(), untouched, "the restock stream went on");
    d.restock(1_000);
    let second: Vec<(KindId, Pos)> = d.monsters().map(|m| (m.kind, m.pos)).collect();
    assert_eq!((first.len(), second.len()), (full, full));
    assert_ne!(first, second, "another restock, other monsters");
}

/// The same seed and log give the same monsters: two depths built alike,
/// emptied alike, regain the same ones.
#[test]
fn the_same_seed_regains_the_same_monsters() {
    let regained = |seed: u64| {
        let mut d = fresh_depth(&Config::with_seed(seed), 5);
        slay_all(&mut d);
        d.restock(2);
        roll_call(&d)
    };
    assert_eq!(regained(11), regained(11));
    assert_ne!(regained(11), regained(12));
}
