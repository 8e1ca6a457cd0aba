//! The server's hot pieces: one field of view, and one level with its BFS.
//! `cargo bench -p gloam-server --bench core`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gloam_protocol::Pos;
use gloam_server::level::Level;
use gloam_server::mapgen::{self, Generator};
use gloam_server::seeds::DepthSeeds;

fn viewpoints(generator: Generator) -> Vec<(Level, Vec<Pos>)> {
    (0..8u64)
        .map(|seed| {
            let level = mapgen::build(generator, seed, 2);
            let open = level.grid.iter().filter(|(_, t)| t.is_open()).map(|(p, _)| p).collect();
            (level, open)
        })
        .collect()
}

fn fov(c: &mut Criterion) {
    for (name, generator) in [("bsp", Generator::Bsp), ("maze", Generator::Maze)] {
        let levels = viewpoints(generator);
        let cells: Vec<(&Level, Pos)> =
            levels.iter().flat_map(|(l, ps)| ps.iter().map(move |&p| (l, p))).collect();
        let mut i = 0;
        c.bench_function(&format!("fov radius 8, every open cell of {name} levels"), |b| {
            b.iter(|| {
                let (level, at) = cells[i % cells.len()];
                i += 1;
                black_box(level.grid.fov(at, 8))
            })
        });
    }
}

fn levels(c: &mut Criterion) {
    let bestiary = gloam_server::bestiary::Bestiary::default();
    for generator in Generator::ALL {
        let name = generator.name();
        // A new seed each time: a repeated map flatters the branch predictor.
        let mut seed = 0u64;
        c.bench_function(&format!("level {name} with stairs and monsters, distinct seeds"), |b| {
            b.iter(|| {
                seed += 1;
                let level = mapgen::build(generator, seed, 2);
                let monsters = mapgen::populate::populate(
                    &level,
                    &bestiary,
                    DepthSeeds::from_level_seed(seed),
                    2,
                    &[],
                );
                black_box((level, monsters))
            })
        });
    }
}

fn codec(c: &mut Criterion) {
    use gloam_protocol::{ServerMsg, SightDiff, Terrain, codec};
    // A typical move: six cells out of sight, five back, one new.
    let sight = ServerMsg::Sight(SightDiff {
        at: Pos::new(40, 20),
        hidden: vec![3, 17, 40, 61, 90, 120],
        shown: vec![5, 33, 77, 150, 190],
        revealed: vec![(101, Terrain::Floor)],
        players: vec![],
        monsters: vec![],
        floor: vec![],
    });
    let bytes = codec::encode(&sight);
    c.bench_function(&format!("encode a per-move Sight ({} bytes)", bytes.len()), |b| {
        b.iter(|| black_box(codec::encode(black_box(&sight))))
    });
    c.bench_function("decode a per-move Sight", |b| {
        b.iter(|| black_box(codec::decode_server(black_box(&bytes)).unwrap()))
    });
    // Coming back to a level explored end to end.
    let level = mapgen::build(Generator::Bsp, 1, 1);
    let cells = level.grid.cells().len();
    let enter = ServerMsg::EnterLevel {
        depth: 1,
        width: level.width(),
        height: level.height(),
        remembered: vec![0xff; cells / 8],
        terrain: level.grid.cells().to_vec(),
    };
    let bytes = codec::encode(&enter);
    c.bench_function(
        &format!("encode a fully remembered EnterLevel ({} bytes)", bytes.len()),
        |b| b.iter(|| black_box(codec::encode(black_box(&enter)))),
    );
    c.bench_function("decode a fully remembered EnterLevel", |b| {
        b.iter(|| black_box(codec::decode_server(black_box(&bytes)).unwrap()))
    });
}

