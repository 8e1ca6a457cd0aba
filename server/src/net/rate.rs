//! A token bucket: the cap on how fast one player acts.

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

    /// Takes one action's token at `now`; returns how long to wait first when
    /// the bucket is empty.
    pub fn take(&mut self, now: Instant) -> Option<Duration> {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        self.last = now;
        self.tokens -= 1.0;
        (self.tokens < 0.0).then(|| Duration::from_secs_f64(-self.tokens / self.per_second))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_actions_are_paced() {
        let t0 = Instant::now();
        let mut rate = RateLimit::new(20, 3, t0);
        assert_eq!(rate.take(t0), None);
        assert_eq!(rate.take(t0), None);
        assert_eq!(rate.take(t0), None);
        let wait = rate.take(t0).expect("the fourth action at once waits");
        assert!((wait.as_secs_f64() - 0.05).abs() < 1e-9);
        // A second later the bucket is full again.
        let later = t0 + Duration::from_secs(1);
        assert_eq!(rate.take(later), None);
    }
}
