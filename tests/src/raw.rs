//! A deliberately low-level WebSocket client for hostile tests: it writes
//! whatever bytes it is told to (bad frames, bad handshakes) and reads the
//! server's answer frame by frame, every read bounded in time.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use gloam_protocol::{ClientMsg, PROTOCOL_VERSION, codec};

/// How long any one read waits.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

pub const OP_CONTINUATION: u8 = 0x0;
pub const OP_TEXT: u8 = 0x1;
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;

/// How a frame's payload length is written in its header.
#[derive(Debug, Clone, Copy)]
pub enum Length {
    /// The shortest encoding of the real length.
    Honest,
    /// A 64-bit length field holding this value, whatever the payload is.
    Claim64(u64),
}

/// One frame's bytes. Client frames are masked unless `masked` is false.
pub fn frame(
    fin: bool,
    rsv: u8,
    opcode: u8,
    masked: bool,
    payload: &[u8],
    length: Length,
) -> Vec<u8> {
    let mut out = vec![(u8::from(fin) << 7) | ((rsv & 0x7) << 4) | (opcode & 0xf)];
    let mask_bit = if masked { 0x80 } else { 0 };
    match length {
        Length::Honest if payload.len() < 126 => out.push(mask_bit | payload.len() as u8),
        Length::Honest if payload.len() <= 0xffff => {
            out.push(mask_bit | 126);
            out.extend_from_slice(&(payload.len() as u16).to_be_bytes());
        }
        Length::Honest => {
            out.push(mask_bit | 127);
            out.extend_from_slice(&(payload.len() as u64).to_be_bytes());
        }
        Length::Claim64(n) => {
            out.push(mask_bit | 127);
            out.extend_from_slice(&n.to_be_bytes());
        }
    }
    if masked {
        let key = [0x12, 0x34, 0x56, 0x78];
        out.extend_from_slice(&key);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

/// A well-formed masked binary frame.
pub fn binary(payload: &[u8]) -> Vec<u8> {
    frame(true, 0, OP_BINARY, true, payload, Length::Honest)
}

/// The hello of a player called `name`, as one frame.
pub fn hello(name: &str) -> Vec<u8> {
    binary(&codec::encode(&ClientMsg::Hello {
        version: PROTOCOL_VERSION,
        name: name.into(),
        token: None,
    }))
}

/// The upgrade request, with the given version and extra header lines.
pub fn upgrade_request(version: &str, extra: &str) -> String {
    format!(
        "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: {version}\r\n{extra}\r\n"
    )
}

/// Connects with a small receive buffer (so a client that stops reading
/// fills up quickly).
pub async fn connect(
    addr: std::net::SocketAddr,
    recv_buffer: Option<u32>,
) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    if let Some(size) = recv_buffer {
        socket.set_recv_buffer_size(size)?;
    }
    socket.connect(addr).await
}

/// Reads the HTTP response head; `None` if the server closed first.
pub async fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(READ_TIMEOUT, stream.read(&mut byte)).await {
            Ok(Ok(1)) => head.push(byte[0]),
            _ => return None,
        }
        if head.len() > 16 * 1024 {
            return None;
        }
    }
    Some(String::from_utf8_lossy(&head).into_owned())
}

/// Opens a WebSocket: connect and upgrade.
pub async fn open(addr: std::net::SocketAddr) -> TcpStream {
    let mut stream = connect(addr, None).await.expect("connects");
    stream.write_all(upgrade_request("13", "").as_bytes()).await.expect("writes");
    let head = read_head(&mut stream).await.expect("an upgrade response");
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    stream
}

/// How the server ended a connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A close frame with this code and reason.
    Closed { code: u16, reason: String },
    /// The connection ended without a close frame (an HTTP error, a reset, EOF).
    Dropped,
    /// Still open after the read timeout.
    StillOpen,
}

/// Reads server frames, skipping everything but a close, until the
/// connection ends.
pub async fn ending(stream: &mut TcpStream) -> Ending {
    loop {
        let mut head = [0u8; 2];
        match tokio::time::timeout(READ_TIMEOUT, stream.read_exact(&mut head)).await {
            Err(_) => return Ending::StillOpen,
            Ok(Err(_)) => return Ending::Dropped,
            Ok(Ok(_)) => {}
        }
        let opcode = head[0] & 0x0f;
        let len = match head[1] & 0x7f {
            126 => {
                let mut b = [0u8; 2];
                if stream.read_exact(&mut b).await.is_err() {
                    return Ending::Dropped;
                }
                u64::from(u16::from_be_bytes(b))
            }
            127 => {
                let mut b = [0u8; 8];
                if stream.read_exact(&mut b).await.is_err() {
                    return Ending::Dropped;
                }
                u64::from_be_bytes(b)
            }
            n => u64::from(n),
        };
        let mut payload = vec![0u8; len.min(1 << 20) as usize];
        if tokio::time::timeout(READ_TIMEOUT, stream.read_exact(&mut payload))
            .await
            .map_or(true, |r| r.is_err())
        {
            return Ending::Dropped;
        }
        if opcode == OP_CLOSE {
            if payload.len() < 2 {
                return Ending::Closed { code: 1005, reason: String::new() };
            }
            let code = u16::from_be_bytes([payload[0], payload[1]]);
            let reason = String::from_utf8_lossy(&payload[2..]).into_owned();
            return Ending::Closed { code, reason };
        }
    }
}

/// An HTTP answer, read to the end of its connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpAnswer {
    pub status: u16,
    /// Header names as sent, in order.
    pub headers: Vec<(String, String)>,
    /// Everything after the head.
    pub body: Vec<u8>,
}

impl HttpAnswer {
    /// The first header called `name` (in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Sends `request` on a new connection and reads the answer to the end of
/// the stream.
pub async fn http(addr: std::net::SocketAddr, request: &[u8]) -> HttpAnswer {
    let mut stream = connect(addr, None).await.expect("connects");
    stream.write_all(request).await.expect("writes the request");
    read_answer(&mut stream).await
}

/// Reads an HTTP answer to the end of the stream (the server closes after
/// one), within the read timeout, and parses it with `httparse`.
pub async fn read_answer(stream: &mut TcpStream) -> HttpAnswer {
    let mut bytes = Vec::new();
    tokio::time::timeout(READ_TIMEOUT, stream.read_to_end(&mut bytes))
        .await
        .expect("the server answers and closes in time")
        .expect("the answer is read to its end");
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut response = httparse::Response::new(&mut headers);
    let head_len = match response.parse(&bytes) {
        Ok(httparse::Status::Complete(len)) => len,
        other => panic!("not an HTTP answer ({other:?}): {:?}", String::from_utf8_lossy(&bytes)),
    };
    HttpAnswer {
        status: response.code.expect("a status"),
        headers: response
            .headers
            .iter()
            .map(|h| (h.name.to_owned(), String::from_utf8_lossy(h.value).into_owned()))
            .collect(),
        body: bytes[head_len..].to_vec(),
    }
}
