//! The connection to a server, on a tokio task: it sends the hello and the
//! player's actions, and hands every server message to the window through a
//! channel, calling `wake` so the window's event loop notices. Neither side
//! ever waits on the other: actions go through an unbounded queue (a player
//! presses keys far slower than a socket drains them), messages through
//! another; only quitting waits, briefly, for the closing handshake.
//!
//! A connection ends as RFC 6455 asks, whoever ends it: the side that
//! closes sends a close frame and the other answers with one. Dropping the
//! socket instead shows in the server's log as a reset.

use std::pin::pin;
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use crate::session::retry::Ending;
use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{Action, ClientMsg, PROTOCOL_VERSION, ServerMsg, Token, codec};
use tokio::net::TcpStream;
use tokio::sync::mpsc as async_mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long closing waits on the server: to answer our close frame, or to
/// end the stream after answering its own.
pub const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// How long opening a connection may take (the TCP connection and the
/// upgrade): a host that does not answer is a failed try, so the tries
/// again keep to their schedule.
pub const OPEN_WITHIN: Duration = Duration::from_secs(10);

/// What the connection tells the window.
#[derive(Debug, Clone, PartialEq)]
pub enum NetEvent {
    Msg(ServerMsg),
    /// The connection ended: why, in words for the HUD, and how (the
    /// session decides by it whether to try again: `session/retry.rs`).
    Closed {
        reason: String,
        ending: Ending,
    },
}

/// The window's end of a connection.
#[derive(Debug)]
pub struct Connection {
    actions: async_mpsc::UnboundedSender<ClientMsg>,
    pub events: mpsc::Receiver<NetEvent>,
}

impl Connection {
    /// Queues a message for the server; false once the connection is gone.
    pub fn send(&self, msg: ClientMsg) -> bool {
        self.actions.send(msg).is_ok()
    }

    /// Leaves as a player does: the quit action, then the closing
    /// handshake (see [`close`](Self::close)).
    pub fn quit(self) -> bool {
        self.send(ClientMsg::Act(Action::Quit));
        self.close()
    }

    /// Closes the connection and waits until it is closed: the task sends
    /// what was queued, then a close frame, and reads until the server
    /// answers (at most [`CLOSE_WAIT`]). Messages still arriving are
    /// dropped. True when the task ended in time.
    pub fn close(self) -> bool {
        let Connection { actions, events } = self;
        // The task reads the end of the queue as the order to close.
        drop(actions);
        // A little over the task's own bound, for it to notice and end.
        let deadline = Instant::now() + CLOSE_WAIT + Duration::from_millis(500);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match events.recv_timeout(left) {
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return true,
                Err(mpsc::RecvTimeoutError::Timeout) => return false,
            }
        }
    }
}

/// The first message of a connection: a hello as `name` (with the
/// character's `token`), to play, or to watch the player `watch`.
pub fn hello(name: String, token: Option<Token>, watch: Option<String>) -> ClientMsg {
    match watch {
        Some(player) => ClientMsg::Watch { version: PROTOCOL_VERSION, name, token, player },
        None => ClientMsg::Hello { version: PROTOCOL_VERSION, name, token },
    }
}

/// Connects to `url` on `runtime`, saying `hello` first (see [`hello`]).
pub fn connect(
    runtime: &tokio::runtime::Handle,
    url: String,
    hello: ClientMsg,
    wake: impl Fn() + Send + Sync + 'static,
) -> Connection {
    spawn(runtime, url, hello, None, wake)
}

/// How long a recording may take to come whole, from the ask to its end:
/// a server that stalls is a failed ask, not a page waiting for ever.
pub const RECORDING_WITHIN: Duration = Duration::from_secs(30);

/// Asks the server at `url` for a recording on a connection of its own,
/// `ask` its first message ([`gloam_protocol::ClientMsg::Recording`]): what
/// the server says comes as from [`connect`], and the connection ends
/// when the server closes it after the recording, or [`RECORDING_WITHIN`]
/// after the ask (then its last event says so).
pub fn ask(
    runtime: &tokio::runtime::Handle,
    url: String,
    ask: ClientMsg,
    wake: impl Fn() + Send + Sync + 'static,
) -> Connection {
    spawn(runtime, url, ask, Some(RECORDING_WITHIN), wake)
}

