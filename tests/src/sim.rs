//! A simulated player: a real WebSocket client that keeps the same mirror of
//! its knowledge as the game client, optionally checked by an [`Oracle`]
//! after every message, and that can find its way around what it knows.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use gloam_client::ClientState;
use gloam_protocol::{
    Action, ClientMsg, Dir, PROTOCOL_VERSION, PlayerId, Pos, ServerMsg, Terrain, Token,
};
use gloam_protocol::{CellSet, codec};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub use crate::moves::{fight, first_step, is_frontier};
use crate::oracle::Oracle;

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long a simulated client waits for any one message before giving up.
pub const RECV_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("the server closed the connection: {0:?}")]
    Closed(Option<CloseFrame>),
    #[error("no message within {0:?}")]
    Timeout(Duration),
    #[error("network: {0}")]
    Net(#[from] tokio_tungstenite::tungstenite::Error),
    #[error("undecodable server message: {0}")]
    Decode(#[from] codec::DecodeError),
    #[error("the mirror refused a message: {0}")]
    State(#[from] gloam_client::StateError),
    #[error("oracle: {0}")]
    Oracle(String),
    #[error("refused: {0}")]
    Refused(gloam_protocol::Refusal),
    #[error("{0}")]
    Stuck(String),
    /// The character died (the server then closed the connection).
    #[error("died: {0:?}")]
    Died(gloam_protocol::DeathRecord),
}

/// Byte counts of what a simulated client received.
#[derive(Debug, Default, Clone)]
pub struct WireStats {
    pub frames: u64,
    pub bytes: u64,
    /// The size of the `Sight` frame answering each move.
    pub move_replies: Vec<usize>,
}

#[derive(Debug)]
pub struct SimClient {
    pub name: String,
    ws: Ws,
    pub state: ClientState,
    oracle: Option<Oracle>,
    pub stats: WireStats,
    last_frame_len: usize,
    /// The secret the server gave this character on its first join.
    pub token: Option<gloam_protocol::Token>,
    /// The cells the last `EnterLevel` said were remembered.
    pub remembered: CellSet,
    /// Every message of the game received since [`SimClient::record`]
    /// (not chat, watcher lists, the graveyard or a watcher's word that its
    /// watching ended, which are the connection's own), for comparing a
    /// watcher's stream with its player's.
    pub transcript: Option<Vec<ServerMsg>>,
    /// Messages read but not yet applied to `state` (see
    /// [`SimClient::read_deferred`]), in the order read.
    pending: Vec<ServerMsg>,
    /// A standing order is under way (see [`SimClient::order`]).
    ordering: bool,
}

/// Opens a WebSocket to `url` without saying anything.
pub async fn connect_raw(url: &str) -> Result<Ws, SimError> {
    // Nagle's algorithm off, as the game's client has it.
    let connecting = tokio_tungstenite::connect_async_with_config(url, Some(ws_config()), true);
    let (ws, _) = tokio::time::timeout(RECV_TIMEOUT, connecting)
        .await
        .map_err(|_| SimError::Timeout(RECV_TIMEOUT))??;
    Ok(ws)
}

/// A simulated client's WebSocket settings: tungstenite's, but for a read
/// buffer of 4 KiB (as the server's), not 128 KiB, which it clears before
/// every read: with a thousand clients in one process that clearing was a
/// fifth of the load tool's time, and the figures it takes are the
/// server's, not its own.
pub fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default().read_buffer_size(4 * 1024)
}

impl SimClient {
    /// Joins as `name` and waits for the first sight of the first level.
    pub async fn join(url: &str, name: &str, oracle: Option<Oracle>) -> Result<Self, SimError> {
        Self::join_with_token(url, name, None, oracle).await
    }

    /// Makes a new character `name` of the background so named, as the
    /// window does: asks for the backgrounds, checks the one wanted is
    /// among them, then creates it, and waits for the first sight.
    pub async fn create(
        url: &str,
        name: &str,
        background: &str,
        oracle: Option<Oracle>,
    ) -> Result<Self, SimError> {
        Self::create_again(url, name, None, background, oracle).await
    }

    /// As [`SimClient::create`], with the name's token: a new life for a
    /// name whose character died, of this background.
    pub async fn create_again(
        url: &str,
        name: &str,
        token: Option<Token>,
        background: &str,
        oracle: Option<Oracle>,
    ) -> Result<Self, SimError> {
        let mut sim = Self::connect(url, name, token, oracle).await?;
        sim.send(&ClientMsg::Backgrounds).await?;
        let offered = match sim.recv().await? {
            ServerMsg::Backgrounds(list) => list,
            other => return Err(SimError::Stuck(format!("{other:?} before the backgrounds"))),
        };
        if !offered.iter().any(|b| b.name == background) {
            let names: Vec<&str> = offered.iter().map(|b| b.name.as_str()).collect();
            return Err(SimError::Stuck(format!("no background {background:?} in {names:?}")));
        }
        let (version, name, background) =
            (PROTOCOL_VERSION, name.to_owned(), background.to_owned());
        sim.send(&ClientMsg::Create { version, name, token, background }).await?;
        sim.welcomed().await?;
        Ok(sim)
    }

    /// Reads until the first sight, keeping the token a new character is given.
    async fn welcomed(&mut self) -> Result<(), SimError> {
        loop {
            match self.recv().await? {
                ServerMsg::Refused(r) => return Err(SimError::Refused(r)),
                ServerMsg::Welcome { token: Some(fresh), .. } => self.token = Some(fresh),
                ServerMsg::Sight(_) => return Ok(()),
                _ => {}
            }
        }
    }

    /// Joins as `name` (with its key, if it has one) with every message of
    /// the game kept from the first (see `transcript`), the welcome's
    /// included.
    pub async fn join_recorded(
        url: &str,
        name: &str,
        token: Option<Token>,
        oracle: Option<Oracle>,
    ) -> Result<Self, SimError> {
        let mut sim = Self::connect(url, name, token, oracle).await?;
        sim.record();
        let version = PROTOCOL_VERSION;
        sim.send(&ClientMsg::Hello { version, name: name.to_owned(), token }).await?;
        sim.welcomed().await?;
        Ok(sim)
    }

    /// Joins as `name` with the character's secret token.
    pub async fn join_with_token(
        url: &str,
        name: &str,
        token: Option<gloam_protocol::Token>,
        oracle: Option<Oracle>,
    ) -> Result<Self, SimError> {
        let mut sim = Self::connect(url, name, token, oracle).await?;
        sim.send(&ClientMsg::Hello { version: PROTOCOL_VERSION, name: name.to_owned(), token })
            .await?;
        sim.welcomed().await?;
        Ok(sim)
    }

    /// Joins as the window does: the connection opened within
    /// [`RECV_TIMEOUT`], then the hello's answer awaited for as long as the
    /// server keeps the link open, up to `patience`, however long the
    /// server is quiet meanwhile (a crowd's arrivals ahead of it).
    pub async fn join_patiently(
        url: &str,
        name: &str,
        token: Option<gloam_protocol::Token>,
        patience: Duration,
    ) -> Result<Self, SimError> {
        let deadline = tokio::time::Instant::now() + patience;
        let mut sim = Self::connect(url, name, token, None).await?;
        sim.send(&ClientMsg::Hello { version: PROTOCOL_VERSION, name: name.to_owned(), token })
            .await?;
        loop {
            match sim.recv().await {
                Ok(ServerMsg::Refused(r)) => return Err(SimError::Refused(r)),
                Ok(ServerMsg::Welcome { token: Some(fresh), .. }) => sim.token = Some(fresh),
                Ok(ServerMsg::Sight(_)) => return Ok(sim),
                Ok(_) => {}
                Err(SimError::Timeout(_)) if tokio::time::Instant::now() < deadline => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Watches the player `player` as `name`, and waits until its whole
    /// view has arrived (the view's last message, whom its round waits for).
    pub async fn watch(
        url: &str,
        name: &str,
        player: &str,
        oracle: Option<Oracle>,
    ) -> Result<Self, SimError> {
        Self::watch_with_token(url, name, None, player, oracle).await
    }

    /// Watches as [`watch`](Self::watch) does, under a character's name
    /// and its secret token.
    pub async fn watch_with_token(
        url: &str,
        name: &str,
        token: Option<gloam_protocol::Token>,
        player: &str,
        oracle: Option<Oracle>,
    ) -> Result<Self, SimError> {
        let mut sim = Self::connect(url, name, token, oracle).await?;
        let watch = ClientMsg::Watch {
            version: PROTOCOL_VERSION,
            name: name.to_owned(),
            token,
            player: player.to_owned(),
        };
        sim.send(&watch).await?;
        let mut entered = false;
        loop {
            match sim.recv().await? {
                ServerMsg::Refused(r) => return Err(SimError::Refused(r)),
                ServerMsg::Welcome { token: Some(fresh), .. } => sim.token = Some(fresh),
                ServerMsg::EnterLevel { .. } => entered = true,
                ServerMsg::Waiting(_) if entered => return Ok(sim),
                _ => {}
            }
        }
    }

    async fn connect(
        url: &str,
        name: &str,
        token: Option<gloam_protocol::Token>,
        oracle: Option<Oracle>,
    ) -> Result<Self, SimError> {
        Ok(SimClient {
            name: name.to_owned(),
            ws: connect_raw(url).await?,
            state: ClientState::named(name),
            oracle,
            stats: WireStats::default(),
            last_frame_len: 0,
            token,
            remembered: CellSet::new(),
            transcript: None,
            pending: Vec::new(),
            ordering: false,
        })
    }

    /// Starts recording the game's messages afresh (see `transcript`).
    pub fn record(&mut self) {
        self.transcript = Some(Vec::new());
    }

    /// What this client shows of the game: its mirror without the log and
    /// the lists of the connection's own (watchers, graveyard).
    pub fn view(&self) -> ClientState {
        let mut view = self.state.clone();
        view.clear_log();
        view.watching = None;
        view.watchers.clear();
        view.graveyard = None;
        view.name = None;
        view
    }

    pub fn id(&self) -> PlayerId {
        self.state.me.expect("a joined client has an id")
    }

    pub fn at(&self) -> Pos {
        self.state.at.expect("a joined client stands somewhere")
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), SimError> {
        self.ws.send(Message::Binary(codec::encode(msg).into())).await?;
        Ok(())
    }

    /// Sends raw bytes as one binary frame, for tests of malformed input.
    pub async fn send_bytes(&mut self, bytes: Vec<u8>) -> Result<(), SimError> {
        self.ws.send(Message::Binary(bytes.into())).await?;
        Ok(())
    }

    pub async fn send_message(&mut self, msg: Message) -> Result<(), SimError> {
        self.ws.send(msg).await?;
        Ok(())
    }

    /// The next message from the server, applied to the mirror and checked.
    pub async fn recv(&mut self) -> Result<ServerMsg, SimError> {
        self.catch_up()?;
        let msg = self.read().await?;
        self.absorb(msg)
    }

    /// Reads the next message off the socket and decodes it, counting it in
    /// the stats; the close after a death reads as the death.
    async fn read(&mut self) -> Result<ServerMsg, SimError> {
        let bytes = match next_binary(&mut self.ws).await {
            Ok(bytes) => bytes,
            Err(SimError::Closed(frame)) => {
                self.catch_up()?;
                return Err(match self.state.death.clone() {
                    Some(record) => SimError::Died(record),
                    None => SimError::Closed(frame),
                });
            }
            Err(e) => return Err(e),
        };
        self.stats.frames += 1;
        self.stats.bytes += bytes.len() as u64;
        self.last_frame_len = bytes.len();
        Ok(codec::decode_server(&bytes)?)
    }

    /// Reads the next message and keeps it, to be applied to `state` by
    /// [`SimClient::catch_up`] (which `recv` calls first); gives whether it
    /// answers an action (a `Sight`). The load tool's way: a thousand
    /// clients on one core apply a crowd's news when each next acts, not
    /// all at once as the news comes, so an answer read meanwhile is not
    /// timed behind the others' news (see BENCHMARKS.md).
    pub async fn read_deferred(&mut self) -> Result<bool, SimError> {
        let msg = self.read().await?;
        let answers = matches!(msg, ServerMsg::Sight(_));
        self.pending.push(msg);
        Ok(answers)
    }

    /// Takes one action and reads up to the `Sight` that answers it,
    /// keeping what it read for [`SimClient::catch_up`].
    pub async fn act_deferred(&mut self, action: Action) -> Result<(), SimError> {
        self.send(&ClientMsg::Act(action)).await?;
        while !self.read_deferred().await? {}
        Ok(())
    }

    /// Applies the messages read and kept, in order.
    pub fn catch_up(&mut self) -> Result<(), SimError> {
        for msg in std::mem::take(&mut self.pending) {
            self.absorb(msg)?;
        }
        Ok(())
    }

    /// Applies a message read to the client's state, checking it as the
    /// tests ask (a standing order's steps, the oracle).
    fn absorb(&mut self, msg: ServerMsg) -> Result<ServerMsg, SimError> {
        if let (true, ServerMsg::Sight(diff)) = (self.ordering, &msg)
            && self.state.terrain(diff.at).is_none()
        {
            // A standing order walks only where its player was told of.
            let why = format!("{}: an order stepped onto {:?}, never told of", self.name, diff.at);
            return Err(SimError::Oracle(why));
        }
        self.state.apply(&msg)?;
        if let Some(transcript) = &mut self.transcript
            && !connection_own(&msg)
        {
            transcript.push(msg.clone());
        }
        if let ServerMsg::EnterLevel { remembered, .. } = &msg {
            self.remembered = CellSet::from_bytes(remembered);
        }
        if let Some(oracle) = &mut self.oracle {
            oracle
                .check(&msg, &self.state)
                .map_err(|e| SimError::Oracle(format!("{}: {e}", self.name)))?;
        }
        Ok(msg)
    }

    /// Reads messages until `found` picks one out, within `within` (quiet
    /// spells included); gives what it picked. Panics on any other error or
    /// when the time runs out: a test's helper.
    pub async fn expect<T>(
        &mut self,
        within: Duration,
        mut found: impl FnMut(&ServerMsg) -> Option<T>,
    ) -> T {
        let name = self.name.clone();
        tokio::time::timeout(within, async {
            loop {
                match self.recv().await {
                    Ok(msg) => {
                        if let Some(t) = found(&msg) {
                            return t;
                        }
                    }
                    Err(SimError::Timeout(_)) => {}
                    Err(e) => panic!("{name} reads on: {e}"),
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("{name}: what was awaited did not come within {within:?}"))
    }

    /// Takes one action and reads every message up to and including the
    /// `Sight` that answers it; returns them all.
    pub async fn act(&mut self, action: Action) -> Result<Vec<ServerMsg>, SimError> {
        self.send(&ClientMsg::Act(action)).await?;
        let mut turn = Vec::new();
        loop {
            let msg = self.recv().await?;
            let done = matches!(msg, ServerMsg::Sight(_));
            turn.push(msg);
            if done {
                if matches!(action, Action::Move(_)) {
                    self.stats.move_replies.push(self.last_frame_len);
                }
                return Ok(turn);
            }
        }
    }

    /// Sends a standing order (explore, travel, rest, or the stairs' keys
    /// away from stairs) and reads until the server says it stopped: every
    /// message it sent meanwhile, each step checked to land on a cell the
    /// player was told of before it.
    pub async fn order(&mut self, action: Action) -> Result<Vec<ServerMsg>, SimError> {
        self.send(&ClientMsg::Act(action)).await?;
        self.ordering = true;
        let mut told = Vec::new();
        let result = loop {
            match self.recv().await {
                Ok(ServerMsg::Stopped) => break Ok(told),
                Ok(msg) => told.push(msg),
                Err(e) => break Err(e),
            }
        };
        self.ordering = false;
        result
    }

    /// Waits a turn: everything the server sent before now has been read.
    pub async fn sync(&mut self) -> Result<(), SimError> {
        self.act(Action::Wait).await.map(drop)
    }

    /// Reads until the server closes, and returns its close frame, once
    /// answered: reading on sends the close frame the WebSocket layer
    /// queued in answer, until the server ends the stream.
    pub async fn closed(&mut self) -> Result<Option<CloseFrame>, SimError> {
        loop {
            match self.recv().await {
                Ok(_) => {}
                Err(SimError::Closed(frame)) => {
                    let answering = async { while let Some(Ok(_)) = self.ws.next().await {} };
                    let _ = tokio::time::timeout(RECV_TIMEOUT, answering).await;
                    return Ok(frame);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The first step of a shortest walk over known open ground to a cell
    /// satisfying `goal`, if there is one.
    pub fn first_step(&self, goal: impl Fn(Pos) -> bool) -> Option<Dir> {
        first_step(&self.state, goal)
    }

    /// True when a known open cell borders one never seen.
    pub fn is_frontier(&self, p: Pos) -> bool {
        is_frontier(&self.state, p)
    }

    /// Every cell this player knows, with its terrain.
    pub fn known(&self) -> HashMap<Pos, Terrain> {
        self.state.known_cells().collect()
    }

    /// The cells the last `EnterLevel` said were remembered, as positions.
    pub fn remembered_cells(&self) -> HashSet<Pos> {
        let w = usize::from(self.state.width).max(1);
        self.remembered.iter().map(|i| Pos::new((i % w) as u16, (i / w) as u16)).collect()
    }

    /// A step onto a known open neighbour, chosen by `pick` among them (or
    /// among all eight directions when none is known).
    pub async fn wander(&mut self, pick: impl FnOnce(usize) -> usize) -> Result<(), SimError> {
        let at = self.at();
        let open: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| {
                at.step(d).and_then(|p| self.state.terrain(p)).is_some_and(Terrain::is_open)
            })
            .collect();
        let dir = if open.is_empty() { Dir::ALL[pick(8)] } else { open[pick(open.len())] };
        self.act(Action::Move(dir)).await.map(drop)
    }

    /// What an explorer does next: a blow (or a step away) when a monster
    /// stands beside it, on every other turn a zap of a wand it carries at
    /// a monster in sight, down any stairs it stands on, else towards known
    /// stairs, else towards the unknown, else anywhere (`turn` picks which
    /// way).
    pub fn explorer_action(&self, turn: usize) -> Action {
        let s = &self.state;
        if let Some(action) = self.fight() {
            return action;
        }
        // Every other turn only: an empty wand, or a monster that keeps
        // its distance, never holds the explorer up for good.
        if turn.is_multiple_of(2)
            && let Some(zap) = crate::moves::zap(s)
        {
            return zap;
        }
        if s.at.and_then(|p| s.terrain(p)) == Some(Terrain::StairsDown) {
            return Action::Descend;
        }
        let dir = s
            .find(Terrain::StairsDown)
            .and_then(|stairs| self.first_step(|p| p == stairs))
            .or_else(|| self.first_step(|p| self.is_frontier(p)))
            .unwrap_or(Dir::ALL[turn % 8]);
        Action::Move(dir)
    }

    /// What a player in a fight does: with a monster beside it, strikes
    /// it, or when its hit points are low steps away from every monster
    /// it sees (striking still if cornered). `None` when no monster is
    /// beside it.
    pub fn fight(&self) -> Option<Action> {
        fight(&self.state)
    }

    /// Explores towards the nearest unknown edge for `moves` moves (fighting
    /// what stands beside it first), or until nothing is left to explore
    /// (then false).
    pub async fn explore(&mut self, moves: usize) -> Result<bool, SimError> {
        for _ in 0..moves {
            if let Some(action) = self.fight() {
                self.act(action).await?;
                continue;
            }
            let Some(dir) = self.first_step(|p| self.is_frontier(p)) else {
                return Ok(false);
            };
            self.act(Action::Move(dir)).await?;
        }
        Ok(true)
    }

    /// Walks onto the known down staircase and takes it; false when no down
    /// staircase is known yet.
    pub async fn descend_known(&mut self, max_steps: usize) -> Result<bool, SimError> {
        let Some(stairs) = self.state.find(Terrain::StairsDown) else { return Ok(false) };
        self.walk_to(stairs, max_steps).await?;
        let depth = self.state.depth;
        self.act(Action::Descend).await?;
        Ok(self.state.depth == depth + 1)
    }

    /// Quits as a player does, and waits (bounded) for the server's close.
    pub async fn quit(mut self) -> Result<Option<CloseFrame>, SimError> {
        self.send(&ClientMsg::Act(Action::Quit)).await?;
        self.closed().await
    }

    /// Quits as [`quit`](Self::quit) does, reading (and checking) all the
    /// server sent before its close, and hands back the oracle.
    pub async fn quit_with_oracle(mut self) -> Result<Option<Oracle>, SimError> {
        self.send(&ClientMsg::Act(Action::Quit)).await?;
        self.closed().await?;
        Ok(self.oracle.take())
    }

    /// Closes the connection as a standard WebSocket client does: sends a
    /// close frame and reads until the end of the stream. True when the
    /// server answered with a close of its own before the stream ended; an
    /// error (a reset, say) means the closing handshake was cut short.
    pub async fn close_cleanly(mut self) -> Result<bool, SimError> {
        self.ws.close(None).await?;
        let mut answered = false;
        loop {
            let frame = tokio::time::timeout(RECV_TIMEOUT, self.ws.next())
                .await
                .map_err(|_| SimError::Timeout(RECV_TIMEOUT))?;
            match frame {
                None | Some(Err(tokio_tungstenite::tungstenite::Error::ConnectionClosed)) => {
                    return Ok(answered);
                }
                Some(Ok(Message::Close(_))) => answered = true,
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// Walks to `target` over known ground, at most `max_steps` moves.
    pub async fn walk_to(&mut self, target: Pos, max_steps: usize) -> Result<(), SimError> {
        for _ in 0..max_steps {
            if self.at() == target {
                return Ok(());
            }
            let dir = self.first_step(|p| p == target).ok_or_else(|| {
                SimError::Stuck(format!("{}: no known way to {target:?}", self.name))
            })?;
            self.act(Action::Move(dir)).await?;
        }
        Err(SimError::Stuck(format!("{}: {target:?} not reached in {max_steps} steps", self.name)))
    }

    /// Explores (towards the nearest unknown edge) until `done` holds, at most `max_steps` moves.
    pub async fn explore_until(
        &mut self,
        done: impl Fn(&ClientState) -> bool,
        max_steps: usize,
    ) -> Result<(), SimError> {
        for _ in 0..max_steps {
            if done(&self.state) {
                return Ok(());
            }
            let dir = self.first_step(|p| self.is_frontier(p)).ok_or_else(|| {
                SimError::Stuck(format!("{}: nothing left to explore", self.name))
            })?;
            self.act(Action::Move(dir)).await?;
        }
        Err(SimError::Stuck(format!("{}: not done after {max_steps} steps", self.name)))
    }

    /// Explores until the down staircase is known, walks onto it and descends.
    pub async fn find_and_descend(&mut self, max_steps: usize) -> Result<Vec<ServerMsg>, SimError> {
        self.explore_until(|s| s.find(Terrain::StairsDown).is_some(), max_steps).await?;
        let stairs = self.state.find(Terrain::StairsDown).expect("just found");
        self.walk_to(stairs, max_steps).await?;
        self.act(Action::Descend).await
    }

    /// The oracle checking this client, if any.
    pub fn oracle(&self) -> Option<&Oracle> {
        self.oracle.as_ref()
    }

    /// Hands the oracle (with what this player has seen) to another client
    /// playing the same character.
    pub fn take_oracle(&mut self) -> Option<Oracle> {
        self.oracle.take()
    }

    /// How many messages the oracle checked.
    pub fn checked(&self) -> u64 {
        self.oracle.as_ref().map_or(0, |o| o.checked)
    }
}

/// Whether `msg` is the connection's own rather than its player's game's
/// (which a watcher's transcript must match): chat, who watches, the
/// graveyard, the server's word that it restarts, and a watcher's words on its own watching (that it ended,
/// that a watcher cannot act).
fn connection_own(msg: &ServerMsg) -> bool {
    match msg {
        ServerMsg::Chat { .. }
        | ServerMsg::Watchers(_)
        | ServerMsg::Graveyard(_)
        | ServerMsg::Restarting => true,
        ServerMsg::Note(line) => {
            line.starts_with("You stop watching ") || line.starts_with("You are watching ")
        }
        _ => false,
    }
}

/// A recording as the server sent it: its head (whose, where, which
/// rounds), each message with its round, and whether it was cut short.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub head: ServerMsg,
    pub messages: Vec<(u64, ServerMsg)>,
    pub cut: bool,
}

/// Asks the server at `url` for the recording `ask` names, on a connection
/// of its own, and reads it whole (each read bounded by [`RECV_TIMEOUT`]).
pub async fn ask_recording(
    url: &str,
    ask: gloam_protocol::RecordingAsk,
) -> Result<Recording, SimError> {
    let mut ws = connect_raw(url).await?;
    let msg = ClientMsg::Recording { version: PROTOCOL_VERSION, ask };
    ws.send(Message::Binary(codec::encode(&msg).into())).await?;
    let mut head = None;
    let mut messages = Vec::new();
    loop {
        let bytes = next_binary(&mut ws).await?;
        match codec::decode_server(&bytes)? {
            ServerMsg::Refused(refusal) => return Err(SimError::Refused(refusal)),
            ServerMsg::Recorded { round, msg } => messages.push((round, *msg)),
            ServerMsg::RecordingEnd { cut } => {
                let head =
                    head.ok_or_else(|| SimError::Stuck("a recording with no head".into()))?;
                return Ok(Recording { head, messages, cut });
            }
            msg @ ServerMsg::Recording { .. } => head = Some(msg),
            other => return Err(SimError::Stuck(format!("{other:?} in a recording"))),
        }
    }
}

/// The next binary frame `ws` receives within [`RECV_TIMEOUT`], frames of
/// other kinds passed over; the server's close is [`SimError::Closed`].
async fn next_binary(ws: &mut Ws) -> Result<tokio_tungstenite::tungstenite::Bytes, SimError> {
    loop {
        let frame = tokio::time::timeout(RECV_TIMEOUT, ws.next())
            .await
            .map_err(|_| SimError::Timeout(RECV_TIMEOUT))?;
        match frame {
            None => return Err(SimError::Closed(None)),
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(Message::Binary(bytes))) => return Ok(bytes),
            Some(Ok(Message::Close(frame))) => return Err(SimError::Closed(frame)),
            Some(Ok(_)) => {}
        }
    }
}
