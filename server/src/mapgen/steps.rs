//! Snapshots of a level while it is built, for a host to watch how it came
//! to be. Generators take an `Option<&mut Steps>`: with `None` (normal play)
//! nothing is copied.

use gloam_protocol::Terrain;

use crate::level::Grid;

/// The recorded frames, each with what just happened.
#[derive(Debug, Default, Clone)]
pub struct Steps {
    pub frames: Vec<(String, Grid)>,
}

/// Records `grid` after the step `what` describes, when recording.
pub(crate) fn snap(steps: &mut Option<&mut Steps>, grid: &Grid, what: impl FnOnce() -> String) {
    if let Some(steps) = steps {
        steps.frames.push((what(), grid.clone()));
    }
}

/// [`snap`] for a generator working on bare `cells`, a `width` wide grid
/// of them: the grid is made only when recording.
pub(crate) fn snap_cells(
    steps: &mut Option<&mut Steps>,
    width: u16,
    cells: &[Terrain],
    what: impl FnOnce() -> String,
) {
    if let Some(steps) = steps {
        let height = (cells.len() / usize::from(width).max(1)) as u16;
        steps.frames.push((what(), Grid::from_cells(width, height, cells.to_vec())));
    }
}
