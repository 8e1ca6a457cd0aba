//! One client's connection: the WebSocket upgrade, the hello, then a loop
//! that reads the player's actions into a small queue, forwards them to its
//! depth one at a time at the player's allowed pace, and writes what the
//! world sends back. Anything malformed, too fast or too slow closes this
//! connection alone, with a close reason, logged once where the task ends.

use std::collections::VecDeque;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::codec::{self, DecodeError};
use gloam_protocol::{Action, ClientMsg, PlayerId, Refusal, ServerMsg};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info, info_span, warn};

use super::rate::RateLimit;
use super::session::{self, Greeting};
use crate::config::Config;
use crate::world::{Arrival, Claim, DepthCmd, DepthHandle, Player, Saved, ToConn, World};

/// Why a connection ended, for the log and the close frame.
#[derive(Debug)]
struct Ending {
    code: CloseCode,
    reason: String,
}

impl Ending {
    fn new(code: CloseCode, reason: impl Into<String>) -> Self {
        Self { code, reason: reason.into() }
    }
}

/// Small buffers and limits: a server holds many connections that each send
/// a few bytes. Limits are checked on the frame header, before any payload
/// is buffered; unmasked client frames are refused, as RFC 6455 requires.
pub(super) fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024)
        .max_message_size(Some(4 * 1024))
        .max_frame_size(Some(4 * 1024))
        .accept_unmasked_frames(false)
}

/// Serves one accepted stream until it closes or the server stops.
pub async fn serve<S>(stream: S, peer: String, world: Arc<World>, stop: CancellationToken)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let span = info_span!("conn", %peer, player = tracing::field::Empty);
    async move {
        let limit = world.config().handshake_timeout;
        let upgrade = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config()));
        let ws = match timeout(limit, upgrade).await {
            Ok(Ok(ws)) => ws,
            Ok(Err(e)) => return debug!(error = %e, "WebSocket upgrade failed"),
            Err(_) => return debug!("WebSocket upgrade timed out"),
        };
        let mut conn = Connection { ws, world, stop, last_heard: Instant::now() };
        let ending = conn.greet_and_play().await;
        match &ending.code {
            CloseCode::Normal | CloseCode::Away => {
                info!(reason = %ending.reason, "connection closed")
            }
            _ => warn!(code = ?ending.code, reason = %ending.reason, "connection closed"),
        }
        conn.close(ending).await;
    }
    .instrument(span)
    .await
}

/// Turns away a connection over the server's limit: upgrade, then close at
/// once with "try again later".
pub async fn turn_away<S>(stream: S, peer: String)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let upgrade = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config()));
    if let Ok(Ok(mut ws)) = timeout(std::time::Duration::from_secs(2), upgrade).await {
        let frame =
            CloseFrame { code: CloseCode::Again, reason: "server full: try again later".into() };
        let _ = timeout(std::time::Duration::from_secs(1), ws.close(Some(frame))).await;
    }
    info!(%peer, "turned away: the server is full");
}

