//! What a depth's task records for `--metrics` (see `crate::telemetry`).

/// A depth's figures: its players, the actions and rounds applied, how
/// long commands took and how long rounds waited.
#[derive(Debug)]
pub(super) struct DepthMetrics {
    players: ::metrics::Gauge,
    actions: ::metrics::Counter,
    rounds: ::metrics::Counter,
    command: ::metrics::Histogram,
    round_wait: ::metrics::Histogram,
    batch_actions: ::metrics::Histogram,
    batch_seconds: ::metrics::Histogram,
    queue_wait: ::metrics::Histogram,
    /// When the commands being run started, and how many they are, until
    /// their time is recorded.
    started: Option<(std::time::Instant, usize)>,
    /// When the batch of actions being applied was taken, and its size.
    batch: Option<(std::time::Instant, usize)>,
    /// The depth's rounds already counted.
    rounds_counted: u64,
}

impl DepthMetrics {
    /// The figures of `depth`, whose rounds so far are already counted.
    pub(super) fn of(depth: u16, rounds_counted: u64) -> Self {
        use crate::telemetry as t;
        Self {
            players: ::metrics::gauge!(t::PLAYERS, "depth" => depth.to_string()),
            actions: ::metrics::counter!(t::ACTIONS),
            rounds: ::metrics::counter!(t::ROUNDS),
            command: ::metrics::histogram!(t::COMMAND_SECONDS),
            round_wait: ::metrics::histogram!(t::ROUND_WAIT_SECONDS),
            batch_actions: ::metrics::histogram!(t::BATCH_ACTIONS),
            batch_seconds: ::metrics::histogram!(t::BATCH_SECONDS),
            queue_wait: ::metrics::histogram!(t::DEPTH_QUEUE_SECONDS),
            started: None,
            batch: None,
            rounds_counted,
        }
    }

    /// `count` commands start now.
    pub(super) fn begin(&mut self, count: usize) {
        self.started = Some((std::time::Instant::now(), count));
    }

    /// Actions applied.
    pub(super) fn acted(&mut self, count: usize) {
        self.actions.increment(count as u64);
    }

    /// An action waited this long in the depth's queue.
    pub(super) fn queued(&mut self, waited: std::time::Duration) {
        self.queue_wait.record(waited);
    }

    /// A batch of `count` actions, taken at `taken`, is being applied: its
    /// size and time are recorded with its commands' (see [`Self::record`]).
    pub(super) fn batch(&mut self, count: usize, taken: std::time::Instant) {
        self.batch = Some((taken, count));
    }

    /// A round waited this long before it closed.
    pub(super) fn round_waited(&mut self, waited: std::time::Duration) {
        self.round_wait.record(waited);
    }

    /// Records the time of the commands begun (their share of the whole
    /// each), once, and the depth's rounds and players as they stand.
    pub(super) fn record(&mut self, rounds: u64, players: usize) {
        if let Some((taken, count)) = self.batch.take() {
            self.batch_actions.record(count as f64);
            self.batch_seconds.record(taken.elapsed());
        }
        if let Some((started, count)) = self.started.take() {
            let share = started.elapsed() / u32::try_from(count.max(1)).unwrap_or(u32::MAX);
            for _ in 0..count {
                self.command.record(share);
            }
        }
        self.rounds.increment(rounds.saturating_sub(self.rounds_counted));
        self.rounds_counted = rounds;
        self.players.set(players as f64);
    }
}
