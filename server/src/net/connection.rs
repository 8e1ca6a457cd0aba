//! One client's connection: the WebSocket upgrade, the hello, then a loop
//! that reads the player's actions into its [`Pacer`], hands them to the
//! world one at a time at the player's allowed pace through its
//! [`Presence`], and writes what the world replies. Pings are the
//! [`PingKeeper`]'s to decide. Anything malformed, too fast or too slow closes this
//! connection alone, with a close reason, logged once where the task ends.

use std::net::SocketAddr;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::codec::{self, DecodeError};
use gloam_protocol::{Action, AudienceCmd, ChatTo, ClientMsg, Refusal, ServerMsg};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info, info_span, warn};

use super::chat::{self, ChatGuard, Verdict};
use super::pacer::{Flooding, Pacer};
use super::ping::{Check, PingKeeper};
use super::session::{self, Greeting, Joining, Request};
use crate::config::Config;
use crate::world::{ActError, Presence, Reply, Watcher, World};

mod watching;

/// How long closing may wait on the client: to take our close frame, and
/// then to answer it.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The most replies written at once (see `Connection::pass_on`).
const REPLIES_PER_WRITE: usize = 64;

/// The graveyard is sent to one connection at most this often.
const GRAVEYARD_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

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
/// Frames are gathered until a flush (every write here ends in one), so the
/// messages of one reply leave in one system call, not one each.
pub(super) fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(16 * 1024)
        .max_write_buffer_size(64 * 1024)
        .max_message_size(Some(4 * 1024))
        .max_frame_size(Some(4 * 1024))
        .accept_unmasked_frames(false)
}

/// Serves one accepted stream until it closes or the server stops.
pub async fn serve<S>(stream: S, peer: SocketAddr, world: Arc<World>, stop: CancellationToken)
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
        let pings = PingKeeper::new(
            world.config().ping_interval,
            world.config().ping_timeout,
            Instant::now(),
        );
        let bytes_sent = metrics::counter!(crate::telemetry::BYTES_SENT);
        let mut conn =
            Connection { ws, world, stop, pings, peer, graveyard_shown: None, bytes_sent };
        let (ending, joined) = conn.greet_and_play().await;
        let reason = close_reason(&ending.code);
        metrics::counter!(crate::telemetry::CLOSED, "reason" => reason).increment(1);
        match &ending.code {
            CloseCode::Normal | CloseCode::Away => {
                info!(reason = %ending.reason, "connection closed")
            }
            _ => warn!(code = ?ending.code, reason = %ending.reason, "connection closed"),
        }
        // Out of the world (and saved) before the close: whoever hears the
        // close can count on the others having heard the player leave.
        match joined {
            Some(Joined::Player(presence)) => presence.leave().await,
            Some(Joined::Watcher(watcher)) => watcher.leave(),
            None => {}
        }
        conn.close(ending).await;
    }
    .instrument(span)
    .await
}

/// Turns away a connection over the server's limit: upgrade, then close at
/// once with "try again later".
pub(crate) async fn turn_away<S>(stream: S, peer: SocketAddr)
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

/// Who a connection is in the world.
enum Joined {
    Player(Presence),
    Watcher(Watcher),
}

