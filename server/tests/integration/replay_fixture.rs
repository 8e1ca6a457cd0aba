//! A depth's history recorded by an earlier build still replays to the
//! checksum that build computed: the fixture is the log of a long game on
//! a seeded depth (four players arriving, leaving, walking into walls and
//! monsters, waiting, fighting the seed's monsters, ten of them dying, and
//! rounds closed by the deadline), each entry as the store keeps it, and
//! the checksum the live depth had after the last. Reshaping the rules
//! must not change what a stored history means.
//!
//! When the rules are meant to change what a history replays to, raise
//! `RULES_VERSION` (the server then sets older histories aside instead of
//! replaying them wrong) and record this build's fixture, named after the
//! version, with `GLOAM_WRITE_FIXTURE=1 cargo test -p gloam-server --test
//! integration replay_fixture:: -- --ignored`; say so in the commit. The fixtures of
//! earlier versions stay, to show why they are set aside.

use std::path::PathBuf;

use gloam_protocol::{Action, Dir, PlayerId, codec};
use gloam_server::Config;
use gloam_server::world::{Arrival, Leaving, Player, RULES_VERSION, decode_history, fresh_depth};

const SEED: u64 = 2024;
const DEPTH: u16 = 7;
const COMMANDS: usize = 12_000;

/// The world the fixtures were recorded in: of the first edition, made
/// before there were vaults or the kinds of later editions, so its levels
/// have none of them (its store says so, and it keeps them).
fn world() -> Config {
    let config = Config::with_seed(SEED);
    let spec = gloam_server::config::WorldSpec {
        seed: SEED,
        generator: config.generator,
        mix: config.mix.clone(),
        edition: 1,
    };
    config.playing(spec)
}

/// The fixture recorded under rules `version`.
fn fixture(version: u32) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/fixtures/depth-7-seed-2024.rules-{version}.history"))
}

/// The fixture's entries, each as the store keeps it, then the checksum:
/// `u32` lengths and `u64`s little-endian.
fn read_fixture(version: u32) -> (Vec<Vec<u8>>, u64) {
    let bytes = std::fs::read(fixture(version)).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (a new RULES_VERSION needs its fixture: see the module doc)",
            fixture(version).display()
        )
    });
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut entries = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let (len, tail) = rest.split_at(4);
        let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
        let (entry, tail) = tail.split_at(len);
        entries.push(entry.to_vec());
        rest = tail;
    }
    (entries, u64::from_le_bytes(sum.try_into().unwrap()))
}

/// Rules 1 spent a round on a refused action (a wall bumped, `>` without
/// stairs); rules 2 spend nothing. The same log replays to another depth,
/// which is why a history's rules are stored beside it and an older one
/// is set aside rather than replayed.
#[test]
fn a_history_recorded_under_rules_1_replays_to_another_depth_under_these_rules() {
    let (stored, live) = read_fixture(1);
    let entries = decode_history(&stored).expect("every entry decodes");
    let mut depth = fresh_depth(&world(), DEPTH);
    let same = depth.replay(&entries).is_ok() && depth.checksum() == live;
    assert!(!same, "rules 1's history replays as it did: RULES_VERSION need not have changed");
}

#[test]
fn a_history_recorded_by_an_earlier_build_replays_to_its_checksum() {
    let (stored, live) = read_fixture(RULES_VERSION);
    assert!(stored.len() > COMMANDS / 2, "a long history: {} entries", stored.len());
    let entries = decode_history(&stored).expect("every entry decodes");
    let mut depth = fresh_depth(&world(), DEPTH);
    depth.replay(&entries).expect("the history fits its depth");
    assert_eq!(depth.checksum(), live, "the same depth as the one that recorded it");
    assert!(depth.rounds() > 500, "{} rounds", depth.rounds());
}

/// A small random stream for the scripted game, apart from the depth's.
struct Script(u64);

impl Script {
    fn next(&mut self, below: u64) -> u64 {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// The step that brings player `id` nearest to the nearest monster.
fn towards_a_monster(depth: &gloam_server::world::DepthState, id: PlayerId) -> Option<Dir> {
    let at = depth.player(id)?.pos;
    let far =
        |a: gloam_protocol::Pos, b: gloam_protocol::Pos| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y));
    let prey = depth.monsters().map(|m| m.pos).min_by_key(|&m| (far(at, m), m.x, m.y))?;
    Dir::ALL
        .into_iter()
        .filter(|&d| at.step(d).is_some())
        .min_by_key(|&d| far(at.step(d).unwrap(), prey))
}

/// Plays the scripted game and writes the fixture (see the module doc).
#[test]
#[ignore = "writes the fixture: run by hand with GLOAM_WRITE_FIXTURE=1"]
fn write_the_fixture() {
    if std::env::var_os("GLOAM_WRITE_FIXTURE").is_none() {
        return;
    }
    let mut depth = fresh_depth(&world(), DEPTH);
    let monsters = depth.monsters().count();
    let mut script = Script(SEED);
    let mut log = Vec::new();
    let (mut deaths, mut arrivals) = (0, 0);
    for _ in 0..COMMANDS {
        let id = PlayerId(1 + script.next(4) as u32);
        let roll = script.next(100);
        if depth.player(id).is_none() {
            let player = Player::new(id, format!("p{}", id.0));
            let via = if arrivals % 2 == 0 { Arrival::Join } else { Arrival::FromAbove };
            arrivals += 1;
            depth.arrive(player, via);
        } else if roll < 2 {
            depth.leave(id, Leaving::Quit);
        } else if roll < 6 {
            depth.deadline(id);
        } else if roll < 16 {
            depth.act(id, Action::Wait);
        } else if roll < 40 {
            let dir = towards_a_monster(&depth, id).unwrap_or(Dir::ALL[script.next(8) as usize]);
            let turn = depth.act(id, Action::Move(dir));
            deaths += turn.flow.deaths.len();
        } else {
            let dir = Dir::ALL[script.next(8) as usize];
            let turn = depth.act(id, Action::Move(dir));
            deaths += turn.flow.deaths.len();
        }
        log.extend(depth.take_log().map(|part| part.entries).unwrap_or_default());
    }
    let killed = monsters - depth.monsters().count();
    eprintln!("{deaths} deaths, {killed} killed");
    assert!(deaths > 0 && killed > 0, "somebody died, and some monsters");
    let mut bytes = Vec::new();
    for entry in &log {
        let encoded = codec::encode(entry);
        bytes.extend(u32::try_from(encoded.len()).unwrap().to_le_bytes());
        bytes.extend(encoded);
    }
    bytes.extend(depth.checksum().to_le_bytes());
    let file = fixture(RULES_VERSION);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, bytes).unwrap();
    eprintln!("{} entries, {} rounds, {deaths} deaths, {killed} killed", log.len(), depth.rounds());
}