/// One action as the server does it, without sockets: apply a move,
/// recompute sight, build the diffs for everyone it concerns and encode them.
fn action(c: &mut Criterion) {
    use gloam_protocol::{Action, Dir, PlayerId, codec};
    use gloam_server::world::{Arrival, DepthState, Player};
    use std::sync::Arc;
    let level = Arc::new(mapgen::build(Generator::Bsp, 4, 1));
    let mut depth = DepthState::new(1, level.clone(), 8);
    // Four players in one room: each move concerns the other three too.
    for i in 1..=4 {
        let mut arrived = depth.arrive(Player::new(PlayerId(i), format!("p{i}")), Arrival::Join);
        // Everyone hears of each arrival, as a depth's task tells them.
        depth.tell_all_the_still(&mut arrived);
    }
    let me = PlayerId(1);
    let mut turn = 0usize;
    c.bench_function("one move: rules, sight, diffs for 4 players, encoding", |b| {
        b.iter(|| {
            let at = depth.player(me).unwrap().pos;
            // Back and forth along whichever way is open.
            let dir = Dir::ALL
                .into_iter()
                .cycle()
                .skip(turn % 8)
                .take(8)
                .find(|&d| at.step(d).is_some_and(|p| level.terrain(p).is_open()))
                .unwrap();
            turn += 1;
            let mut outcome = depth.act(me, Action::Move(dir));
            depth.tell_all_the_still(&mut outcome);
            let out = outcome.out;
            let bytes: usize = out.iter().map(|o| codec::encode(&o.msg).len()).sum();
            black_box(bytes)
        })
    });
}

/// A depth in a fight: 8 players and 100 awake jackals around them on a
/// cave level, every player in one party (the jackals see them all). With
/// `items`, 150 piles of one to three items lie over the level (every
/// twelfth cell in walking order from the arrival: about six within the
/// players' sight, the rest beyond it), laid before anyone arrives as a
/// depth's build does, and each player carries a pack: a mace wielded,
/// ring mail worn, potions, a scroll, darts and a wand of striking.
fn fight(items: bool, archers: bool) -> gloam_server::world::DepthState {
    use gloam_protocol::{PlayerId, walk::DistanceMap};
    use gloam_server::bestiary::Bestiary;
    use gloam_server::items::{Catalogue, Item, Pack};
    use gloam_server::world::{Arrival, DepthState, Player};
    use std::sync::Arc;
    let level = Arc::new(mapgen::build(Generator::Caves, 12, 5));
    let bestiary = Arc::new(Bestiary::default());
    let jackal = bestiary.find("jackal").unwrap();
    let archer = bestiary.find("kobold archer").unwrap();
    let mut depth =
        DepthState::with_bestiary(5, level.clone(), 8, bestiary, DepthSeeds::from_level_seed(12));
    let grid = &level.grid;
    let walk = DistanceMap::new(grid.width(), grid.height(), &[level.arrival], |i| {
        grid.cells()[i].is_open()
    });
    let mut cells: Vec<(u16, Pos)> = (0..grid.cells().len())
        .filter(|&i| walk.distances()[i] != u16::MAX)
        .map(|i| (walk.distances()[i], grid.pos_of(i)))
        .collect();
    cells.sort();
    let catalogue = items.then(|| Arc::new(Catalogue::built_in()));
    if let Some(catalogue) = &catalogue {
        depth.set_items(catalogue.clone());
        // The kinds that lie this deep, in turn: potions, scrolls, weapons,
        // armour and stacks of missiles (no wands: the piles stay as they
        // were before there were any, so the fights' figures compare).
        let kinds: Vec<_> = catalogue
            .placeable_at(5)
            .filter(|(_, k)| !matches!(k.class, gloam_server::items::Class::Wand { .. }))
            .map(|(id, k)| (id, k.stacks()))
            .collect();
        let every = cells.len() / PILES;
        for (i, &(_, pos)) in cells.iter().skip(1).step_by(every).take(PILES).enumerate() {
            for j in 0..1 + i % 3 {
                let (kind, stacks) = kinds[(i * 3 + j) % kinds.len()];
                depth.lay(pos, Item { kind, count: if stacks { 1 + (i % 5) as u16 } else { 1 } });
            }
        }
    }
    for i in 1..=8 {
        let mut p = Player::new(PlayerId(i), format!("p{i}"));
        // Enough hit points to outlast any measurement.
        p.vitals.hp = u16::MAX;
        p.vitals.max_hp = u16::MAX;
        if let Some(catalogue) = &catalogue {
            let carried = [("mace", 1), ("ring mail", 1), ("potion of healing", 2)]
                .into_iter()
                .chain([("scroll of teleportation", 1), ("dart", 8)])
                .map(|(name, count)| Item { kind: catalogue.find(name).unwrap(), count })
                .chain([Item::wand(catalogue.find("wand of striking").unwrap(), 1000)])
                .collect();
            p.pack = Pack::with_gear(carried, Some(0), Some(1));
        }
        let mut arrived = depth.arrive(p, Arrival::Join);
        // Everyone hears of each arrival, as a depth's task tells them.
        depth.tell_all_the_still(&mut arrived);
    }
    let mut placed = 0;
    for &(_, pos) in &cells {
        if placed == 100 {
            break;
        }
        // With archers, every fourth one shoots.
        let kind = if archers && placed % 4 == 3 { archer } else { jackal };
        placed += usize::from(depth.spawn(kind, pos).is_some());
    }
    assert_eq!(placed, 100);
    depth
}

