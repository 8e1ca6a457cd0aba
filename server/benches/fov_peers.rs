//! Gloam's field of view beside the seed chapter's 68-ray cast and three
//! published crates, radius 8, from every open cell of seeded BSP and maze
//! levels, round-robin (one FOV per iteration).
//! `cargo bench -p gloam-server --bench fov_peers`
//!
//! Each peer writes into the same kind of 17x17 mask ours does where its API
//! allows; doryen-fov clears and fills a map-sized array and bracket returns
//! a HashSet, which is what using them costs.

use std::hint::black_box;

use adam_fov_rs::IVec2;
use bracket_pathfinding::prelude::{Algorithm2D, BaseMap, FieldOfViewAlg, Point};
use criterion::{Criterion, criterion_group, criterion_main};
use doryen_fov::{FovAlgorithm, FovRecursiveShadowCasting, MapData};
use gloam_protocol::Pos;
use gloam_server::level::Level;
use gloam_server::mapgen::{self, Generator};

const R: i32 = 8;

fn levels() -> Vec<Level> {
    (0..8u64)
        .map(|s| mapgen::build(Generator::Bsp, s, 2))
        .chain((0..8u64).map(|s| mapgen::build(Generator::Maze, s, 2)))
        .collect()
}

fn viewpoints(levels: &[Level]) -> Vec<(usize, Pos)> {
    levels
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.grid.iter().filter(|(_, t)| t.is_open()).map(move |(p, _)| (i, p)))
        .collect()
}

/// The seed chapter's sight: 68 rays to the edge of the 17x17 square,
/// stepping a cell at a time, stopping at the circle or after a wall.
fn ray_cast(level: &Level, at: Pos, mask: &mut [u32; 17]) {
    *mask = [0; 17];
    let (ox, oy) = (i32::from(at.x), i32::from(at.y));
    let mut cast = |tx: i32, ty: i32| {
        let steps = tx.abs().max(ty.abs());
        for s in 0..=steps {
            let dx = (f64::from(tx * s) / f64::from(steps)).round() as i32;
            let dy = (f64::from(ty * s) / f64::from(steps)).round() as i32;
            if dx * dx + dy * dy > R * R {
                break;
            }
            mask[(dy + R) as usize] |= 1 << (dx + R);
            if level.grid.blocks_sight(ox + dx, oy + dy) {
                break;
            }
        }
    };
    for i in -R..=R {
        cast(i, -R);
        cast(i, R);
        cast(-R, i);
        cast(R, i);
    }
}

struct BracketMap<'a>(&'a Level);

impl BaseMap for BracketMap<'_> {
    fn is_opaque(&self, idx: usize) -> bool {
        !self.0.grid.cells()[idx].is_open()
    }
}

impl Algorithm2D for BracketMap<'_> {
    fn dimensions(&self) -> Point {
        Point::new(i32::from(self.0.width()), i32::from(self.0.height()))
    }
}

fn peers(c: &mut Criterion) {
    let levels = levels();
    let points = viewpoints(&levels);
    let mut group = c.benchmark_group("fov radius 8, every open cell of 8 BSP and 8 maze levels");

    let mut i = 0;
    group.bench_function("gloam symmetric shadowcasting", |b| {
        b.iter(|| {
            let (l, at) = points[i % points.len()];
            i += 1;
            let grid = &levels[l].grid;
            black_box(grid.fov(at, 8))
        })
    });

    let mut i = 0;
    let mut mask = [0u32; 17];
    group.bench_function("seed chapter 68-ray cast", |b| {
        b.iter(|| {
            let (l, at) = points[i % points.len()];
            i += 1;
            ray_cast(&levels[l], at, &mut mask);
            black_box(&mask);
        })
    });

    let mut i = 0;
    group.bench_function("adam_fov_rs", |b| {
        b.iter(|| {
            let (l, at) = points[i % points.len()];
            i += 1;
            let level = &levels[l];
            let mut mask = [0u32; 17];
            let (ox, oy) = (i32::from(at.x), i32::from(at.y));
            adam_fov_rs::compute_fov(
                [ox, oy],
                R as usize,
                [u32::from(level.width()), u32::from(level.height())],
                |p: IVec2| level.grid.blocks_sight(p.x, p.y),
                |p: IVec2| {
                    let (dx, dy) = (p.x - ox, p.y - oy);
                    if dx.abs() <= R && dy.abs() <= R {
                        mask[(dy + R) as usize] |= 1 << (dx + R);
                    }
                },
            );
            black_box(mask)
        })
    });

    let mut maps: Vec<MapData> = levels
        .iter()
        .map(|l| {
            let mut m = MapData::new(usize::from(l.width()), usize::from(l.height()));
            for (p, t) in l.grid.iter() {
                m.set_transparent(usize::from(p.x), usize::from(p.y), t.is_open());
            }
            m
        })
        .collect();
    let mut doryen = FovRecursiveShadowCasting::new();
    let mut i = 0;
    group.bench_function("doryen-fov recursive shadowcasting", |b| {
        b.iter(|| {
            let (l, at) = points[i % points.len()];
            i += 1;
            let map = &mut maps[l];
            map.clear_fov();
            doryen.compute_fov(map, usize::from(at.x), usize::from(at.y), R as usize, true);
            black_box(map.is_in_fov(usize::from(at.x), usize::from(at.y)))
        })
    });

    let mut i = 0;
    group.bench_function("bracket-pathfinding symmetric shadowcasting", |b| {
        b.iter(|| {
            let (l, at) = points[i % points.len()];
            i += 1;
            let map = BracketMap(&levels[l]);
            black_box(FieldOfViewAlg::SymmetricShadowcasting.field_of_view_set(
                Point::new(i32::from(at.x), i32::from(at.y)),
                R,
                &map,
            ))
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = peers
}
criterion_main!(benches);