struct Connection<S> {
    ws: WebSocketStream<S>,
    peer: SocketAddr,
    world: Arc<World>,
    stop: CancellationToken,
    pings: PingKeeper,
    /// When the graveyard was last sent.
    graveyard_shown: Option<Instant>,
    /// Bytes written to this client, for `--metrics`.
    bytes_sent: metrics::Counter,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Connection<S> {
    /// The hello, then play (or watch); gives why it ended and, once the
    /// player is in the world, who it is there, to be taken out before the
    /// close.
    async fn greet_and_play(&mut self) -> (Ending, Option<Joined>) {
        match self.greet().await {
            Ok(Joined::Player(mut presence)) => {
                let (you, token) = (presence.id(), presence.new_token());
                let ending = match self.welcome(you, token, None).await {
                    Ok(()) => self.play(&mut presence).await,
                    Err(ending) => ending,
                };
                (ending, Some(Joined::Player(presence)))
            }
            Ok(Joined::Watcher(mut watcher)) => {
                let (you, token) = (watcher.player(), watcher.new_token());
                let watching =
                    ServerMsg::Watching { player: watcher.player_name().into(), you: watcher.id() };
                let ending = match self.welcome(you, token, Some(watching)).await {
                    Ok(()) => self.watch(&mut watcher).await,
                    Err(ending) => ending,
                };
                (ending, Some(Joined::Watcher(watcher)))
            }
            Err(ending) => (ending, None),
        }
    }

    /// The welcome, then the kinds of monster its messages name, then for
    /// a watcher whom it watches.
    async fn welcome(
        &mut self,
        you: gloam_protocol::PlayerId,
        token: Option<gloam_protocol::Token>,
        watching: Option<ServerMsg>,
    ) -> Result<(), Ending> {
        self.send(&welcome(you, token, self.world.config())).await?;
        self.send(&ServerMsg::Kinds(self.world.config().bestiary.kinds_info())).await?;
        match watching {
            Some(watching) => self.send(&watching).await,
            None => Ok(()),
        }
    }

    /// Reads the hello and enters the world, to play or to watch.
    async fn greet(&mut self) -> Result<Joined, Ending> {
        let limit = self.world.config().handshake_timeout;
        let stop = self.stop.clone();
        let first = tokio::select! {
            () = stop.cancelled() => return Err(going_away()),
            first = timeout(limit, self.next_msg()) => first,
        };
        let msg = match first {
            Err(_) => return Err(Ending::new(CloseCode::Policy, "no hello in time")),
            Ok(Err(ending)) => return Err(ending),
            Ok(Ok(msg)) => msg,
        };
        let joining = match session::greet(msg) {
            Ok(joining) => joining,
            Err(Greeting::Violation(why)) => return Err(Ending::new(CloseCode::Protocol, why)),
            Err(Greeting::Refuse(refusal)) => return Err(self.refuse(refusal).await),
        };
        let from = self.peer.ip();
        let joined = match &joining {
            Joining::Play { name, token } => {
                self.world.enter(name, *token, from).await.map(Joined::Player)
            }
            Joining::Watch { name, token, player } => {
                self.world.watch(name, *token, from, player).await.map(Joined::Watcher)
            }
        };
        let joined = match joined {
            Ok(joined) => joined,
            Err(refusal) => return Err(self.refuse(refusal).await),
        };
        let (Joining::Play { name, .. } | Joining::Watch { name, .. }) = &joining;
        tracing::Span::current().record("player", name.as_str());
        Ok(joined)
    }

    async fn refuse(&mut self, refusal: Refusal) -> Ending {
        let reason = refusal.to_string();
        let _ = self.send(&ServerMsg::Refused(refusal)).await;
        Ending::new(CloseCode::Policy, reason)
    }

    /// The game loop of one player: whatever comes first of the server
    /// stopping, a takeover, the world's replies, the pacer letting the
    /// next action go, a message from the client, and a ping to send or
    /// miss. Nothing in it waits on the world, so the connection answers
    /// at once whatever its depth is doing.
    async fn play(&mut self, presence: &mut Presence) -> Ending {
        let config = self.world.config().clone();
        let (per_second, burst) = (config.actions_per_second, config.action_burst);
        let mut pacer = Pacer::new(config.action_queue, per_second, burst, Instant::now());
        let mut chat = ChatGuard::new(Instant::now());
        let Some(mut heard) = presence.heard() else {
            return Ending::new(CloseCode::Error, "the player is already being served");
        };
        let stop = self.stop.clone();
        let kicked = presence.kicked();
        let mut watchers = presence.audience().names();
        loop {
            let now = Instant::now();
            let next_action = pacer.ready_at(now);
            if next_action.is_some_and(|at| at <= now) {
                // Due now: handed over at once, not by a timer set for now
                // (which fires on the timer's next millisecond). Handing
                // over leaves the pacer waiting for the answer, or for a
                // moment later when the depth is busy, so this runs once.
                if let Err(ending) = hand_over(&mut pacer, presence) {
                    return ending;
                }
                continue;
            }
            let next_check = self.pings.next_check();
            let result = tokio::select! {
                () = stop.cancelled() => Err(going_away()),
                () = kicked.cancelled() => Err(Ending::new(
                    CloseCode::Policy,
                    "another connection took over this character",
                )),
                reply = presence.reply() => self.pass_on(reply, presence, &mut pacer).await,
                Some(line) = heard.next() => self.write(line.into()).await,
                Ok(()) = watchers.changed() => {
                    let names = watchers.borrow_and_update().clone();
                    self.send(&ServerMsg::Watchers(names)).await
                }
                () = sleep_until(next_action.unwrap_or(now)), if next_action.is_some() => {
                    hand_over(&mut pacer, presence)
                }
                msg = self.next_msg() => match msg.map(session::play) {
                    Ok(Ok(Request::Graveyard)) => self.show_graveyard().await,
                    Ok(Ok(Request::Chat(to, text))) => {
                        let say = |to: &ChatTo, text: &str| presence.say(to, text);
                        self.speak(say, &mut chat, &to, &text).await
                    }
                    Ok(Ok(Request::Audience(cmd))) => {
                        self.rule_audience(presence, &mut chat, cmd).await
                    }
                    Ok(Ok(Request::Who)) => self.who(&mut chat).await,
                    msg => queue_action(msg, &mut pacer, per_second),
                },
                () = sleep_until(next_check) => self.keep_alive().await,
            };
            if let Err(ending) = result {
                return ending;
            }
        }
    }

    /// A line of chat from this player: cleaned, paced, and said at once
    /// (see `net::chat`); one over the pace is dropped with a warning, and
    /// one more while warned ends the connection.
    async fn speak(
        &mut self,
        say: impl FnOnce(&ChatTo, &str) -> Result<(), String>,
        guard: &mut ChatGuard,
        to: &ChatTo,
        text: &str,
    ) -> Result<(), Ending> {
        let Some(text) = chat::clean(text) else { return Ok(()) };
        self.paced(guard, async |conn: &mut Self| {
            let said = match to {
                // Not a name anyone can have: nothing of it is echoed back.
                ChatTo::Player(name) if session::check_name(name).is_err() => {
                    Err("Nobody by that name is playing.".to_owned())
                }
                _ => say(to, &text),
            };
            match said {
                Ok(()) => Ok(()),
                Err(note) => conn.send(&ServerMsg::Note(note)).await,
            }
        })
        .await
    }

    /// A player's say over its watchers (paced as chat is): refusing them
    /// all, letting them back, or sending one away, each answered with a note.
    async fn rule_audience(
        &mut self,
        presence: &Presence,
        guard: &mut ChatGuard,
        cmd: AudienceCmd,
    ) -> Result<(), Ending> {
        let audience = presence.audience();
        let note = match cmd {
            AudienceCmd::Refuse => {
                audience.set_open(false);
                "Nobody may watch you now (/allowwatch lets them again).".to_owned()
            }
            AudienceCmd::Allow => {
                audience.set_open(true);
                "Others may watch you now (/nowatch stops them).".to_owned()
            }
            AudienceCmd::Kick(name) if audience.kick(&name) => {
                format!("{name} no longer watches you.")
            }
            AudienceCmd::Kick(_) => "Nobody by that name is watching you.".to_owned(),
        };
        self.paced(guard, async |conn: &mut Self| conn.send(&ServerMsg::Note(note)).await).await
    }

    /// Who is playing (paced as chat is: the list is built under a lock
    /// every connection's chat takes).
    async fn who(&mut self, guard: &mut ChatGuard) -> Result<(), Ending> {
        self.paced(guard, async |conn: &mut Self| {
            let who = ServerMsg::Who(conn.world.playing());
            conn.send(&who).await
        })
        .await
    }

    /// Does `what` if the chat pace allows; one over the pace is dropped
    /// with a warning, and one more while warned ends the connection.
    async fn paced(
        &mut self,
        guard: &mut ChatGuard,
        what: impl AsyncFnOnce(&mut Self) -> Result<(), Ending>,
    ) -> Result<(), Ending> {
        match guard.admit(Instant::now()) {
            Verdict::Pass => what(self).await,
            Verdict::TooFast => self.send(&ServerMsg::Note(chat::TOO_FAST.into())).await,
            Verdict::Flood => Err(Ending::new(
                CloseCode::Policy,
                format!("flooding: more than {} chat line a second", chat::LINES_PER_SECOND),
            )),
        }
    }

    /// Writes what the world said; a finished answer lets the next action go.
    /// Replies already waiting leave with the first, in one write: a
    /// player in a crowd gets many small replies, and each write is a
    /// system call.
    async fn pass_on(
        &mut self,
        reply: Option<Reply>,
        presence: &mut Presence,
        pacer: &mut Pacer,
    ) -> Result<(), Ending> {
        let Some(first) = reply else {
            return Err(Ending::new(CloseCode::Policy, "too slow: messages were piling up"));
        };
        let mut replies = vec![first];
        while replies.len() < REPLIES_PER_WRITE && replies.last().is_some_and(|r| !r.died) {
            match presence.try_reply() {
                Some(reply) => replies.push(reply),
                None => break,
            }
        }
        let died = replies.iter().any(|r| r.died);
        let answered = replies.iter().filter(|r| r.done).count();
        self.write_all(replies.into_iter().flat_map(|r| r.frames).map(Bytes::from)).await?;
        if died {
            // The graveyard it just joined, for its death screen.
            self.graveyard_shown = None;
            let _ = self.show_graveyard().await;
            return Err(Ending::new(CloseCode::Normal, "your character died"));
        }
        for _ in 0..answered {
            pacer.answered();
        }
        Ok(())
    }

    /// Pings a quiet client, or gives up on one that did not answer.
    async fn keep_alive(&mut self) -> Result<(), Ending> {
        match self.pings.check(Instant::now()) {
            Check::Ping => self.write_message(Message::Ping(Bytes::new())).await,
            Check::Unanswered => Err(Ending::new(CloseCode::Policy, "no answer to ping")),
            Check::Nothing => Ok(()),
        }
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
                    return Err(Ending::new(CloseCode::Normal, "the client closed"));
                }
                // Pings are answered by the WebSocket layer itself; pongs
                // only show the client is alive.
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }

