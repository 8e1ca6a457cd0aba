//! One client's WebSocket as frames, and nothing of what they mean: the
//! upgrade, the next message decoded (its size checked on the frame's
//! header before the payload is buffered), writes that give up on a client
//! that does not read, pings for a quiet client (the [`PingKeeper`]
//! decides when), and the closing handshake. Whatever ends a connection is
//! an [`Ending`]: a close code and a reason, for the close frame and the
//! log. The session (`net::session`) runs the loop over it.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::codec::{self, DecodeError};
use gloam_protocol::{ClientMsg, ServerMsg};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tracing::info;

use super::ping::{Check, PingKeeper};
use crate::config::{Config, Farewell};

/// How long closing may wait on the client: to take our close frame, and
/// then to answer it.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// Why a connection ended, for the log and the close frame.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Ending {
    pub(super) code: CloseCode,
    pub(super) reason: String,
    /// The connection itself failed (the client went away, closed, or
    /// stopped reading or answering): nothing more is written to it but
    /// the close.
    pub(super) broken: bool,
}

impl Ending {
    pub(super) fn new(code: CloseCode, reason: impl Into<String>) -> Self {
        Self { code, reason: reason.into(), broken: false }
    }

    /// An ending where the connection itself failed (see `broken`).
    fn broken(code: CloseCode, reason: impl Into<String>) -> Self {
        Self { broken: true, ..Self::new(code, reason) }
    }

    /// The server is stopping (or the world it served has ended).
    pub(super) fn going_away() -> Self {
        Self::new(CloseCode::Away, "the server is shutting down")
    }

    /// The server is stopping, as its host's `farewell` says: to restart
    /// (1012, Service Restart: come back soon), or for good.
    pub(super) fn stopping(farewell: Farewell) -> Self {
        match farewell {
            Farewell::Restart => Self::new(CloseCode::Restart, "the server is restarting"),
            Farewell::GoingAway => Self::going_away(),
        }
    }

    /// Whether this ending is the server's restart, which the client is
    /// told of before its close.
    pub(super) fn is_restart(&self) -> bool {
        self.code == CloseCode::Restart && !self.broken
    }
}

/// Small buffers and limits: a server holds many connections that each send
/// a few bytes. Limits are checked on the frame header, before any payload
/// is buffered; unmasked client frames are refused, as RFC 6455 requires.
/// Frames are gathered until a flush (every write here ends in one), so the
/// messages of one reply leave in one system call, not one each.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(16 * 1024)
        .max_write_buffer_size(64 * 1024)
        .max_message_size(Some(4 * 1024))
        .max_frame_size(Some(4 * 1024))
        .accept_unmasked_frames(false)
}

