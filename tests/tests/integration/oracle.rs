//! The oracle's own sight agrees with the server's on real levels, so the
//! scenarios check the server against an independent implementation.

use std::collections::HashSet;

use gloam_protocol::Pos;
use gloam_server::fov::Fov;
use gloam_server::mapgen::{self, Generator};
use gloam_tests::reference_fov;
use proptest::prelude::*;

#[test]
fn reference_and_server_sight_agree_from_every_open_cell() {
    let mut compared = 0;
    for generator in Generator::ALL {
        let seeds = if generator == Generator::Bsp { 0..15u64 } else { 0..4u64 };
        for seed in seeds {
            let level = mapgen::build(generator, seed, 1);
            let opaque = |x: i64, y: i64| level.grid.blocks_sight(x as i32, y as i32);
            for (at, _) in level.grid.iter().filter(|(_, t)| t.is_open()) {
                let ours: HashSet<Pos> = level.grid.fov(at, 8).cells().collect();
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

/// A random map of `width` × `height` cells, `walls` its opaque cells by
/// index; everything off it is opaque.
fn opaque_in(width: i64, height: i64, walls: &[bool]) -> impl Fn(i64, i64) -> bool + '_ {
    move |x, y| x < 0 || y < 0 || x >= width || y >= height || walls[(y * width + x) as usize]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any map, any radius up to 8, any viewpoint (near the edge or on a wall
    /// too): the server's bit-parallel scan sees what the reference sees.
    #[test]
    fn reference_and_server_sight_agree_on_random_maps(
        walls in proptest::collection::vec(proptest::bool::weighted(0.3), 24 * 20),
        x in 0u16..24,
        y in 0u16..20,
        radius in 0u8..=8,
    ) {
        let opaque = opaque_in(24, 20, &walls);
        let at = Pos::new(x, y);
        let ours: HashSet<Pos> =
            Fov::compute(at, radius, |x, y| opaque(i64::from(x), i64::from(y))).cells().collect();
        prop_assert_eq!(ours, reference_fov(at, i64::from(radius), &opaque));
    }
}

/// The oracle passes what the server tells two players on one level, and
/// refuses a client shown another player on its own cell or two players on
/// one cell (a client mixing two moments).
#[test]
fn the_oracle_refuses_two_players_on_one_cell() {
    use gloam_protocol::{PlayerChange, PlayerId, ServerMsg};
    use gloam_server::Config;
    use gloam_server::world::{Arrival, Player, fresh_depth};
    use gloam_tests::Oracle;
    let config = Config::quiet(5);
    let mut depth = fresh_depth(&config, 1);
    let (ann, bob, cy) = (PlayerId(1), PlayerId(2), PlayerId(3));
    let mut out = Vec::new();
    for (id, name) in [(ann, "ann"), (bob, "bob"), (cy, "cy")] {
        let mut outcome = depth.arrive(Player::new(id, name.into()), Arrival::Join);
        depth.tell_all_the_still(&mut outcome);
        out.extend(outcome.out);
    }
    let level = depth.level();
    let mut state = gloam_client::testing::welcomed(ann, level.width(), level.height());
    let mut oracle = Oracle::new(config.seed, config.generator, config.sight_radius);
    for o in out.iter().filter(|o| o.to == ann) {
        state.apply(&o.msg).unwrap();
        oracle.check(&o.msg, &state).unwrap();
    }
    assert_eq!(state.others.len(), 2, "ann sees bob and cy beside her");
    let (mine, cys) = (state.at.unwrap(), state.others[&cy].at);
    for lie in [
        ServerMsg::Players(vec![PlayerChange::Moved { id: bob, at: mine }]),
        ServerMsg::Players(vec![PlayerChange::Moved { id: bob, at: cys }]),
    ] {
        let mut shown = state.clone();
        shown.apply(&lie).unwrap();
        let refused = oracle.clone().check(&lie, &shown);
        assert!(refused.is_err_and(|e| e.contains("taken")), "{lie:?}");
    }
}

/// A monster past those a depth's seed made is one the depth regained when
/// left alone: the oracle passes it when it is of a kind living at that
/// depth, and refuses one of a kind living only deeper.
#[test]
fn the_oracle_passes_only_what_a_depth_may_regain() {
    use gloam_protocol::{MonsterChange, MonsterId, PlayerId, ServerMsg, Terrain, Wound};
    use gloam_server::Config;
    use gloam_server::bestiary::Bestiary;
    use gloam_server::world::{Arrival, Player, fresh_depth};
    use gloam_tests::Oracle;
    let config = Config::with_seed(5);
    let bestiary = Bestiary::default();
    let mut depth = fresh_depth(&config, 1);
    let first = u32::try_from(depth.monsters().count()).unwrap();
    let ann = PlayerId(1);
    let mut outcome = depth.arrive(Player::new(ann, "ann".into()), Arrival::Join);
    depth.tell_all_the_still(&mut outcome);
    let level = depth.level();
    let mut state = gloam_client::testing::welcomed(ann, level.width(), level.height());
    let mut oracle = Oracle::new(config.seed, config.generator, config.sight_radius);
    let kinds = ServerMsg::Kinds(bestiary.kinds_info());
    let msgs =
        std::iter::once(&kinds).chain(outcome.out.iter().filter(|o| o.to == ann).map(|o| &o.msg));
    for msg in msgs {
        state.apply(msg).unwrap();
        oracle.check(msg, &state).unwrap();
    }
    let me = state.at.unwrap();
    let at = state
        .visible_cells()
        .filter(|&p| p != me && level.terrain(p) == Terrain::Floor)
        .min_by_key(|p| (p.x, p.y))
        .expect("floor in sight");
    let here = bestiary.living_at(1).next().expect("a kind at depth 1").0;
    let deep = (0..bestiary.kinds().len()).find(|&k| !bestiary.kinds()[k].lives_at(1)).unwrap();
    let shown = |kind: u16| {
        let id = MonsterId(first + 1);
        let msg = ServerMsg::Monsters(vec![MonsterChange::Appeared {
            id,
            kind,
            at,
            wound: Wound::Unhurt,
            asleep: false,
        }]);
        let mut shown = state.clone();
        shown.apply(&msg).unwrap();
        oracle.clone().check(&msg, &shown)
    };
    assert_eq!(shown(here), Ok(()), "a kind living at depth 1");
    let deep = u16::try_from(deep).unwrap();
    assert!(shown(deep).is_err_and(|e| e.contains("does not live there")), "a kind from deeper");
}

/// A monster of a kind that hides is told only next to the player: the
/// oracle refuses one told farther off, though in sight.
#[test]
fn the_oracle_refuses_a_hider_told_from_afar() {
    use gloam_protocol::{MonsterChange, MonsterId, PlayerId, ServerMsg, Terrain, Wound};
    use gloam_server::Config;
    use gloam_server::bestiary::Bestiary;
    use gloam_server::world::{Arrival, Player, fresh_depth};
    use gloam_tests::Oracle;
    let config = Config::with_seed(5);
    let bestiary = Bestiary::default();
    let mut depth = fresh_depth(&config, 1);
    let ann = PlayerId(1);
    let mut outcome = depth.arrive(Player::new(ann, "ann".into()), Arrival::Join);
    depth.tell_all_the_still(&mut outcome);
    let level = depth.level();
    let mut state = gloam_client::testing::welcomed(ann, level.width(), level.height());
    let mut oracle = Oracle::new(config.seed, config.generator, config.sight_radius);
    let kinds = ServerMsg::Kinds(bestiary.kinds_info());
    let msgs =
        std::iter::once(&kinds).chain(outcome.out.iter().filter(|o| o.to == ann).map(|o| &o.msg));
    for msg in msgs {
        state.apply(msg).unwrap();
        oracle.check(msg, &state).unwrap();
    }
    let me = state.at.unwrap();
    let off = |p: &Pos| p.x.abs_diff(me.x).max(p.y.abs_diff(me.y));
    let floor: Vec<Pos> = state
        .visible_cells()
        .filter(|&p| {
            p != me && level.terrain(p) == Terrain::Floor && depth.monsters().all(|m| m.pos != p)
        })
        .collect();
    let near = *floor.iter().find(|p| off(p) == 1).expect("floor next to ann");
    let far = *floor.iter().find(|p| off(p) >= 3).expect("floor in sight, farther off");
    let lurker = bestiary.find("lurker").unwrap();
    let shown = |at: Pos| {
        let msg = ServerMsg::Monsters(vec![MonsterChange::Appeared {
            id: MonsterId(1000),
            kind: lurker,
            at,
            wound: Wound::Unhurt,
            asleep: false,
        }]);
        let mut shown = state.clone();
        shown.apply(&msg).unwrap();
        oracle.clone().check(&msg, &shown)
    };
    assert!(shown(far).is_err_and(|e| e.contains("hides")), "told from afar");
    // Next to ann it is not refused for hiding (only for being none the
    // depth made: no lurker lives at depth 1).
    assert!(shown(near).is_err_and(|e| !e.contains("hides")), "told next to her");
}