/// The connection's task, saying `first` first, ended after `within` if
/// given (its last event then says so).
fn spawn(
    runtime: &tokio::runtime::Handle,
    url: String,
    first: ClientMsg,
    within: Option<Duration>,
    wake: impl Fn() + Send + Sync + 'static,
) -> Connection {
    let (actions, actions_rx) = async_mpsc::unbounded_channel();
    let (events_tx, events) = mpsc::channel();
    runtime.spawn(async move {
        let running = run(&url, first, actions_rx, &events_tx, &wake);
        let (reason, ending) = match within {
            None => running.await,
            Some(within) => tokio::time::timeout(within, running).await.unwrap_or_else(|_| {
                let s = within.as_secs_f32();
                (format!("no whole answer in {s} s"), Ending::Dropped)
            }),
        };
        let _ = events_tx.send(NetEvent::Closed { reason, ending });
        wake();
    });
    Connection { actions, events }
}

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The connection's whole life; gives why it ended, and how.
async fn run(
    url: &str,
    hello: ClientMsg,
    mut actions: async_mpsc::UnboundedReceiver<ClientMsg>,
    events: &mpsc::Sender<NetEvent>,
    wake: &(impl Fn() + Send + Sync),
) -> (String, Ending) {
    let dropped = |why: String| (why, Ending::Dropped);
    let (mut ws, queued) = match open(url, &mut actions).await {
        Ok(opened) => opened,
        Err(why) => return dropped(why),
    };
    for msg in std::iter::once(hello).chain(queued) {
        if let Err(e) = ws.send(Message::Binary(codec::encode(&msg).into())).await {
            return dropped(format!("cannot say hello: {e}"));
        }
    }
    loop {
        tokio::select! {
            action = actions.recv() => {
                let Some(action) = action else {
                    // The window is closing.
                    close(&mut ws).await;
                    return dropped("closed".into());
                };
                if let Err(e) = ws.send(Message::Binary(codec::encode(&action).into())).await {
                    return dropped(format!("the connection broke: {e}"));
                }
            }
            frame = ws.next() => match frame {
                None => return dropped("the server went away".into()),
                Some(Err(e)) => return dropped(format!("the connection broke: {e}")),
                Some(Ok(Message::Binary(bytes))) => match codec::decode_server(&bytes) {
                    Ok(msg) => {
                        if events.send(NetEvent::Msg(msg)).is_err() {
                            close(&mut ws).await;
                            return dropped("closed".into());
                        }
                        wake();
                    }
                    Err(e) => {
                        let why = format!("the server sent something unreadable: {e}");
                        return (why, Ending::Unreadable);
                    }
                },
                Some(Ok(Message::Close(frame))) => {
                    answer_close(&mut ws).await;
                    return closed_by_the_server(frame);
                }
                Some(Ok(_)) => {}
            }
        }
    }
}

/// Why and how the server's close frame ended the connection: its reason
/// in words, and its code (1005, "no status", when it gave none).
fn closed_by_the_server(frame: Option<CloseFrame>) -> (String, Ending) {
    match frame {
        Some(f) => {
            let code = Ending::Code(u16::from(f.code));
            if f.reason.is_empty() {
                ("the server closed the connection".into(), code)
            } else {
                (format!("the server closed the connection: {}", f.reason), code)
            }
        }
        None => ("the server closed the connection".into(), Ending::Code(1005)),
    }
}

/// Opens the WebSocket to `url`, keeping what the window queues meanwhile;
/// gives up at once if the window closes first.
async fn open(
    url: &str,
    actions: &mut async_mpsc::UnboundedReceiver<ClientMsg>,
) -> Result<(Ws, Vec<ClientMsg>), String> {
    // No frame larger than the largest message the client decodes: a
    // hostile server cannot make the client buffer megabytes.
    let config = WebSocketConfig::default()
        .max_message_size(Some(codec::MAX_SERVER_MSG + 64))
        .max_frame_size(Some(codec::MAX_SERVER_MSG + 64));
    // With Nagle's algorithm off (`true`): a key pressed while the last
    // one is not yet acknowledged goes at once, not after that ack.
    let mut connecting =
        pin!(tokio_tungstenite::connect_async_with_config(url, Some(config), true));
    let mut queued = Vec::new();
    let given_up = tokio::time::sleep(OPEN_WITHIN);
    tokio::pin!(given_up);
    loop {
        tokio::select! {
            () = &mut given_up => {
                let s = OPEN_WITHIN.as_secs();
                return Err(format!("cannot connect to {url}: no answer in {s} s"));
            }
            connected = &mut connecting => {
                return match connected {
                    Ok((ws, _)) => Ok((ws, queued)),
                    Err(e) => Err(format!("cannot connect to {url}: {e}")),
                };
            }
            action = actions.recv() => match action {
                Some(action) => queued.push(action),
                None => return Err("closed".into()),
            },
        }
    }
}

