//! When those who stood still hear of the movers: the pacing of news to
//! the still, in one place. A player who acts hears of everyone in its own
//! answer at once (and its shift passes it by once: see
//! `Views::tell_movers`); one who stands still is told in its shift (see
//! [`SHIFTS`]), one shift every [`still_period`] / [`SHIFTS`], so a crowd's
//! watchers are told a twenty-fifth at a time, a few times a second.
//! Nothing here reads a clock: the depth's task gives the time.

use std::time::Duration;

use gloam_protocol::PlayerId;

/// Those who stood still are told of the movers in this many shifts (by
/// player id), one after another: a depth's task tells one every
/// twenty-fifth of its still period (50 ms; longer in a crowd), so each
/// player hears at most once a period and a crowd's watchers are told a
/// few dozen at a time: telling a fifth of a thousand at once held the
/// depth's task, and the connections writing after it, for 2-5 ms, which
/// made most of a crowd's slowest answers (`BENCHMARKS.md`).
pub(crate) const SHIFTS: usize = 25;

/// How many shifts histories logged before [`SHIFTS`] was 25 told the
/// still in (`Command::Told`); 25 is a multiple of it, so each of those
/// shifts is five of today's.
pub(crate) const OLD_SHIFTS: usize = 5;

/// One shift of those who stood still: the players whose id is `index`
/// modulo `of` (today [`SHIFTS`]; in older histories [`OLD_SHIFTS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shift {
    index: usize,
    of: usize,
}

impl Shift {
    /// Shift `index` of today's [`SHIFTS`].
    pub(crate) fn of_today(index: usize) -> Self {
        Self { index: index % SHIFTS, of: SHIFTS }
    }

    /// Shift `index` of `of`, as a history's mark names it; `None` unless
    /// `of` divides [`SHIFTS`] and `index` is one of its shifts.
    pub(crate) fn named(index: usize, of: usize) -> Option<Self> {
        (of > 0 && SHIFTS.is_multiple_of(of) && index < of).then_some(Self { index, of })
    }

    pub(crate) fn index(self) -> usize {
        self.index
    }

    pub(crate) fn of(self) -> usize {
        self.of
    }

    /// Whether player `id` is told in this shift.
    pub(crate) fn holds(self, id: PlayerId) -> bool {
        id.0 as usize % self.of == self.index
    }

    /// Today's shifts this one is made of.
    pub(crate) fn parts(self) -> impl Iterator<Item = usize> {
        (self.index..SHIFTS).step_by(self.of)
    }
}

/// The shift player `id` is told in (see [`SHIFTS`]).
#[cfg(test)]
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
    pub(crate) fn take(&mut self, now: I, players: usize) -> Shift {
        let shift = Shift::of_today(self.next);
        self.next = (self.next + 1) % SHIFTS;
        self.due = now + still_period(players) / SHIFTS as u32;
        shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::depth::rules::Command;

    /// A shift of the five an older history names is five of today's:
    /// the players it holds are those of its parts, for every id.
    #[test]
    fn an_old_shift_is_five_of_todays() {
        for old in 0..OLD_SHIFTS {
            let shift = Shift::named(old, OLD_SHIFTS).expect("an old shift");
            let parts: Vec<usize> = shift.parts().collect();
            assert_eq!(parts.len(), SHIFTS / OLD_SHIFTS);
            for id in (0..500).map(PlayerId) {
                assert_eq!(shift.holds(id), parts.contains(&shift_of(id)), "{id:?} in {old}");
            }
        }
        for today in 0..SHIFTS {
            let shift = Shift::of_today(today);
            assert_eq!(shift.parts().collect::<Vec<_>>(), vec![today]);
        }
    }

    /// Only shifts that are unions of today's are named: a history that
    /// names another is not told as if it were one.
    #[test]
    fn a_shift_no_depth_tells_is_not_named() {
        assert_eq!(Shift::named(5, 5), None);
        assert_eq!(Shift::named(0, 0), None);
        assert_eq!(Shift::named(1, 7), None, "7 does not divide {SHIFTS}");
        assert_eq!(Shift::named(3, 25), Some(Shift::of_today(3)));
    }

    /// The marks read back as the shifts they were made of: a history
    /// logged before today's shifts keeps its marks, and today's have
    /// their own.
    #[test]
    fn a_told_mark_reads_back_as_its_shift() {
        let shifts = [
            None,
            Shift::named(2, OLD_SHIFTS),
            Some(Shift::of_today(0)),
            Some(Shift::of_today(24)),
        ];
        for shift in shifts {
            for joined in [false, true] {
                let mark = Command::told(shift, joined);
                assert_eq!(mark.told_shift(), Some((shift, joined)), "{mark:?}");
            }
        }
        let old = Command::Told { shift: Some(2), joined: false };
        assert_eq!(Command::told(Shift::named(2, OLD_SHIFTS), false), old, "as logged before");
        let unknown = Command::ToldShift { shift: 3, of: 7, joined: true };
        assert_eq!(unknown.told_shift(), None);
    }
}
