//! How long one full redraw takes: a whole level remembered, a view in
//! sight, the HUD; drawn by SDL's software renderer into an off-screen
//! surface (a window's renderer is usually faster).
//! `cargo bench -p gloam-client --bench redraw`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use gloam_client::ClientState;
use gloam_client::chat::Chat;
use gloam_client::render::{Atlas, DEFAULT_CELL_PX, GRID_COLS, GRID_ROWS, draw_frame, load_font};
use gloam_client::scene::{Link, Page, Scene};
use gloam_protocol::{Disc, PlayerId, ServerMsg, SightDiff};
use gloam_server::mapgen::{self, Generator};
use sdl3::pixels::PixelFormat;
use sdl3::surface::Surface;

/// Every cell of a level remembered and the view from its arrival point in sight.
fn full_state() -> ClientState {
    let level = mapgen::build(Generator::Bsp, 3, 1);
    let (w, h) = (level.width(), level.height());
    let cells = usize::from(w) * usize::from(h);
    let mut s = ClientState::new();
    s.apply(&ServerMsg::Welcome {
        you: PlayerId(1),
        width: w,
        height: h,
        sight_radius: 8,
        actions_per_second: 20,
        token: None,
        world: String::new(),
    })
    .unwrap();
    let terrain = level.grid.cells().to_vec();
    // Every cell remembered: all bits set, none past the last cell.
    let mut bits = vec![0xffu8; cells.div_ceil(8)];
    if cells % 8 != 0 {
        bits[cells / 8] = (1u8 << (cells % 8)) - 1;
    }
    s.apply(&ServerMsg::EnterLevel { depth: 1, width: w, height: h, remembered: bits, terrain })
        .unwrap();
    let fov = level.grid.fov(level.arrival, 8);
    let disc = Disc::new(8);
    let c = level.arrival;
    let shown = fov
        .cells()
        .filter_map(|p| {
            disc.index(i32::from(p.x) - i32::from(c.x), i32::from(p.y) - i32::from(c.y))
        })
        .collect();
    s.apply(&ServerMsg::Sight(SightDiff { at: c, shown, ..SightDiff::default() })).unwrap();
    for i in 0..3 {
        s.apply(&ServerMsg::Note(format!("message {i}"))).unwrap();
    }
    s
}

fn redraw(c: &mut Criterion) {
    let state = full_state();
    let chat = Chat::default();
    let ttf = sdl3::ttf::init().unwrap();
    let font = load_font(
        &ttf,
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/DejaVuSansMono.ttf"),
        16.0,
    )
    .unwrap();
    let (w, h) = (DEFAULT_CELL_PX * u32::from(GRID_COLS), DEFAULT_CELL_PX * u32::from(GRID_ROWS));
    let mut canvas = Surface::new(w, h, PixelFormat::RGBA32).unwrap().into_canvas().unwrap();
    let creator = canvas.texture_creator();
    let mut atlas = Atlas::build(&creator, &font, DEFAULT_CELL_PX).unwrap();
    c.bench_function("full redraw, whole level known, software renderer 1280x720", |b| {
        b.iter(|| {
            let scene = Scene::new(black_box(&state), &chat, &Link::Playing, Page::Map);
            draw_frame(&mut canvas, &mut atlas, &scene).unwrap()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(4));
    targets = redraw
}
criterion_main!(benches);
