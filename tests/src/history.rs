//! The monsters a client was shown, checked against the truth: the depth
//! rebuilt from the world seed and replayed from the log the server kept,
//! one command at a time.
//!
//! A client is told of the monsters in its sight at the end of every
//! command that changed them for it. So, for each player, the monsters it
//! truly saw after each command of the log (each one's kind, place and
//! wound, in the reference sight from where it truly stood), leaving out
//! the commands that changed nothing for it, are exactly what its client
//! showed, in the same order. A monster shown where it was not, hurt as it
//! was not, or left out while in sight; a change never shown; a glimpse
//! out of order: each is found.
//!
//! Who else is on the depth (the roster) is news, told at most every
//! 50 ms and in bursts: a client may skip some of the rosters its depth
//! truly had, but each it shows is one the depth had after some command,
//! in order (a name never there, or a coming or going shown out of turn,
//! is found).

use std::collections::BTreeMap;

use gloam_client::ClientState;
use gloam_protocol::{Lying, MonsterId, PlayerId, Pos, Wound};
use gloam_server::Config;
use gloam_server::store::Store;
use gloam_server::world::{Entry, decode_history, fresh_depth};

use crate::oracle::Oracle;

/// What one client showed of the monsters around it, or of who else is on
/// its depth, after one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glimpse {
    pub player: PlayerId,
    pub depth: u16,
    pub shown: Shown,
}

/// What a glimpse is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Each monster shown: its kind, place, wound level and sleep.
    Monsters(Monsters),
    /// The others shown on the depth, by name, sorted.
    Roster(Vec<String>),
    /// The top of each pile shown in sight.
    Floor(Piles),
    /// The kinds of potion and scroll shown by name (learnt).
    Known(Known),
}

/// The kinds of item a player knows of those unknown until tried.
pub type Known = std::collections::BTreeSet<u16>;

/// The top of each pile in sight, by cell.
pub type Piles = BTreeMap<Pos, Lying>;

impl Glimpse {
    /// The monsters `state` shows.
    pub fn of_monsters(player: PlayerId, state: &ClientState) -> Self {
        let monsters =
            state.monsters.iter().map(|(&id, m)| (id, (m.kind, m.at, m.wound, m.asleep))).collect();
        Self { player, depth: state.depth, shown: Shown::Monsters(monsters) }
    }

    /// The piles `state` shows in its player's sight.
    pub fn of_floor(player: PlayerId, state: &ClientState) -> Self {
        let visible: std::collections::HashSet<Pos> = state.visible_cells().collect();
        let piles = state.floor.iter().filter(|(p, _)| visible.contains(p));
        let piles = piles.map(|(&p, &top)| (p, top)).collect();
        Self { player, depth: state.depth, shown: Shown::Floor(piles) }
    }

    /// The kinds `state` shows by name, as the oracle read them.
    pub fn of_known(player: PlayerId, state: &ClientState, known: Known) -> Self {
        Self { player, depth: state.depth, shown: Shown::Known(known) }
    }

    /// Who else `state` shows on its depth.
    pub fn of_roster(player: PlayerId, state: &ClientState) -> Self {
        Self { player, depth: state.depth, shown: Shown::Roster(state.roster.clone()) }
    }
}

/// Depth `depth`'s log as `store` keeps it.
pub fn entries(store: &Store, depth: u16) -> Result<Vec<Entry>, String> {
    let stored = store.depth_history(depth).map_err(|e| e.to_string())?;
    decode_history(&stored.entries).map_err(|e| format!("depth {depth}: {e}"))
}

/// Checks `glimpses` against every depth they saw, each replayed from the
/// log `store` keeps of it (see [`check_history`]).
pub fn check_every_depth(
    config: &Config,
    store: &Store,
    glimpses: &[Glimpse],
) -> Result<Covered, String> {
    let depths: std::collections::BTreeSet<u16> = glimpses.iter().map(|g| g.depth).collect();
    let mut all = Covered { commands: 0, glimpses: 0, rosters: 0, floors: 0, known: 0 };
    for depth in depths {
        let covered = check_history(config, depth, &entries(store, depth)?, glimpses)?;
        all.commands += covered.commands;
        all.glimpses += covered.glimpses;
        all.rosters += covered.rosters;
        all.floors += covered.floors;
        all.known += covered.known;
    }
    Ok(all)
}

