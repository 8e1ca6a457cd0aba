//! The building of a depth: its level and monsters as the world's seed
//! makes them, and its stored history taken up.

use std::sync::Arc;

use tracing::{info, warn};

use super::depth::{DepthState, HostRules, RULES_VERSION, decode_history};
use crate::bestiary::KindId;
use crate::config::Config;
use crate::mapgen::{self, Generator};
use crate::seeds::{DepthSeeds, Seeds};
use crate::store::{DepthHistory, DepthSnapshot, Reading, StoreHandle};

/// Depth `depth` of the world `c` plays, as its seed makes it: its level
/// (the last has no stairs down), its monsters, the host's rules. The
/// server builds every depth so, and `gloam-server replay` too.
pub fn fresh_depth(c: &Config, depth: u16) -> DepthState {
    built(c, depth).0
}

/// [`fresh_depth`], with the generator that built its level.
pub(super) fn built(c: &Config, depth: u16) -> (DepthState, Generator) {
    let seeds = Seeds::of_world(c.seed).depth(depth);
    let generator = mapgen::generator_with(c.generator, &c.mix, c.seed, depth);
    let mut level = mapgen::build_with(generator, seeds.level_seed(), depth, &c.vaults, None);
    if depth >= c.bottom() {
        mapgen::make_bottom(&mut level);
    }
    (populated(c, depth, seeds, Arc::new(level)), generator)
}

/// Takes up a depth's stored history: replays it, so its monsters are where
/// they were. A history recorded under other rules ([`RULES_VERSION`]), or
/// that does not fit (the host changed the bestiary or the placements), is
/// set aside with a warning: the depth starts afresh from its seed, and a
/// new history begins after every entry stored, so the next restart
/// replays the new one alone. Reads the store where the level is built,
/// before the depth's task starts, so the task never waits on it.
/// Then the uniques slain in the world leave it, if it still holds them
/// (its history began before they were slain: see `Rules::clear_slain`).
/// A history with snapshots is taken up from the newest: restored, and
/// only the entries after it replayed (see `world::keeping`).
pub(super) fn resume(state: &mut DepthState, store: &StoreHandle, c: &Config) {
    let depth = state.depth();
    let stored = match store.read_history(depth, Reading::FromSnapshot) {
        Ok(stored) => stored,
        Err(e) => {
            warn!(depth, error = %e, "cannot read the depth's history: it starts afresh");
            return;
        }
    };
    take_up(state, store, c, &stored);
    let slain: Vec<KindId> =
        stored.slain_uniques.iter().filter_map(|name| c.bestiary.find(name)).collect();
    for kind in state.clear_slain(&slain) {
        info!(depth, unique = %c.bestiary.kind(kind).name, "slain before: it leaves the depth");
    }
}

/// Takes up the depth's `stored` history (see [`resume`]).
fn take_up(state: &mut DepthState, store: &StoreHandle, c: &Config, stored: &DepthHistory) {
    let depth = state.depth();
    let Some(rules) = stored.rules else {
        // Nothing was ever kept here: its history starts now.
        state.skip_log(stored.next);
        store.start_history(depth, stored.next, RULES_VERSION);
        return;
    };
    if rules != RULES_VERSION {
        let why =
            format!("recorded under rules {rules}, and this server plays rules {RULES_VERSION}");
        return set_aside(state, store, c, stored, &why);
    }
    let started = std::time::Instant::now();
    let replayed = match &stored.snapshot {
        Some(snapshot) => from_snapshot(state, store, c, stored, snapshot),
        None => replay(state, stored.start, &stored.entries),
    };
    match replayed {
        Ok((from, count)) => {
            let (rounds, took) = (state.rounds(), started.elapsed());
            info!(depth, from, entries = count, rounds, ?took, "depth history replayed");
        }
        Err(e) => set_aside(state, store, c, stored, &format!("it does not fit this world: {e}")),
    }
}

/// Replays `entries`, numbered from `first`, on `state` and takes its place
/// in its history; gives where the replay began and how many it replayed.
fn replay(state: &mut DepthState, first: u64, entries: &[Vec<u8>]) -> Result<(u64, usize), String> {
    let entries = decode_history(entries)?;
    state.resume(first, &entries)?;
    Ok((first, entries.len()))
}