/// Closes from our side: a close frame, then what the server still sends,
/// unread, until its own close frame and the end of the stream.
async fn close(ws: &mut Ws) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        if ws.close(None).await.is_ok() {
            while let Some(Ok(_)) = ws.next().await {}
        }
    })
    .await;
}

/// The server closed: reading on sends the answer the WebSocket layer has
/// queued, and waits for the server to end the stream.
async fn answer_close(ws: &mut Ws) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = ws.next().await {} })
        .await;
}

#[cfg(test)]
mod tests {
    use gloam_protocol::PlayerId;
    use tokio::net::TcpListener;
    use tokio::runtime::Runtime;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

    use super::*;

    /// How long a test waits for anything before it fails.
    const PATIENCE: Duration = Duration::from_secs(10);

    /// What a bare WebSocket server heard from its one client.
    #[derive(Debug)]
    struct Heard {
        said: Vec<ClientMsg>,
        /// A close frame came (the client's own, or its answer to ours).
        closed: bool,
        /// How the stream ended: `Ok` after a whole closing handshake.
        ending: Result<(), String>,
    }

    /// A runtime of its own for each side, so a test can stop the client's
    /// as the window does when it quits.
    fn runtime() -> Runtime {
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap()
    }

    /// Serves one client on loopback: welcomes it, closes first when given
    /// a reason, and records what it hears until the stream ends. What it
    /// heard is handed over before its socket closes, so a client that
    /// waits for the end of the stream finds it there.
    fn serve_one(
        server: &Runtime,
        close_first: Option<(CloseCode, &'static str)>,
    ) -> (String, mpsc::Receiver<Heard>) {
        let listener = server.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let url = format!("ws://{}", listener.local_addr().unwrap());
        let (tell, heard) = mpsc::channel();
        server.spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let mut ws = tokio_tungstenite::accept_async(stream).await.unwrap();
            let welcome = crate::testing::welcome(PlayerId(1), 20, 10);
            ws.send(Message::Binary(codec::encode(&welcome).into())).await.unwrap();
            if let Some((code, reason)) = close_first {
                ws.close(Some(CloseFrame { code, reason: reason.into() })).await.unwrap();
            }
            let (mut said, mut closed) = (Vec::new(), false);
            let listening = async {
                loop {
                    match ws.next().await {
                        None => return Ok(()),
                        Some(Err(e)) => return Err(e.to_string()),
                        Some(Ok(Message::Binary(bytes))) => {
                            said.push(codec::decode_client(&bytes).unwrap())
                        }
                        Some(Ok(Message::Close(_))) => closed = true,
                        Some(Ok(_)) => {}
                    }
                }
            };
            let ending = tokio::time::timeout(PATIENCE, listening)
                .await
                .unwrap_or_else(|_| Err("the stream did not end".into()));
            tell.send(Heard { said, closed, ending }).unwrap();
            drop(ws);
        });
        (url, heard)
    }

    fn ann() -> ClientMsg {
        hello("ann".into(), None, None)
    }

    /// The next event, or a failed test.
    fn next_event(connection: &Connection) -> NetEvent {
        connection.events.recv_timeout(PATIENCE).expect("an event in time")
    }

    /// The client's socket sends each message at once (`TCP_NODELAY`): a
    /// key pressed while the server has yet to acknowledge the last is not
    /// held back until it does.
    #[test]
    fn the_connection_sends_without_delay() {
        let (server, client) = (runtime(), runtime());
        let (url, heard) = serve_one(&server, None);
        let (_actions_in, mut actions) = async_mpsc::unbounded_channel();
        let (ws, _) = client.block_on(open(&url, &mut actions)).expect("connects");
        let MaybeTlsStream::Plain(stream) = ws.get_ref() else { panic!("a plain socket") };
        assert!(stream.nodelay().unwrap(), "Nagle's algorithm is off");
        drop(ws);
        heard.recv_timeout(PATIENCE).expect("the server saw the stream end");
    }

    /// Esc or the window's close button: the server hears the quit, then a
    /// close frame, and the stream ends with the handshake complete (a
    /// server logs anything less as a reset). All of that is done when
    /// `quit` returns: the window stops its runtime right after.
    #[test]
    fn quitting_says_goodbye_and_closes_with_a_handshake() {
        let (server, client) = (runtime(), runtime());
        let (url, heard) = serve_one(&server, None);
        let connection = connect(client.handle(), url, ann(), || {});
        assert!(matches!(next_event(&connection), NetEvent::Msg(ServerMsg::Welcome { .. })));
        assert!(connection.quit(), "closed within the wait");
        let heard = heard.try_recv().expect("the server saw the end before quit returned");
        assert_eq!(heard.said, [ann(), ClientMsg::Act(Action::Quit)]);
        assert!(heard.closed, "a close frame came");
        assert_eq!(heard.ending, Ok(()));
    }

    /// A death: the server closes first, and the client answers its close
    /// frame with one of its own before the stream ends.
    #[test]
    fn a_close_from_the_server_is_answered() {
        let (server, client) = (runtime(), runtime());
        let (url, heard) = serve_one(&server, Some((CloseCode::Normal, "your character died")));
        let connection = connect(client.handle(), url, ann(), || {});
        assert!(matches!(next_event(&connection), NetEvent::Msg(ServerMsg::Welcome { .. })));
        let ending = next_event(&connection);
        let reason = "the server closed the connection: your character died".to_owned();
        assert_eq!(ending, NetEvent::Closed { reason, ending: Ending::Code(1000) });
        let heard = heard.recv_timeout(PATIENCE).expect("the stream ended");
        assert!(heard.closed, "the close was answered");
        assert_eq!(heard.ending, Ok(()));
        assert!(connection.quit(), "nothing left to wait for");
    }

    /// A server that restarts closes with 1012: the code reaches the
    /// session, which comes back at once on it.
    #[test]
    fn the_close_code_of_a_restart_is_told() {
        let (server, client) = (runtime(), runtime());
        let restart = CloseCode::from(crate::session::retry::SERVICE_RESTART);
        let (url, _heard) = serve_one(&server, Some((restart, "The server is restarting")));
        let connection = connect(client.handle(), url, ann(), || {});
        assert!(matches!(next_event(&connection), NetEvent::Msg(ServerMsg::Welcome { .. })));
        match next_event(&connection) {
            NetEvent::Closed { ending, .. } => assert_eq!(ending, Ending::Code(1012)),
            other => panic!("{other:?}"),
        }
    }

    /// A port nobody listens on: the connection cannot be opened, which
    /// is a drop (tried again), not a close.
    #[test]
    fn a_connection_that_cannot_be_opened_is_dropped() {
        let client = runtime();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("ws://{}", listener.local_addr().unwrap());
        drop(listener);
        let connection = connect(client.handle(), url, ann(), || {});
        match next_event(&connection) {
            NetEvent::Closed { reason, ending } => {
                assert_eq!(ending, Ending::Dropped);
                assert!(reason.starts_with("cannot connect to ws://127.0.0.1:"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// A recording asked for that does not come whole in time ends the
    /// connection, saying so, though the server keeps it open.
    #[test]
    fn an_ask_not_answered_whole_in_time_ends() {
        let (server, client) = (runtime(), runtime());
        let (url, _heard) = serve_one(&server, None);
        let within = Duration::from_millis(200);
        let connection = spawn(client.handle(), url, ann(), Some(within), || {});
        assert!(matches!(next_event(&connection), NetEvent::Msg(ServerMsg::Welcome { .. })));
        let ending = next_event(&connection);
        let reason = "no whole answer in 0.2 s".to_owned();
        assert_eq!(ending, NetEvent::Closed { reason, ending: Ending::Dropped });
    }

    /// A server that takes the TCP connection but never answers the
    /// upgrade does not hold the window when the player quits.
    #[test]
    fn quitting_while_connecting_does_not_wait() {
        let client = runtime();
        // The kernel takes the connection; nobody reads the upgrade.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("ws://{}", listener.local_addr().unwrap());
        let connection = connect(client.handle(), url, ann(), || {});
        let started = Instant::now();
        assert!(connection.quit());
        assert!(started.elapsed() < CLOSE_WAIT, "{:?}", started.elapsed());
        drop(listener);
    }
}
