//! The world's health, for an orchestrator (a Kubernetes probe, an Agones
//! sidecar, a load balancer): `GET /health` (JSON: live, ready, players,
//! draining, where newcomers go, the world's name and the versions),
//! `GET /health/live` (200 while the server serves) and
//! `GET /health/ready` (200 while it takes newcomers, 503 once it
//! drains), each with the same JSON body (`saving` in it says whether the
//! store's commits work: a host's alert, not a probe's, since a restart
//! would not mend a full disk); and `POST /drain`, which drains
//! the world (see `World::drain`). HEAD reads the status without the
//! body.
//!
//! The game's port answers the three GETs; `--health ADDR` serves them
//! on a port of their own too, where a probe never waits behind players
//! for a place among `max_connections`. `POST /drain` is answered only
//! there, and only from a loopback address: the game's port is open to
//! the world (and a reverse proxy on the same machine would make anyone's
//! request look local), while the health port is the host's, reached from
//! the machine or the pod itself (a sidecar, `kubectl port-forward`, a
//! shell). No token to keep secret: whoever can reach the health port's
//! loopback can send SIGUSR2 as well.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;
use tracing::{debug, info, warn};

use super::head::{self, PageRequest, Request};
use super::page;
use crate::world::World;

/// Connections the health port serves at once: an orchestrator's probes
/// and a drain need a few; more would be a flood.
pub(super) const MOST_AT_ONCE: usize = 64;

/// It loads nothing, runs nothing, and is framed by nobody.
const POLICY: &str =
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const JSON: &str = "application/json";

/// What a request to the health endpoints asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Asked {
    /// `/health`: the report, always 200.
    Report,
    /// `/health/live`: 200 while the server serves.
    Live,
    /// `/health/ready`: 200 while it takes newcomers, else 503.
    Ready,
    /// `POST /drain`.
    Drain,
    /// `/drain` by another method than POST.
    DrainNotPost,
}

/// The health endpoint `request` asks for, if any (any query ignored).
pub(super) fn asked(request: &PageRequest) -> Option<Asked> {
    let path = request.target.split('?').next().unwrap_or_default();
    let read = request.method == "GET" || request.method == "HEAD";
    match path {
        "/health" if read => Some(Asked::Report),
        "/health/live" if read => Some(Asked::Live),
        "/health/ready" if read => Some(Asked::Ready),
        "/drain" if request.method == "POST" => Some(Asked::Drain),
        "/drain" => Some(Asked::DrainNotPost),
        _ => None,
    }
}

/// The world's health as `/health` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(super) struct Health {
    /// The server serves (always true in an answer: a server that does
    /// not serve does not answer).
    live: bool,
    /// It takes newcomers: it is not draining.
    ready: bool,
    /// The host drains it: newcomers are refused, and it exits once the
    /// last player has left.
    draining: bool,
    /// Players in the game now (watchers are not counted).
    players: usize,
    /// The store's last commit worked (while it fails, saves are kept and
    /// tried again, and new characters are refused).
    saving: bool,
    /// The most players the host allows at once (`--max-players`).
    max_players: Option<u32>,
    /// Where a draining world sends newcomers (`--drain-to`).
    elsewhere: Option<String>,
    /// The world's name (`--name`; empty: none).
    world: String,
    /// The server's version.
    version: &'static str,
    /// The protocol it speaks.
    protocol: u32,
}

impl Health {
    pub(super) fn of(world: &World) -> Self {
        let config = world.config();
        let draining = world.is_draining();
        Self {
            live: true,
            ready: !draining,
            draining,
            players: world.players(),
            saving: world.is_saving(),
            max_players: config.max_players,
            elsewhere: config.drain_to.clone(),
            world: config.world_name.clone(),
            version: env!("CARGO_PKG_VERSION"),
            protocol: gloam_protocol::PROTOCOL_VERSION,
        }
    }

    fn json(&self) -> String {
        // Plain data of strings, numbers and booleans: it always serializes.
        serde_json::to_string(self).unwrap_or_default() + "\n"
    }
}

/// Where a request came from, as the answer to `POST /drain` depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Port {
    /// The game's port: no drain here.
    Game,
    /// The `--health` port: a drain from loopback.
    Health,
}

