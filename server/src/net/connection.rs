//! One client's connection: the WebSocket upgrade, the hello, then a loop
//! that forwards the player's actions to its depth and writes what the
//! world sends back. Anything malformed closes this connection alone, with
//! a close reason, and is logged once where the task ends.

use std::net::SocketAddr;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::codec::{self, DecodeError};
use gloam_protocol::{Action, ClientMsg, PlayerId, ServerMsg};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info, info_span, warn};

use super::rate::RateLimit;
use super::session::{self, Greeting};
use crate::world::{Arrival, DepthCmd, DepthHandle, Player, ToConn, World};

type Ws = WebSocketStream<TcpStream>;

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

/// Small buffers: a server holds many connections that each send a few bytes.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        .max_message_size(Some(4 * 1024))
        .max_frame_size(Some(4 * 1024))
}

pub async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    world: Arc<World>,
    stop: CancellationToken,
) {
    let span = info_span!("conn", %peer, player = tracing::field::Empty);
    async move {
        let limit = world.config().handshake_timeout;
        let ws = match timeout(
            limit,
            tokio_tungstenite::accept_async_with_config(stream, Some(ws_config())),
        )
        .await
        {
            Ok(Ok(ws)) => ws,
            Ok(Err(e)) => return debug!(error = %e, "WebSocket upgrade failed"),
            Err(_) => return debug!("WebSocket upgrade timed out"),
        };
        let mut conn = Connection { ws, world, stop };
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

struct Connection {
    ws: Ws,
    world: Arc<World>,
    stop: CancellationToken,
}

impl Connection {
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
        let name = match session::greet(msg) {
            Ok(name) => name,
            Err(Greeting::Violation(why)) => return Ending::new(CloseCode::Protocol, why),
            Err(Greeting::Refuse(refusal)) => return self.refuse(refusal).await,
        };
        let Some(id) = self.world.claim_name(&name) else {
            return self.refuse(gloam_protocol::Refusal::NameTaken).await;
        };
        tracing::Span::current().record("player", name.as_str());
        info!(%id, "joined");
        let ending = self.play(id, &name).await;
        self.world.release_name(&name);
        ending
    }

    async fn refuse(&mut self, refusal: gloam_protocol::Refusal) -> Ending {
        let reason = refusal.to_string();
        let _ =
            self.ws.send(Message::Binary(codec::encode(&ServerMsg::Refused(refusal)).into())).await;
        Ending::new(CloseCode::Policy, reason)
    }

    /// The game loop of one player: at most one command in flight to its
    /// depth at a time, so actions apply in order even across stairs.
    async fn play(&mut self, id: PlayerId, name: &str) -> Ending {
        let config = self.world.config().clone();
        let welcome = ServerMsg::Welcome {
            you: id,
            width: crate::level::MAP_WIDTH,
            height: crate::level::MAP_HEIGHT,
            sight_radius: config.sight_radius,
        };
        if let Err(ending) = self.send(&welcome).await {
            return ending;
        }
        let (link, mut inbox) = mpsc::channel(config.outbox_capacity);
        let mut here = self.world.depth(1);
        let player = Player::new(id, name.to_owned());
        if here.send(DepthCmd::Arrive { player, via: Arrival::Join, link }).await.is_err() {
            return going_away();
        }
        let mut in_flight = true;
        let mut rate =
            RateLimit::new(config.actions_per_second, config.action_burst, Instant::now());
        let stop = self.stop.clone();
        let ending = loop {
            tokio::select! {
                () = stop.cancelled() => break going_away(),
                from_world = inbox.recv() => match from_world {
                    None => break Ending::new(CloseCode::Policy, "too slow: messages were piling up"),
                    Some(ToConn::Frame(bytes)) => {
                        if let Err(e) = self.ws.send(Message::Binary(bytes.into())).await {
                            break Ending::new(CloseCode::Error, format!("write failed: {e}"));
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
                msg = self.next_msg(), if !in_flight => {
                    let action = match msg.map(session::play) {
                        Err(ending) => break ending,
                        Ok(Err(why)) => break Ending::new(CloseCode::Protocol, why),
                        Ok(Ok(action)) => action,
                    };
                    if action == Action::Quit {
                        break Ending::new(CloseCode::Normal, "goodbye");
                    }
                    if let Some(wait) = rate.take(Instant::now()) {
                        tokio::time::sleep(wait).await;
                    }
                    if here.send(DepthCmd::Act { id, action }).await.is_err() {
                        break going_away();
                    }
                    in_flight = true;
                }
            }
        };
        leave(&here, id).await;
        ending
    }

    /// The next message from the client, or why the connection must end.
    async fn next_msg(&mut self) -> Result<ClientMsg, Ending> {
        loop {
            let frame = match self.ws.next().await {
                None => return Err(Ending::new(CloseCode::Away, "the client went away")),
                Some(Err(e)) => {
                    return Err(Ending::new(CloseCode::Protocol, format!("bad frame: {e}")));
                }
                Some(Ok(frame)) => frame,
            };
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
                // Pings are answered by the WebSocket layer itself.
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }

    async fn send(&mut self, msg: &ServerMsg) -> Result<(), Ending> {
        self.ws
            .send(Message::Binary(codec::encode(msg).into()))
            .await
            .map_err(|e| Ending::new(CloseCode::Error, format!("write failed: {e}")))
    }

    /// Sends the close frame, best effort, without waiting long on a client
    /// that no longer reads.
    async fn close(&mut self, ending: Ending) {
        let frame = CloseFrame { code: ending.code, reason: ending.reason.into() };
        let _ = timeout(std::time::Duration::from_secs(1), self.ws.close(Some(frame))).await;
    }
}

fn going_away() -> Ending {
    Ending::new(CloseCode::Away, "the server is shutting down")
}

async fn leave(here: &DepthHandle, id: PlayerId) {
    // If the depth's task is gone the server is stopping and nobody is left to tell.
    let _ = here.send(DepthCmd::Leave { id }).await;
}
