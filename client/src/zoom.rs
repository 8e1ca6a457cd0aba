//! The zoom: the size of a map cell in pixels, changed with Ctrl `+` and
//! Ctrl `-` and kept between runs in a small file in the user's config
//! directory (`$XDG_CONFIG_HOME/gloam/zoom`, or `~/.config/gloam/zoom`).

use std::path::{Path, PathBuf};

/// The cell sizes the zoom steps through, in pixels.
pub const STEPS: [u32; 12] = [8, 10, 12, 14, 16, 18, 20, 24, 28, 32, 40, 48];
/// The zoom of a first run.
pub const DEFAULT: u32 = 14;

/// The file the zoom is kept in, if there is a config directory.
pub fn default_file() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "gloam")?;
    Some(dirs.config_dir().join("zoom"))
}

/// The zoom kept in `file`: [`DEFAULT`] when there is none, or it is not
/// one of the [`STEPS`].
pub fn load(file: Option<&Path>) -> u32 {
    file.and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|text| text.trim().parse().ok())
        .filter(|px| STEPS.contains(px))
        .unwrap_or(DEFAULT)
}

/// Keeps `zoom` in `file`.
pub fn save(file: &Path, zoom: u32) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(file, format!("{zoom}\n"))
}

/// The next step in (`+1`, larger glyphs) or out (`-1`), stopping at the
/// ends.
pub fn step(zoom: u32, by: i8) -> u32 {
    let at = STEPS.iter().position(|&s| s >= zoom).unwrap_or(STEPS.len() - 1);
    let next = (at as isize + isize::from(by)).clamp(0, STEPS.len() as isize - 1);
    STEPS[next as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zoom_steps_in_and_out_and_stops_at_the_ends() {
        assert_eq!(step(14, 1), 16);
        assert_eq!(step(14, -1), 12);
        assert_eq!(step(8, -1), 8);
        assert_eq!(step(48, 1), 48);
        assert_eq!(step(15, 1), 18, "between steps: from the next one up");
    }

    #[test]
    fn the_zoom_is_kept_between_runs_and_a_damaged_file_is_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("gloam").join("zoom");
        assert_eq!(load(Some(&file)), DEFAULT, "no file yet");
        save(&file, 24).unwrap();
        assert_eq!(load(Some(&file)), 24);
        std::fs::write(&file, "huge\n").unwrap();
        assert_eq!(load(Some(&file)), DEFAULT);
        std::fs::write(&file, "13\n").unwrap();
        assert_eq!(load(Some(&file)), DEFAULT, "not a step");
        assert_eq!(load(None), DEFAULT);
    }
}
