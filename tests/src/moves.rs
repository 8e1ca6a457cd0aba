//! How a simulated player picks its moves from what its client knows:
//! the first step of a shortest walk, a blow or a flight, the frontier of
//! the known map.

use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{Action, Dir, Pos, Terrain};

use gloam_client::ClientState;

/// The first step of a shortest walk over the open ground `state` knows to
/// a cell (other than where it stands) satisfying `goal`.
pub fn first_step(state: &ClientState, goal: impl Fn(Pos) -> bool) -> Option<Dir> {
    let start = state.at?;
    let w = usize::from(state.width).max(1);
    let open = |i: usize| {
        state.terrain(Pos::new((i % w) as u16, (i / w) as u16)).is_some_and(Terrain::is_open)
    };
    let (walk, found) =
        DistanceMap::until(state.width, state.height, &[start], open, |p| p != start && goal(p));
    walk.path_to(found?)?.first().copied()
}

/// See [`SimClient::fight`].
pub fn fight(state: &ClientState) -> Option<Action> {
    let at = state.at?;
    let near = |p: Pos| p.x.abs_diff(at.x).max(p.y.abs_diff(at.y));
    let beside: Vec<Pos> =
        state.monsters.values().map(|m| m.at).filter(|&p| near(p) == 1).collect();
    let target = *beside.first()?;
    let strike = Dir::ALL.into_iter().find(|&d| at.step(d) == Some(target)).map(Action::Move);
    let low = state.hp.is_some_and(|(hp, max)| u32::from(hp) * 3 <= u32::from(max));
    if !low {
        return strike;
    }
    // Low: away, to a free cell no monster stands beside, if there is one.
    let taken = |p: Pos| {
        state.monsters.values().any(|m| m.at == p) || state.others.values().any(|o| o.at == p)
    };
    let safe = |p: Pos| {
        state.monsters.values().all(|m| m.at.x.abs_diff(p.x).max(m.at.y.abs_diff(p.y)) > 1)
    };
    Dir::ALL
        .into_iter()
        .filter_map(|d| at.step(d).map(|p| (d, p)))
        .find(|&(_, p)| state.terrain(p).is_some_and(Terrain::is_open) && !taken(p) && safe(p))
        .map(|(d, _)| Action::Move(d))
        .or(strike)
}

/// A zap of the first wand in the pack at the nearest monster in sight
/// not beside the player (a blow serves better there). `None` with no
/// wand, or no such monster.
pub fn zap(state: &ClientState) -> Option<Action> {
    let at = state.at?;
    let wand = |c: &gloam_protocol::Carried| {
        state.item_kind(c.kind).is_some_and(|k| k.class == gloam_protocol::ItemClass::Wand)
    };
    let slot = state.pack.iter().position(wand)? as u8;
    let near = |p: Pos| p.x.abs_diff(at.x).max(p.y.abs_diff(at.y));
    let target =
        state.monsters.values().map(|m| m.at).filter(|&p| near(p) > 1).min_by_key(|&p| near(p))?;
    Some(Action::Zap { slot, at: target })
}

/// True when a known open cell borders one never seen.
pub fn is_frontier(state: &ClientState, p: Pos) -> bool {
    Dir::ALL.iter().any(|&d| p.step(d).is_some_and(|n| state.terrain(n).is_none()))
}