/// Takes up `stored` from its `snapshot`: restores it and replays the
/// entries after it. A snapshot of other rules, or one that does not prove
/// itself (see `rules::snapshot`), or whose entries after it do not fit,
/// is passed over with a warning, and the whole history is read again and
/// replayed on the depth built afresh.
fn from_snapshot(
    state: &mut DepthState,
    store: &StoreHandle,
    c: &Config,
    stored: &DepthHistory,
    snapshot: &DepthSnapshot,
) -> Result<(u64, usize), String> {
    let depth = state.depth();
    let taken = if snapshot.rules == RULES_VERSION {
        state
            .restore(&snapshot.bytes, snapshot.checksum)
            .and_then(|()| replay(state, snapshot.after, &stored.entries))
    } else {
        Err(format!("taken under rules {}, not {RULES_VERSION}", snapshot.rules))
    };
    let error = match taken {
        Ok(replayed) => return Ok(replayed),
        Err(error) => error,
    };
    let after = snapshot.after;
    warn!(depth, after, %error, "the depth's snapshot is passed over: its whole history is replayed");
    *state = fresh_depth(c, depth);
    let whole = store.depth_history(depth)?;
    replay(state, whole.start, &whole.entries)
}

/// Sets a depth's stored history aside (kept, never replayed again) and
/// starts the depth afresh from its seed, with a new history after it.
fn set_aside(
    state: &mut DepthState,
    store: &StoreHandle,
    c: &Config,
    stored: &DepthHistory,
    why: &str,
) {
    let depth = state.depth();
    let entries = stored.entries.len();
    warn!(depth, entries, why, "the depth's history is set aside: it starts afresh from its seed");
    *state = fresh_depth(c, depth);
    state.skip_log(stored.next);
    store.start_history(depth, stored.next, RULES_VERSION);
}

