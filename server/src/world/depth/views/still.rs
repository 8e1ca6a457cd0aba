//! When those who stood still hear of the movers: the pacing of news to
//! the still, in one place. A player who acts hears of everyone in its own
//! answer at once; one who stands still is told in its shift (see
//! [`SHIFTS`]), one shift every [`still_period`] / [`SHIFTS`], so a crowd's
//! watchers are told a fifth at a time, a few times a second. Nothing here
//! reads a clock: the depth's task gives the time.

use std::time::Duration;

use gloam_protocol::PlayerId;

/// Those who stood still are told of the movers in this many shifts (by
/// player id), one after another: a depth's task tells one every fifth
/// of its still period (50 ms; longer in a crowd), so each player hears at
/// most once a period and a crowd's watchers are told a fifth at a time.
pub(crate) const SHIFTS: usize = 5;

/// The shift player `id` is told in (see [`SHIFTS`]).
pub(crate) fn shift_of(id: PlayerId) -> usize {
    id.0 as usize % SHIFTS
}

/// How often at most those who stood still are told of others' moves (see
/// `world::task`): every twentieth of a second, busy or not, well
/// under what an eye takes in of a grid game. In a crowd a watcher then
/// gets a few messages a second, not one per batch; a mover's own answer
/// and news of monsters never wait for it. They are told in shifts (see
/// [`SHIFTS`]), one every `TELL_THE_STILL / SHIFTS`. A crowd hears
/// less often (see [`still_period`]).
pub(crate) const TELL_THE_STILL: Duration = Duration::from_millis(50);

/// How many times a second at most a depth tells its still, all shifts
/// together, once its crowd is too large to tell each every
/// [`TELL_THE_STILL`]: beyond a hundred players each hears less often.
const STILL_TOLD_PER_SECOND: u64 = 2_000;

/// The least often the still hear of the movers, however large the crowd:
/// four times a second, about what Crossfire's eight game ticks a second
/// show.
const SLOWEST_NEWS: Duration = Duration::from_millis(250);

/// How often at most a player who stood still hears of the movers on a
/// depth of `players`: every [`TELL_THE_STILL`] up to a hundred of them,
/// then as often as [`STILL_TOLD_PER_SECOND`] allows, at least every
/// [`SLOWEST_NEWS`]. Telling a watcher is much of what a crowd costs the
/// server (each is a message to encode and send, with every mover in its
/// sight to find), and the number of watchers grows with the crowd, so
/// without this a crowd of a thousand took the server's core. A player
/// who acts still hears of everyone in its own answer, at once.
pub(crate) fn still_period(players: usize) -> Duration {
    let spread = 1_000_000u64.saturating_mul(players as u64) / STILL_TOLD_PER_SECOND;
    Duration::from_micros(spread).clamp(TELL_THE_STILL, SLOWEST_NEWS)
}

/// Which shift of the still is told next, and when at the soonest.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StillSchedule<I> {
    next: usize,
    due: I,
}

impl<I: Copy + Ord + std::ops::Add<Duration, Output = I>> StillSchedule<I> {
    /// The first shift, due at `now`.
    pub(crate) fn starting(now: I) -> Self {
        Self { next: 0, due: now }
    }

    /// When the next shift is due.
    pub(crate) fn due(&self) -> I {
        self.due
    }

    /// True when the next shift is due at `now`.
    pub(crate) fn is_due(&self, now: I) -> bool {
        now >= self.due
    }

    /// The shift to tell now; the one after it is due a step later (a
    /// longer one on a depth of many `players`: see [`still_period`]).
    pub(crate) fn take(&mut self, now: I, players: usize) -> usize {
        let shift = self.next;
        self.next = (self.next + 1) % SHIFTS;
        self.due = now + still_period(players) / SHIFTS as u32;
        shift
    }
}
