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
    /// When the commands being run started, and how many they are, until
    /// their time is recorded.
    started: Option<(std::time::Instant, usize)>,
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
            started: None,
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

    /// A round waited this long before it closed.
    pub(super) fn round_waited(&mut self, waited: std::time::Duration) {
        self.round_wait.record(waited);
    }

    /// Records the time of the commands begun (their share of the whole
    /// each), once, and the depth's rounds and players as they stand.
    pub(super) fn record(&mut self, rounds: u64, players: usize) {
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
