//! A depth rebuilt after a restart from its newest snapshot: only the
//! entries after it are replayed, a snapshot that does not prove itself
//! is passed over for the whole history, and a depth being rebuilt keeps
//! no player on another depth waiting.

use std::time::Duration;

use gloam_protocol::{Action, PlayerId};

use super::build::resume;
use super::keeping::keep_history;
use super::*;
use crate::store::{DepthSnapshot, Reading, Store, StoreHandle, Writer};

const DEPTH: u16 = 2;
const ANN: PlayerId = PlayerId(1);
/// A snapshot every this many entries: a few in the rounds played here.
const EVERY: u64 = 10;

/// Ann arrives on `state`, waits `rounds` rounds and leaves; the depth's
/// log is handed to `store` after each round, as the save tick hands it,
/// with a snapshot every [`EVERY`] entries.
fn play(state: &mut DepthState, store: &StoreHandle, rounds: usize) {
    state.arrive(Player::new(ANN, "ann".into()), Arrival::Join);
    for _ in 0..rounds {
        state.act(ANN, Action::Wait);
        keep_history(state, store, EVERY, true);
    }
    state.leave(ANN, Leaving::Quit);
    keep_history(state, store, EVERY, true);
}

/// The depth as the server builds it after a restart.
fn restarted(c: &Config, store: &StoreHandle) -> DepthState {
    let mut state = fresh_depth(c, DEPTH);
    resume(&mut state, store, c);
    state
}

/// A world whose depth was played 40 rounds: its config, its store, and
/// the depth as it was left.
fn played() -> (Config, Writer, DepthState) {
    let c = Config::with_seed(11);
    let (writer, _) = Store::in_memory().start();
    let mut first = restarted(&c, &writer.handle());
    play(&mut first, &writer.handle(), 40);
    assert!(first.rounds() >= 40);
    (c, writer, first)
}

/// The newest snapshot of the depth's history kept in `store`.
fn newest(store: &StoreHandle) -> DepthSnapshot {
    let read = store.read_history(DEPTH, Reading::FromSnapshot).unwrap();
    read.snapshot.expect("snapshots were kept")
}

#[test]
fn a_restart_restores_the_newest_snapshot_and_replays_only_the_entries_after_it() {
    let (c, writer, first) = played();
    let store = writer.handle();
    let snapshot = newest(&store);
    assert!(snapshot.after >= 30, "one of the last ten entries: {}", snapshot.after);
    // Every entry before it made unreadable: a replay from the start fails.
    store.append_log(DEPTH, 0, vec![vec![0xff]; snapshot.after as usize], 0);
    let mut second = restarted(&c, &store);
    assert_eq!((second.rounds(), second.checksum()), (first.rounds(), first.checksum()));
    play(&mut second, &store, 5);
    let third = restarted(&c, &store);
    assert_eq!(third.rounds(), second.rounds(), "and the history went on from there");
    assert_eq!(third.checksum(), second.checksum());
    let whole = store.depth_history(DEPTH).unwrap();
    assert_eq!(whole.next, whole.entries.len() as u64, "every entry kept, none skipped");
}

#[test]
fn a_snapshot_that_does_not_prove_itself_is_passed_over_for_the_whole_history() {
    let (c, writer, first) = played();
    let store = writer.handle();
    let sound = newest(&store);
    let damaged = [
        DepthSnapshot { bytes: vec![0xff; 40], ..sound.clone() },
        DepthSnapshot { checksum: sound.checksum ^ 1, ..sound.clone() },
        DepthSnapshot { bytes: fresh_depth(&c, DEPTH).snapshot(), ..sound.clone() },
    ];
    for snapshot in damaged {
        store.keep_snapshot(DEPTH, snapshot);
        let again = restarted(&c, &store);
        assert_eq!((again.rounds(), again.checksum()), (first.rounds(), first.checksum()));
    }
}

#[test]
fn a_history_set_aside_leaves_its_snapshots_behind() {
    let (c, writer, first) = played();
    let store = writer.handle();
    let next = store.depth_history(DEPTH).unwrap().next;
    let (bytes, checksum) = (first.snapshot(), first.checksum());
    store
        .keep_snapshot(DEPTH, DepthSnapshot { after: next, rules: RULES_VERSION, checksum, bytes });
    store.start_history(DEPTH, next, RULES_VERSION);
    let afresh = restarted(&c, &store);
    assert_eq!(afresh.rounds(), 0, "the new history starts from the seed, not the old snapshot");
}

/// Ann plays on depth 1 while depth 2 is being rebuilt: held where its
/// replay would hold it, for as long as the test likes. One worker thread:
/// a rebuild run on it, rather than handed off it, would leave none for
/// ann's depth, and her actions would never be answered. (Her answers are
/// awaited on a thread of their own, whose clock a stalled worker cannot
/// stop.)
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_depth_being_rebuilt_keeps_no_player_on_another_depth_waiting() {
    let local = std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(Config::quiet(5), writer.handle(), known));
    let mut ann = world.enter("ann", None, local, None).await.unwrap();
    while !ann.reply().await.expect("ann's arrival").done {}
    let (rebuilding, release) = gate::hold_building(&world.depths, DEPTH);
    let depths = world.depths.clone();
    let rebuild = tokio::spawn(async move { depths.handle(DEPTH).map(|h| h.depth) });
    rebuilding.recv_timeout(Duration::from_secs(10)).expect("depth 2 is being rebuilt");
    let (answered, ann) = std::thread::spawn(move || {
        let clock = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
        let answered = clock.block_on(async {
            let mut answered = 0;
            for _ in 0..3 {
                ann.act(Action::Wait).unwrap();
                let answer =
                    async { while !ann.reply().await.expect("ann is in the game").done {} };
                if tokio::time::timeout(Duration::from_secs(10), answer).await.is_ok() {
                    answered += 1;
                }
            }
            answered
        });
        (answered, ann)
    })
    .join()
    .unwrap();
    release.send(()).unwrap();
    assert_eq!(answered, 3, "ann's actions waited for depth 2's rebuild");
    assert_eq!(rebuild.await.unwrap(), Some(DEPTH));
    drop(ann);
}