    /// Sends the graveyard, at most once every [`GRAVEYARD_EVERY`]: the
    /// store reads it whole each time.
    async fn show_graveyard(&mut self) -> Result<(), Ending> {
        let now = Instant::now();
        if self.graveyard_shown.is_some_and(|t| now - t < GRAVEYARD_EVERY) {
            let note = "The graveyard was shown a moment ago: ask again in a few seconds.";
            return self.send(&ServerMsg::Note(note.into())).await;
        }
        self.graveyard_shown = Some(now);
        let msg = match self.world.graveyard().await {
            Ok(dead) => ServerMsg::Graveyard(dead),
            Err(e) => ServerMsg::Note(format!("The graveyard cannot be read now: {e}")),
        };
        self.send(&msg).await
    }

    async fn send(&mut self, msg: &ServerMsg) -> Result<(), Ending> {
        self.write(codec::encode(msg).into()).await
    }

    async fn write(&mut self, bytes: Bytes) -> Result<(), Ending> {
        self.write_all(std::iter::once(bytes)).await
    }

    /// Writes several frames with one flush, giving up as `write_message`
    /// does on a client that does not read.
    async fn write_all(&mut self, frames: impl Iterator<Item = Bytes>) -> Result<(), Ending> {
        let (ws, counted) = (&mut self.ws, &self.bytes_sent);
        let all = async {
            for frame in frames {
                counted.increment(frame.len() as u64);
                ws.feed(Message::Binary(frame)).await?;
            }
            ws.flush().await
        };
        written(timeout(self.world.config().send_timeout, all).await)
    }

