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
    for (name, generator) in [("bsp", Generator::Bsp), ("maze", Generator::Maze)] {
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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = fov, levels
}
criterion_main!(benches);