/// A client's WebSocket, past the upgrade.
#[derive(Debug)]
pub(super) struct Connection<S> {
    ws: WebSocketStream<S>,
    pings: PingKeeper,
    /// How long one write may wait on a client that does not read.
    send_timeout: Duration,
    /// Bytes written to this client, for `--metrics`.
    bytes_sent: metrics::Counter,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Connection<S> {
    /// The WebSocket upgrade, within the handshake timeout; gives why not.
    pub(super) async fn accept(stream: S, config: &Config) -> Result<Self, String> {
        let upgrade = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config()));
        let ws = match timeout(config.handshake_timeout, upgrade).await {
            Ok(Ok(ws)) => ws,
            Ok(Err(e)) => return Err(format!("WebSocket upgrade failed: {e}")),
            Err(_) => return Err("WebSocket upgrade timed out".into()),
        };
        let pings = PingKeeper::new(config.ping_interval, config.ping_timeout, Instant::now());
        let bytes_sent = metrics::counter!(crate::telemetry::BYTES_SENT);
        Ok(Self { ws, pings, send_timeout: config.send_timeout, bytes_sent })
    }

    /// The next message from the client, or why the connection must end.
    /// Cancel-safe: a frame is either consumed whole or left in the stream.
    pub(super) async fn next_msg(&mut self) -> Result<ClientMsg, Ending> {
        loop {
            let frame = match self.ws.next().await {
                None => return Err(Ending::broken(CloseCode::Away, "the client went away")),
                Some(Err(e)) => return Err(read_failure(e)),
                Some(Ok(frame)) => frame,
            };
            self.pings.heard(Instant::now());
            match frame {
                Message::Binary(bytes) => {
                    return codec::decode_client(&bytes).map_err(|e| match e {
                        DecodeError::TooLarge { .. } => Ending::new(CloseCode::Size, e.to_string()),
                        _ => Ending::new(CloseCode::Invalid, e.to_string()),
                    });
                }
                Message::Text(_) => {
                    return Err(Ending::new(
                        CloseCode::Unsupported,
                        "text frames are not part of the protocol",
                    ));
                }
                Message::Close(_) => {
                    return Err(Ending::broken(CloseCode::Normal, "the client closed"));
                }
                // Pings are answered by the WebSocket layer itself; pongs
                // only show the client is alive.
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }

    /// When [`keep_alive`](Self::keep_alive) has something to decide.
    pub(super) fn next_check(&self) -> Instant {
        self.pings.next_check()
    }

    /// Pings a quiet client, or gives up on one that did not answer.
    pub(super) async fn keep_alive(&mut self) -> Result<(), Ending> {
        match self.pings.check(Instant::now()) {
            Check::Ping => {
                let ping = self.ws.send(Message::Ping(Bytes::new()));
                written(timeout(self.send_timeout, ping).await)
            }
            Check::Unanswered => Err(Ending::broken(CloseCode::Policy, "no answer to ping")),
            Check::Nothing => Ok(()),
        }
    }

    pub(super) async fn send(&mut self, msg: &ServerMsg) -> Result<(), Ending> {
        self.write(codec::encode(msg).into()).await
    }

    /// Writes one message already encoded.
    pub(super) async fn write(&mut self, frame: Bytes) -> Result<(), Ending> {
        self.write_all(std::iter::once(frame)).await
    }

    /// Writes messages already encoded with one flush, giving up on a
    /// client that has not read for the whole send deadline.
    pub(super) async fn write_all(
        &mut self,
        frames: impl Iterator<Item = Bytes>,
    ) -> Result<(), Ending> {
        let (ws, counted) = (&mut self.ws, &self.bytes_sent);
        let all = async {
            for frame in frames {
                counted.increment(frame.len() as u64);
                ws.feed(Message::Binary(frame)).await?;
            }
            ws.flush().await
        };
        written(timeout(self.send_timeout, all).await)
    }

    /// Sends the close frame, best effort, without waiting long on a client
    /// that no longer reads.
    /// Then reads what the client still sends until its own close (or
    /// the end of the stream), briefly: dropping a socket with unread input
    /// makes the kernel reset the connection, and the reset can destroy the
    /// close frame on its way, so the client would see an abnormal end.
    pub(super) async fn close(&mut self, ending: Ending) {
        let frame = CloseFrame { code: ending.code, reason: ending.reason.into() };
        let _ = timeout(CLOSE_WAIT, self.ws.close(Some(frame))).await;
        let _ =
            timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = self.ws.next().await {} }).await;
    }
}

/// Turns away a connection over the server's limit: upgrade, then close at
/// once with "try again later".
pub(crate) async fn turn_away<S>(stream: S, peer: SocketAddr)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let upgrade = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config()));
    if let Ok(Ok(mut ws)) = timeout(Duration::from_secs(2), upgrade).await {
        let frame =
            CloseFrame { code: CloseCode::Again, reason: "server full: try again later".into() };
        let _ = timeout(Duration::from_secs(1), ws.close(Some(frame))).await;
    }
    info!(%peer, "turned away: the server is full");
}

/// A failed read: the client vanishing is ordinary; anything else is its
/// protocol error.
fn read_failure(e: tokio_tungstenite::tungstenite::Error) -> Ending {
    use tokio_tungstenite::tungstenite::Error;
    use tokio_tungstenite::tungstenite::error::ProtocolError;
    match e {
        Error::Io(_)
        | Error::ConnectionClosed
        | Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => {
            Ending::broken(CloseCode::Away, format!("the client went away ({e})"))
        }
        _ => Ending::new(CloseCode::Protocol, format!("bad frame: {e}")),
    }
}

/// How a write within the send deadline ended.
fn written(
    result: Result<Result<(), tokio_tungstenite::tungstenite::Error>, tokio::time::error::Elapsed>,
) -> Result<(), Ending> {
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(Ending::broken(CloseCode::Away, format!("the client went away ({e})"))),
        Err(_) => Err(Ending::broken(CloseCode::Policy, "too slow: not reading")),
    }
}