#[test]
fn a_recording_starts_from_the_newest_snapshot_before_its_first_round() {
    let (c, writer, first) = played();
    let store = writer.handle();
    let read = |reading| store.read_history(DEPTH, reading);
    let end = first.rounds();
    let (late, early) = (end - 2, end - 15);
    let whole = |from| {
        let stored = store.depth_history(DEPTH).unwrap();
        recordings::record_history(&c, DEPTH, &stored, "ann", from..=end).unwrap()
    };
    let (late_whole, early_whole) = (whole(late), whole(early));
    assert!(!late_whole.is_empty() && !early_whole.is_empty());
    // Every entry before the second snapshot made unreadable: a recording
    // replayed from the start would fail.
    let second = read(Reading::SnapshotAtMost(20)).unwrap().snapshot.expect("kept");
    assert_eq!(second.after, 20);
    store.append_log(DEPTH, 0, vec![vec![0xff]; second.after as usize], 0);
    let made = |from| recordings::record_stored(&c, DEPTH, read, "ann", from..=end);
    assert_eq!(made(late).expect("made from the newest snapshot"), late_whole);
    assert_eq!(made(early).expect("made from an older one"), early_whole);
    assert!(made(1).is_err(), "no snapshot before round 1, and the start is unreadable");
}

/// Ann just arrived on a depth kept in a store in a folder of its own:
/// the world's config, the folder, the store's writer and the depth.
fn ann_on_a_stored_depth() -> (Config, tempfile::TempDir, Writer, DepthState) {
    let c = Config::with_seed(11);
    let dir = tempfile::tempdir().unwrap();
    let (writer, _) = Store::open(dir.path()).unwrap().start();
    let mut state = restarted(&c, &writer.handle());
    state.arrive(Player::new(ANN, "ann".into()), Arrival::Join);
    (c, dir, writer, state)
}

/// What `gloam-server replay` says of the depth kept in `dir` (its store
/// closed), from its newest snapshot.
fn replay_report(dir: &tempfile::TempDir, c: &Config) -> String {
    let store = Store::open(dir.path()).unwrap();
    crate::cli::replay_report(&store, c, DEPTH, Reading::FromSnapshot).unwrap()
}

/// A part of the log handed over unsummed (as the depth's task hands most)
/// leaves the live checksum where the last summed part left it, and
/// `gloam-server replay` compares its rebuild with it there, on its way
/// through the whole history.
#[test]
fn a_part_handed_over_unsummed_keeps_the_checksum_where_it_was_summed() {
    let (c, dir, writer, mut state) = ann_on_a_stored_depth();
    let store = writer.handle();
    state.act(ANN, Action::Wait);
    keep_history(&mut state, &store, 1_000, true);
    let kept = store.depth_history(DEPTH).unwrap().entries.len() as u64;
    let sum = state.checksum();
    let summed = Some((kept, sum));
    assert_eq!(store.depth_history(DEPTH).unwrap().live, summed);
    for _ in 0..3 {
        state.act(ANN, Action::Wait);
    }
    keep_history(&mut state, &store, 1_000, false);
    let history = store.depth_history(DEPTH).unwrap();
    assert_eq!(history.entries.len() as u64, kept + 3, "the entries are kept");
    assert_eq!(history.live, summed, "the checksum stays that of the last summed part");
    writer.close();
    let report = replay_report(&dir, &c);
    let at = format!("({kept} commands): {sum:016x}: the same");
    assert!(report.contains(&at), "{report}");
    assert!(report.contains(&format!("{} commands replayed", kept + 3)), "{report}");
}

/// A depth that falls quiet after a part handed over unsummed, or whose
/// task ends, hands over the checksum alone at its next summed hand-over:
/// the one kept is then after every entry, and replay compares there. Once
/// only: nothing is owed after it.
#[test]
fn a_quiet_depth_sums_what_it_handed_over_unsummed() {
    let (c, dir, writer, mut state) = ann_on_a_stored_depth();
    let store = writer.handle();
    keep_history(&mut state, &store, 1_000, true);
    for _ in 0..3 {
        state.act(ANN, Action::Wait);
    }
    keep_history(&mut state, &store, 1_000, false);
    let kept = store.depth_history(DEPTH).unwrap().entries.len() as u64;
    assert_ne!(store.depth_history(DEPTH).unwrap().live.map(|(at, _)| at), Some(kept));
    assert_eq!(state.owed_sum(), Some(kept));
    keep_history(&mut state, &store, 1_000, false);
    assert_eq!(state.owed_sum(), Some(kept), "an unsummed hand-over pays nothing");
    keep_history(&mut state, &store, 1_000, true);
    let history = store.depth_history(DEPTH).unwrap();
    assert_eq!(history.entries.len() as u64, kept, "no entry added");
    assert_eq!(history.live, Some((kept, state.checksum())), "summed after every entry");
    assert_eq!(state.owed_sum(), None);
    writer.close();
    let report = replay_report(&dir, &c);
    let at = format!("({kept} commands): {:016x}: the same", history.live.unwrap().1);
    assert!(report.contains(&at), "{report}");
}
