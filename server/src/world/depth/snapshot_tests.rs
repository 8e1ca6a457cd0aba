//! A depth restored from a snapshot of its state and replayed on from
//! there is the depth replayed from its start (`rules::snapshot`).

use proptest::prelude::*;

use super::round_tests::{hall_that_lost_monsters, play_commands};
use super::*;

/// The live depth of `commands`, snapshotted after each of the commands
/// `cuts` name (by index into them): each snapshot with the number of
/// entries logged before it and the depth's checksum then. Each is
/// written only once every command has been played, as the store's
/// thread writes one while the depth plays on (`snapshot_later`): what
/// the depth changed meanwhile, in players it shares with the snapshot,
/// must not show in it.
fn played(
    commands: &[(u8, u8)],
    cuts: &[usize],
    rules: HostRules,
) -> (DepthState, Vec<(usize, Vec<u8>, u64)>) {
    let mut live = hall_that_lost_monsters(7, rules);
    let mut later = Vec::new();
    let mut done = 0;
    let mut cuts = cuts.to_vec();
    cuts.sort_unstable();
    for cut in cuts {
        play_commands(&mut live, &commands[done..cut], 3);
        done = cut;
        later.push((live.log().len(), live.snapshot_later(), live.checksum()));
    }
    play_commands(&mut live, &commands[done..], 3);
    let snapshots =
        later.into_iter().map(|(after, make, sum)| (after, make(&mut || {}), sum)).collect();
    (live, snapshots)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A snapshot of the live depth taken after any of its entries,
    /// restored on the depth built afresh and replayed on with the entries
    /// after it, is the depth replayed from its start: the same checksum,
    /// and the same state byte for byte (all of it, not only what the
    /// checksum sums). Also with players on it, in the middle of rounds
    /// (held actions, waits for a deadline), and after restocks.
    #[test]
    fn a_depth_restored_from_a_snapshot_and_replayed_on_is_the_depth_replayed_whole(
        commands in proptest::collection::vec((any::<u8>(), 0u8..23), 1..200),
        cuts in proptest::collection::vec(any::<proptest::sample::Index>(), 1..5),
        pvp in any::<bool>(),
    ) {
        let rules = HostRules { pvp };
        let cuts: Vec<usize> = cuts.iter().map(|c| c.index(commands.len() + 1)).collect();
        let (live, snapshots) = played(&commands, &cuts, rules);
        let log = live.log();
        let mut whole = hall_that_lost_monsters(7, rules);
        whole.replay(log).unwrap();
        prop_assert_eq!(whole.checksum(), live.checksum());
        for (after, bytes, checksum) in snapshots {
            let mut restored = hall_that_lost_monsters(7, rules);
            restored.restore(&bytes, checksum).unwrap();
            prop_assert_eq!(restored.rounds(), whole_rounds_at(rules, &log[..after]));
            restored.replay(&log[after..]).unwrap();
            prop_assert_eq!(restored.checksum(), whole.checksum(), "after entry {}", after);
            prop_assert!(restored.snapshot() == whole.snapshot(), "the same state after entry {}", after);
        }
    }
}

/// The rounds the depth replayed with `log` alone has closed.
fn whole_rounds_at(rules: HostRules, log: &[Entry]) -> u64 {
    let mut d = hall_that_lost_monsters(7, rules);
    d.replay(log).unwrap();
    d.rounds()
}

/// Plays a busy hall: three players who come, step, fight, use items and
/// wait for deadlines.
fn busy() -> DepthState {
    let script: Vec<(u8, u8)> = (0..150u8)
        .map(|i| (i.wrapping_mul(7), [0, 3, 10, 5, 13, 15, 4, 22][usize::from(i % 8)]))
        .collect();
    played(&script, &[], HostRules::default()).0
}

#[test]
fn a_snapshot_is_refused_when_damaged_or_of_another_depth_and_the_depth_is_left_as_it_was() {
    let live = busy();
    assert!(live.rounds() > 10 && live.player_count() > 0, "a busy depth");
    let (bytes, checksum) = (live.snapshot(), live.checksum());
    let fresh = hall_that_lost_monsters(7, HostRules::default()).checksum();
    let refused = |bytes: &[u8], checksum: u64| {
        let mut d = hall_that_lost_monsters(7, HostRules::default());
        let refused = d.restore(bytes, checksum).is_err();
        (refused, d.checksum())
    };
    assert_eq!(refused(&bytes, checksum), (false, checksum), "a sound one is taken");
    assert_eq!(refused(&bytes[..bytes.len() / 2], checksum), (true, fresh), "cut short");
    assert_eq!(refused(&bytes, checksum ^ 1), (true, fresh), "another checksum kept with it");
    let mut flipped = bytes.clone();
    // The rules' last byte: the views' bytes (their length, 0 here) follow.
    let last = live.rules.snapshot(&[]).len() - 2;
    flipped[last] ^= 0x55;
    assert_eq!(refused(&flipped, checksum), (true, fresh), "a byte changed");
    let unreadable_views = live.rules.snapshot(&[0xff; 3]);
    let mut d = hall_that_lost_monsters(7, HostRules::default());
    assert!(d.restore(&unreadable_views, checksum).is_ok(), "a rebuild needs no views");
    let mut d = hall_that_lost_monsters(7, HostRules::default());
    assert!(d.restore_watched(&unreadable_views, checksum).is_err(), "a recording does");
    let other = live.depth() + 1;
    let mut other_depth = DepthState::new(other, live.rules.level.clone(), 8);
    assert!(other_depth.restore(&bytes, checksum).is_err(), "a snapshot of another depth");
}

/// A snapshot made later, as the store's thread makes it, calls the pause
/// it is given after every `PAUSE_EVERY` bytes or so, and its bytes are
/// those of one made at once.
#[test]
fn a_snapshot_made_later_pauses_as_it_is_written() {
    // A hall full of players, each told of the others around it.
    let players = (1..21).flat_map(|x| (1..6).map(move |y| (x, y))).collect();
    let none = std::collections::BTreeSet::new();
    let (depth, _, _) = super::round_tests::crowd(8, &players, &none, false);
    let mut pauses = 0;
    let bytes = depth.snapshot_later()(&mut || pauses += 1);
    assert_eq!(bytes, depth.snapshot());
    let pieces = bytes.len() / PAUSE_EVERY;
    assert!(pieces >= 2, "a depth's snapshot of {} bytes is of several pieces", bytes.len());
    // The views and the whole are written one after the other, each
    // pausing after every piece of its own.
    assert!(pauses >= pieces - 1, "{pauses} pauses in {} bytes", bytes.len());
}
