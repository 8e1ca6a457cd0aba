//! A token bucket: the pace at which one player's actions are applied.

use std::time::Duration;

use tokio::time::Instant;

#[derive(Debug)]
pub struct RateLimit {
    per_second: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    pub fn new(per_second: u32, burst: u32, now: Instant) -> Self {
        let burst = f64::from(burst.max(1));
        Self { per_second: f64::from(per_second.max(1)), burst, tokens: burst, last: now }
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        self.last = now;
    }

    /// When the next action may go: `now` while the bucket holds a token.
    pub fn ready_at(&mut self, now: Instant) -> Instant {
        self.refill(now);
        if self.tokens >= 1.0 {
            now
        } else {
            now + Duration::from_secs_f64((1.0 - self.tokens) / self.per_second)
        }
    }

    /// Spends one action's token.
    pub fn take(&mut self, now: Instant) {
        self.refill(now);
        self.tokens -= 1.0;
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
}
