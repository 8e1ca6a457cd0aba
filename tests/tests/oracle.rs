//! The oracle's own sight agrees with the server's on real levels, so the
//! scenarios check the server against an independent implementation.

use std::collections::HashSet;

use gloam_protocol::Pos;
use gloam_server::fov::Fov;
use gloam_server::mapgen::{self, Generator};
use gloam_tests::reference_fov;

#[test]
fn reference_and_server_sight_agree_from_every_open_cell() {
    let mut compared = 0;
    for (generator, seeds) in [(Generator::Bsp, 0..15u64), (Generator::Maze, 0..5u64)] {
        for seed in seeds {
            let level = mapgen::build(generator, seed, 1);
            let opaque = |x: i64, y: i64| level.grid.blocks_sight(x as i32, y as i32);
            for (at, _) in level.grid.iter().filter(|(_, t)| t.is_open()) {
                let ours: HashSet<Pos> =
                    Fov::compute(at, 8, |x, y| level.grid.blocks_sight(x, y)).cells().collect();
                assert_eq!(
                    ours,
                    reference_fov(at, 8, &opaque),
                    "{generator:?} seed {seed} at {at:?}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 10_000);
}
