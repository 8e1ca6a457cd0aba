//! A known game state, played through the server's own rules without
//! sockets, so the frames drawn from it are the same on every machine.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use gloam_client::ClientState;
use gloam_protocol::{Action, Dir, PlayerId, ServerMsg, Terrain};
use gloam_server::bestiary::Bestiary;
use gloam_server::mapgen::{self, Generator};
use gloam_server::world::{Arrival, DepthState, Outgoing, Player};

pub fn font_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/DejaVuSansMono.ttf")
}

/// The first step towards the nearest known open cell that borders the unknown.
fn explore_step(state: &ClientState) -> Option<Dir> {
    gloam_tests::sim::first_step(state, |p| gloam_tests::sim::is_frontier(state, p))
}

/// Three players on one seeded BSP level: two explore a while and come
/// back, and the first strikes a kobold that stands beside her; the
/// returned state is hers, with remembered ground, the others and the
/// kobold in sight, her hit points and a few messages.
pub fn known_state() -> ClientState {
    let level = Arc::new(mapgen::build(Generator::Bsp, 11, 1));
    let (w, h) = (level.width(), level.height());
    let bestiary = Arc::new(Bestiary::default());
    let mut depth = DepthState::with_bestiary(
        1,
        level.clone(),
        8,
        bestiary.clone(),
        gloam_server::seeds::DepthSeeds::from_level_seed(11),
    );
    let mut states: Vec<ClientState> = (0..3).map(|_| ClientState::new()).collect();
    let ids = [PlayerId(1), PlayerId(2), PlayerId(3)];
    let deliver = |out: Vec<Outgoing>, states: &mut Vec<ClientState>| {
        for o in out {
            states[(o.to.0 - 1) as usize].apply(&o.msg).expect("the server's messages fit");
        }
    };
    for (i, name) in ["ann", "bob", "cat"].iter().enumerate() {
        states[i].apply(&gloam_client::testing::welcome(ids[i], w, h)).unwrap();
        states[i].apply(&ServerMsg::Kinds(bestiary.kinds_info())).unwrap();
        let mut outcome = depth.arrive(Player::new(ids[i], (*name).into()), Arrival::Join);
        depth.tell_all_the_still(&mut outcome);
        let out = outcome.out;
        deliver(out, &mut states);
    }
    let mut walk = |who: usize, steps: usize, states: &mut Vec<ClientState>| {
        let mut path = Vec::new();
        for _ in 0..steps {
            let Some(dir) = explore_step(&states[who]) else { break };
            path.push(dir);
            let out = told(&mut depth, ids[who], Action::Move(dir));
            deliver(out, states);
        }
        path
    };
    let ann_path = walk(0, 45, &mut states);
    walk(1, 12, &mut states);
    // Ann comes back the way she went.
    for dir in ann_path.iter().rev().take(30) {
        let (dx, dy) = dir.delta();
        let back = Dir::from_delta(-dx, -dy).expect("a step has an opposite");
        let out = told(&mut depth, ids[0], Action::Move(back));
        deliver(out, &mut states);
    }
    let out = told(&mut depth, ids[0], Action::Descend);
    deliver(out, &mut states);
    // A kobold, asleep beside her, and her blow.
    let at = depth.player(ids[0]).expect("ann is here").pos;
    let (dir, beside) = Dir::ALL
        .into_iter()
        .filter_map(|d| at.step(d).map(|p| (d, p)))
        .find(|&(_, p)| {
            level.terrain(p) == Terrain::Floor
                && depth.spawn(bestiary.find("kobold").unwrap(), p).is_some()
        })
        .expect("a free cell beside ann");
    let _ = beside;
    let out = told(&mut depth, ids[0], Action::Move(dir));
    deliver(out, &mut states);
    states.swap_remove(0)
}

/// `id`'s action on `depth`, and everyone there told what they have not
/// heard, as a depth's task tells them when their shift comes.
fn told(depth: &mut DepthState, id: PlayerId, action: Action) -> Vec<Outgoing> {
    let mut outcome = depth.act(id, action);
    depth.tell_all_the_still(&mut outcome);
    outcome.out
}