/// How much a history check covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covered {
    pub commands: usize,
    /// Changes of the monsters shown.
    pub glimpses: usize,
    /// Changes of the roster shown.
    pub rosters: usize,
    /// Changes of the piles shown in sight.
    pub floors: usize,
    /// Changes of the kinds of item known by name.
    pub known: usize,
}

/// Replays `history` on depth `depth` of the world `config` describes and
/// checks the glimpses of that depth in `glimpses` (of any players, each
/// player's in the order its client had them) against it.
pub fn check_history(
    config: &Config,
    depth: u16,
    history: &[Entry],
    glimpses: &[Glimpse],
) -> Result<Covered, String> {
    let mut shown: BTreeMap<PlayerId, Vec<&Monsters>> = BTreeMap::new();
    let mut rosters: BTreeMap<PlayerId, Vec<&Vec<String>>> = BTreeMap::new();
    let mut floors: BTreeMap<PlayerId, Vec<&Piles>> = BTreeMap::new();
    let mut known: BTreeMap<PlayerId, Vec<&Known>> = BTreeMap::new();
    for g in glimpses.iter().filter(|g| g.depth == depth) {
        match &g.shown {
            Shown::Monsters(monsters) => push_changed(shown.entry(g.player).or_default(), monsters),
            Shown::Roster(roster) => push_changed(rosters.entry(g.player).or_default(), roster),
            Shown::Floor(piles) => push_changed(floors.entry(g.player).or_default(), piles),
            Shown::Known(kinds) => push_changed(known.entry(g.player).or_default(), kinds),
        }
    }
    let players: std::collections::BTreeSet<PlayerId> = shown
        .keys()
        .chain(rosters.keys())
        .chain(floors.keys())
        .chain(known.keys())
        .copied()
        .collect();
    let players = players.into_iter().collect();
    let truth = truth_of(config, depth, history, players)?;
    in_order(depth, "roster", &rosters, &truth.rosters)?;
    in_order(depth, "piles in sight", &floors, &truth.floors)?;
    // A name told is one the player truly knew then, never earlier.
    in_order(depth, "kinds of item known", &known, &truth.known)?;
    let truth = truth.monsters;
    for (player, shown) in &shown {
        let saw: Vec<&Monsters> = truth.get(player).map(|v| v.iter().collect()).unwrap_or_default();
        if let Some(i) = (0..shown.len().max(saw.len())).find(|&i| shown.get(i) != saw.get(i)) {
            return Err(format!(
                "depth {depth}, player {player}: change {i} of what it saw of the monsters was {:?}, its client showed {:?} ({} changes truly, {} shown, over {} commands)",
                saw.get(i),
                shown.get(i),
                saw.len(),
                shown.len(),
                history.len()
            ));
        }
    }
    Ok(Covered {
        commands: history.len(),
        glimpses: shown.values().map(Vec::len).sum(),
        rosters: rosters.values().map(Vec::len).sum(),
        floors: floors.values().map(Vec::len).sum(),
        known: known.values().map(Vec::len).sum(),
    })
}

/// Each of what each player's client showed (`shown`) is one of what the
/// depth truly had for it (`had`), in the same order: the client may skip
/// some (told in bursts), never show one the depth never had then.
fn in_order<T: PartialEq + std::fmt::Debug>(
    depth: u16,
    what: &str,
    shown: &BTreeMap<PlayerId, Vec<&T>>,
    had: &BTreeMap<PlayerId, Vec<T>>,
) -> Result<(), String> {
    for (player, shown) in shown {
        let had = had.get(player).map(Vec::as_slice).unwrap_or_default();
        let mut left = had.iter();
        if let Some(one) = shown.iter().find(|&&r| !left.any(|h| h == r)) {
            return Err(format!(
                "depth {depth}, player {player}: its client showed the {what} {one:?}, which the depth never had then (it had {had:?}; shown {shown:?})"
            ));
        }
    }
    Ok(())
}

/// Each monster in sight: its kind, place, wound level and whether it
/// seems asleep.
type Monsters = BTreeMap<MonsterId, (u16, Pos, Wound, bool)>;

/// What each player truly saw of the monsters, and who else it had on
/// the depth, after each command that changed it, while it was there.
struct Truth {
    monsters: BTreeMap<PlayerId, Vec<Monsters>>,
    rosters: BTreeMap<PlayerId, Vec<Vec<String>>>,
    floors: BTreeMap<PlayerId, Vec<Piles>>,
    known: BTreeMap<PlayerId, Vec<Known>>,
}

