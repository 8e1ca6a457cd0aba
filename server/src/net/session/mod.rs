//! One client's time on the server, over its [`Connection`]: the hello
//! (paced per address by [`Hellos`]; which message is legal when is
//! `rules`), the welcome, then the loop of a player (`play`) or of a
//! watcher (`watch`), beside what either may ask for that is not an action
//! (`requests`: chat, its audience, who plays, the graveyard). Anything
//! malformed, too fast or too slow ends this session alone, with a close
//! reason, logged once here where it ends; a player leaves the world (and
//! is saved) before its close is sent, and what its depth sent it that it
//! had not taken is written first: its watchers may have been shown it.

mod play;
mod recording;
mod requests;
pub(crate) mod rules;
mod watch;

use std::net::SocketAddr;
use std::sync::Arc;

use gloam_protocol::{PlayerId, Refusal, ServerMsg, Token, codec};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, timeout_at};
use tokio_tungstenite::tungstenite::Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info, info_span, warn};

use super::connection::{Connection, Ending};
use super::hellos::Hellos;
use crate::config::Config;
use crate::world::{Presence, Watcher, World};
use rules::{Greeting, Joining};

/// Serves one accepted stream until it closes or the server stops; its
/// hello counts against its address's pace in `hellos`.
pub async fn serve<S>(
    stream: S,
    peer: SocketAddr,
    world: Arc<World>,
    hellos: Arc<Hellos>,
    stop: CancellationToken,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let span = info_span!("conn", %peer, player = tracing::field::Empty);
    async move {
        let conn = match Connection::accept(stream, world.config()).await {
            Ok(conn) => conn,
            Err(why) => return debug!("{why}"),
        };
        let mut session =
            Session { conn, peer, world, hellos, stop, graveyard_shown: None, read_at: None };
        let (ending, joined) = session.greet_and_play().await;
        log_ending(&ending);
        if let Some(joined) = joined {
            session.part(joined, &ending).await;
        }
        session.conn.close(ending).await;
    }
    .instrument(span)
    .await
}

/// Who a connection is in the world.
enum Joined {
    Player(Presence),
    Watcher(Watcher),
}

