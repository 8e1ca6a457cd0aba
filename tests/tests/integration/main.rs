//! The scenarios in one binary, a module each (one link instead of one per
//! file, as ripgrep keeps them): a real server on 127.0.0.1:0 played by
//! simulated clients, the web page in headless Chromium, and the load tool.
//!
//! `tests/hostile.rs` is a binary of its own: its panic hook counts every
//! panic in the process as the server's, so here any other test's failed
//! assertion would fail it too.

mod backgrounds;
mod browser;
mod chat;
mod graveyard_cap;
mod host;
mod items;
mod load_tool;
mod morgue;
mod oracle;
mod orders;
mod page;
mod play;
mod recordings;
mod restock;
mod rounds;
mod watch;
