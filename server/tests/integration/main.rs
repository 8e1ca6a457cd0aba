//! The server's integration tests in one binary, a module each (one link
//! instead of one per file, as ripgrep keeps them): the generators and
//! sight over many seeds, the accept path fuzzed for a bounded time, a
//! stored history replayed, and the real `gloam-server` run as a child
//! process (its tools, persistence across restarts and kills, signals,
//! metrics, designer files, load and a reconnect storm). Fixtures are in `tests/fixtures/`,
//! the snapshots beside this file (`snapshots/integration__MODULE__NAME.snap`).

mod accept;
mod accept_fuzz;
mod designer_files;
mod drain;
mod graveyard;
mod hosting;
mod levels;
mod load;
mod mapgen_cli;
mod metrics;
mod old_graves;
mod old_world;
mod persist;
mod postgres;
mod replay;
mod replay_fixture;
mod sight;
mod signal;
mod storm;
mod threads;