    /// Writes one frame, giving up on a client that has not read for the
    /// whole send deadline.
    async fn write_message(&mut self, msg: Message) -> Result<(), Ending> {
        written(timeout(self.world.config().send_timeout, self.ws.send(msg)).await)
    }

    /// Sends the close frame, best effort, without waiting long on a client
    /// that no longer reads.
    /// Then reads what the client still sends until its own close (or
    /// the end of the stream), briefly: dropping a socket with unread input
    /// makes the kernel reset the connection, and the reset can destroy the
    /// close frame on its way, so the client would see an abnormal end.
    async fn close(&mut self, ending: Ending) {
        let frame = CloseFrame { code: ending.code, reason: ending.reason.into() };
        let _ = timeout(CLOSE_WAIT, self.ws.close(Some(frame))).await;
        let _ =
            timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = self.ws.next().await {} }).await;
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

/// Why a connection ended, as the label of `--metrics`' count: the close
/// code's meaning (a flood, a slow reader and a missed ping are all
/// "policy"; the log has the reason in full).
fn close_reason(code: &CloseCode) -> &'static str {
    match code {
        CloseCode::Normal => "normal",
        CloseCode::Away => "away",
        CloseCode::Policy => "policy",
        CloseCode::Protocol => "protocol",
        CloseCode::Size => "too_large",
        CloseCode::Invalid => "invalid",
        CloseCode::Unsupported => "unsupported",
        CloseCode::Again => "server_full",
        _ => "error",
    }
}

