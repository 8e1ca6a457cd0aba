//! The real binary shuts down cleanly on SIGTERM and SIGINT: clients get a
//! going-away close and the process exits 0.

#![cfg(unix)]

use futures_util::{SinkExt, StreamExt};
use gloam_protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, codec};
use gloam_tests::process::{DEADLINE, ServerProcess};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

async fn signal_closes_clients_and_exits_zero(signal: &'static str) {
    let data = tempfile::tempdir().unwrap();
    let server =
        ServerProcess::start(env!("CARGO_BIN_EXE_gloam-server"), data.path(), &["--seed", "5"]);
    let (mut ws, _) = tokio_tungstenite::connect_async(&server.url).await.expect("connects");
    let hello = ClientMsg::Hello { version: PROTOCOL_VERSION, name: "ann".into(), token: None };
    ws.send(Message::Binary(codec::encode(&hello).into())).await.unwrap();
    match ws.next().await {
        Some(Ok(Message::Binary(b))) => {
            assert!(matches!(codec::decode_server(&b), Ok(ServerMsg::Welcome { .. })))
        }
        other => panic!("expected a welcome, got {other:?}"),
    }
    let stopping = std::thread::spawn(move || server.process.signal(signal));
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
    let exit = stopping.join().expect("stopped");
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
