//! Drawing with SDL3: a glyph atlas rendered once from the font, tinted per
//! draw, and the frame drawn from the glyph lists of [`crate::view`] where
//! the [`Layout`] of the target's size puts them: the map's viewport
//! (through the [`Camera`]) or a page of text, and the HUD. Works on any
//! render target: the window, or an off-screen surface for tests and
//! images.

mod atlas;

use std::path::Path;

use sdl3::pixels::Color;
use sdl3::render::{Canvas, RenderTarget};
use sdl3::ttf::Font;

pub use atlas::Atlas;

pub use atlas::text_px_for;

use crate::layout::Layout;
use crate::palette::{self, Rgb};
use crate::scene::{Page, Scene};
use crate::view::{Glyph, cursor_cell, hud_glyphs, page_glyphs, page_text_glyphs};

/// The grid of `gloam mapgen`'s images (and of the redraw bench): the map's
/// cells and five rows of captions under it.
pub const GRID_COLS: u16 = 80;
pub(crate) const MAP_ROWS: u16 = 40;
pub const GRID_ROWS: u16 = MAP_ROWS + 5;
/// The cell size of `gloam mapgen`'s images.
pub const DEFAULT_CELL_PX: u32 = 16;

/// Why a frame could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("cannot load the font {path}: {reason}")]
    Font { path: String, reason: String },
    #[error("SDL: {0}")]
    Sdl(String),
}

impl RenderError {
    pub(crate) fn sdl(e: impl std::fmt::Display) -> Self {
        RenderError::Sdl(e.to_string())
    }
}

/// Loads the font, with an error that names the path.
pub fn load_font(
    ttf: &sdl3::ttf::Sdl3TtfContext,
    path: &Path,
    points: f32,
) -> Result<Font<'static>, RenderError> {
    let fail = |reason: String| RenderError::Font { path: path.display().to_string(), reason };
    if !path.is_file() {
        return Err(fail("no such file".into()));
    }
    ttf.load_font(path, points).map_err(|e| fail(e.to_string()))
}

fn rgb((r, g, b): Rgb) -> Color {
    Color::RGB(r, g, b)
}

/// Draws one whole frame as the target's size lays it out at the atlas's
/// cell size: the map (with its cursor) or a page of text, and the HUD.
pub fn draw_frame<T: RenderTarget>(
    canvas: &mut Canvas<T>,
    atlas: &mut Atlas,
    scene: &Scene<'_>,
) -> Result<(), RenderError> {
    let (w, h) = canvas.output_size().map_err(RenderError::sdl)?;
    let layout = Layout::at(w, h, atlas.cell_px(), atlas.text_px());
    canvas.set_draw_color(rgb(palette::BACKGROUND));
    canvas.clear();
    if scene.page == Page::Map {
        draw_map(canvas, atlas, scene, &layout)?;
        let side = crate::in_sight::side_glyphs(scene, layout.side_cols, layout.map_rows);
        draw_text(canvas, atlas, side.iter(), (layout.side_x, 0))?;
    } else {
        let page = page_text_glyphs(scene, layout.page_cols, layout.map_rows);
        draw_text(canvas, atlas, page.iter().filter(|g| g.row < layout.map_rows), (0, 0))?;
    }
    let hud = hud_glyphs(scene, 0, layout.hud_cols);
    draw_text(canvas, atlas, hud.iter(), (0, layout.hud_y))
}

/// The map's glyphs in the viewport, through the camera that keeps the
/// player (or the cursor) in view.
fn draw_map<T: RenderTarget>(
    canvas: &mut Canvas<T>,
    atlas: &mut Atlas,
    scene: &Scene<'_>,
    layout: &Layout,
) -> Result<(), RenderError> {
    let view = (layout.map_cols, layout.map_rows);
    // The same camera a click is mapped through (`view::cell_under`).
    let camera = crate::view::camera(scene, layout);
    let px = |(col, row): (u16, u16)| {
        let (x, y) = layout.cell_at(col, row);
        (x as f32, y as f32)
    };
    if let Some(at) = cursor_cell(scene).and_then(|c| camera.to_view(c, view)) {
        draw_cursor(canvas, px(at), layout.cell_px)?;
    }
    for g in page_glyphs(scene) {
        if let Some(at) = camera.to_view((g.col, g.row), view) {
            atlas.draw(canvas, g.ch, g.color, px(at), layout.cell_px)?;
        }
    }
    Ok(())
}

/// Running text: each glyph at its letter and row from `(x, y)`.
fn draw_text<'g, T: RenderTarget>(
    canvas: &mut Canvas<T>,
    atlas: &mut Atlas,
    glyphs: impl Iterator<Item = &'g Glyph>,
    (x, y): (u32, u32),
) -> Result<(), RenderError> {
    let (cell, text) = (atlas.cell_px(), atlas.text_px());
    for g in glyphs {
        let at = ((x + u32::from(g.col) * text) as f32, (y + u32::from(g.row) * cell) as f32);
        atlas.draw(canvas, g.ch, g.color, at, text)?;
    }
    Ok(())
}