/// How a write within the send deadline ended.
fn written(
    result: Result<Result<(), tokio_tungstenite::tungstenite::Error>, tokio::time::error::Elapsed>,
) -> Result<(), Ending> {
    match result {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(Ending::new(CloseCode::Away, format!("the client went away ({e})"))),
        Err(_) => Err(Ending::new(CloseCode::Policy, "too slow: not reading")),
    }
}

fn going_away() -> Ending {
    Ending::new(CloseCode::Away, "the server is shutting down")
}

/// The first message of a player (or watcher: `you` is then its player).
fn welcome(
    you: gloam_protocol::PlayerId,
    token: Option<gloam_protocol::Token>,
    config: &Config,
) -> ServerMsg {
    ServerMsg::Welcome {
        you,
        width: crate::level::MAP_WIDTH,
        height: crate::level::MAP_HEIGHT,
        sight_radius: config.sight_radius,
        actions_per_second: config.actions_per_second.min(u32::from(u16::MAX)) as u16,
        token,
    }
}

/// Hands the pacer's next action to the world; a busy depth gets it again
/// shortly.
fn hand_over(pacer: &mut Pacer, presence: &mut Presence) -> Result<(), Ending> {
    let Some(action) = pacer.take(Instant::now()) else { return Ok(()) };
    match presence.act(action) {
        Ok(()) => Ok(()),
        Err(ActError::Busy) => {
            pacer.put_back(action, Instant::now());
            Ok(())
        }
        Err(ActError::Gone) => Err(going_away()),
    }
}