/// The [`Truth`] for each of `players` over `history`.
fn truth_of(
    config: &Config,
    depth: u16,
    history: &[Entry],
    players: Vec<PlayerId>,
) -> Result<Truth, String> {
    let mut reference = Oracle::new(config.seed, config.generator, config.sight_radius)
        .with_bottom(config.bottom());
    let mut saw: BTreeMap<PlayerId, Vec<Monsters>> = BTreeMap::new();
    let mut rosters: BTreeMap<PlayerId, Vec<Vec<String>>> = BTreeMap::new();
    let mut floors: BTreeMap<PlayerId, Vec<Piles>> = BTreeMap::new();
    let mut known: BTreeMap<PlayerId, Vec<Known>> = BTreeMap::new();
    let mut state = fresh_depth(config, depth);
    for entry in history {
        state.replay(std::slice::from_ref(entry)).map_err(|e| format!("depth {depth}: {e}"))?;
        for &player in &players {
            let Some(pos) = state.player(player).map(|p| p.pos) else { continue };
            let sight = reference.sight(depth, pos);
            let now: Monsters = state
                .monsters()
                .filter(|m| sight.contains(&m.pos) && (!m.hides || next_to(pos, m.pos)))
                .map(|m| (m.id, (m.kind, m.pos, m.wound(), !m.is_awake())))
                .collect();
            let seen = saw.entry(player).or_default();
            if seen.last() != Some(&now) {
                seen.push(now);
            }
            let roster = state.roster_for(player);
            let had = rosters.entry(player).or_default();
            if had.last() != Some(&roster) {
                had.push(roster);
            }
            let piles: Piles =
                sight.iter().filter_map(|&p| Some((p, state.pile_top(p)?))).collect();
            let lay = floors.entry(player).or_default();
            if lay.last() != Some(&piles) {
                lay.push(piles);
            }
            let knew = state.player(player).map(|p| p.known.clone()).unwrap_or_default();
            let learnt = known.entry(player).or_default();
            if learnt.last() != Some(&knew) {
                learnt.push(knew);
            }
        }
    }
    Ok(Truth { monsters: saw, rosters, floors, known })
}

fn push_changed<'a, T: PartialEq>(list: &mut Vec<&'a T>, next: &'a T) {
    if list.last() != Some(&next) {
        list.push(next);
    }
}

