//! The connection to a server, on a tokio task: it sends the hello and the
//! player's actions, and hands every server message to the window through a
//! channel, calling `wake` so the window's event loop notices. Neither side
//! ever waits on the other: actions go through an unbounded queue (a player
//! presses keys far slower than a socket drains them), messages through
//! another.

use std::sync::mpsc;

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, Token, codec};
use tokio::sync::mpsc as async_mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// What the connection tells the window.
#[derive(Debug, Clone, PartialEq)]
pub enum NetEvent {
    Msg(ServerMsg),
    /// The connection ended, and why, in words for the HUD.
    Closed(String),
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
    let (actions, actions_rx) = async_mpsc::unbounded_channel();
    let (events_tx, events) = mpsc::channel();
    runtime.spawn(async move {
        let ending = run(&url, hello, actions_rx, &events_tx, &wake).await;
        let _ = events_tx.send(NetEvent::Closed(ending));
        wake();
    });
    Connection { actions, events }
}

async fn run(
    url: &str,
    hello: ClientMsg,
    mut actions: async_mpsc::UnboundedReceiver<ClientMsg>,
    events: &mpsc::Sender<NetEvent>,
    wake: &(impl Fn() + Send + Sync),
) -> String {
    // No frame larger than the largest message the client decodes: a
    // hostile server cannot make the client buffer megabytes.
    let config = WebSocketConfig::default()
        .max_message_size(Some(codec::MAX_SERVER_MSG + 64))
        .max_frame_size(Some(codec::MAX_SERVER_MSG + 64));
    let connecting = tokio_tungstenite::connect_async_with_config(url, Some(config), false);
    let mut ws = match connecting.await {
        Ok((ws, _)) => ws,
        Err(e) => return format!("cannot connect to {url}: {e}"),
    };
    if let Err(e) = ws.send(Message::Binary(codec::encode(&hello).into())).await {
        return format!("cannot say hello: {e}");
    }
    loop {
        tokio::select! {
            action = actions.recv() => {
                let Some(action) = action else {
                    // The window is closing.
                    let _ = ws.close(None).await;
                    return "closed".into();
                };
                if let Err(e) = ws.send(Message::Binary(codec::encode(&action).into())).await {
                    return format!("connection lost: {e}");
                }
            }
            frame = ws.next() => match frame {
                None => return "the server went away".into(),
                Some(Err(e)) => return format!("connection lost: {e}"),
                Some(Ok(Message::Binary(bytes))) => match codec::decode_server(&bytes) {
                    Ok(msg) => {
                        if events.send(NetEvent::Msg(msg)).is_err() {
                            return "closed".into();
                        }
                        wake();
                    }
                    Err(e) => return format!("the server sent something unreadable: {e}"),
                },
                Some(Ok(Message::Close(frame))) => {
                    return match frame {
                        Some(f) if !f.reason.is_empty() => format!("the server closed the connection: {}", f.reason),
                        _ => "the server closed the connection".into(),
                    };
                }
                Some(Ok(_)) => {}
            }
        }
    }
}
