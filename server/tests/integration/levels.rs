//! Properties of every generator over many seeds, and one ASCII snapshot each.

use gloam_protocol::{Pos, Terrain};
use gloam_server::level::{Level, MAP_HEIGHT, MAP_WIDTH};
use gloam_server::mapgen::{self, Generator, GeneratorSetting, LevelRng, bsp, maze};
use gloam_server::seeds::DepthSeeds;
use rand::SeedableRng;

const SEEDS: u64 = 1_000;

fn check_finished(level: &Level, depth: u16, what: &str) {
    let grid = &level.grid;
    assert_eq!((grid.width(), grid.height()), (MAP_WIDTH, MAP_HEIGHT), "{what}");
    for (pos, t) in grid.iter() {
        let border = pos.x == 0 || pos.y == 0 || pos.x == MAP_WIDTH - 1 || pos.y == MAP_HEIGHT - 1;
        assert!(!border || t == Terrain::Wall, "{what}: border cell {pos:?} is {t:?}");
    }
    let walk = grid.walk_from(level.arrival);
    let mut max = 0;
    for (pos, t) in grid.iter() {
        if t.is_open() {
            let d = walk.get(pos);
            assert!(d.is_some(), "{what}: open cell {pos:?} cannot be reached");
            max = max.max(d.unwrap_or(0));
        }
    }
    assert_eq!(grid.get(level.stairs_down), Terrain::StairsDown, "{what}");
    assert_eq!(
        walk.get(level.stairs_down),
        Some(max),
        "{what}: stairs not at the greatest walking distance"
    );
    let expected_arrival = if depth > 1 { Terrain::StairsUp } else { Terrain::Floor };
    assert_eq!(grid.get(level.arrival), expected_arrival, "{what}");
    let downs = grid.iter().filter(|&(_, t)| t == Terrain::StairsDown).count();
    let ups = grid.iter().filter(|&(_, t)| t == Terrain::StairsUp).count();
    assert_eq!((downs, ups), (1, usize::from(depth > 1)), "{what}: one staircase each way");
}

#[test]
fn bsp_levels_are_connected_bordered_and_stairs_are_farthest() {
    for seed in 0..SEEDS {
        let depth = 1 + (seed % 3) as u16;
        check_finished(
            &mapgen::build(Generator::Bsp, seed, depth),
            depth,
            &format!("bsp seed {seed}"),
        );
    }
}

#[test]
fn maze_levels_are_connected_bordered_and_stairs_are_farthest() {
    for seed in 0..SEEDS {
        let depth = 1 + (seed % 3) as u16;
        check_finished(
            &mapgen::build(Generator::Maze, seed, depth),
            depth,
            &format!("maze seed {seed}"),
        );
    }
}

#[test]
fn bsp_rooms_sit_inside_their_leaves_apart_and_big_enough() {
    for seed in 0..SEEDS {
        let plan = bsp::carve(&mut LevelRng::seed_from_u64(seed), MAP_WIDTH, MAP_HEIGHT, None);
        assert_eq!(plan.rooms.len(), plan.leaves.len());
        assert!(plan.rooms.len() >= 2, "seed {seed}: at least two rooms");
        for (room, leaf) in plan.rooms.iter().zip(&plan.leaves) {
            assert!(
                room.w >= bsp::MIN_ROOM_W && room.h >= bsp::MIN_ROOM_H,
                "seed {seed}: {room:?}"
            );
            assert!(leaf.holds_with_margin(*room, 1), "seed {seed}: {room:?} not inside {leaf:?}");
            assert!(leaf.w >= bsp::MIN_LEAF && leaf.h >= bsp::MIN_LEAF, "seed {seed}: {leaf:?}");
        }
        for (i, a) in plan.rooms.iter().enumerate() {
            for b in &plan.rooms[i + 1..] {
                assert!(!a.overlaps(*b), "seed {seed}: {a:?} overlaps {b:?}");
            }
        }
        for (i, a) in plan.leaves.iter().enumerate() {
            for b in &plan.leaves[i + 1..] {
                assert!(!a.overlaps(*b), "seed {seed}: leaves overlap");
            }
        }
        let area: u32 = plan.leaves.iter().map(|l| u32::from(l.w) * u32::from(l.h)).sum();
        assert_eq!(
            area,
            u32::from(MAP_WIDTH) * u32::from(MAP_HEIGHT),
            "seed {seed}: leaves tile the map"
        );
    }
}