struct Connection<S> {
    ws: WebSocketStream<S>,
    world: Arc<World>,
    stop: CancellationToken,
    /// When the client last sent anything at all, pongs included.
    last_heard: Instant,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Connection<S> {
    async fn greet_and_play(&mut self) -> Ending {
        let limit = self.world.config().handshake_timeout;
        let stop = self.stop.clone();
        let first = tokio::select! {
            () = stop.cancelled() => return going_away(),
            first = timeout(limit, self.next_msg()) => first,
        };
        let msg = match first {
            Err(_) => return Ending::new(CloseCode::Policy, "no hello in time"),
            Ok(Err(ending)) => return ending,
            Ok(Ok(msg)) => msg,
        };
        let (name, token) = match session::greet(msg) {
            Ok(hello) => hello,
            Err(Greeting::Violation(why)) => return Ending::new(CloseCode::Protocol, why),
            Err(Greeting::Refuse(refusal)) => return self.refuse(refusal).await,
        };
        let claim = match self.world.characters().claim(&name, token).await {
            Ok(claim) => claim,
            Err(refusal) => return self.refuse(refusal).await,
        };
        tracing::Span::current().record("player", name.as_str());
        info!(id = %claim.id, returning = claim.new_token.is_none(), "joined");
        let ending = self.play(claim, &name).await;
        self.world.characters().release(&name);
        ending
    }

    async fn refuse(&mut self, refusal: Refusal) -> Ending {
        let reason = refusal.to_string();
        let _ = self.send(&ServerMsg::Refused(refusal)).await;
        Ending::new(CloseCode::Policy, reason)
    }

    /// The game loop of one player. Actions are read as they come into a
    /// short queue; one at a time goes to the player's depth (so they apply
    /// in order, even across stairs), no faster than the player's pace. A
    /// client that outruns the queue is flooding and is closed.
    async fn play(&mut self, claim: Claim, name: &str) -> Ending {
        let Claim { id, new_token, saved, kicked } = claim;
        let config = self.world.config().clone();
        let welcome = ServerMsg::Welcome {
            you: id,
            width: crate::level::MAP_WIDTH,
            height: crate::level::MAP_HEIGHT,
            sight_radius: config.sight_radius,
            actions_per_second: config.actions_per_second.min(u32::from(u16::MAX)) as u16,
            token: new_token,
        };
        if let Err(ending) = self.send(&welcome).await {
            return ending;
        }
        let (link, mut inbox) = mpsc::channel(config.outbox_capacity);
        let (mut here, player, via) = match saved {
            Some(Saved { depth, player }) => {
                let at = player.pos;
                (self.world.depth(depth), player, Arrival::Resume(at))
            }
            None => (self.world.depth(1), Player::new(id, name.to_owned()), Arrival::Join),
        };
        if here.send(DepthCmd::Arrive { player, via, link }).await.is_err() {
            return going_away();
        }
        let mut in_flight = true;
        let mut queue: VecDeque<Action> = VecDeque::with_capacity(config.action_queue);
        let mut rate =
            RateLimit::new(config.actions_per_second, config.action_burst, Instant::now());
        // When a ping went out that the client has not answered yet.
        let mut pinged_at: Option<Instant> = None;
        let stop = self.stop.clone();
        let ending = loop {
            let now = Instant::now();
            let next_ready =
                if in_flight || queue.is_empty() { None } else { Some(rate.ready_at(now)) };
            let idle_deadline = self.last_heard + config.ping_interval;
            tokio::select! {
                () = stop.cancelled() => break going_away(),
                () = kicked.cancelled() => {
                    break Ending::new(CloseCode::Policy, "another connection took over this character");
                }
                from_world = inbox.recv() => match from_world {
                    None => break Ending::new(CloseCode::Policy, "too slow: messages were piling up"),
                    Some(ToConn::Frame(bytes)) => {
                        if let Err(ending) = self.write(bytes.into(), &config).await {
                            break ending;
                        }
                    }
                    Some(ToConn::TurnDone) => in_flight = false,
                    Some(ToConn::Transfer { departure, link }) => {
                        here = self.world.depth(departure.depth);
                        let cmd = DepthCmd::Arrive { player: departure.player, via: departure.via, link };
                        if here.send(cmd).await.is_err() {
                            break going_away();
                        }
                    }
                },
                () = sleep_until(next_ready.unwrap_or(now)), if next_ready.is_some() => {
                    if let Some(action) = queue.pop_front() {
                        rate.take(Instant::now());
                        if here.send(DepthCmd::Act { id, action }).await.is_err() {
                            break going_away();
                        }
                        in_flight = true;
                    }
                }
                msg = self.next_msg() => {
                    let action = match msg.map(session::play) {
                        Err(ending) => break ending,
                        Ok(Err(why)) => break Ending::new(CloseCode::Protocol, why),
                        Ok(Ok(action)) => action,
                    };
                    if action == Action::Quit {
                        break Ending::new(CloseCode::Normal, "goodbye");
                    }
                    if queue.len() >= config.action_queue {
                        break Ending::new(
                            CloseCode::Policy,
                            format!("flooding: more than {} actions a second", config.actions_per_second),
                        );
                    }
                    queue.push_back(action);
                }
                () = sleep_until(idle_deadline), if pinged_at.is_none() => {
                    if let Err(ending) = self.write_message(Message::Ping(Bytes::new()), &config).await {
                        break ending;
                    }
                    pinged_at = Some(Instant::now());
                }
                () = sleep_until(pinged_at.unwrap_or(now) + config.ping_timeout), if pinged_at.is_some() => {
                    // Anything heard since the ping (its pong, most likely) is an answer.
                    if pinged_at.is_some_and(|t| self.last_heard < t) {
                        break Ending::new(CloseCode::Policy, "no answer to ping");
                    }
                    pinged_at = None;
                }
            }
        };
        leave(&here, id).await;
        ending
    }

    /// The next message from the client, or why the connection must end.
    /// Cancel-safe: a frame is either consumed whole or left in the stream.
    async fn next_msg(&mut self) -> Result<ClientMsg, Ending> {
        loop {
            let frame = match self.ws.next().await {
                None => return Err(Ending::new(CloseCode::Away, "the client went away")),
                Some(Err(e)) => return Err(read_failure(e)),
                Some(Ok(frame)) => frame,
            };
            self.last_heard = Instant::now();
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
                    return Err(Ending::new(CloseCode::Normal, "the client closed"));
                }
                // Pings are answered by the WebSocket layer itself; pongs
                // only show the client is alive.
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }

    async fn send(&mut self, msg: &ServerMsg) -> Result<(), Ending> {
        let config = self.world.config().clone();
        self.write(codec::encode(msg).into(), &config).await
    }

    async fn write(&mut self, bytes: Bytes, config: &Config) -> Result<(), Ending> {
        self.write_message(Message::Binary(bytes), config).await
    }

    /// Writes one frame, giving up on a client that has not read for the
    /// whole send deadline.
    async fn write_message(&mut self, msg: Message, config: &Config) -> Result<(), Ending> {
        match timeout(config.send_timeout, self.ws.send(msg)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Ending::new(CloseCode::Away, format!("the client went away ({e})"))),
            Err(_) => Err(Ending::new(CloseCode::Policy, "too slow: not reading")),
        }
    }

    /// Sends the close frame, best effort, without waiting long on a client
    /// that no longer reads.
    async fn close(&mut self, ending: Ending) {
        let frame = CloseFrame { code: ending.code, reason: ending.reason.into() };
        let _ = timeout(std::time::Duration::from_secs(1), self.ws.close(Some(frame))).await;
    }
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
            Ending::new(CloseCode::Away, format!("the client went away ({e})"))
        }
        _ => Ending::new(CloseCode::Protocol, format!("bad frame: {e}")),
    }
}

fn going_away() -> Ending {
    Ending::new(CloseCode::Away, "the server is shutting down")
}

/// Takes the player off its depth, which saves it, and waits until it has:
/// the next claim of this character then loads what was saved. A depth that
/// already dropped the player (a connection that fell behind) saved it then.
async fn leave(here: &DepthHandle, id: PlayerId) {
    let (saved, done) = tokio::sync::oneshot::channel();
    if here.send(DepthCmd::Leave { id, saved }).await.is_ok() {
        let _ = timeout(std::time::Duration::from_secs(2), done).await;
    }
}
