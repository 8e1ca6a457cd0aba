//! The client's integration tests in one binary, a module each (one link
//! instead of one per file, as ripgrep keeps them): the palette's
//! contrast, the state mirror against a hostile server, the drawn frame
//! against its golden images (`tests/golden/`), the first screen and the
//! end page's player against a real server, and the real `gloam` in
//! Xvfb.
//!
//! `tests/quit.rs` is a binary of its own: it sets the process's tracing
//! subscriber to read what the server logs, which here would also collect
//! every other test's servers.

mod common;
mod contrast;
mod e2e;
mod first_screen;
mod hostile_server;
mod player;
mod render;
