//! Coming back by itself: what the session does when its connection ends,
//! as plain functions of what the server said, so that the window and the
//! page (`web/src/session/retry.ts`, the same rules and the same draws)
//! decide alike and the behaviour vectors cover it. The window and the
//! page only keep the timer and open the socket.
//!
//! Which endings are tried again:
//! - a refusal the server may lift: [`Refusal::Unavailable`] (too many
//!   hellos, a store that cannot save, a world full of characters) and
//!   [`Refusal::CannotWatch`] (the player watched is not back yet, after
//!   the same restart, or refuses watchers for now), and [`Refusal::Full`]
//!   (the host's `--max-players` reached: a place frees when someone
//!   leaves). A world that is closing ([`Refusal::Draining`]: its host
//!   drains it, and it will not open again) is shown with the address it
//!   names instead, and not tried again. A wrong key, a name
//!   taken or invalid, and another protocol version will not change by
//!   waiting: they are shown and not tried again. A name taken is never
//!   this client's own old connection, which the server may still hold
//!   after a broken link: it hands a name over to its key, a watcher's
//!   as a player's (`server/src/world/characters.rs`), so a watcher that
//!   comes back is not refused its own name;
//! - a connection that could not be opened, or dropped without a close
//!   frame (a crash, a reboot, the network);
//! - the close codes that say the server or the network is at fault:
//!   1001 (going away: the server stopped), 1011 (an error of its own),
//!   1013 (full: try again later), 1014 (a bad gateway); and 1012 (service
//!   restart: "come back soon"), tried at once;
//! - never: 1000 and a close frame without a code (the server ended it on
//!   purpose: a death, a watcher sent away or its player gone, a quit),
//!   1008 (a policy: flooding, too slow, or another connection took the
//!   character over, which two clients would otherwise do to each other
//!   for ever), 1002, 1003, 1007, 1009 and any other (what this client
//!   sent broke the protocol), nor a server whose frame could not be read
//!   or whose message did not fit (a broken or hostile server is not
//!   listened to again).
//!
//! The waits back off with jitter: the try after the link was lost comes
//! within a second, each later one waits twice as long, to at most 10 s;
//! each wait is the second half of its span drawn at random (between half
//! and all of it), so that a thousand clients a restart cut off together
//! do not all come back in the same instant. The draws are seeded
//! ([`Jitter`]): tests and the vectors give the seed.

use std::time::Duration;

use gloam_protocol::Refusal;

/// How a connection ended, as the connection saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// No close frame came: it could not be opened, or it was reset or
    /// cut.
    Dropped,
    /// The server closed it with this WebSocket close code (1005 when its
    /// close frame gave none).
    Code(u16),
    /// This client ended it: the server sent what it cannot read.
    Unreadable,
}

/// What the session does after its connection ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Shown, and not tried again.
    Stop,
    /// Tried again after the next wait of the schedule.
    Backoff,
    /// Tried again at once (the server restarts: "come back soon").
    AtOnce,
}

/// The close code of a server that restarts and asks to be come back to
/// soon (RFC 6455's registry: Service Restart).
pub const SERVICE_RESTART: u16 = 1012;

/// The close codes tried again after a wait (see the module's list).
const TRIED_AGAIN: [u16; 4] = [1001, 1011, 1013, 1014];

/// The first wait's span, and the longest any wait may be, in ms.
pub const FIRST_WAIT_MS: u32 = 1_000;
pub const LONGEST_WAIT_MS: u32 = 10_000;

/// What to do after a connection ended so, the server having refused the
/// hello with `refused`, if it did. `tries` is how many tries were made
/// since the link was last good: only the first is made at once after a
/// restart, so a server that keeps closing with 1012 is not hammered.
pub fn next(refused: Option<&Refusal>, ending: Ending, tries: u32) -> Next {
    if let Some(refusal) = refused {
        return if tried_again(refusal) { Next::Backoff } else { Next::Stop };
    }
    match ending {
        Ending::Dropped => Next::Backoff,
        Ending::Unreadable => Next::Stop,
        Ending::Code(SERVICE_RESTART) if tries == 0 => Next::AtOnce,
        Ending::Code(SERVICE_RESTART) => Next::Backoff,
        Ending::Code(code) if TRIED_AGAIN.contains(&code) => Next::Backoff,
        Ending::Code(_) => Next::Stop,
    }
}

/// Whether a refusal may be lifted by waiting (see the module's list).
pub fn tried_again(refusal: &Refusal) -> bool {
    match refusal {
        Refusal::Unavailable { .. } | Refusal::CannotWatch { .. } | Refusal::Full { .. } => true,
        Refusal::WrongVersion { .. }
        | Refusal::NameInvalid { .. }
        | Refusal::NameTaken
        | Refusal::WrongToken
        | Refusal::NoSuchBackground { .. }
        | Refusal::NoRecording { .. }
        | Refusal::Draining { .. } => false,
    }
}

/// The wait before try number `tries` (0: the first since the link was
/// lost), given a draw: the span is 1 s doubled at each try, at most 10 s,
/// and the wait is between half of it and all of it.
pub fn wait(tries: u32, draw: u32) -> Duration {
    let span = LONGEST_WAIT_MS.min(FIRST_WAIT_MS << tries.min(4));
    let half = span / 2;
    Duration::from_millis(u64::from(half + draw % (span - half + 1)))
}

