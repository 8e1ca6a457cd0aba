//! Every printable ASCII glyph rendered once, white, into one texture; each
//! draw copies a slot tinted with the glyph's colour.

use sdl3::pixels::{Color, PixelFormat};
use sdl3::rect::Rect;
use sdl3::render::{BlendMode, Canvas, FRect, RenderTarget, Texture, TextureCreator};
use sdl3::surface::Surface;
use sdl3::ttf::Font;

use super::RenderError;
use crate::palette::Rgb;

const FIRST: u8 = 32;
const LAST: u8 = 126;
const PER_ROW: u32 = 16;

pub struct Atlas<'t> {
    texture: Texture<'t>,
    cell_px: u32,
    /// The font's own advance: how far apart letters of running text sit.
    text_px: u32,
}

impl std::fmt::Debug for Atlas<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Atlas").field("cell_px", &self.cell_px).finish()
    }
}

impl<'t> Atlas<'t> {
    /// Renders the glyphs at a size that fits square cells of `cell_px`.
    pub fn build<C>(
        creator: &'t TextureCreator<C>,
        font: &Font<'_>,
        cell_px: u32,
    ) -> Result<Self, RenderError> {
        let text_px = text_px_for(font, cell_px)?;
        let count = u32::from(LAST - FIRST + 1);
        let rows = count.div_ceil(PER_ROW);
        let mut sheet = Surface::new(PER_ROW * cell_px, rows * cell_px, PixelFormat::RGBA32)
            .map_err(RenderError::sdl)?;
        sheet.fill_rect(None, Color::RGBA(0, 0, 0, 0)).map_err(RenderError::sdl)?;
        for code in FIRST..=LAST {
            let ch = char::from(code);
            if ch == ' ' {
                continue;
            }
            let glyph = font
                .render_char(ch)
                .blended(Color::RGB(255, 255, 255))
                .map_err(RenderError::sdl)?;
            let (gw, gh) = (glyph.width(), glyph.height());
            let slot = slot(ch, cell_px);
            // Centre the glyph in its slot, clipping what overflows. A glyph
            // a row taller than its slot (DejaVu at 14 pixels) loses its top
            // row, which is empty above ASCII's capitals, not its bottom one,
            // which holds the tails of g, p, y and j: rounded down, not
            // towards zero.
            let dx = (cell_px as i32 - gw as i32).div_euclid(2);
            let dy = (cell_px as i32 - gh as i32).div_euclid(2);
            let src = Rect::new((-dx).max(0), (-dy).max(0), gw.min(cell_px), gh.min(cell_px));
            let dst =
                Rect::new(slot.x() + dx.max(0), slot.y() + dy.max(0), src.width(), src.height());
            glyph.blit(src, &mut sheet, dst).map_err(RenderError::sdl)?;
        }
        let mut texture = creator.create_texture_from_surface(&sheet).map_err(RenderError::sdl)?;
        texture.set_blend_mode(BlendMode::Blend);
        Ok(Self { texture, cell_px, text_px })
    }

    pub(crate) fn cell_px(&self) -> u32 {
        self.cell_px
    }

    pub(crate) fn text_px(&self) -> u32 {
        self.text_px
    }

    /// Copies one glyph, tinted `color`, into a cell whose top-left corner
    /// is `(x, y)` and whose width is `width` (a map cell or, for running
    /// text, the font's advance); characters outside the atlas are drawn as '?'.
    pub(crate) fn draw<T: RenderTarget>(
        &mut self,
        canvas: &mut Canvas<T>,
        ch: char,
        (r, g, b): Rgb,
        (x, y): (f32, f32),
        width: u32,
    ) -> Result<(), RenderError> {
        let ch = if (char::from(FIRST)..=char::from(LAST)).contains(&ch) { ch } else { '?' };
        self.texture.set_color_mod(r, g, b);
        let slot = slot(ch, self.cell_px);
        // The glyph sits centred in its slot: take the middle `width` pixels.
        let inset = (self.cell_px - width.min(self.cell_px)) / 2;
        let cell = self.cell_px as f32;
        let w = width.min(self.cell_px) as f32;
        let src = FRect::new((slot.x() as u32 + inset) as f32, slot.y() as f32, w, cell);
        canvas.copy(&self.texture, src, FRect::new(x, y, w, cell)).map_err(RenderError::sdl)
    }
}

/// Sizes `font` so a line fits a cell of `cell_px` (monospace glyphs are
/// about 0.6 em wide and 1.2 em tall), and gives its advance at that size:
/// how wide a letter of running text is.
pub fn text_px_for(font: &Font<'_>, cell_px: u32) -> Result<u32, RenderError> {
    let mut points = cell_px as f32;
    font.set_size(points).map_err(RenderError::sdl)?;
    while font.height() > cell_px as i32 && points > 4.0 {
        points -= 0.5;
        font.set_size(points).map_err(RenderError::sdl)?;
    }
    let advance = font.size_of_char('M').map(|(w, _)| w).unwrap_or(cell_px);
    Ok(advance.clamp(1, cell_px))
}

fn slot(ch: char, cell_px: u32) -> Rect {
    let i = u32::from(ch) - u32::from(FIRST);
    Rect::new(((i % PER_ROW) * cell_px) as i32, ((i / PER_ROW) * cell_px) as i32, cell_px, cell_px)
}
