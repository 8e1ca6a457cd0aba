//! The building of a depth: its level and monsters as the world's seed
//! makes them, and its stored history taken up.

use std::sync::Arc;

use tracing::{info, warn};

use super::depth::{DepthState, HostRules, decode_history};
use crate::config::Config;
use crate::mapgen::{self, Generator};
use crate::seeds::{DepthSeeds, Seeds};
use crate::store::StoreHandle;

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
    let mut level = mapgen::build(generator, seeds.level_seed(), depth);
    if depth >= c.bottom() {
        mapgen::make_bottom(&mut level);
    }
    (populated(c, depth, seeds, Arc::new(level)), generator)
}

/// Takes up a depth's stored history: replays it, so its monsters are where
/// they were. A history that does not fit (the host changed the bestiary or
/// the rules) is set aside with a warning, and the depth starts afresh from
/// its seed. Reads the store where the level is built, before the depth's
/// task starts, so the task never waits on it.
pub(super) fn resume(state: &mut DepthState, store: &StoreHandle, c: &Config) {
    let depth = state.depth();
    let stored = match store.depth_log(depth) {
        Ok(stored) => stored,
        Err(e) => {
            warn!(depth, error = %e, "cannot read the depth's history: it starts afresh");
            return;
        }
    };
    if stored.is_empty() {
        return;
    }
    let started = std::time::Instant::now();
    match decode_history(&stored).and_then(|entries| state.resume(&entries)) {
        Ok(()) => {
            let (count, rounds, took) = (stored.len(), state.rounds(), started.elapsed());
            info!(depth, entries = count, rounds, ?took, "depth history replayed");
        }
        Err(e) => {
            warn!(depth, error = %e, "the depth's history does not fit this world: it starts afresh from its seed");
            *state = fresh_depth(c, depth);
            state.skip_log(stored.len() as u64);
        }
    }
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
    let placed = mapgen::populate::populate(&level, &c.bestiary, seeds, depth);
    let stocked = mapgen::stock::placed(&level, &c.items, seeds, depth, depth >= c.bottom());
    let mut state =
        DepthState::with_bestiary(depth, level, c.sight_radius, c.bestiary.clone(), seeds);
    state.set_rules(HostRules { pvp: c.pvp });
    state.set_items(c.items.clone());
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