/// Queues an action the client sent; a quit, a second hello, or more
/// actions than the queue holds end the connection.
fn queue_action(
    msg: Result<Result<Request, &'static str>, Ending>,
    pacer: &mut Pacer,
    per_second: u32,
) -> Result<(), Ending> {
    let action = match msg {
        Err(ending) => return Err(ending),
        Ok(Err(why)) => return Err(Ending::new(CloseCode::Protocol, why)),
        Ok(Ok(Request::Act(action))) => action,
        Ok(Ok(Request::Graveyard | Request::Chat(..) | Request::Audience(_) | Request::Who)) => {
            return Ok(());
        }
    };
    if action == Action::Quit {
        return Err(Ending::new(CloseCode::Normal, "goodbye"));
    }
    pacer.push(action).map_err(|Flooding| {
        Ending::new(CloseCode::Policy, format!("flooding: more than {per_second} actions a second"))
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::store::Store;

    type Client = WebSocketStream<tokio::io::DuplexStream>;

    async fn recv(ws: &mut Client) -> Message {
        timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("the server answers in time")
            .expect("the connection is open")
            .expect("a frame")
    }

    /// Ann, connected to a world of `config` through an in-memory stream,
    /// having read up to her first sight.
    struct Ann {
        writer: crate::store::Writer,
        world: Arc<World>,
        ws: Client,
        stop: CancellationToken,
        task: tokio::task::JoinHandle<()>,
    }

    impl Ann {
        async fn join(config: Config) -> Self {
            let (writer, known) = Store::in_memory().start();
            let world = Arc::new(World::new(config, writer.handle(), known));
            let (client_io, server_io) = tokio::io::duplex(64 * 1024);
            let stop = CancellationToken::new();
            let peer = SocketAddr::from(([127, 0, 0, 1], 9));
            let task = tokio::spawn(serve(server_io, peer, world.clone(), stop.clone()));
            let (mut ws, _) =
                tokio_tungstenite::client_async("ws://test/", client_io).await.unwrap();
            let hello = ClientMsg::Hello {
                version: gloam_protocol::PROTOCOL_VERSION,
                name: "ann".into(),
                token: None,
            };
            ws.send(Message::Binary(codec::encode(&hello).into())).await.unwrap();
            while !is_sight(&recv(&mut ws).await) {}
            Self { writer, world, ws, stop, task }
        }
    }

    fn is_sight(m: &Message) -> bool {
        match m {
            Message::Binary(b) => matches!(codec::decode_server(b), Ok(ServerMsg::Sight(_))),
            _ => false,
        }
    }

    /// An action the pacer lets through goes to the world as it arrives:
    /// a timer set for "now" fires on the timer's next millisecond, which
    /// added a millisecond to every answer.
    #[tokio::test]
    async fn an_action_is_answered_without_waiting_for_a_timer() {
        let Ann { writer, world: _world, mut ws, stop, task } = Ann::join(Config::quiet(3)).await;
        // From here the clock moves only when every task waits on a timer.
        tokio::time::pause();
        let wait = codec::encode(&ClientMsg::Act(Action::Wait));
        for _ in 0..3 {
            let sent = tokio::time::Instant::now();
            ws.send(Message::Binary(wait.clone().into())).await.unwrap();
            while !is_sight(&recv(&mut ws).await) {}
            assert_eq!(tokio::time::Instant::now() - sent, Duration::ZERO, "answered at once");
        }
        stop.cancel();
        drop(ws);
        let _ = timeout(Duration::from_secs(10), task).await;
        drop(writer);
    }

    /// A depth that stops taking commands (its queue full) must not take
    /// its players' connections with it: they still answer pings and hear
    /// the server stop.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stalled_depth_leaves_its_connections_answering() {
        let config = Config { depth_queue: 2, ..Config::with_seed(3) };
        let Ann { writer: _writer, world, mut ws, stop, task } = Ann::join(config).await;
        let release = world.stall(1).await;
        // More actions than the stalled depth's queue holds.
        let wait = codec::encode(&ClientMsg::Act(Action::Wait));
        for _ in 0..10 {
            ws.send(Message::Binary(wait.clone().into())).await.unwrap();
        }
        // Until the connection has met the full queue (and tries again).
        let tried = timeout(Duration::from_secs(5), async {
            while world.busy_refusals() < 2 {
                tokio::task::yield_now().await;
            }
        });
        assert!(tried.await.is_ok(), "the connection offered its depth an action");
        ws.send(Message::Ping(Bytes::from_static(b"still there?"))).await.unwrap();
        loop {
            match recv(&mut ws).await {
                Message::Pong(p) if p.as_ref() == b"still there?" => break,
                Message::Close(c) => panic!("closed instead: {c:?}"),
                _ => {}
            }
        }
        stop.cancel();
        loop {
            if let Message::Close(frame) = recv(&mut ws).await {
                assert_eq!(frame.map(|f| f.code), Some(CloseCode::Away));
                break;
            }
        }
        drop(ws);
        let ended = timeout(Duration::from_secs(10), task).await;
        assert!(ended.is_ok(), "the connection task ended while its depth stood still");
        drop(release);
    }
}
