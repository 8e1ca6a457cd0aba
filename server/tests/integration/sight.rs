//! Properties of the field of view on real levels.

use gloam_protocol::Pos;
use gloam_server::fov::Fov;
use gloam_server::level::Level;
use gloam_server::mapgen::{self, Generator};

fn fov(level: &Level, at: Pos) -> Fov {
    level.grid.fov(at, 8)
}

fn levels() -> impl Iterator<Item = Level> {
    (0..40u64)
        .map(|s| mapgen::build(Generator::Bsp, s, 2))
        .chain((0..10u64).map(|s| mapgen::build(Generator::Maze, s, 2)))
}

#[test]
fn sight_is_symmetric_between_every_pair_of_open_cells() {
    let mut pairs = 0u64;
    for (n, level) in levels().enumerate() {
        let grid = &level.grid;
        let views: Vec<Option<Fov>> =
            grid.iter().map(|(p, t)| t.is_open().then(|| fov(&level, p))).collect();
        for (i, view) in views.iter().enumerate() {
            let Some(view) = view else { continue };
            let a = grid.pos_of(i);
            for b in view.cells().filter(|&b| grid.is_open(b)) {
                let back = views[grid.index(b)].as_ref().expect("b is open");
                assert!(back.sees(a), "level {n}: {a:?} sees {b:?} but not back");
                pairs += 1;
            }
        }
    }
    assert!(pairs > 100_000, "checked {pairs} pairs");
}

#[test]
fn walls_are_seen_but_nothing_past_the_first_wall_in_a_straight_line() {
    for level in levels() {
        let grid = &level.grid;
        for (a, t) in grid.iter().filter(|(_, t)| t.is_open()) {
            let _ = t;
            let view = fov(&level, a);
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                // Walk straight out: every cell up to and including the first wall is seen, none past it.
                let mut blocked = false;
                for k in 1..=8 {
                    let Some(p) = a.offset(dx * k, dy * k) else { break };
                    if blocked {
                        assert!(!view.sees(p), "{p:?} seen from {a:?} through a wall");
                    } else {
                        assert!(view.sees(p), "{p:?} not seen from {a:?} in a clear line");
                        blocked = !grid.is_open(p);
                    }
                }
            }
        }
    }
}
