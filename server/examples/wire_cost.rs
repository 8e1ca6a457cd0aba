//! What a move costs on the wire: a random walk through seeded levels,
//! played through the server's own rules (no sockets), measuring the
//! encoded `Sight` answering each move against a lower bound of one byte
//! per cell entering or leaving sight.
//! `cargo run --release -p gloam-server --example wire_cost [MOVES]`

use std::sync::Arc;

use gloam_protocol::{Action, Dir, PlayerId, ServerMsg, codec};
use gloam_server::mapgen::{self, Generator, LevelRng};
use gloam_server::world::{Arrival, DepthState, Player};
use rand::{RngExt, SeedableRng};

fn main() {
    let moves: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(5_000);
    let mut rng = LevelRng::seed_from_u64(2026);
    let (mut sizes, mut bounds) = (Vec::with_capacity(moves), Vec::with_capacity(moves));
    let me = PlayerId(1);
    let per_level = moves / 10;
    for seed in 0..10u64 {
        let level = Arc::new(mapgen::build(Generator::Bsp, seed, 1));
        let mut depth = DepthState::new(1, level.clone(), 8);
        depth.arrive(Player::new(me, "walker".into()), Arrival::Join);
        let mut made = 0;
        while made < per_level {
            let at = depth.player(me).expect("on the level").pos;
            let open: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| at.step(d).is_some_and(|p| level.terrain(p).is_open()))
                .collect();
            let dir = open[rng.random_range(0..open.len())];
            for out in depth.act(me, Action::Move(dir)).out {
                if let ServerMsg::Sight(diff) = &out.msg {
                    sizes.push(codec::encode(&out.msg).len());
                    bounds.push(diff.hidden.len() + diff.shown.len() + diff.revealed.len());
                }
            }
            made += 1;
        }
    }
    let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / v.len() as f64;
    let p99 = |v: &[usize]| {
        let mut s = v.to_vec();
        s.sort_unstable();
        s[s.len() * 99 / 100]
    };
    println!("random walk, {} moves on 10 BSP levels", sizes.len());
    println!("Sight message: mean {:.1} bytes, p99 {} bytes", mean(&sizes), p99(&sizes));
    println!(
        "lower bound (one byte per cell entering or leaving sight): mean {:.1}, p99 {}",
        mean(&bounds),
        p99(&bounds)
    );
    println!("WebSocket framing adds 2 bytes a message (server frames are unmasked)");
}
