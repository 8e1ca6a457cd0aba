//! A player's presence in the world: the one handle a connection holds.

use std::sync::Arc;
use std::time::Duration;

use gloam_protocol::{Action, ChatTo, PlayerId, Token};
use tokio::sync::{mpsc, oneshot};
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;

use super::World;

use super::talk::{Inbox, JoinedWatching, Listener};
use super::task::{DepthCmd, DepthHandle, ToConn};
use super::watch::{Audience, StreamPart};

/// What the world said to one player for one command: encoded messages in
/// the order they are to be written.
#[derive(Debug)]
pub struct Reply {
    pub frames: Vec<Vec<u8>>,
    /// The player's own last command (or its arrival) has been applied: the
    /// next may be sent.
    pub done: bool,
    /// That command was a standing order that goes on: the connection
    /// sends it again at the player's pace (see `depth::orders`).
    pub goes_on: bool,
    /// The character died: these are its last words, and the connection ends.
    pub died: bool,
}

/// Why an action was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ActError {
    /// The depth's queue is full right now: try again shortly.
    #[error("the depth is busy")]
    Busy,
    /// The depth's task has ended: the server is shutting down.
    #[error("the world is shutting down")]
    Gone,
}

/// How long leaving waits for an answer in flight and for the save.
const LEAVE_WAIT: Duration = Duration::from_secs(2);

/// A character in the world, for as long as its connection plays it.
#[derive(Debug)]
pub struct Presence {
    pub(super) id: PlayerId,
    pub(super) name: String,
    pub(super) new_token: Option<Token>,
    pub(super) kicked: CancellationToken,
    /// The depth the player is on, as far as its replies have told.
    pub(super) here: DepthHandle,
    pub(super) replies: mpsc::Receiver<ToConn>,
    /// A command (or the arrival) was sent whose reply has not come.
    pub(super) awaiting: bool,
    /// When the action awaiting its reply was handed over, for the
    /// answer's time (`telemetry::ANSWER_SECONDS`).
    pub(super) asked: Option<std::time::Instant>,
    /// Its place among those who can be spoken to.
    pub(super) listener: Listener,
    /// The lines of chat said to it, until the connection takes them.
    pub(super) inbox: Option<Inbox>,
    /// Those watching it.
    pub(super) audience: Arc<Audience>,
    pub(super) world: Arc<World>,
}

impl Presence {
    pub(crate) fn id(&self) -> PlayerId {
        self.id
    }

    /// For a character this join created: the secret its client must keep.
    pub(crate) fn new_token(&self) -> Option<Token> {
        self.new_token
    }

    /// The depth the player is on, as its last reply left it.
    pub fn depth(&self) -> u16 {
        self.here.depth
    }

    /// Cancelled when another connection takes this character over.
    pub(crate) fn kicked(&self) -> CancellationToken {
        self.kicked.clone()
    }

    /// Hands one action to the player's depth without waiting: a full
    /// depth queue is [`ActError::Busy`], so the connection stays free to
    /// answer pings and notice shutdown while it tries again.
    pub(crate) fn act(&mut self, action: Action) -> Result<(), ActError> {
        let since = std::time::Instant::now();
        let cmd = DepthCmd::Act { id: self.id, action, since };
        match self.here.tx.try_send(cmd) {
            Ok(()) => {
                self.awaiting = true;
                self.asked = Some(since);
                Ok(())
            }
            Err(mpsc::error::TrySendError::Full(_)) => Err(ActError::Busy),
            Err(mpsc::error::TrySendError::Closed(_)) => Err(ActError::Gone),
        }
    }

    /// The next reply, or `None` once the depth has dropped this player
    /// (its connection fell behind) or the world has ended.
    pub(crate) async fn reply(&mut self) -> Option<Reply> {
        let reply = self.replies.recv().await?;
        Some(self.take(reply))
    }

    /// A reply already waiting, if there is one (`None` also once the
    /// depth has dropped this player: [`Presence::reply`] says so).
    pub(crate) fn try_reply(&mut self) -> Option<Reply> {
        let reply = self.replies.try_recv().ok()?;
        Some(self.take(reply))
    }

    fn take(&mut self, reply: ToConn) -> Reply {
        let ToConn { frames, done, goes_on, now_on, died } = reply;
        if let Some(depth) = now_on {
            self.here = depth;
        }
        if done {
            self.awaiting = false;
            if let Some(asked) = self.asked.take() {
                ::metrics::histogram!(crate::telemetry::ANSWER_SECONDS).record(asked.elapsed());
            }
        }
        Reply { frames, done, goes_on, died }
    }

    /// The lines of chat said to this player, for its connection to pass
    /// on beside the replies; given once.
    pub fn inbox(&mut self) -> Option<Inbox> {
        self.inbox.take()
    }

