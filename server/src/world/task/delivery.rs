//! Delivery: what a command produced, encoded and sent to each player as
//! one reply, and then to those watching it; a player whose connection
//! cannot keep up is dropped, saved first, its last reply shown to nobody.

use std::collections::HashMap;

use gloam_protocol::{PlayerId, ServerMsg, codec};
use tracing::warn;

use super::{DepthHandle, DepthTask, ToConn, view};
use crate::character::Keep;
use crate::world::depth::{Leaving, Outcome, Outgoing};

impl DepthTask {
    /// Sends each player its messages as one reply (the player whose
    /// command this was gets one even when it has nothing else, marked
    /// done), dropping players whose queues are full and telling the others.
    pub(super) fn deliver(
        &mut self,
        out: Vec<Outgoing>,
        answered: &[PlayerId],
        going_on: &[PlayerId],
        now_on: Option<(PlayerId, DepthHandle)>,
    ) {
        // One reply per player, found by index: an arrival in a crowd
        // sends a line to everyone, and a search per message would cost the
        // square of the crowd.
        let mut replies: Vec<(PlayerId, ToConn)> = Vec::new();
        let mut index: HashMap<PlayerId, usize> = HashMap::new();
        let empty = || ToConn {
            frames: Vec::new(),
            done: false,
            goes_on: false,
            now_on: None,
            died: false,
        };
        for &id in answered {
            index.insert(id, replies.len());
            replies.push((id, ToConn { done: true, goes_on: going_on.contains(&id), ..empty() }));
        }
        if let Some((id, handle)) = now_on {
            let at = *index.entry(id).or_insert_with(|| {
                replies.push((id, empty()));
                replies.len() - 1
            });
            replies[at].1.now_on = Some(handle);
        }
        for Outgoing { to, msg } in out {
            let frame = codec::encode(&msg);
            let at = *index.entry(to).or_insert_with(|| {
                replies.push((to, empty()));
                replies.len() - 1
            });
            replies[at].1.frames.push(frame);
            if let ServerMsg::Note(line) | ServerMsg::Combat(line) | ServerMsg::Others(line) = &msg
                && let Some(link) = self.links.get_mut(&to)
            {
                link.lines.push(line);
            }
        }
        let mut fallen = Vec::new();
        for (to, reply) in replies {
            let Some(link) = self.links.get(&to) else { continue };
            // Those watching are shown a reply only once the player's
            // connection has taken it (see `world::watch`).
            let shown = link.audience.is_watched().then(|| reply.frames.clone());
            if link.conn.try_send(reply).is_err() {
                fallen.push(to);
                continue;
            }
            if let Some(frames) = shown {
                link.audience.relay(frames, || view(&self.state, to));
            }
        }
        for id in fallen {
            let outcome = self.drop_laggard(id);
            self.finish(outcome, None);
        }
    }

    /// Removes a player whose connection fell behind, saving it first so
    /// that it comes back where it was.
    fn drop_laggard(&mut self, id: PlayerId) -> Outcome {
        self.links.remove(&id);
        self.acted.remove(&id);
        let (player, outcome) = self.state.leave(id, Leaving::Lost);
        if let Some(player) = player {
            warn!(player = %player.name, depth = self.state.depth(), "dropped: its connection fell behind");
            self.save(&player, Keep::All);
        }
        outcome
    }
}