#[test]
fn mazes_are_perfect() {
    for seed in 0..SEEDS {
        let plan = maze::carve(&mut LevelRng::seed_from_u64(seed), MAP_WIDTH, MAP_HEIGHT, None);
        let n = usize::from(plan.cells_wide) * usize::from(plan.cells_high);
        let open = plan.grid.cells().iter().filter(|t| t.is_open()).count();
        // A spanning tree over n cells has n - 1 passages: 2n - 1 open cells.
        assert_eq!(open, 2 * n - 1, "seed {seed}");
        let walk = plan.grid.walk_from(plan.start);
        assert!(
            plan.grid.iter().all(|(p, t)| !t.is_open() || walk.get(p).is_some()),
            "seed {seed}: every passage reachable"
        );
        // Corridors are one cell wide: no 2x2 block is all open.
        for y in 0..MAP_HEIGHT - 1 {
            for x in 0..MAP_WIDTH - 1 {
                let block = [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .map(|(dx, dy)| plan.grid.is_open(Pos::new(x + dx, y + dy)));
                assert!(!block.iter().all(|&o| o), "seed {seed}: open 2x2 at ({x}, {y})");
            }
        }
    }
}

#[test]
fn the_same_seed_builds_the_same_level() {
    for seed in 0..SEEDS {
        for setting in [
            GeneratorSetting::One(Generator::Bsp),
            GeneratorSetting::One(Generator::Maze),
            GeneratorSetting::Mixed,
        ] {
            let depth = 1 + (seed % 7) as u16;
            assert_eq!(
                mapgen::build_level(seed, depth, setting),
                mapgen::build_level(seed, depth, setting),
                "seed {seed} {setting:?}"
            );
        }
    }
    assert_ne!(
        mapgen::build_level(1, 1, GeneratorSetting::One(Generator::Bsp)),
        mapgen::build_level(2, 1, GeneratorSetting::One(Generator::Bsp))
    );
    assert_ne!(
        mapgen::build_level(1, 1, GeneratorSetting::One(Generator::Bsp)),
        mapgen::build_level(1, 2, GeneratorSetting::One(Generator::Bsp))
    );
}

#[test]
fn mixed_worlds_keep_mazes_to_at_most_one_depth_in_five() {
    let mut mazes = 0;
    for seed in 0..SEEDS {
        let kinds: Vec<Generator> =
            (1..=50).map(|d| mapgen::generator_for(GeneratorSetting::Mixed, seed, d)).collect();
        assert_eq!(kinds[0], Generator::Bsp, "seed {seed}: depth 1 is never a maze");
        for (i, window) in kinds.windows(5).enumerate() {
            let n = window.iter().filter(|&&k| k == Generator::Maze).count();
            assert!(n <= 2, "seed {seed}: {n} mazes in depths {}..{}", i + 1, i + 5);
        }
        for block in kinds.chunks(5) {
            assert!(block.iter().filter(|&&k| k == Generator::Maze).count() <= 1, "seed {seed}");
        }
        mazes += kinds.iter().filter(|&&k| k == Generator::Maze).count();
    }
    let share = mazes as f64 / (SEEDS as f64 * 50.0);
    assert!((0.05..=0.2).contains(&share), "mazes are rare but present: {share}");
}

fn floor_percent(level: &Level) -> u32 {
    let open = level.grid.cells().iter().filter(|t| t.is_open()).count() as u32;
    let inner = u32::from(MAP_WIDTH - 2) * u32::from(MAP_HEIGHT - 2);
    open * 100 / inner
}

#[test]
fn every_generator_is_connected_bordered_deterministic_and_as_open_as_it_promises() {
    for generator in Generator::ALL {
        let promised = generator.floor_percent();
        for seed in 0..SEEDS {
            let depth = 1 + (seed % 3) as u16;
            let what = format!("{} seed {seed}", generator.name());
            let level = mapgen::build(generator, seed, depth);
            check_finished(&level, depth, &what);
            assert_eq!(level, mapgen::build(generator, seed, depth), "{what}: determinism");
            let share = floor_percent(&level);
            assert!(promised.contains(&share), "{what}: {share}% open, promised {promised:?}");
        }
    }
}

#[test]
fn recording_steps_changes_nothing_and_ends_with_the_finished_level() {
    for generator in Generator::ALL {
        let mut steps = mapgen::Steps::default();
        let recorded = mapgen::build_recorded(generator, 3, 2, Some(&mut steps));
        assert_eq!(recorded, mapgen::build(generator, 3, 2), "{}", generator.name());
        assert!(steps.frames.len() >= 2, "{}: {} frames", generator.name(), steps.frames.len());
        assert_eq!(steps.frames.last().map(|(_, g)| g), Some(&recorded.grid));
    }
}

#[test]
fn mixed_worlds_draw_by_the_hosts_weights() {
    let only_caves: mapgen::Mix = "caves=1,maze=0".parse().unwrap();
    for depth in 2..60 {
        assert_eq!(
            mapgen::generator_with(GeneratorSetting::Mixed, &only_caves, 9, depth),
            Generator::Caves
        );
    }
    let default = mapgen::Mix::default();
    let drawn: std::collections::HashSet<Generator> = (0..200)
        .flat_map(|s| (2..12).map(move |d| (s, d)))
        .map(|(s, d)| mapgen::generator_with(GeneratorSetting::Mixed, &default, s, d))
        .collect();
    assert_eq!(drawn.len(), Generator::ALL.len(), "every generator turns up: {drawn:?}");
    assert!("bogus=1".parse::<mapgen::Mix>().is_err());
    assert!("maze=3".parse::<mapgen::Mix>().is_err(), "mazes alone are not a world");
    assert!("bsp=x".parse::<mapgen::Mix>().is_err());
}

#[test]
fn snapshot_of_each_new_generator() {
    for generator in [
        Generator::Interior,
        Generator::Caves,
        Generator::DrunkArea,
        Generator::DrunkHalls,
        Generator::DrunkPassages,
    ] {
        insta::assert_snapshot!(generator.name(), mapgen::build(generator, 7, 2).grid.to_ascii());
    }
}

#[test]
fn snapshot_of_a_bsp_level() {
    insta::assert_snapshot!(mapgen::build(Generator::Bsp, 7, 2).grid.to_ascii());
}

#[test]
fn snapshot_of_a_maze_level() {
    insta::assert_snapshot!(mapgen::build(Generator::Maze, 7, 2).grid.to_ascii());
}

/// Every world already played rebuilds its levels from their seeds, so a
/// generator made faster must build exactly what it built before: the
/// same cells, stairs and monsters for the first 200 seeds of each,
/// digested, for the worlds made before vaults (edition 1: no vaults) and
/// since (edition 2: the built-in ones), each with the kinds of monster of
/// its edition (those of later editions live nowhere in them). Change the digests only with a change meant to
/// make new dungeons, and then only for new worlds (a world's store says
/// which levels it has: see `store::world`), or old worlds' players find
/// their maps wrong.
#[test]
fn generators_build_the_same_levels_and_monsters_as_before() {
    assert_eq!(digests(&mapgen::Vaults::none(), 1), DIGESTS);
    assert_eq!(digests(mapgen::Vaults::built_in(), 2), DIGESTS_WITH_VAULTS);
}

fn digests(vaults: &mapgen::Vaults, edition: u16) -> Vec<(&'static str, u64)> {
    use gloam_server::bestiary::Bestiary;
    use gloam_server::mapgen::populate::populate;
    let bestiary = Bestiary::default().as_of(edition);
    Generator::ALL
        .into_iter()
        .map(|generator| {
            let mut digest = Fnv::default();
            for seed in 0..200u64 {
                let depth = 1 + (seed % 12) as u16;
                let level = mapgen::build_with(generator, seed, depth, vaults, None);
                digest.add(level.grid.to_ascii().as_bytes());
                for pos in [level.arrival, level.stairs_down] {
                    digest.add(&[pos.x.to_le_bytes(), pos.y.to_le_bytes()].concat());
                }
                for m in populate(&level, &bestiary, DepthSeeds::from_level_seed(seed), depth, &[])
                {
                    digest.add(
                        &[m.kind.to_le_bytes(), m.pos.x.to_le_bytes(), m.pos.y.to_le_bytes()]
                            .concat(),
                    );
                }
            }
            (generator.name(), digest.0)
        })
        .collect()
}

const DIGESTS: [(&str, u64); 7] = [
    ("bsp", 14437273653762738901),
    ("maze", 12504841192353856049),
    ("interior", 173073050267778323),
    ("caves", 2937900404352897049),
    ("drunk-area", 14898312912439155889),
    ("drunk-halls", 6095347149278922011),
    ("drunk-passages", 504053427658450628),
];

const DIGESTS_WITH_VAULTS: [(&str, u64); 7] = [
    ("bsp", 1079573342539415561),
    ("maze", 12504841192353856049),
    ("interior", 173073050267778323),
    ("caves", 169073568276844533),
    ("drunk-area", 12355817166528361343),
    ("drunk-halls", 363265970345399306),
    ("drunk-passages", 13052847529454585994),
];

/// FNV-1a, 64 bits: a digest that stays the same across builds and machines.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}
