//! What a move costs on the wire: a random walk through seeded levels with
//! their monsters, played through the server's own rules (no sockets),
//! measuring every encoded `Sight` the walker is sent against a lower bound:
//! one byte per cell entering or leaving sight, and for each monster change
//! one byte naming the monster plus one per thing it tells (kind, place or
//! wound: three for an arrival, one for a departure).
//! `cargo run --release -p gloam-server --example wire_cost [MOVES]`

use std::sync::Arc;

use gloam_protocol::{Action, Dir, MonsterChange, PlayerId, ServerMsg, SightDiff, codec};
use gloam_server::bestiary::Bestiary;
use gloam_server::mapgen::{self, Generator, LevelRng, populate};
use gloam_server::seeds::DepthSeeds;
use gloam_server::world::{Arrival, DepthState, Player};
use rand::{RngExt, SeedableRng};

/// The depth walked: deep enough for packs of monsters to come and fight.
const DEPTH: u16 = 3;

fn main() {
    let moves: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(5_000);
    let mut rng = LevelRng::seed_from_u64(2026);
    let bestiary = Arc::new(Bestiary::default());
    let mut sent = Stream::default();
    let me = PlayerId(1);
    let per_level = moves / 10;
    for seed in 0..10u64 {
        let level = Arc::new(mapgen::build(Generator::Bsp, seed, DEPTH));
        let mut depth = DepthState::with_bestiary(
            DEPTH,
            level.clone(),
            8,
            bestiary.clone(),
            DepthSeeds::from_level_seed(seed),
        );
        for placed in
            populate::populate(&level, &bestiary, DepthSeeds::from_level_seed(seed), DEPTH, &[])
        {
            depth.spawn(placed.kind, placed.pos);
        }
        for _ in 0..per_level {
            if depth.player(me).is_none() {
                // A walker who cannot die: the figures are about sight, not fights.
                let mut walker = Player::new(me, "walker".into());
                walker.vitals.hp = u16::MAX;
                walker.vitals.max_hp = u16::MAX;
                depth.arrive(walker, Arrival::Join);
            }
            let at = depth.player(me).expect("on the level").pos;
            let open: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| at.step(d).is_some_and(|p| level.terrain(p).is_open()))
                .collect();
            let dir = open[rng.random_range(0..open.len())];
            let mut outcome = depth.act(me, Action::Move(dir));
            depth.tell_all_the_still(&mut outcome);
            for out in outcome.out {
                if let (true, ServerMsg::Sight(diff)) = (out.to == me, &out.msg) {
                    sent.add(codec::encode(&out.msg).len(), diff);
                }
            }
        }
    }
    sent.report();
}

/// Every Sight the walker was sent: its size and its lower bound.
#[derive(Default)]
struct Stream {
    sizes: Vec<usize>,
    bounds: Vec<usize>,
    with_monsters: usize,
    monster_changes: usize,
}

impl Stream {
    fn add(&mut self, size: usize, diff: &SightDiff) {
        let cells = diff.hidden.len() + diff.shown.len() + diff.revealed.len();
        let monsters: usize = diff.monsters.iter().map(monster_bound).sum();
        self.sizes.push(size);
        self.bounds.push(cells + monsters);
        self.with_monsters += usize::from(!diff.monsters.is_empty());
        self.monster_changes += diff.monsters.len();
    }

    fn report(&self) {
        let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len() as f64;
        let p99 = |v: &[usize]| {
            let mut s = v.to_vec();
            s.sort_unstable();
            s[s.len() * 99 / 100]
        };
        let (size, bound) = (mean(&self.sizes), mean(&self.bounds));
        println!("random walk on 10 BSP levels of depth {DEPTH} with their monsters");
        println!(
            "{} Sight messages, {} with monster changes ({} changes)",
            self.sizes.len(),
            self.with_monsters,
            self.monster_changes
        );
        println!("Sight message: mean {size:.1} bytes, p99 {} bytes", p99(&self.sizes));
        println!("lower bound: mean {bound:.1}, p99 {}", p99(&self.bounds));
        println!(
            "ratio: mean {:.2}x, p99 {:.2}x",
            size / bound,
            p99(&self.sizes) as f64 / p99(&self.bounds) as f64
        );
        println!("WebSocket framing adds 2 bytes a message (server frames are unmasked)");
    }
}

/// One byte naming the monster, and one for each thing the change tells.
fn monster_bound(change: &MonsterChange) -> usize {
    match change {
        // Its sleep shares the wound's byte.
        MonsterChange::Appeared { .. } => 3,
        MonsterChange::Moved { .. } | MonsterChange::Hurt { .. } | MonsterChange::Slept { .. } => 2,
        MonsterChange::Vanished { .. } => 1,
    }
}