    /// Says a line (already cleaned) to those `to` names, without waiting
    /// for anything; the note to show the speaker when it went nowhere.
    pub(crate) fn say(&self, to: &ChatTo, text: &str) -> Result<(), String> {
        self.world.talkers.say(&self.name, to, text).map(drop)
    }

    /// Those watching this player, and its say over them.
    pub fn audience(&self) -> &Audience {
        &self.audience
    }

    /// Takes the player out of the world and waits (bounded) until its save
    /// is on its way to the store, so the next claim of the character
    /// loads it. A command still in flight is let finish first: it may be
    /// taking the player down the stairs to another depth.
    ///
    /// Gives the frames of every reply its connection had not taken, in
    /// order. Those watching were shown them up to the moment they were
    /// sent away, and nothing after: written before the close, they leave
    /// the watchers having seen nothing the player has not (see
    /// `world::watch`).
    pub(crate) async fn leave(mut self) -> Vec<Vec<u8>> {
        let mut untaken = Vec::new();
        let _ = timeout(LEAVE_WAIT, async {
            while self.awaiting {
                match self.reply().await {
                    Some(reply) => untaken.extend(reply.frames),
                    // Dropped by its depth, which saved it then.
                    None => break,
                }
            }
        })
        .await;
        let (saved, done) = oneshot::channel();
        let leave = DepthCmd::Leave { id: self.id, saved };
        if let Ok(Ok(())) = timeout(LEAVE_WAIT, self.here.tx.send(leave)).await {
            let _ = timeout(LEAVE_WAIT, done).await;
        }
        self.audience.close(&format!("{} left the game", self.name));
        // A depth hands a reply to the connection before it shows it to the
        // watchers: all they were shown is in the queue by now.
        while let Some(reply) = self.try_reply() {
            untaken.extend(reply.frames);
        }
        self.world.talkers.leave(&self.name, &self.listener);
        self.world.release(&self.name);
        untaken
    }
}

/// Someone watching a player, for as long as its connection lasts: fed
/// what the player's client is sent (see `world::watch`), hearing what is
/// said where the player is, never acting.
#[derive(Debug)]
pub struct Watcher {
    name: String,
    id: PlayerId,
    new_token: Option<Token>,
    kicked: CancellationToken,
    /// The watched player.
    player: PlayerId,
    audience: Arc<Audience>,
    stream: mpsc::Receiver<StreamPart>,
    listener: Listener,
    inbox: Option<Inbox>,
    world: Arc<World>,
}

impl Watcher {
    pub(super) fn new(
        (name, id): (&str, PlayerId),
        new_token: Option<Token>,
        kicked: CancellationToken,
        joined: JoinedWatching,
        stream: mpsc::Receiver<StreamPart>,
        world: Arc<World>,
    ) -> Self {
        let JoinedWatching { listener, inbox, player, audience } = joined;
        let name = name.to_owned();
        let inbox = Some(inbox);
        Self { name, id, new_token, kicked, player, audience, stream, listener, inbox, world }
    }

    /// The watched player's id: the watcher's client sees through its eyes.
    pub(crate) fn player(&self) -> PlayerId {
        self.player
    }

    /// The watcher's own id, as its lines of chat carry it.
    pub(crate) fn id(&self) -> PlayerId {
        self.id
    }

    /// The watcher's own name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The watched player's name.
    pub(crate) fn player_name(&self) -> &str {
        self.audience.player()
    }

    /// For a name this watch made a character: the secret to keep.
    pub(crate) fn new_token(&self) -> Option<Token> {
        self.new_token
    }

    /// Cancelled when the name is claimed to play, here or elsewhere.
    pub(crate) fn kicked(&self) -> CancellationToken {
        self.kicked.clone()
    }

    /// The next part of the stream; `None` once the watcher lost its seat
    /// for falling behind.
    pub(crate) async fn next(&mut self) -> Option<StreamPart> {
        self.stream.recv().await
    }

    /// A part of the stream already waiting, if there is one.
    pub(crate) fn try_next(&mut self) -> Option<StreamPart> {
        self.stream.try_recv().ok()
    }

    /// The names of those watching the same player, as they change.
    pub(crate) fn audience(&self) -> &Audience {
        &self.audience
    }

    /// The lines of chat said to this watcher; given once.
    pub fn inbox(&mut self) -> Option<Inbox> {
        self.inbox.take()
    }

    /// Says a line (already cleaned), as a player would, where its player is.
    pub(crate) fn say(&self, to: &ChatTo, text: &str) -> Result<(), String> {
        self.world.talkers.say(&self.name, to, text).map(drop)
    }

    /// Leaves the seat and the game.
    pub(crate) fn leave(self) {
        self.audience.stand(self.listener.serial());
        self.world.talkers.leave(&self.name, &self.listener);
        self.world.release(&self.name);
    }
}
