//! A player's loop: its actions are read ahead into its [`Pacer`] and
//! handed to the world one at a time, at the player's allowed pace,
//! through its [`Presence`]; what the world replies is written as it
//! comes, several replies to a write. Nothing here waits on the world, so
//! the connection answers at once whatever its depth is doing.

use gloam_protocol::{Action, ChatTo, ServerMsg};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::{Instant, sleep_until};
use tokio_tungstenite::tungstenite::Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::Session;
use super::rules::{self, Request};
use crate::net::chat::ChatGuard;
use crate::net::connection::Ending;
use crate::net::pacer::{Flooding, Pacer};
use crate::world::{ActError, Presence, Reply};

/// The most replies written at once (see `Session::pass_on`).
pub(super) const REPLIES_PER_WRITE: usize = 64;

impl<S: AsyncRead + AsyncWrite + Unpin> Session<S> {
    /// The game loop of one player: whatever comes first of the server
    /// stopping, a takeover, the world's replies, the pacer letting the
    /// next action go, a message from the client, and a ping to send or
    /// miss.
    pub(super) async fn play(&mut self, presence: &mut Presence) -> Ending {
        let config = self.world.config().clone();
        let (per_second, burst) = (config.actions_per_second, config.action_burst);
        let mut pacer = Pacer::new(config.action_queue, per_second, burst, Instant::now());
        let mut chat = ChatGuard::new(Instant::now());
        let Some(mut inbox) = presence.inbox() else {
            return Ending::new(CloseCode::Error, "the player is already being served");
        };
        // The futures that stay the same from one turn of the loop to the
        // next are made once: made anew each turn, each registered and
        // unregistered a waiter (or a timer) twice an action, a few per
        // cent of a crowd's server.
        let stop = self.stop.clone();
        let kicked = presence.kicked();
        let (stopped, taken_over) = (stop.cancelled(), kicked.cancelled());
        tokio::pin!(stopped, taken_over);
        // Set for the check due when it was last set, and set again once it
        // fires: what is heard meanwhile only puts the check off.
        let ping_check = sleep_until(self.conn.next_check());
        tokio::pin!(ping_check);
        let mut watchers = presence.audience().names();
        // The client's last standing order, sent again for as long as the
        // world says it goes on (see `depth::orders`).
        let mut standing: Option<Standing> = None;
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
            let result = tokio::select! {
                () = &mut stopped => Err(self.stopping()),
                () = &mut taken_over => Err(Ending::new(
                    CloseCode::Policy,
                    "another connection took over this character",
                )),
                reply = presence.reply() => {
                    self.pass_on(reply, presence, &mut pacer, &mut standing).await
                }
                Some(line) = inbox.next() => self.hear(line, &mut standing, &mut pacer).await,
                Ok(()) = watchers.changed() => {
                    let names = watchers.borrow_and_update().clone();
                    self.conn.send(&ServerMsg::Watchers(names)).await
                }
                () = sleep_until(next_action.unwrap_or(now)), if next_action.is_some() => {
                    hand_over(&mut pacer, presence)
                }
                msg = self.conn.next_msg() => {
                    let asked = msg.map(rules::play);
                    self.take_request(asked, presence, &mut chat, (&mut pacer, &mut standing)).await
                }
                () = &mut ping_check => {
                    let kept = self.conn.keep_alive().await;
                    ping_check.as_mut().reset(self.conn.next_check());
                    kept
                }
            };
            if let Err(ending) = result {
                return ending;
            }
        }
    }

    /// Does what the client asked (see `rules::play`): an action goes to
    /// the pacer, the rest is answered here.
    async fn take_request(
        &mut self,
        asked: Result<Result<Request, &'static str>, Ending>,
        presence: &mut Presence,
        chat: &mut ChatGuard,
        (pacer, standing): (&mut Pacer, &mut Option<Standing>),
    ) -> Result<(), Ending> {
        match asked {
            Ok(Ok(Request::Graveyard)) => self.show_graveyard().await,
            Ok(Ok(Request::Chat(to, text))) => {
                let say = |to: &ChatTo, text: &str| presence.say(to, text);
                self.speak(say, chat, &to, &text).await
            }
            Ok(Ok(Request::Audience(cmd))) => self.rule_audience(presence, chat, cmd).await,
            Ok(Ok(Request::Who)) => self.who(chat).await,
            Ok(Ok(Request::Stop)) => self.stop_order(standing, pacer).await,
            asked => {
                // The oldest action not yet answered, for its turnaround.
                self.read_at.get_or_insert_with(std::time::Instant::now);
                let per_second = self.world.config().actions_per_second;
                queue_action(asked, pacer, standing, per_second)
            }
        }
    }

    /// The client asked to end its standing order: it is not sent again,
    /// and the client is told it stopped (the step with the world, if
    /// any, is its last).
    async fn stop_order(
        &mut self,
        standing: &mut Option<Standing>,
        pacer: &mut Pacer,
    ) -> Result<(), Ending> {
        let Some(order) = standing else { return Ok(()) };
        pacer.forget(order.action);
        if pacer.is_waiting() {
            // Its step with the world is the last: told once answered.
            order.stopping = true;
            return Ok(());
        }
        let tell = order.tells_stop();
        *standing = None;
        if tell { self.conn.send(&ServerMsg::Stopped).await } else { Ok(()) }
    }

    /// Passes on a line of chat said to the player: spoken to, it stops
    /// its standing order, as any key would.
    async fn hear(
        &mut self,
        line: Vec<u8>,
        standing: &mut Option<Standing>,
        pacer: &mut Pacer,
    ) -> Result<(), Ending> {
        self.conn.write(line.into()).await?;
        self.stop_order(standing, pacer).await
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
        standing: &mut Option<Standing>,
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
        let goes_on = replies.iter().rev().find(|r| r.done).is_some_and(|r| r.goes_on);
        let frames = replies.into_iter().flat_map(|r| r.frames).map(Bytes::from);
        self.conn.write_all(frames).await?;
        if died {
            // The graveyard it just joined, for its death screen.
            self.graveyard_shown = None;
            let _ = self.show_graveyard().await;
            return Err(Ending::new(CloseCode::Normal, "your character died"));
        }
        for _ in 0..answered {
            pacer.answered();
        }
        if answered > 0
            && let Some(at) = self.read_at.take()
        {
            ::metrics::histogram!(crate::telemetry::TURNAROUND_SECONDS).record(at.elapsed());
        }
        if answered > 0 && pacer.is_empty() {
            // The standing order was the last action answered: again if it
            // goes on, else it is over.
            match standing {
                Some(order) if goes_on && !order.stopping => {
                    order.went_on = true;
                    let _ = pacer.push(order.action);
                }
                Some(order) => {
                    let tell = order.tells_stop();
                    *standing = None;
                    if tell {
                        self.conn.send(&ServerMsg::Stopped).await?;
                    }
                }
                None => {}
            }
        }
        Ok(())
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
        Err(ActError::Gone) => Err(Ending::going_away()),
    }
}