/// The depth's state as its level's seed leaves it: its monsters placed,
/// those the host placed by hand added (all of them the most it regains
/// when left alone), the host's rules set.
fn populated(
    c: &Config,
    depth: u16,
    seeds: DepthSeeds,
    level: Arc<crate::level::Level>,
) -> DepthState {
    let uniques = mapgen::uniques::living_at(&c.bestiary, &Seeds::of_world(c.seed), depth);
    let placed = mapgen::populate::populate(&level, &c.bestiary, seeds, depth, &uniques);
    let stocked = mapgen::stock::placed(&level, &c.items, seeds, depth, depth >= c.bottom());
    let mut state =
        DepthState::with_bestiary(depth, level, c.sight_radius, c.bestiary.clone(), seeds);
    state.set_rules(HostRules { pvp: c.pvp });
    state.set_items(c.world_items());
    state.keep_log();
    for p in placed {
        state.spawn(p.kind, p.pos);
    }
    for (pos, item) in stocked {
        state.lay(pos, item);
    }
    for p in c.placements.iter().filter(|p| p.depth == depth) {
        let placed = c.bestiary.find(&p.kind).and_then(|kind| state.spawn(kind, p.pos));
        if placed.is_none() {
            warn!(
                kind = p.kind,
                depth,
                x = p.pos.x,
                y = p.pos.y,
                "cannot place a monster there: not open floor, or taken"
            );
        }
    }
    state.mark_full();
    state
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{Action, PlayerId, codec};

    use super::*;
    use crate::character::Player;
    use crate::store::Store;
    use crate::world::depth::Arrival;

    const DEPTH: u16 = 2;
    const ANN: PlayerId = PlayerId(1);

    /// Ann arrives on `state` and waits `rounds` rounds; the entries it
    /// logged are handed to `store` as a depth's task hands them over.
    fn play(state: &mut DepthState, store: &StoreHandle, rounds: usize) {
        state.arrive(Player::new(ANN, "ann".into()), Arrival::Join);
        for _ in 0..rounds {
            state.act(ANN, Action::Wait);
        }
        state.leave(ANN, crate::world::Leaving::Quit);
        let part = state.take_log().expect("entries were logged");
        let entries = part.entries.iter().map(codec::encode).collect();
        store.append_log(state.depth(), part.first, entries, part.checksum);
    }

    /// The depth as the server builds it after a restart.
    fn restarted(c: &Config, store: &StoreHandle) -> DepthState {
        let mut state = fresh_depth(c, DEPTH);
        resume(&mut state, store, c);
        state
    }

    /// A world of seed `seed` with the built-in bestiary.
    fn world(seed: u64) -> Config {
        let mut c = Config::with_seed(seed);
        c.bestiary = Arc::new(crate::bestiary::Bestiary::default());
        c
    }

    /// How many of `kind` stand on `state`.
    fn count_of(state: &DepthState, kind: KindId) -> usize {
        state.monsters().filter(|m| m.kind == kind).count()
    }

    /// Each unique is on the level of the one depth the world's seed gave
    /// it, once, and on no other level.
    #[test]
    fn a_unique_stands_on_the_level_of_its_depth_and_on_no_other() {
        for seed in [3, 40, 512] {
            let c = world(seed);
            let seeds = Seeds::of_world(seed);
            let homes: Vec<(KindId, u16)> = c
                .bestiary
                .uniques()
                .map(|(id, k)| (id, mapgen::uniques::depth_of(&seeds, id, k.depths)))
                .collect();
            for depth in 1..=16 {
                let state = fresh_depth(&c, depth);
                for &(kind, home) in &homes {
                    let want = usize::from(depth == home);
                    assert_eq!(count_of(&state, kind), want, "seed {seed}, depth {depth}");
                }
            }
        }
    }

    /// Ann, of many hit points, put next to the unique `kind` on `state`,
    /// strikes at it until it dies: the slaying the flow hands back is
    /// kept as the depth's task keeps it, and the log handed over.
    fn slay(state: &mut DepthState, store: &StoreHandle, kind: KindId) {
        let unique = state.monsters().find(|m| m.kind == kind).map(|m| m.id).unwrap();
        let at = state.monsters().find(|m| m.id == unique).unwrap().pos;
        let next_to = gloam_protocol::Dir::ALL
            .into_iter()
            .filter_map(|d| at.step(d))
            .find(|&p| state.rules.level.terrain(p).is_open() && !state.rules.monsters.is_at(p))
            .unwrap();
        let mut ann = Player::new(ANN, "ann".into());
        (ann.vitals.hp, ann.vitals.max_hp) = (900, 900);
        state.arrive(ann, Arrival::Resume(next_to));
        let mut slain = Vec::new();
        for _ in 0..200 {
            let Some(m) = state.monsters().find(|m| m.id == unique) else { break };
            let me = state.rules.player(ANN).unwrap().pos;
            let (dx, dy) =
                (i32::from(m.pos.x) - i32::from(me.x), i32::from(m.pos.y) - i32::from(me.y));
            let dir = gloam_protocol::Dir::from_delta(dx.signum(), dy.signum()).unwrap();
            slain.extend(state.act(ANN, Action::Move(dir)).flow.slayings);
        }
        assert_eq!(slain.len(), 1, "ann slays it within two hundred blows");
        store.slay_unique(&state.rules.bestiary.kind(slain[0].kind).name, &slain[0].by);
        state.leave(ANN, crate::world::Leaving::Quit);
        let part = state.take_log().expect("entries were logged");
        let entries = part.entries.iter().map(codec::encode).collect();
        store.append_log(state.depth(), part.first, entries, part.checksum);
    }

    /// A unique slain is never placed again: not when its depth is built
    /// again (its history replayed), nor when that history is set aside
    /// (the new one logs that it left, and replays so whatever the store
    /// says by then), nor by any restock.
    #[test]
    fn a_unique_slain_is_never_placed_again() {
        let c = world(21);
        let (kind, home) = c
            .bestiary
            .uniques()
            .map(|(id, k)| (id, mapgen::uniques::depth_of(&Seeds::of_world(21), id, k.depths)))
            .next()
            .unwrap();
        let (writer, _) = Store::in_memory().start();
        let store = writer.handle();
        let built = |store: &StoreHandle| {
            let mut state = fresh_depth(&c, home);
            resume(&mut state, store, &c);
            state
        };
        let mut first = built(&store);
        assert_eq!(count_of(&first, kind), 1);
        slay(&mut first, &store, kind);
        let again = built(&store);
        assert_eq!((count_of(&again, kind), again.checksum()), (0, first.checksum()), "replayed");

        // Its history set aside: the depth starts afresh, and the unique leaves it.
        let next = store.depth_history(home).unwrap().next;
        store.start_history(home, next, RULES_VERSION + 1);
        let mut afresh = built(&store);
        assert_eq!((afresh.rounds(), count_of(&afresh, kind)), (0, 0), "slain before");
        play(&mut afresh, &store, 2);
        let history = store.depth_history(home).unwrap();
        let entries = decode_history(&history.entries).unwrap();
        assert_eq!(entries[0].what, crate::world::Command::Gone { kinds: vec![kind] });
        // The log alone replays it so, whatever the store says of uniques.
        let mut bare = fresh_depth(&c, home);
        bare.resume(history.start, &entries).unwrap();
        assert_eq!((count_of(&bare, kind), bare.checksum()), (0, afresh.checksum()));

        let mut restocked = built(&store);
        restocked.restock(1_000);
        assert_eq!(count_of(&restocked, kind), 0, "no restock brings it back");
        assert!(restocked.monsters().count() > 0);
    }

    #[test]
    fn a_history_is_replayed_after_a_restart_and_goes_on_where_it_stopped() {
        let c = Config::with_seed(11);
        let (writer, _) = Store::in_memory().start();
        let store = writer.handle();
        let mut first = restarted(&c, &store);
        play(&mut first, &store, 5);
        let history = store.depth_history(DEPTH).unwrap();
        assert_eq!((history.start, history.rules), (0, Some(RULES_VERSION)));
        let mut second = restarted(&c, &store);
        assert_eq!(second.rounds(), 5);
        assert_eq!(second.checksum(), first.checksum());
        play(&mut second, &store, 3);
        let third = restarted(&c, &store);
        assert_eq!(third.rounds(), 8, "both sessions' rounds, replayed in one history");
    }

    #[test]
    fn a_history_recorded_under_other_rules_is_set_aside_and_a_new_one_replays_alone() {
        let c = Config::with_seed(11);
        let (writer, _) = Store::in_memory().start();
        let store = writer.handle();
        // A history as a server before rules versions left it: no version
        // stored, so rules 1, which the fresh depth would replay wrong.
        let mut old = fresh_depth(&c, DEPTH);
        play(&mut old, &store, 4);
        let kept = store.depth_history(DEPTH).unwrap();
        assert_eq!(
            (kept.rules, kept.entries.len()),
            (Some(1), 7),
            "remembered, came, 4 waits, left"
        );

        let mut state = restarted(&c, &store);
        assert_eq!(state.rounds(), 0, "set aside: the depth starts afresh from its seed");
        let history = store.depth_history(DEPTH).unwrap();
        assert_eq!((history.start, history.rules), (7, Some(RULES_VERSION)), "a new one after it");
        assert!(history.entries.is_empty());
        play(&mut state, &store, 2);
        let history = store.depth_history(DEPTH).unwrap();
        assert_eq!((history.start, history.entries.len(), history.next), (7, 5, 12));
        let again = restarted(&c, &store);
        assert_eq!(again.rounds(), 2, "the new history alone is replayed");
        assert_eq!(again.checksum(), state.checksum());
    }

    #[test]
    fn a_history_that_does_not_fit_is_set_aside_and_the_next_restart_keeps_the_new_one() {
        let c = Config::with_seed(11);
        let (writer, _) = Store::in_memory().start();
        let store = writer.handle();
        store.start_history(DEPTH, 0, RULES_VERSION);
        store.append_log(DEPTH, 0, vec![vec![0xff; 3], vec![0xfe]], 0);
        let mut state = restarted(&c, &store);
        assert_eq!(state.rounds(), 0);
        play(&mut state, &store, 3);
        // Before the history's start was stored, this restart read the
        // damaged entries again, set everything aside and lost these rounds.
        let again = restarted(&c, &store);
        assert_eq!(again.rounds(), 3, "the rounds played since are replayed");
        assert_eq!(again.checksum(), state.checksum());
    }
}