/// The status line of the answer to `asked` from `peer` on `port`, after
/// doing what it asks (a drain).
fn decide(asked: Asked, port: Port, peer: SocketAddr, world: &World) -> (u16, &'static str) {
    match asked {
        Asked::Report | Asked::Live => (200, "OK"),
        Asked::Ready if world.is_draining() => (503, "Service Unavailable"),
        Asked::Ready => (200, "OK"),
        Asked::Drain if port == Port::Game => (404, "Not Found"),
        Asked::Drain if !from_this_machine(peer) => {
            warn!(%peer, "POST /drain refused: not from this machine");
            (403, "Forbidden")
        }
        Asked::Drain => {
            world.drain(&format!("POST /drain from {peer}"));
            (202, "Accepted")
        }
        Asked::DrainNotPost => (405, "Method Not Allowed"),
    }
}

/// Whether `peer` is a loopback address (an IPv4 one mapped into IPv6
/// too, as a dual-stack listener sees it).
fn from_this_machine(peer: SocketAddr) -> bool {
    peer.ip().to_canonical().is_loopback()
}

/// Answers a health request (or a drain) on `port`; then closes the
/// connection. Every answer carries the report.
pub(super) async fn serve<S>(
    stream: S,
    peer: SocketAddr,
    request: &PageRequest,
    (asked, port): (Asked, Port),
    world: &World,
    send_timeout: Duration,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let status = decide(asked, port, peer, world);
    let body = Health::of(world).json();
    let with_body = request.method != "HEAD";
    let bytes = page::made_response(status, JSON, body.as_bytes(), POLICY, with_body);
    match page::send_and_close(stream, &bytes, send_timeout).await {
        Ok(()) => debug!(%peer, status = status.0, target = %request.target, "health answered"),
        Err(e) => debug!(%peer, error = %e, "health: the answer was not sent"),
    }
}

/// Serves one connection to the `--health` port: its request head, then
/// a health answer, or a 404 for anything else (no game, no page here).
pub(super) async fn receive<S>(
    mut stream: S,
    peer: SocketAddr,
    world: Arc<World>,
    stop: CancellationToken,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let send_timeout = world.config().send_timeout;
    let head = tokio::select! {
        () = stop.cancelled() => return,
        head = head::read_head(&mut stream, world.config().handshake_timeout) => head,
    };
    let request = match head {
        Ok(head::Head { request: Request::Page(request), .. }) => Some(request),
        // A game connection has no place here.
        Ok(_) => None,
        Err(error) => return page::refuse(stream, peer, error, send_timeout).await,
    };
    match request.as_ref().and_then(|r| Some((r, asked(r)?))) {
        Some((request, asked)) => {
            let asked = (asked, Port::Health);
            serve(stream, peer, request, asked, &world, send_timeout).await;
        }
        None => {
            let body = b"Gloam serves /health, /health/live, /health/ready and POST /drain here.\n";
            let bytes = page::made_response((404, "Not Found"), "text/plain", body, POLICY, true);
            info!(%peer, "health port: a request for something else");
            let _ = page::send_and_close(stream, &bytes, send_timeout).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, target: &str) -> PageRequest {
        PageRequest {
            method: method.into(),
            target: target.into(),
            host: None,
            if_none_match: None,
        }
    }

    #[test]
    fn the_paths_and_methods_of_the_health_endpoints() {
        let ask = |method, target| asked(&request(method, target));
        assert_eq!(ask("GET", "/health"), Some(Asked::Report));
        assert_eq!(ask("HEAD", "/health?probe=1"), Some(Asked::Report));
        assert_eq!(ask("GET", "/health/live"), Some(Asked::Live));
        assert_eq!(ask("GET", "/health/ready"), Some(Asked::Ready));
        assert_eq!(ask("POST", "/drain"), Some(Asked::Drain));
        assert_eq!(ask("GET", "/drain"), Some(Asked::DrainNotPost));
        assert_eq!(ask("POST", "/health"), None);
        assert_eq!(ask("GET", "/health/"), None);
        assert_eq!(ask("GET", "/healthz"), None);
    }

    #[test]
    fn only_loopback_may_drain() {
        let from = |addr: &str| from_this_machine(addr.parse().unwrap());
        assert!(from("127.0.0.1:5000") && from("127.8.9.1:5000"));
        assert!(from("[::1]:5000") && from("[::ffff:127.0.0.1]:5000"));
        assert!(!from("10.0.0.7:5000") && !from("[::ffff:10.0.0.7]:5000"));
        assert!(!from("[2001:db8::1]:5000") && !from("0.0.0.0:5000"));
    }
}
