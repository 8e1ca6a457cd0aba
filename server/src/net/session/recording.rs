//! A connection that came for a recording: it is made (see
//! `world::recordings`), sent as one message a frame, and the connection
//! ends.

use gloam_protocol::{RecordingAsk, ServerMsg, codec};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::Session;
use crate::net::connection::Ending;

/// The most bytes of messages one recording sends: it is cut there, and
/// its end says so.
pub(super) const MAX_RECORDING_BYTES: usize = 4 << 20;

impl<S: AsyncRead + AsyncWrite + Unpin> Session<S> {
    /// Sends the recording `ask` names, if it may be made, then ends the
    /// connection (its ask was let in at its address's pace of hellos).
    pub(super) async fn send_recording(&mut self, ask: &RecordingAsk) -> Ending {
        let stop = self.stop.clone();
        let made = tokio::select! {
            () = stop.cancelled() => return self.stopping(),
            made = self.world.recording(ask) => made,
        };
        let recording = match made {
            Ok(recording) => recording,
            Err(refusal) => return self.refuse(refusal).await,
        };
        let head = ServerMsg::Recording {
            player: recording.player,
            you: recording.you,
            depth: recording.depth,
            from: recording.from,
            to: recording.to,
        };
        let (mut frames, mut bytes, mut cut) = (vec![codec::encode(&head)], 0, false);
        for recorded in recording.messages {
            let msg = Box::new(recorded.msg);
            let frame = codec::encode(&ServerMsg::Recorded { round: recorded.round, msg });
            bytes += frame.len();
            if bytes > MAX_RECORDING_BYTES {
                cut = true;
                break;
            }
            frames.push(frame);
        }
        frames.push(codec::encode(&ServerMsg::RecordingEnd { cut }));
        match self.conn.write_all(frames.into_iter().map(Bytes::from)).await {
            Ok(()) => Ending::new(CloseCode::Normal, "the recording is sent"),
            Err(ending) => ending,
        }
    }

    /// Lets a hello (or a recording's ask) in at its address's pace, or
    /// refuses it with how long to wait.
    pub(super) async fn admit(&mut self) -> Result<(), Ending> {
        let Err(wait) = self.hellos.admit(self.peer.ip(), Instant::now()) else { return Ok(()) };
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        let reason = format!("too many hellos from your address: try again in {seconds} s");
        Err(self.refuse(gloam_protocol::Refusal::Unavailable { reason }).await)
    }
}