struct Session<S> {
    conn: Connection<S>,
    peer: SocketAddr,
    world: Arc<World>,
    hellos: Arc<Hellos>,
    stop: CancellationToken,
    /// When the graveyard was last sent.
    graveyard_shown: Option<Instant>,
    /// When the oldest action not yet answered was read (see
    /// `telemetry::TURNAROUND_SECONDS`).
    read_at: Option<std::time::Instant>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> Session<S> {
    /// Takes the player (or watcher) out of the world, saved, before the
    /// close: whoever hears the close can count on the others having heard
    /// the player leave. A player is written what its depth sent that it
    /// had not taken (its watchers may have been shown it), unless its
    /// connection failed; then, when the server restarts, everyone is told
    /// so, once saved.
    async fn part(&mut self, joined: Joined, ending: &Ending) {
        match joined {
            Joined::Player(presence) => {
                let untaken = presence.leave().await;
                if !ending.broken && !untaken.is_empty() {
                    let _ = self.conn.write_all(untaken.into_iter().map(Into::into)).await;
                }
            }
            Joined::Watcher(watcher) => watcher.leave(),
        }
        if ending.is_restart() {
            let _ = self.conn.send(&ServerMsg::Restarting).await;
        }
    }

    /// How this connection ends when the server stops.
    fn stopping(&self) -> Ending {
        Ending::stopping(self.world.config().farewell)
    }

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

    /// The welcome, then the kinds of monster and of item its messages
    /// name, the host's message of the day, and for a watcher whom it
    /// watches (after the day's message, which its client then takes as
    /// said to it, not to its player).
    async fn welcome(
        &mut self,
        you: PlayerId,
        token: Option<Token>,
        watching: Option<ServerMsg>,
    ) -> Result<(), Ending> {
        let config = self.world.config();
        let mut first = vec![
            welcome(you, token, config),
            ServerMsg::Kinds(config.bestiary.kinds_info()),
            ServerMsg::ItemKinds(config.world_items().infos()),
        ];
        first.extend(config.motd.iter().map(|line| ServerMsg::Note(line.clone())));
        first.extend(watching);
        let frames = first.iter().map(|msg| Bytes::from(codec::encode(msg)));
        self.conn.write_all(frames).await
    }

    /// Reads the hello and enters the world, to play or to watch. A client
    /// may first ask for the backgrounds, once, within the same time.
    async fn greet(&mut self) -> Result<Joined, Ending> {
        let limit = self.world.config().handshake_timeout;
        let deadline = Instant::now() + limit;
        let mut joining = self.hello(deadline).await?;
        if let Err(Greeting::Backgrounds) = joining {
            let config = self.world.config();
            let list = config.backgrounds.infos(&config.world_items());
            self.conn.send(&ServerMsg::Backgrounds(list)).await?;
            joining = match self.hello(deadline).await? {
                Err(Greeting::Backgrounds) => Err(Greeting::Violation("backgrounds asked twice")),
                other => other,
            };
        }
        let joining = match joining {
            Ok(joining) => joining,
            Err(Greeting::Violation(why)) => return Err(Ending::new(CloseCode::Protocol, why)),
            Err(Greeting::Refuse(refusal)) => return Err(self.refuse(refusal).await),
            Err(Greeting::Backgrounds) => unreachable!("answered above"),
        };
        self.enter(joining).await
    }

    /// The first message (or the one after the backgrounds), read by
    /// `deadline`, as the rules greet it.
    async fn hello(&mut self, deadline: Instant) -> Result<Result<Joining, Greeting>, Ending> {
        let stop = self.stop.clone();
        let first = tokio::select! {
            () = stop.cancelled() => return Err(self.stopping()),
            first = timeout_at(deadline, self.conn.next_msg()) => first,
        };
        let msg = match first {
            // "Try again later", not a policy close, which a client does
            // not try again: a hello late in a crowd (a reconnect storm on
            // a loaded machine) is no offence, and a silent client is cut
            // off all the same.
            Err(_) => return Err(Ending::new(CloseCode::Again, "no hello in time: try again")),
            Ok(Err(ending)) => return Err(ending),
            Ok(Ok(msg)) => msg,
        };
        Ok(rules::greet(msg))
    }

    /// Enters the world as the hello said, to play or to watch (or sends
    /// the recording it asked for instead).
    async fn enter(&mut self, joining: Joining) -> Result<Joined, Ending> {
        let from = self.peer.ip();
        self.admit().await?;
        let joined = match &joining {
            Joining::Play { name, token, background } => {
                let background = background.as_deref();
                self.world.enter(name, *token, from, background).await.map(Joined::Player)
            }
            Joining::Watch { name, token, player } => {
                self.world.watch(name, *token, from, player).await.map(Joined::Watcher)
            }
            // Not entered: sent, and the connection ends.
            Joining::Recording(ask) => return Err(self.send_recording(ask).await),
        };
        let joined = match joined {
            Ok(joined) => joined,
            Err(refusal) => return Err(self.refuse(refusal).await),
        };
        if let Joining::Play { name, .. } | Joining::Watch { name, .. } = &joining {
            tracing::Span::current().record("player", name.as_str());
        }
        Ok(joined)
    }

    async fn refuse(&mut self, refusal: Refusal) -> Ending {
        let reason = refusal.to_string();
        let _ = self.conn.send(&ServerMsg::Refused(refusal)).await;
        Ending::new(CloseCode::Policy, reason)
    }
}

/// Counts the ending for `--metrics` and logs it: an ordinary one as
/// information, anything else as a warning.
fn log_ending(ending: &Ending) {
    metrics::counter!(crate::telemetry::CLOSED, "reason" => close_reason(&ending.code))
        .increment(1);
    match &ending.code {
        CloseCode::Normal | CloseCode::Away | CloseCode::Restart => {
            info!(reason = %ending.reason, "connection closed")
        }
        _ => warn!(code = ?ending.code, reason = %ending.reason, "connection closed"),
    }
}

/// Why a connection ended, as the label of `--metrics`' count: the close
/// code's meaning (a flood, a slow reader and a missed ping are all
/// "policy"; the log has the reason in full).
fn close_reason(code: &CloseCode) -> &'static str {
    match code {
        CloseCode::Normal => "normal",
        CloseCode::Away => "away",
        CloseCode::Restart => "restart",
        CloseCode::Policy => "policy",
        CloseCode::Protocol => "protocol",
        CloseCode::Size => "too_large",
        CloseCode::Invalid => "invalid",
        CloseCode::Unsupported => "unsupported",
        CloseCode::Again => "server_full",
        _ => "error",
    }
}

/// The first message of a player (or watcher: `you` is then its player).
fn welcome(you: PlayerId, token: Option<Token>, config: &Config) -> ServerMsg {
    ServerMsg::Welcome {
        you,
        width: crate::level::MAP_WIDTH,
        height: crate::level::MAP_HEIGHT,
        sight_radius: config.sight_radius,
        actions_per_second: config.actions_per_second.min(u32::from(u16::MAX)) as u16,
        token,
        world: config.world_name.clone(),
    }
}

#[cfg(test)]
mod tests;