/// Queues an action the client sent; a quit, a second hello, or more
/// actions than the queue holds end the connection.
/// A standing order the connection carries on: the client's action, sent
/// again while the world says it goes on.
#[derive(Debug, Clone, Copy)]
pub(super) struct Standing {
    action: Action,
    /// The world said it goes on at least once.
    went_on: bool,
    /// The client asked to stop it: the step with the world is the last.
    stopping: bool,
}

impl Standing {
    /// The order `action` may start, as the depth's orders decide.
    fn of(action: Action) -> Option<Self> {
        crate::world::may_start_order(action).then_some(Self {
            action,
            went_on: false,
            stopping: false,
        })
    }

    /// Whether the client is told when it is over: always for the orders
    /// themselves, and for the stairs' keys once they travelled.
    fn tells_stop(&self) -> bool {
        self.went_on || !matches!(self.action, Action::Descend | Action::Ascend)
    }
}

fn queue_action(
    msg: Result<Result<Request, &'static str>, Ending>,
    pacer: &mut Pacer,
    standing: &mut Option<Standing>,
    per_second: u32,
) -> Result<(), Ending> {
    let action = match msg {
        Err(ending) => return Err(ending),
        Ok(Err(why)) => return Err(Ending::new(CloseCode::Protocol, why)),
        Ok(Ok(Request::Act(action))) => action,
        Ok(Ok(
            Request::Graveyard
            | Request::Chat(..)
            | Request::Audience(_)
            | Request::Who
            | Request::Stop,
        )) => {
            return Ok(());
        }
    };
    if action == Action::Quit {
        return Err(Ending::new(CloseCode::Normal, "goodbye"));
    }
    // Any action ends a standing order, and may start one.
    *standing = Standing::of(action);
    pacer.push(action).map_err(|Flooding| {
        Ending::new(CloseCode::Policy, format!("flooding: more than {per_second} actions a second"))
    })
}
