//! The real `gloam-server` binary as a child process on a data folder, and a
//! small client that walks, taking every position it is told and every cell
//! it is shown. Every wait is bounded.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{
    Action, ClientMsg, Dir, Disc, PROTOCOL_VERSION, Pos, Refusal, ServerMsg, SightDiff, Terrain,
    Token, codec,
};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const DEADLINE: Duration = Duration::from_secs(20);

/// A running server binary.
#[derive(Debug)]
pub struct ServerProcess {
    child: Option<Child>,
    pub url: String,
    /// Everything it printed on stdout before it listened.
    pub banner: String,
}

/// A server that would not start: how it exited and what it said.
#[derive(Debug)]
pub struct Failure {
    pub status: ExitStatus,
    pub stderr: String,
}

impl ServerProcess {
    /// Starts the server on `data` with `args` and waits until it listens.
    pub fn start(data: &Path, args: &[&str]) -> Self {
        Self::try_start(data, args).unwrap_or_else(|f| panic!("the server did not start: {f:?}"))
    }

    /// Starts the server, or says how it failed to start.
    pub fn try_start(data: &Path, args: &[&str]) -> Result<Self, Failure> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gloam-server"))
            .args(["--bind", "127.0.0.1:0", "--data"])
            .arg(data)
            .args(args)
            .env("RUST_LOG", "warn")
            .env_remove("RUST_BACKTRACE")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server binary starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut banner = String::new();
        let deadline = Instant::now() + DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    banner.push_str(&line);
                    banner.push('\n');
                    if let Some(url) = line.strip_prefix("gloam-server listening on ") {
                        return Ok(Self { child: Some(child), url: url.trim().to_owned(), banner });
                    }
                }
                // Its stdout closed: it ended without listening.
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let mut stderr = String::new();
                    if let Some(mut err) = child.stderr.take() {
                        let _ = err.read_to_string(&mut stderr);
                    }
                    let status = wait_with_deadline(child);
                    return Err(Failure { status, stderr });
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    panic!("the server printed no address within {DEADLINE:?}: {banner}");
                }
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// SIGKILL: no chance to save anything.
    pub fn kill_hard(mut self) {
        let mut child = self.child.take().expect("running");
        child.kill().expect("kill -9 works");
        wait_with_deadline(child);
    }

    /// Sends `signal` (TERM, INT) and waits for the exit.
    pub fn stop(mut self, signal: &str) -> ExitStatus {
        let child = self.child.take().expect("running");
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        wait_with_deadline(child)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn wait_with_deadline(mut child: Child) -> ExitStatus {
    let (tx, rx) = mpsc::channel();
    let pid = child.id();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(status) => status.expect("wait works"),
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            panic!("the server did not exit within {DEADLINE:?}");
        }
    }
}

/// A player over a real WebSocket, keeping what it was told: where it
/// stands, its depth, and the terrain of every cell it knows.
pub struct Walker {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    disc: Disc,
    width: u16,
    pub token: Option<Token>,
    pub depth: u16,
    pub at: Pos,
    pub known: HashMap<Pos, Terrain>,
    /// The cells the last `EnterLevel` said were remembered.
    pub remembered: Vec<Pos>,
}

impl Walker {
    /// Joins as `name`; a refusal comes back as Err.
    pub async fn join(url: &str, name: &str, token: Option<Token>) -> Result<Self, Refusal> {
        let (mut ws, _) = tokio::time::timeout(DEADLINE, tokio_tungstenite::connect_async(url))
            .await
            .expect("connects in time")
            .expect("connects");
        let hello = ClientMsg::Hello { version: PROTOCOL_VERSION, name: name.into(), token };
        ws.send(Message::Binary(codec::encode(&hello).into())).await.expect("hello sent");
        let (radius, token) = match next(&mut ws).await {
            ServerMsg::Welcome { sight_radius, token: new, .. } => (sight_radius, new.or(token)),
            ServerMsg::Refused(refusal) => return Err(refusal),
            other => panic!("expected a welcome, got {other:?}"),
        };
        let mut walker = Self {
            ws,
            disc: Disc::new(radius),
            width: 0,
            token,
            depth: 0,
            at: Pos::default(),
            known: HashMap::new(),
            remembered: Vec::new(),
        };
        // The arrival ends with the first view.
        walker.until_sight().await;
        Ok(walker)
    }