/// Draws map glyphs on the grid (over the cursor's cell, if any) and text
/// glyphs (made for a row of `cols` letters) at the font's advance: the
/// HUD is running text, so a row holds more than 80 letters.
pub(crate) fn draw_glyphs<T: RenderTarget>(
    canvas: &mut Canvas<T>,
    atlas: &mut Atlas,
    (map, cursor): (&[Glyph], Option<(u16, u16)>),
    text: impl FnOnce(u16) -> Vec<Glyph>,
) -> Result<(), RenderError> {
    canvas.set_draw_color(rgb(palette::BACKGROUND));
    canvas.clear();
    let (w, h) = canvas.output_size().map_err(RenderError::sdl)?;
    let cell = atlas.cell_px();
    let advance = atlas.text_px();
    let origin_x = (w.saturating_sub(cell * u32::from(GRID_COLS)) / 2) as f32;
    let origin_y = (h.saturating_sub(cell * u32::from(GRID_ROWS)) / 2) as f32;
    if let Some((col, row)) = cursor.filter(|&(col, row)| col < GRID_COLS && row < MAP_ROWS) {
        let at = (origin_x + f32::from(col) * cell as f32, origin_y + f32::from(row) * cell as f32);
        draw_cursor(canvas, at, cell)?;
    }
    for g in map.iter().filter(|g| g.col < GRID_COLS && g.row < MAP_ROWS) {
        let at =
            (origin_x + f32::from(g.col) * cell as f32, origin_y + f32::from(g.row) * cell as f32);
        atlas.draw(canvas, g.ch, g.color, at, cell)?;
    }
    let cols = (cell * u32::from(GRID_COLS) / advance) as u16;
    for g in text(cols).iter().filter(|g| g.row < GRID_ROWS) {
        let at = (
            origin_x + f32::from(g.col) * advance as f32,
            origin_y + f32::from(g.row) * cell as f32,
        );
        atlas.draw(canvas, g.ch, g.color, at, advance)?;
    }
    Ok(())
}

/// The aiming or look cursor: the cell framed bright, two pixels thick
/// (one on the smallest cells), the glyph drawn inside on the background.
fn draw_cursor<T: RenderTarget>(
    canvas: &mut Canvas<T>,
    (x, y): (f32, f32),
    cell: u32,
) -> Result<(), RenderError> {
    canvas.set_draw_color(rgb(palette::CURSOR));
    let thickness = if cell >= 12 { 2 } else { 1 };
    for inset in 0..thickness {
        let (i, side) = (inset as f32, cell.saturating_sub(2 * inset) as f32);
        let rect = sdl3::render::FRect::new(x + i, y + i, side, side);
        canvas.draw_rect(rect).map_err(RenderError::sdl)?;
    }
    Ok(())
}

/// An image in memory: RGBA, 4 bytes a pixel, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl RgbaImage {
    /// Writes the image as a PNG file.
    pub fn save_png(&self, path: &Path) -> Result<(), RenderError> {
        let fail = |e: &dyn std::fmt::Display| {
            RenderError::Sdl(format!("cannot write {}: {e}", path.display()))
        };
        let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| fail(&e))?;
        writer.write_image_data(&self.pixels).map_err(|e| fail(&e))
    }

    /// Reads a PNG file written by [`RgbaImage::save_png`].
    pub fn load_png(path: &Path) -> Result<Self, RenderError> {
        let fail = |e: &dyn std::fmt::Display| {
            RenderError::Sdl(format!("cannot read {}: {e}", path.display()))
        };
        let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
        let mut reader =
            png::Decoder::new(std::io::BufReader::new(file)).read_info().map_err(|e| fail(&e))?;
        let mut pixels = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let info = reader.next_frame(&mut pixels).map_err(|e| fail(&e))?;
        if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
            return Err(fail(&"not an 8-bit RGBA PNG"));
        }
        pixels.truncate(info.buffer_size());
        Ok(Self { width: info.width, height: info.height, pixels })
    }
}

/// Draws one frame of a `width` x `height` window at `cell_px` off-screen
/// with SDL's software renderer (no window, no video subsystem) and
/// returns its pixels: for tests, screenshots and benches.
pub fn render_offscreen(
    font: &Font<'_>,
    (width, height): (u32, u32),
    cell_px: u32,
    scene: &Scene<'_>,
) -> Result<RgbaImage, RenderError> {
    offscreen(font, (width, height), cell_px, |canvas, atlas| draw_frame(canvas, atlas, scene))
}

/// [`draw_glyphs`] into an off-screen surface of the mapgen grid.
pub(crate) fn render_glyphs_offscreen(
    font: &Font<'_>,
    cell_px: u32,
    map: (&[Glyph], Option<(u16, u16)>),
    text: impl FnOnce(u16) -> Vec<Glyph>,
) -> Result<RgbaImage, RenderError> {
    let size = (cell_px * u32::from(GRID_COLS), cell_px * u32::from(GRID_ROWS));
    offscreen(font, size, cell_px, |canvas, atlas| draw_glyphs(canvas, atlas, map, text))
}

/// What `draw` draws into an off-screen surface of `width` x `height`.
fn offscreen(
    font: &Font<'_>,
    (width, height): (u32, u32),
    cell_px: u32,
    draw: impl FnOnce(
        &mut Canvas<sdl3::surface::Surface<'static>>,
        &mut Atlas,
    ) -> Result<(), RenderError>,
) -> Result<RgbaImage, RenderError> {
    use sdl3::pixels::PixelFormat;
    use sdl3::surface::Surface;
    let surface = Surface::new(width, height, PixelFormat::RGBA32).map_err(RenderError::sdl)?;
    let mut canvas = surface.into_canvas().map_err(RenderError::sdl)?;
    let creator = canvas.texture_creator();
    let mut atlas = Atlas::build(&creator, font, cell_px)?;
    draw(&mut canvas, &mut atlas)?;
    drop(atlas);
    let surface = canvas.into_surface();
    let pitch = surface.pitch() as usize;
    let row_bytes = width as usize * 4;
    let pixels = surface.with_lock(|bytes| {
        bytes
            .chunks(pitch)
            .take(height as usize)
            .flat_map(|row| &row[..row_bytes])
            .copied()
            .collect()
    });
    Ok(RgbaImage { width, height, pixels })
}
