//! The real binary shuts down cleanly on SIGTERM and SIGINT: clients are
//! told the server is restarting and closed with 1012 (Service Restart),
//! and the process exits 0. The host's options are read from its command
//! line: the world's name is in the welcome, the message of the day
//! follows it, and the players past `--max-players` are refused.

#![cfg(unix)]

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{ClientMsg, PROTOCOL_VERSION, Refusal, ServerMsg, codec};
use gloam_tests::process::{DEADLINE, ServerProcess};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Says hello as `name` and reads the server's messages up to `count`.
async fn hello(url: &str, name: &str, count: usize) -> (Ws, Vec<ServerMsg>) {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("connects");
    let hello = ClientMsg::Hello { version: PROTOCOL_VERSION, name: name.into(), token: None };
    ws.send(Message::Binary(codec::encode(&hello).into())).await.unwrap();
    let mut read = Vec::new();
    while read.len() < count {
        match tokio::time::timeout(DEADLINE, ws.next()).await.expect("in time") {
            Some(Ok(Message::Binary(b))) => read.push(codec::decode_server(&b).unwrap()),
            Some(Ok(_)) => {}
            other => panic!("expected {count} messages, got {read:?} then {other:?}"),
        }
    }
    (ws, read)
}

async fn signal_restarts_clients_and_exits_zero(signal: &'static str) {
    let data = tempfile::tempdir().unwrap();
    let motd = data.path().join("motd.txt");
    std::fs::write(&motd, "Welcome to Gloamhold.\n").unwrap();
    let args = [
        "--seed",
        "5",
        "--name",
        "Gloamhold",
        "--motd",
        motd.to_str().unwrap(),
        "--max-players",
        "1",
    ];
    let server =
        ServerProcess::start(env!("CARGO_BIN_EXE_gloam-server"), &data.path().join("w"), &args);
    let (mut ws, first) = hello(&server.url, "ann", 4).await;
    match &first[0] {
        ServerMsg::Welcome { world, .. } => assert_eq!(world, "Gloamhold"),
        other => panic!("expected a welcome, got {other:?}"),
    }
    assert_eq!(first[3], ServerMsg::Note("Welcome to Gloamhold.".into()));
    let (_, refused) = hello(&server.url, "bob", 1).await;
    assert_eq!(refused, [ServerMsg::Refused(Refusal::Full { players: 1 })]);
    let stopping = std::thread::spawn(move || server.process.signal(signal));
    let (mut last, mut close) = (None, None);
    tokio::time::timeout(DEADLINE, async {
        while let Some(msg) = ws.next().await {
            match msg {
                Ok(Message::Binary(b)) => last = Some(codec::decode_server(&b).unwrap()),
                Ok(Message::Close(frame)) => return close = frame,
                _ => {}
            }
        }
    })
    .await
    .expect("the close arrives in time");
    assert_eq!(last, Some(ServerMsg::Restarting), "told before the close");
    assert_eq!(close.map(|f| f.code), Some(CloseCode::Restart));
    let exit = stopping.join().expect("stopped");
    assert!(exit.success(), "exit status {exit:?}");
}

#[tokio::test]
async fn sigterm_restarts_the_server_cleanly() {
    signal_restarts_clients_and_exits_zero("TERM").await;
}

#[tokio::test]
async fn sigint_restarts_the_server_cleanly() {
    signal_restarts_clients_and_exits_zero("INT").await;
}