    /// Reads messages up to and including the next view of the player's own.
    async fn until_sight(&mut self) {
        loop {
            match next(&mut self.ws).await {
                ServerMsg::EnterLevel { depth, width, remembered, terrain, .. } => {
                    self.depth = depth;
                    self.width = width;
                    self.known.clear();
                    self.remembered = (0..remembered.len() * 8)
                        .filter(|&i| remembered[i / 8] & (1 << (i % 8)) != 0)
                        .map(|i| Pos {
                            x: (i % width as usize) as u16,
                            y: (i / width as usize) as u16,
                        })
                        .collect();
                    assert_eq!(
                        self.remembered.len(),
                        terrain.len(),
                        "a terrain per remembered cell"
                    );
                    self.known.extend(self.remembered.iter().copied().zip(terrain));
                }
                ServerMsg::Sight(diff) => {
                    self.see(&diff);
                    return;
                }
                ServerMsg::Displaced(diff) => self.see(&diff),
                ServerMsg::Refused(r) => panic!("refused mid-game: {r}"),
                _ => {}
            }
        }
    }

    fn see(&mut self, diff: &SightDiff) {
        self.at = diff.at;
        for &(i, terrain) in &diff.revealed {
            let (dx, dy) = self.disc.offset(i).expect("a disc index");
            let pos = diff.at.offset(dx, dy).expect("on the map");
            self.known.insert(pos, terrain);
        }
    }

    /// Takes one action and waits for its answer.
    pub async fn act(&mut self, action: Action) {
        let msg = ClientMsg::Act(action);
        self.ws.send(Message::Binary(codec::encode(&msg).into())).await.expect("action sent");
        self.until_sight().await;
    }

    /// A step onto a known open neighbour, chosen by `pick` among them.
    pub async fn wander(&mut self, pick: impl FnOnce(usize) -> usize) {
        let open: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| {
                self.at
                    .step(d)
                    .and_then(|p| self.known.get(&p))
                    .is_some_and(|t| *t != Terrain::Wall)
            })
            .collect();
        let dir = if open.is_empty() { Dir::ALL[pick(8)] } else { open[pick(open.len())] };
        self.act(Action::Move(dir)).await;
    }

    /// Walks to the known down staircase (if one is known) by breadth-first
    /// search over known open cells, and takes it. False if none is known.
    pub async fn descend(&mut self) -> bool {
        let Some(path) = self.path_to(Terrain::StairsDown) else { return false };
        for dir in path {
            self.act(Action::Move(dir)).await;
        }
        let depth = self.depth;
        self.act(Action::Descend).await;
        self.depth == depth + 1
    }

    /// Walks to the nearest known open cell beside an unknown one, at most
    /// `moves` moves in all. False when nothing is left to explore.
    pub async fn explore(&mut self, moves: usize) -> bool {
        let mut made = 0;
        while made < moves {
            let Some(path) = self.path_where(|w, p| {
                w.known.get(&p).is_some_and(|t| *t != Terrain::Wall)
                    && Dir::ALL
                        .into_iter()
                        .any(|d| p.step(d).is_some_and(|q| !w.known.contains_key(&q)))
            }) else {
                return false;
            };
            if path.is_empty() {
                // Standing on the frontier: any step reveals more.
                self.wander(|n| made % n).await;
                made += 1;
                continue;
            }
            for dir in path.into_iter().take(moves - made) {
                self.act(Action::Move(dir)).await;
                made += 1;
            }
        }
        true
    }

    fn path_to(&self, goal: Terrain) -> Option<Vec<Dir>> {
        self.path_where(|w, p| w.known.get(&p) == Some(&goal))
    }

    fn path_where(&self, goal: impl Fn(&Self, Pos) -> bool) -> Option<Vec<Dir>> {
        let mut came: HashMap<Pos, (Pos, Dir)> = HashMap::new();
        let mut queue = std::collections::VecDeque::from([self.at]);
        let mut seen = std::collections::HashSet::from([self.at]);
        while let Some(p) = queue.pop_front() {
            if goal(self, p) {
                let mut path = Vec::new();
                let mut at = p;
                while let Some(&(from, dir)) = came.get(&at) {
                    path.push(dir);
                    at = from;
                }
                path.reverse();
                return Some(path);
            }
            for dir in Dir::ALL {
                let Some(q) = p.step(dir) else { continue };
                if self.known.get(&q).is_some_and(|t| *t != Terrain::Wall) && seen.insert(q) {
                    came.insert(q, (p, dir));
                    queue.push_back(q);
                }
            }
        }
        None
    }

    /// Closes the connection as a player quitting does.
    pub async fn quit(mut self) {
        let msg = ClientMsg::Act(Action::Quit);
        let _ = self.ws.send(Message::Binary(codec::encode(&msg).into())).await;
        let _ = tokio::time::timeout(DEADLINE, async {
            while let Some(Ok(msg)) = self.ws.next().await {
                if matches!(msg, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}

async fn next(ws: &mut WebSocketStream<MaybeTlsStream<TcpStream>>) -> ServerMsg {
    loop {
        let frame = tokio::time::timeout(DEADLINE, ws.next())
            .await
            .expect("the server answers in time")
            .expect("the connection stays open")
            .expect("a frame");
        if let Message::Binary(bytes) = frame {
            return codec::decode_server(&bytes).expect("a server message");
        }
    }
}