/// Whether `a` and `b` are the same cell or neighbours: a monster whose
/// kind hides is shown to a player only from there.
fn next_to(a: Pos, b: Pos) -> bool {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)) <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use gloam_protocol::{Action, Terrain};
    use gloam_server::config::Placement;
    use gloam_server::world::{Arrival, Player};

    const ANN: PlayerId = PlayerId(1);
    const BOB: PlayerId = PlayerId(2);
    const CAT: PlayerId = PlayerId(3);

    /// Ann waits five rounds while a jackal placed in her sight comes for
    /// her, then bob and cat come and bob goes: the history, and what she
    /// truly saw after each command.
    /// The first monster of a glimpse of the monsters: its place and wound.
    fn first(g: &mut Glimpse) -> (&mut Pos, &mut Wound) {
        match &mut g.shown {
            Shown::Monsters(m) => {
                m.values_mut().next().map(|(_, at, wound, _)| (at, wound)).unwrap()
            }
            Shown::Roster(_) | Shown::Floor(_) | Shown::Known(_) => {
                unreachable!("a glimpse of the monsters")
            }
        }
    }

    fn fight() -> (Config, Vec<Entry>, Vec<Glimpse>) {
        let mut config = Config::quiet(5);
        let mut depth = fresh_depth(&config, 1);
        let arrival = depth.level().arrival;
        let mut reference = Oracle::new(config.seed, config.generator, config.sight_radius);
        let mut near: Vec<Pos> = reference
            .sight(1, arrival)
            .into_iter()
            .filter(|&p| depth.level().terrain(p) == Terrain::Floor)
            .filter(|p| p.x.abs_diff(arrival.x).max(p.y.abs_diff(arrival.y)) == 4)
            .collect();
        near.sort_by_key(|p| (p.x, p.y));
        config.bestiary = std::sync::Arc::new(gloam_server::bestiary::Bestiary::default());
        config.placements = vec![Placement { kind: "jackal".into(), depth: 1, pos: near[0] }];
        depth = fresh_depth(&config, 1);
        depth.keep_log();
        depth.arrive(Player::new(ANN, "ann".into()), Arrival::Join);
        for _ in 0..5 {
            depth.act(ANN, Action::Wait);
        }
        depth.arrive(Player::new(BOB, "bob".into()), Arrival::Join);
        depth.arrive(Player::new(CAT, "cat".into()), Arrival::Join);
        depth.leave(BOB, gloam_server::world::Leaving::Quit);
        let history = depth.log().to_vec();
        let truth = truth_of(&config, 1, &history, vec![ANN]).unwrap();
        // Each change of the monsters, then each of the roster.
        let mut glimpses: Vec<Glimpse> = truth.monsters[&ANN]
            .iter()
            .map(|m| Glimpse { player: ANN, depth: 1, shown: Shown::Monsters(m.clone()) })
            .collect();
        for roster in truth.rosters[&ANN].iter().filter(|r| !r.is_empty()) {
            glimpses.push(Glimpse { player: ANN, depth: 1, shown: Shown::Roster(roster.clone()) });
        }
        (config, history, glimpses)
    }

    #[test]
    fn the_truth_passes_and_any_lie_omission_or_disorder_is_found() {
        let (config, history, all) = fight();
        let covered = check_history(&config, 1, &history, &all).unwrap();
        assert_eq!((covered.glimpses, covered.rosters), (all.len() - 3, 3));
        let glimpses = all[..all.len() - 3].to_vec();
        assert!(glimpses.len() >= 4, "the jackal came closer: {glimpses:?}");

        let mut moved = glimpses.clone();
        first(&mut moved[2]).0.x += 1;
        assert!(check_history(&config, 1, &history, &moved).is_err(), "a monster where it was not");

        let mut hurt = glimpses.clone();
        *first(&mut hurt[2]).1 = Wound::AlmostDead;
        assert!(check_history(&config, 1, &history, &hurt).is_err(), "hurt as it was not");

        let mut missed = glimpses.clone();
        missed.remove(2);
        assert!(check_history(&config, 1, &history, &missed).is_err(), "a change never shown");

        let mut swapped = glimpses.clone();
        swapped.swap(1, 2);
        assert!(check_history(&config, 1, &history, &swapped).is_err(), "out of order");

        // The rosters: some may be skipped (a burst told at once), none
        // made up or shown out of turn.
        let roster = |g: &Glimpse| match &g.shown {
            Shown::Roster(r) => Some(r.clone()),
            Shown::Monsters(_) | Shown::Floor(_) | Shown::Known(_) => None,
        };
        let rosters: Vec<Vec<String>> = all.iter().filter_map(roster).collect();
        assert_eq!(rosters, [vec!["bob"], vec!["bob", "cat"], vec!["cat"]]);
        let at = all.len() - 2;
        let mut skipped = all.clone();
        skipped.remove(at);
        assert!(check_history(&config, 1, &history, &skipped).is_ok(), "a burst told at once");
        let mut made_up = all.clone();
        made_up[at].shown = Shown::Roster(vec!["bob".into(), "dan".into()]);
        assert!(check_history(&config, 1, &history, &made_up).is_err(), "a name never there");
        let mut disordered = all.clone();
        disordered.swap(at, at + 1);
        assert!(check_history(&config, 1, &history, &disordered).is_err(), "out of turn");
    }

    #[test]
    fn piles_shown_in_sight_must_be_ones_the_depth_had_then() {
        let (config, history, _) = fight();
        let truth = truth_of(&config, 1, &history, vec![ANN]).unwrap();
        let glimpse =
            |piles: &Piles| Glimpse { player: ANN, depth: 1, shown: Shown::Floor(piles.clone()) };
        let floors: Vec<Glimpse> = truth.floors[&ANN].iter().map(glimpse).collect();
        assert!(!floors.is_empty());
        assert_eq!(check_history(&config, 1, &history, &floors).unwrap().floors, floors.len());
        let mut made_up = floors.clone();
        let at = fresh_depth(&config, 1).level().arrival;
        let lie = Lying { kind: 0, count: 3, more: false };
        made_up.push(glimpse(&Piles::from([(at, lie)])));
        assert!(check_history(&config, 1, &history, &made_up).is_err(), "a pile never there");
    }
}
