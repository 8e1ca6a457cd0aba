//! The real binary shuts down cleanly on SIGTERM and SIGINT: clients get a
//! going-away close and the process exits 0.

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, codec};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

const DEADLINE: Duration = Duration::from_secs(20);

/// Starts the server on an ephemeral port and returns it with its address.
fn start_server() -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gloam-server"))
        .args(["--bind", "127.0.0.1:0", "--seed", "5"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(DEADLINE).expect("the server prints its address");
    let url = line.trim().rsplit(' ').next().expect("an address").to_owned();
    assert!(url.starts_with("ws://127.0.0.1:"), "{line}");
    (child, url)
}

fn wait_for_exit(mut child: Child) -> ExitStatus {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    rx.recv_timeout(DEADLINE).expect("the server exits in time").expect("wait works")
}

async fn signal_closes_clients_and_exits_zero(signal: &str) {
    let (child, url) = start_server();
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.expect("connects");
    let hello = ClientMsg::Hello { version: PROTOCOL_VERSION, name: "ann".into(), token: None };
    ws.send(Message::Binary(codec::encode(&hello).into())).await.unwrap();
    match ws.next().await {
        Some(Ok(Message::Binary(b))) => {
            assert!(matches!(codec::decode_server(&b), Ok(ServerMsg::Welcome { .. })))
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let close = tokio::time::timeout(DEADLINE, async {
        while let Some(msg) = ws.next().await {
            if let Ok(Message::Close(frame)) = msg {
                return frame;
            }
        }
        None
    })
    .await
    .expect("the close arrives in time");
    assert_eq!(close.map(|f| f.code), Some(CloseCode::Away));
    let exit = wait_for_exit(child);
    assert!(exit.success(), "exit status {exit:?}");
}

#[tokio::test]
async fn sigterm_shuts_the_server_down_cleanly() {
    signal_closes_clients_and_exits_zero("TERM").await;
}

#[tokio::test]
async fn sigint_shuts_the_server_down_cleanly() {
    signal_closes_clients_and_exits_zero("INT").await;
}
