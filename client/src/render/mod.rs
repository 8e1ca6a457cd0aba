//! Drawing with SDL3: a glyph atlas rendered once from the font, tinted per
//! draw, and the frame (map and HUD) drawn from the glyph lists of
//! [`crate::view`]. Works on any render target: the window, or an
//! off-screen surface for tests and images.

mod atlas;

use std::path::Path;

use sdl3::pixels::Color;
use sdl3::render::{Canvas, RenderTarget};
use sdl3::ttf::Font;

pub use atlas::Atlas;

use crate::hud::HUD_ROWS;
use crate::palette::{self, Rgb};
use crate::scene::Scene;
use crate::view::{Glyph, cursor_cell, hud_glyphs, page_glyphs, page_text_glyphs};

/// The grid: the map's cells and the HUD rows under it.
pub const GRID_COLS: u16 = 80;
pub(crate) const MAP_ROWS: u16 = 40;
pub const GRID_ROWS: u16 = MAP_ROWS + HUD_ROWS;
/// The default cell size: 80x45 cells of 16 px is 1280x720.
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

/// The largest whole cell size at which the grid fits in `width` x `height`
/// pixels (at least 4), so glyphs stay sharp at any window size.
pub(crate) fn cell_px_for(width: u32, height: u32) -> u32 {
    (width / u32::from(GRID_COLS)).min(height / u32::from(GRID_ROWS)).max(4)
}

fn rgb((r, g, b): Rgb) -> Color {
    Color::RGB(r, g, b)
}

/// Draws one whole frame: background, map (with the aiming cursor), HUD,
/// centred in the target.
pub fn draw_frame<T: RenderTarget>(
    canvas: &mut Canvas<T>,
    atlas: &mut Atlas,
    scene: &Scene<'_>,
) -> Result<(), RenderError> {
    let map = page_glyphs(scene);
    draw_glyphs(canvas, atlas, (&map, cursor_cell(scene)), |cols| text_glyphs(scene, cols))
}

/// The page's running text above the HUD, and the HUD.
fn text_glyphs(scene: &Scene<'_>, cols: u16) -> Vec<Glyph> {
    let mut glyphs = page_text_glyphs(scene, cols);
    glyphs.extend(hud_glyphs(scene, MAP_ROWS, cols));
    glyphs
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

/// The aiming cursor: the cell filled dim gold and framed bright, the
/// glyph drawn over it.
fn draw_cursor<T: RenderTarget>(
    canvas: &mut Canvas<T>,
    (x, y): (f32, f32),
    cell: u32,
) -> Result<(), RenderError> {
    let rect = sdl3::render::FRect::new(x, y, cell as f32, cell as f32);
    canvas.set_draw_color(rgb(palette::CURSOR_FILL));
    canvas.fill_rect(rect).map_err(RenderError::sdl)?;
    canvas.set_draw_color(rgb(palette::CURSOR));
    canvas.draw_rect(rect).map_err(RenderError::sdl)
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

/// Draws one frame off-screen with SDL's software renderer (no window, no
/// video subsystem) and returns its pixels: for tests, images and benches.
pub fn render_offscreen(
    font: &Font<'_>,
    cell_px: u32,
    scene: &Scene<'_>,
) -> Result<RgbaImage, RenderError> {
    let map = page_glyphs(scene);
    render_glyphs_offscreen(font, cell_px, (&map, cursor_cell(scene)), |cols| {
        text_glyphs(scene, cols)
    })
}

/// [`draw_glyphs`] into an off-screen surface.
pub(crate) fn render_glyphs_offscreen(
    font: &Font<'_>,
    cell_px: u32,
    map: (&[Glyph], Option<(u16, u16)>),
    text: impl FnOnce(u16) -> Vec<Glyph>,
) -> Result<RgbaImage, RenderError> {
    use sdl3::pixels::PixelFormat;
    use sdl3::surface::Surface;
    let (width, height) = (cell_px * u32::from(GRID_COLS), cell_px * u32::from(GRID_ROWS));
    let surface = Surface::new(width, height, PixelFormat::RGBA32).map_err(RenderError::sdl)?;
    let mut canvas = surface.into_canvas().map_err(RenderError::sdl)?;
    let creator = canvas.texture_creator();
    let mut atlas = Atlas::build(&creator, font, cell_px)?;
    draw_glyphs(&mut canvas, &mut atlas, map, text)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_scales_by_whole_pixels_to_fit_the_window() {
        assert_eq!(cell_px_for(1280, 720), 16);
        assert_eq!(cell_px_for(2560, 1440), 32);
        assert_eq!(cell_px_for(1920, 720), 16, "height limits");
        assert_eq!(cell_px_for(1000, 1000), 12, "width limits");
        assert_eq!(cell_px_for(10, 10), 4, "never vanishes");
    }
}
