//! The pace of one player's actions: they are read ahead into a short
//! queue as the client sends them, and let go to the world one at a time,
//! once the last was answered, no faster than the player's rate (a token
//! bucket). A client that outruns the queue is flooding.

use std::collections::VecDeque;
use std::time::Duration;

use gloam_protocol::Action;
use tokio::time::Instant;

/// How soon an action the world was too busy to take is tried again.
const RETRY: Duration = Duration::from_millis(5);

/// The client sent more actions than the queue holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Flooding;

#[derive(Debug)]
pub(super) struct Pacer {
    queue: VecDeque<Action>,
    capacity: usize,
    rate: RateLimit,
    /// An action (or the arrival) is with the world, not yet answered.
    waiting: bool,
    /// The world was busy: not before this.
    retry_at: Option<Instant>,
}

impl Pacer {
    /// A pacer for a player just arriving: its arrival is the first answer awaited.
    pub(super) fn new(capacity: usize, per_second: u32, burst: u32, now: Instant) -> Self {
        Self {
            queue: VecDeque::with_capacity(capacity),
            capacity,
            rate: RateLimit::new(per_second, burst, now),
            waiting: true,
            retry_at: None,
        }
    }

    /// An action from the client, queued until its turn.
    pub(super) fn push(&mut self, action: Action) -> Result<(), Flooding> {
        if self.queue.len() >= self.capacity {
            return Err(Flooding);
        }
        self.queue.push_back(action);
        Ok(())
    }

    /// When the next action may go: `None` while none is queued or one is
    /// still with the world.
    pub(super) fn ready_at(&mut self, now: Instant) -> Option<Instant> {
        if self.waiting || self.queue.is_empty() {
            return None;
        }
        let paced = self.rate.ready_at(now);
        Some(self.retry_at.map_or(paced, |retry| retry.max(paced)))
    }

    /// Takes the next action to hand to the world, if its time has come.
    pub(super) fn take(&mut self, now: Instant) -> Option<Action> {
        if self.ready_at(now).is_none_or(|at| at > now) {
            return None;
        }
        let action = self.queue.pop_front()?;
        self.rate.take(now);
        self.waiting = true;
        self.retry_at = None;
        Some(action)
    }

    /// The world could not take `action` now: it goes first again, shortly.
    pub(super) fn put_back(&mut self, action: Action, now: Instant) {
        self.queue.push_front(action);
        self.rate.refund();
        self.waiting = false;
        self.retry_at = Some(now + RETRY);
    }

    /// The world answered the action (or the arrival).
    pub(super) fn answered(&mut self) {
        self.waiting = false;
    }

    /// Takes `action` out of the queue, where a standing order waits for
    /// its pace.
    pub(super) fn forget(&mut self, action: Action) {
        self.queue.retain(|&queued| queued != action);
    }

    /// True while an action is with the world, not yet answered.
    pub(super) fn is_waiting(&self) -> bool {
        self.waiting
    }

    /// True when the client has queued nothing more.
    pub(super) fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

/// A token bucket.
#[derive(Debug)]
pub(super) struct RateLimit {
    per_second: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    pub(super) fn new(per_second: u32, burst: u32, now: Instant) -> Self {
        let burst = f64::from(burst.max(1));
        Self { per_second: f64::from(per_second.max(1)), burst, tokens: burst, last: now }
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        self.last = now;
    }

    /// When the next token comes: `now` while the bucket holds one.
    pub(super) fn ready_at(&mut self, now: Instant) -> Instant {
        self.refill(now);
        if self.tokens >= 1.0 {
            now
        } else {
            now + Duration::from_secs_f64((1.0 - self.tokens) / self.per_second)
        }
    }

    /// Spends one action's token.
    fn take(&mut self, now: Instant) {
        self.refill(now);
        self.tokens -= 1.0;
    }

    /// Spends a token if the bucket holds one; false when it is empty.
    pub(super) fn try_take(&mut self, now: Instant) -> bool {
        self.refill(now);
        let has = self.tokens >= 1.0;
        if has {
            self.tokens -= 1.0;
        }
        has
    }

    /// True once the bucket has refilled to its burst: it then remembers
    /// nothing that a new bucket would not.
    pub(super) fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.burst
    }

    /// Gives back a token spent on an action that did not go.
    fn refund(&mut self) {
        self.tokens = (self.tokens + 1.0).min(self.burst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_actions_are_paced() {
        let t0 = Instant::now();
        let mut rate = RateLimit::new(20, 3, t0);
        for _ in 0..3 {
            assert_eq!(rate.ready_at(t0), t0);
            rate.take(t0);
        }
        let wait = rate.ready_at(t0) - t0;
        assert!((wait.as_secs_f64() - 0.05).abs() < 1e-6, "{wait:?}");
        // A second later the bucket is full again, but no fuller than the burst.
        let later = t0 + Duration::from_secs(1);
        for _ in 0..3 {
            assert_eq!(rate.ready_at(later), later);
            rate.take(later);
        }
        assert!(rate.ready_at(later) > later);
    }

    fn pacer(capacity: usize, t0: Instant) -> Pacer {
        let mut pacer = Pacer::new(capacity, 20, 20, t0);
        pacer.answered(); // the arrival
        pacer
    }

    #[test]
    fn one_action_at_a_time_until_answered() {
        let t0 = Instant::now();
        let mut p = pacer(5, t0);
        assert_eq!(p.ready_at(t0), None, "nothing queued");
        p.push(Action::Wait).unwrap();
        p.push(Action::Descend).unwrap();
        assert_eq!(p.take(t0), Some(Action::Wait));
        assert_eq!((p.ready_at(t0), p.take(t0)), (None, None), "the first is unanswered");
        p.answered();
        assert_eq!(p.take(t0), Some(Action::Descend));
    }

    #[test]
    fn a_full_queue_is_a_flood() {
        let t0 = Instant::now();
        let mut p = pacer(3, t0);
        for _ in 0..3 {
            p.push(Action::Wait).unwrap();
        }
        assert_eq!(p.push(Action::Wait), Err(Flooding));
    }

    #[test]
    fn the_arrival_is_awaited_first() {
        let t0 = Instant::now();
        let mut p = Pacer::new(3, 20, 20, t0);
        p.push(Action::Wait).unwrap();
        assert_eq!(p.take(t0), None);
        p.answered();
        assert_eq!(p.take(t0), Some(Action::Wait));
    }

    #[test]
    fn a_busy_world_gets_the_same_action_again_shortly_at_no_cost() {
        let t0 = Instant::now();
        let mut p = Pacer::new(3, 20, 1, t0);
        p.answered();
        p.push(Action::Wait).unwrap();
        p.push(Action::Descend).unwrap();
        let first = p.take(t0).unwrap();
        p.put_back(first, t0);
        assert_eq!(p.ready_at(t0), Some(t0 + RETRY));
        assert_eq!(p.take(t0), None, "not before the retry");
        assert_eq!(p.take(t0 + RETRY), Some(Action::Wait), "the same action, its token refunded");
    }
}
