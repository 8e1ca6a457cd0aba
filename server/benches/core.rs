//! The server's hot pieces: one field of view, and one level with its BFS.
//! `cargo bench -p gloam-server --bench core`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gloam_protocol::Pos;
use gloam_server::fov::Fov;
use gloam_server::level::Level;
use gloam_server::mapgen::{self, Generator};

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
                black_box(Fov::compute(at, 8, |x, y| level.grid.blocks_sight(x, y)))
            })
        });
    }
}

fn levels(c: &mut Criterion) {
    for generator in Generator::ALL {
        let name = generator.name();
        // A new seed each time: a repeated map flatters the branch predictor.
        let mut seed = 0u64;
        c.bench_function(&format!("level {name} with stairs BFS, distinct seeds"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(mapgen::build(generator, seed, 2))
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
        depth.arrive(Player::new(PlayerId(i), format!("p{i}")), Arrival::Join);
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
            let out = depth.act(me, Action::Move(dir)).out;
            let bytes: usize = out.iter().map(|o| codec::encode(&o.msg).len()).sum();
            black_box(bytes)
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = fov, levels, codec, action
}
criterion_main!(benches);
