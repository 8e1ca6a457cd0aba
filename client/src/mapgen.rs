//! `gloam mapgen`: the server's level report, and with `--png DIR` every
//! recorded step drawn as an image with the window's own glyphs and palette,
//! to play back as a flip-book.

use std::path::{Path, PathBuf};

use anyhow::Context;
use gloam_protocol::Pos;
use gloam_server::cli::{self, MapgenArgs};

use crate::palette;
use crate::render::{self, DEFAULT_CELL_PX, MAP_ROWS};
use crate::view::{level_glyphs, text_glyphs};

/// Writes `step-NNN.png` for each recorded step (with `--steps`) and
/// `level.png` for the finished level into `dir`; returns how many images.
pub fn write_pngs(args: &MapgenArgs, dir: &Path, font: &Path) -> anyhow::Result<usize> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let ttf = sdl3::ttf::init().map_err(|e| anyhow::anyhow!("cannot start SDL_ttf: {e}"))?;
    let font = render::load_font(&ttf, font, DEFAULT_CELL_PX as f32)?;
    let (generator, level, steps) = cli::build(args);
    let title =
        format!("{} level, world seed {}, depth {}", generator.name(), args.seed, args.depth);
    let mut frames: Vec<(String, &gloam_server::level::Grid, PathBuf)> = steps
        .frames
        .iter()
        .enumerate()
        .map(|(i, (what, grid))| {
            (
                format!("step {} of {}: {what}", i + 1, steps.frames.len()),
                grid,
                dir.join(format!("step-{:03}.png", i + 1)),
            )
        })
        .collect();
    frames.push(("finished".into(), &level.grid, dir.join("level.png")));
    for (caption, grid, path) in &frames {
        let glyphs = level_glyphs(
            |p: Pos| grid.contains(p).then(|| grid.get(p)),
            grid.width(),
            grid.height(),
        );
        let lines = [(title.clone(), palette::TEXT), (caption.clone(), palette::TEXT_MIDDLE)];
        render::render_glyphs_offscreen(&font, DEFAULT_CELL_PX, (&glyphs, None), |cols| {
            text_glyphs(&lines, MAP_ROWS, cols)
        })?
        .save_png(path)?;
    }
    Ok(frames.len())
}