/// The piles on the floor of [`fight`] with items.
const PILES: usize = 150;

/// One round of a depth in a fight, as the server does it without
/// sockets: each of 8 players acts (the first seven are answered and wait,
/// the eighth closes the round), then 100 awake monsters take their turn
/// on one distance map, sight and diffs for everyone, and every message
/// encoded. Four fights side by side: the players wait, with no items;
/// with items on the floor and in the packs (the jackals' bites meet the
/// ring mail worn); with items, each player striking a jackal next to
/// it if there is one (the mace's dice, a kill's experience shared by the
/// party, its loot); that with every fourth monster a kobold archer,
/// which shoots when its line is clear; and that with the players casters
/// too: one with no jackal next to it zaps a bolt from its wand of
/// striking at the nearest monster in its sight.
fn round(c: &mut Criterion) {
    use gloam_protocol::{Action, Dir, PlayerId, codec};
    use gloam_server::world::DepthState;
    let players: Vec<PlayerId> = (1..=8).map(PlayerId).collect();
    // A blow at the first jackal next to `p`, if any.
    let strike = |depth: &DepthState, p: PlayerId| {
        let at = depth.player(p).unwrap().pos;
        let next_to = |m: &gloam_server::world::Monster| {
            Dir::from_delta(
                i32::from(m.pos.x) - i32::from(at.x),
                i32::from(m.pos.y) - i32::from(at.y),
            )
        };
        depth.monsters().find_map(next_to).map_or(Action::Wait, Action::Move)
    };
    // A bolt at the nearest monster `p` sees, if any (its wand is the
    // pack's last entry).
    let zap = |depth: &DepthState, p: PlayerId| {
        let player = depth.player(p).unwrap();
        let sight = depth.level().grid.fov(player.pos, 8);
        let near = |m: &&gloam_server::world::Monster| {
            m.pos.x.abs_diff(player.pos.x).max(m.pos.y.abs_diff(player.pos.y))
        };
        let seen = depth.monsters().filter(|m| sight.sees(m.pos));
        let slot = player.pack.len() as u8 - 1;
        seen.min_by_key(near).map_or(Action::Wait, |m| Action::Zap { slot, at: m.pos })
    };
    let play_round = |depth: &mut DepthState, (blows, zaps): (bool, bool)| {
        let mut to_first = 0usize;
        let mut bytes = 0usize;
        for &p in &players {
            let action = match (blows, zaps) {
                (true, true) => Some(strike(depth, p))
                    .filter(|a| *a != Action::Wait)
                    .unwrap_or_else(|| zap(depth, p)),
                (true, false) => strike(depth, p),
                (false, _) => Action::Wait,
            };
            let mut outcome = depth.act(p, action);
            depth.tell_all_the_still(&mut outcome);
            for o in outcome.out {
                let n = codec::encode(&o.msg).len();
                bytes += n;
                if o.to == players[0] {
                    to_first += n;
                }
            }
        }
        (bytes, to_first)
    };
    let fights = [
        (false, false, false, false),
        (true, false, false, false),
        (true, true, false, false),
        (true, true, true, false),
        (true, true, true, true),
    ];
    for (items, blows, archers, zaps) in fights {
        let blows = (blows, zaps);
        // What one round sends, once the fight is under way.
        let mut depth = fight(items, archers);
        for _ in 0..5 {
            play_round(&mut depth, blows);
        }
        let (bytes, to_first) = play_round(&mut depth, blows);
        assert!(depth.rounds() >= 6, "every round closed");
        let fight_of = match (items, blows, archers) {
            (false, _, _) => "100 awake monsters".to_string(),
            (true, (false, _), _) => format!("100 awake monsters, {PILES} piles, gear worn"),
            (true, (true, _), false) => {
                format!("100 awake monsters, {PILES} piles, blows with gear")
            }
            (true, (true, false), true) => {
                format!("100 awake monsters, a quarter archers, {PILES} piles, blows with gear")
            }
            (true, (true, true), true) => format!(
                "100 awake monsters, a quarter archers, {PILES} piles, blows with gear, casters zapping bolts"
            ),
        };
        let name = format!(
            "one round: 8 players, {fight_of} ({bytes} bytes sent, {to_first} to one player)"
        );
        c.bench_function(&name, |b| {
            b.iter_batched(
                || {
                    let mut depth = fight(items, archers);
                    play_round(&mut depth, blows);
                    depth
                },
                // The depth is handed back, so dropping it is not measured.
                |mut depth| {
                    let sent = black_box(play_round(&mut depth, blows));
                    (depth, sent)
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
}

/// A line said to a depth of 200 players: cleaned text encoded once and
/// queued for each listener (and each listener's queue emptied again, as
/// its connection would).
fn chat(c: &mut Criterion) {
    use gloam_protocol::{ChatTo, PlayerId};
    use gloam_server::world::{Audience, Talkers};
    let talkers = Talkers::default();
    let mut ears = Vec::new();
    for i in 0..200 {
        let name = format!("p{i}");
        let audience = std::sync::Arc::new(Audience::new(&name, true, 8, 64));
        ears.push(talkers.join(&name, PlayerId(i), 1, audience));
    }
    c.bench_function("chat: one line to a depth of 200 players", |b| {
        b.iter(|| {
            let heard = talkers.say("p0", &ChatTo::Depth, "found the stairs, over here").unwrap();
            for (_, lines) in &mut ears {
                while lines.try_next().is_some() {}
            }
            black_box(heard)
        })
    });
}

/// The depth's side of watching: the frames of one move's reply (a sight
/// diff with a player in it, and the wait) handed to the player's audience
/// of none or eight watchers, whose feeds are then emptied as their
/// connections would. The writes to the watchers' sockets are not here:
/// `gloam-bot --watchers 8` measures the whole cost (BENCHMARKS.md).
fn watching(c: &mut Criterion) {
    use gloam_protocol::{PlayerChange, PlayerId, ServerMsg, SightDiff, codec};
    use gloam_server::world::Audience;
    let diff = SightDiff {
        at: Pos::new(10, 10),
        hidden: (0..9).collect(),
        revealed: (0..9).map(|i| (100 + i, gloam_protocol::Terrain::Floor)).collect(),
        players: vec![PlayerChange::Moved { id: PlayerId(2), at: Pos::new(12, 11) }],
        ..SightDiff::default()
    };
    let frames = vec![
        codec::encode(&ServerMsg::Waiting(Vec::new())),
        codec::encode(&ServerMsg::Sight(diff)),
    ];
    for watchers in [0u64, 8] {
        let audience = Audience::new("p1", true, 8, 64);
        let mut feeds: Vec<_> =
            (0..watchers).map(|i| audience.sit(&format!("w{i}"), i).unwrap()).collect();
        // Every seat given its view: from here on, changes only.
        audience.relay(Vec::new(), || Some(Vec::new()));
        for feed in &mut feeds {
            while feed.try_recv().is_ok() {}
        }
        c.bench_function(&format!("watching: one reply relayed to {watchers} watchers"), |b| {
            b.iter(|| {
                // As a depth's delivery does: the reply copied only for an audience.
                if audience.is_watched() {
                    audience.relay(black_box(frames.clone()), || None);
                }
                for feed in &mut feeds {
                    while feed.try_recv().is_ok() {}
                }
            })
        });
    }
}

/// A crowd of 300 on one level (piled around the arrival, as the load
/// tool's bots are) and 64 of them stepping: as the depth's task applies
/// them, in one batch, beside one at a time as before batches; the rules,
/// sight, what each player is told, and every message encoded.
fn crowd(c: &mut Criterion) {
    use gloam_protocol::{Action, Dir, PlayerId, codec};
    use gloam_server::world::{Arrival, DepthState, Player};
    use std::sync::Arc;
    let level = Arc::new(mapgen::build(Generator::Bsp, 4, 1));
    let mut depth = DepthState::new(1, level.clone(), 8);
    for i in 1..=300 {
        let mut arrived = depth.arrive(Player::new(PlayerId(i), format!("p{i}")), Arrival::Join);
        // Everyone hears of each arrival, as a depth's task tells them.
        depth.tell_all_the_still(&mut arrived);
    }
    let movers: Vec<PlayerId> = (1..=64).map(|i| PlayerId(i * 4)).collect();
    let mut turn = 0usize;
    let mut steps = |depth: &DepthState| {
        turn += 1;
        let open = |p: Pos| level.terrain(p).is_open();
        movers
            .iter()
            .map(|&id| {
                let at = depth.player(id).unwrap().pos;
                let dir = Dir::ALL.into_iter().cycle().skip(turn % 8).take(8);
                let dir = dir.clone().find(|&d| at.step(d).is_some_and(open)).unwrap_or(Dir::N);
                (id, Action::Move(dir))
            })
            .collect::<Vec<_>>()
    };
    let encoded = |out: &[gloam_server::world::Outgoing]| -> (usize, usize) {
        (out.len(), out.iter().map(|o| codec::encode(&o.msg).len()).sum())
    };
    // A batch, and those who stood still told at its end.
    let told = |depth: &mut DepthState, acts: Vec<(PlayerId, Action)>| {
        let mut outcome = depth.act_all(acts);
        depth.tell_all_the_still(&mut outcome);
        outcome.out
    };
    let acts = steps(&depth);
    let (messages, bytes) = encoded(&told(&mut depth, acts));
    let name = format!(
        "crowd: 64 moves among 300 players, one batch ({messages} messages, {bytes} bytes)"
    );
    c.bench_function(&name, |b| {
        b.iter(|| {
            let acts = steps(&depth);
            black_box(encoded(&told(&mut depth, acts)))
        })
    });
    let acts = steps(&depth);
    let (mut messages, mut bytes) = (0, 0);
    for act in acts {
        let (m, n) = encoded(&told(&mut depth, vec![act]));
        messages += m;
        bytes += n;
    }
    let name = format!(
        "crowd: 64 moves among 300 players, one at a time ({messages} messages, {bytes} bytes)"
    );
    c.bench_function(&name, |b| {
        b.iter(|| {
            let acts = steps(&depth);
            let sent: Vec<(usize, usize)> =
                acts.into_iter().map(|act| encoded(&told(&mut depth, vec![act]))).collect();
            black_box(sent)
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = fov, levels, codec, action, round, crowd, chat, watching
}
criterion_main!(benches);
