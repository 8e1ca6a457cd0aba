//! Keeping an eye on a quiet client: after a while without hearing
//! anything from it, ping; if it then stays silent too long, it is gone.

use std::time::Duration;

use tokio::time::Instant;

/// What to do when [`PingKeeper::next_check`] comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Check {
    /// Nothing heard for a while: send a ping now.
    Ping,
    /// The ping went unanswered: close the connection.
    Unanswered,
    /// Nothing to do yet.
    Nothing,
}

#[derive(Debug)]
pub(super) struct PingKeeper {
    interval: Duration,
    timeout: Duration,
    /// When the client last sent anything at all, pongs included.
    last_heard: Instant,
    /// When a ping went out that nothing has answered yet.
    pinged_at: Option<Instant>,
}

impl PingKeeper {
    pub(super) fn new(interval: Duration, timeout: Duration, now: Instant) -> Self {
        Self { interval, timeout, last_heard: now, pinged_at: None }
    }

    /// Anything from the client shows it is alive, and answers a ping.
    pub(super) fn heard(&mut self, now: Instant) {
        self.last_heard = now;
        self.pinged_at = None;
    }

    /// When [`check`](Self::check) has something to decide.
    pub(super) fn next_check(&self) -> Instant {
        match self.pinged_at {
            Some(at) => at + self.timeout,
            None => self.last_heard + self.interval,
        }
    }

    pub(super) fn check(&mut self, now: Instant) -> Check {
        if now < self.next_check() {
            return Check::Nothing;
        }
        if self.pinged_at.is_some() {
            return Check::Unanswered;
        }
        self.pinged_at = Some(now);
        Check::Ping
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn a_quiet_client_is_pinged_then_closed_if_it_stays_quiet() {
        let t0 = Instant::now();
        let mut keeper = PingKeeper::new(15 * S, 10 * S, t0);
        assert_eq!(keeper.check(t0 + 14 * S), Check::Nothing);
        assert_eq!(keeper.next_check(), t0 + 15 * S);
        assert_eq!(keeper.check(t0 + 15 * S), Check::Ping);
        assert_eq!(keeper.check(t0 + 24 * S), Check::Nothing);
        assert_eq!(keeper.check(t0 + 25 * S), Check::Unanswered);
    }

    #[test]
    fn anything_heard_answers_the_ping_and_restarts_the_wait() {
        let t0 = Instant::now();
        let mut keeper = PingKeeper::new(15 * S, 10 * S, t0);
        assert_eq!(keeper.check(t0 + 15 * S), Check::Ping);
        keeper.heard(t0 + 20 * S);
        assert_eq!(keeper.check(t0 + 25 * S), Check::Nothing);
        assert_eq!(keeper.next_check(), t0 + 35 * S);
        keeper.heard(t0 + 30 * S);
        assert_eq!(keeper.check(t0 + 35 * S), Check::Nothing, "heard again: no ping yet");
    }
}