/// A seeded stream of draws for the jitter (mulberry32: small, and the
/// same in TypeScript with `Math.imul`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jitter(u32);

impl Jitter {
    pub fn seeded(seed: u32) -> Self {
        Self(seed)
    }

    pub fn draw(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x6d2b_79f5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_first_try_comes_within_a_second_and_the_waits_grow_to_ten_seconds() {
        let spans: Vec<(u64, u64)> = (0..7)
            .map(|t| (wait(t, 0).as_millis() as u64, wait(t, u32::MAX - 1).as_millis() as u64))
            .collect();
        assert_eq!(wait(0, 0), Duration::from_millis(500));
        assert_eq!(wait(0, 500), Duration::from_millis(1000));
        assert_eq!(wait(1, 0), Duration::from_millis(1000));
        assert_eq!(wait(3, 4000), Duration::from_millis(8000));
        assert_eq!(wait(4, 0), Duration::from_millis(5000));
        assert_eq!(wait(40, 5000), Duration::from_millis(10_000), "{spans:?}");
    }

    proptest! {
        /// Every wait lies in the second half of its span, the first
        /// within a second, none over 10 s, and the spans never shrink.
        #[test]
        fn every_wait_is_within_its_span(tries in 0u32..64, draw in any::<u32>()) {
            let span = u64::from(LONGEST_WAIT_MS.min(FIRST_WAIT_MS << tries.min(4)));
            let ms = wait(tries, draw).as_millis() as u64;
            prop_assert!(ms * 2 >= span && ms <= span, "{ms} of {span}");
            prop_assert!(ms <= 10_000);
            if tries == 0 {
                prop_assert!(ms <= 1_000);
            }
            let later = LONGEST_WAIT_MS.min(FIRST_WAIT_MS << (tries + 1).min(4));
            prop_assert!(u64::from(later) >= span);
        }

        /// The same seed draws the same waits; the draws spread over the span.
        #[test]
        fn a_seed_draws_the_same_stream(seed in any::<u32>()) {
            let (mut a, mut b) = (Jitter::seeded(seed), Jitter::seeded(seed));
            let drawn: Vec<u32> = (0..8).map(|_| a.draw()).collect();
            prop_assert_eq!(drawn, (0..8).map(|_| b.draw()).collect::<Vec<_>>());
        }
    }

    /// Known values, which `web/test/retry.test.ts` checks too.
    #[test]
    fn the_stream_is_mulberry32() {
        let mut j = Jitter::seeded(1);
        assert_eq!([j.draw(), j.draw(), j.draw()], [2_693_262_067, 11_749_833, 2_265_367_787]);
    }

    #[test]
    fn jitter_spreads_a_crowd_over_the_span() {
        let mut j = Jitter::seeded(38);
        let waits: std::collections::BTreeSet<u128> =
            (0..1000).map(|_| wait(4, j.draw()).as_millis()).collect();
        // 1000 draws of 5001 waits: about 906 distinct, by the birthday rule.
        assert!(waits.len() > 850, "{} distinct waits of 1000", waits.len());
        let (first, last) = (waits.first().unwrap(), waits.last().unwrap());
        assert!(*first < 5_100 && *last > 9_900, "from {first} to {last} ms");
    }

    fn refusals() -> Vec<(Refusal, Next)> {
        let why = || "why".to_owned();
        vec![
            (Refusal::WrongVersion { server: 99 }, Next::Stop),
            (Refusal::NameInvalid { reason: why() }, Next::Stop),
            (Refusal::NameTaken, Next::Stop),
            (Refusal::WrongToken, Next::Stop),
            (Refusal::Unavailable { reason: why() }, Next::Backoff),
            (Refusal::CannotWatch { reason: why() }, Next::Backoff),
            (Refusal::Full { players: 8 }, Next::Backoff),
            (Refusal::Draining { elsewhere: None }, Next::Stop),
            (Refusal::Draining { elsewhere: Some("ws://elsewhere:7777".into()) }, Next::Stop),
        ]
    }

    /// A refusal decides, whatever the close code that follows it.
    #[test]
    fn a_refusal_that_will_not_change_stops_and_one_that_may_is_tried_again() {
        for (refusal, want) in refusals() {
            for ending in [Ending::Code(1008), Ending::Code(1012), Ending::Dropped] {
                assert_eq!(next(Some(&refusal), ending, 0), want, "{refusal:?} {ending:?}");
            }
        }
    }

    #[test]
    fn the_close_code_says_whether_to_try_again_and_1012_at_once() {
        let cases = [
            (Ending::Dropped, Next::Backoff),
            (Ending::Unreadable, Next::Stop),
            (Ending::Code(1000), Next::Stop),
            (Ending::Code(1005), Next::Stop),
            (Ending::Code(1001), Next::Backoff),
            (Ending::Code(1002), Next::Stop),
            (Ending::Code(1008), Next::Stop),
            (Ending::Code(1009), Next::Stop),
            (Ending::Code(1011), Next::Backoff),
            (Ending::Code(1012), Next::AtOnce),
            (Ending::Code(1013), Next::Backoff),
            (Ending::Code(4000), Next::Stop),
        ];
        for (ending, want) in cases {
            assert_eq!(next(None, ending, 0), want, "{ending:?}");
        }
        assert_eq!(next(None, Ending::Code(1012), 1), Next::Backoff, "once at once, then back off");
    }
}
