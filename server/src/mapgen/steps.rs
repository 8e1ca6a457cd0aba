//! Snapshots of a level while it is built, for a host to watch how it came
//! to be. Generators take an `Option<&mut Steps>`: with `None` (normal play)
//! nothing is copied.

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
