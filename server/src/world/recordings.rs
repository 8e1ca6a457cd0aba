//! Recordings as clients ask for them: which may be made for whom, and the
//! making, off the game's tasks. A recording is what one player was sent on
//! one depth, made again from the depth's history (`depth::recording`):
//! the last rounds of any life that ended (as its morgue file, anyone may
//! ask), or a player's own past, asked with its key.

use std::ops::RangeInclusive;
use std::sync::Arc;

use gloam_protocol::{PlayerId, RecordingAsk, Refusal, ServerMsg};
use tracing::{info, warn};

use super::World;
use super::build::fresh_depth;
use super::depth::{RULES_VERSION, Recorded, decode_history};
use super::registry::Depths;
use crate::store::{DepthHistory, Reading};

/// The most rounds one recording holds: a fall is its last few dozen.
pub const MAX_RECORDING_ROUNDS: u64 = 500;

/// A recording as made: whose, where, which rounds, and the messages.
#[derive(Debug)]
pub struct Recording {
    pub player: String,
    /// Its id in the first message.
    pub you: PlayerId,
    pub depth: u16,
    pub from: u64,
    pub to: u64,
    /// What its client was told, in order: the kinds of monster and item
    /// (as a welcome tells them), then what its depth told it.
    pub messages: Vec<Recorded>,
}

/// What a recording is asked of: whose, on which depth, which rounds.
struct Wanted {
    player: String,
    depth: u16,
    from: u64,
    to: u64,
    /// The player is on the depth now and lets nobody watch it: its time
    /// there now is left out.
    now_cut: bool,
}

impl World {
    /// Makes the recording `ask` names, if the asker may have it. Made one
    /// at a time, on a thread of its own: however long a depth's history,
    /// nobody's game waits for it.
    pub async fn recording(&self, ask: &RecordingAsk) -> Result<Recording, Refusal> {
        let wanted = self.wanted(ask).await?;
        let _turn = self.recording_turn.lock().await;
        self.depths.keep_log_of(wanted.depth).await;
        let depths = Arc::clone(&self.depths);
        let Wanted { player, depth, from, to, now_cut } = wanted;
        let name = player.clone();
        let started = std::time::Instant::now();
        let made = tokio::task::spawn_blocking(move || make(&depths, depth, &name, from, to))
            .await
            .map_err(|e| format!("the recording failed: {e}"))
            .and_then(|made| made);
        let made = made.map(|made| if now_cut { before_now(made) } else { made });
        let made = made.and_then(|messages| match (messages.is_empty(), now_cut) {
            (false, _) => Ok(messages),
            (true, false) => Err(format!("{player} was told nothing on depth {depth} in those rounds")),
            (true, true) => Err(format!(
                "{player} is on depth {depth} now and lets nobody watch: only its earlier visits can be seen"
            )),
        });
        match made {
            Ok(made) => {
                let (count, took) = (made.len(), started.elapsed());
                info!(player = %player, depth, from, to, messages = count, ?took, "recording made");
                let you = made[0].to;
                // First what its client was told on joining of the kinds
                // of monster and item, as the welcome tells them.
                let c = self.config();
                let kinds = ServerMsg::Kinds(c.bestiary.kinds_info());
                let items = ServerMsg::ItemKinds(c.world_items().infos());
                let told = |msg| Recorded { round: made[0].round, to: you, msg };
                let mut messages = vec![told(kinds), told(items)];
                messages.extend(made);
                Ok(Recording { player, you, depth, from, to, messages })
            }
            Err(reason) => {
                warn!(player = %player, depth, from, to, %reason, "no recording could be made");
                Err(Refusal::NoRecording { reason })
            }
        }
    }

    /// Whose recording `ask` is of and which part, once the asker may have it.
    async fn wanted(&self, ask: &RecordingAsk) -> Result<Wanted, Refusal> {
        match ask {
            RecordingAsk::Grave { name, life, rounds } => {
                let end = self.depths.store().life_end(name, *life).await;
                let end = end.map_err(|e| refuse(&format!("the store cannot say: {e}")))?;
                let Some((depth, round)) = end else {
                    return Err(refuse(
                        "that life left no recording (it ended before they were kept)",
                    ));
                };
                let rounds = u64::from(*rounds).clamp(1, MAX_RECORDING_ROUNDS);
                let from = round.saturating_sub(rounds);
                Ok(Wanted { player: name.clone(), depth, from, to: round, now_cut: false })
            }
            RecordingAsk::Mine { name, token, depth, from, to } => {
                if !self.characters.owns(name, token) {
                    return Err(Refusal::WrongToken);
                }
                self.check_range(*depth, *from, *to)?;
                let (depth, from, to) = (*depth, *from, *to);
                Ok(Wanted { player: name.clone(), depth, from, to, now_cut: false })
            }
            RecordingAsk::Past { name, token, player, depth, from, to } => {
                if !self.config().recordings_of_others {
                    return Err(refuse("this host keeps each player's past to itself"));
                }
                if !self.characters.owns(name, token) {
                    return Err(Refusal::WrongToken);
                }
                self.check_range(*depth, *from, *to)?;
                let been = self.depths.store().load(name).await.map_err(|e| refuse(&e))?;
                if !been.is_some_and(|saved| saved.explored.iter().any(|(d, _)| d == depth)) {
                    return Err(refuse("you have not been to that depth"));
                }
                // Its time there now is only for its watchers to see.
                let here_unwatched = self.talkers.whereabouts(player) == Some((*depth, false));
                let (depth, from, to) = (*depth, *from, *to);
                Ok(Wanted { player: player.clone(), depth, from, to, now_cut: here_unwatched })
            }
        }
    }

    /// Refuses rounds out of order, too many of them, or a depth the world
    /// does not have.
    fn check_range(&self, depth: u16, from: u64, to: u64) -> Result<(), Refusal> {
        if from > to {
            return Err(refuse("its first round is after its last"));
        }
        if to - from >= MAX_RECORDING_ROUNDS {
            return Err(refuse(&format!(
                "a recording holds at most {MAX_RECORDING_ROUNDS} rounds"
            )));
        }
        if depth == 0 || depth > self.config().bottom() {
            return Err(refuse("this world has no such depth"));
        }
        Ok(())
    }
}

/// A recording refused for `reason`.
fn refuse(reason: &str) -> Refusal {
    Refusal::NoRecording { reason: reason.to_owned() }
}

/// A recording without the player's time on the depth now: everything
/// from its last arrival there (the last `EnterLevel`) left out.
fn before_now(mut made: Vec<Recorded>) -> Vec<Recorded> {
    let now = made.iter().rposition(|r| matches!(r.msg, ServerMsg::EnterLevel { .. }));
    made.truncate(now.unwrap_or(made.len()));
    made
}

/// Replays `depth`'s history, as the store has it, for `name`'s part in
/// rounds `from` to `to`.
fn make(
    depths: &Depths,
    depth: u16,
    name: &str,
    from: u64,
    to: u64,
) -> Result<Vec<Recorded>, String> {
    let store = depths.store();
    record_stored(
        &depths.config,
        depth,
        |reading| store.read_history(depth, reading),
        name,
        from..=to,
    )
}

/// What the player named `name` was sent on `depth` in `rounds`, made
/// from the depth's history as `read` gives it: from the newest snapshot
/// taken before the first round (see [`record_from_snapshot`]), else from
/// the history's start.
pub fn record_stored(
    config: &crate::Config,
    depth: u16,
    read: impl Fn(Reading) -> Result<DepthHistory, String>,
    name: &str,
    rounds: RangeInclusive<u64>,
) -> Result<Vec<Recorded>, String> {
    if let Some(made) = record_from_snapshot(config, depth, &read, name, rounds.clone()) {
        return Ok(made);
    }
    record_history(config, depth, &read(Reading::Whole)?, name, rounds)
}

/// The most snapshots looked at for one recording: more than a store keeps
/// of a depth (see `store::tables`).
const SNAPSHOTS_LOOKED_AT: usize = 8;

/// The recording made from the newest snapshot of the depth taken before
/// `rounds` start, restored with its views, and the entries after it: the
/// commands before are not played again. None when there is no such
/// snapshot, or it does not restore or its entries do not replay (said in
/// the log): then the whole history is replayed.
fn record_from_snapshot(
    config: &crate::Config,
    depth: u16,
    read: &impl Fn(Reading) -> Result<DepthHistory, String>,
    name: &str,
    rounds: RangeInclusive<u64>,
) -> Option<Vec<Recorded>> {
    let mut most = u64::MAX;
    for _ in 0..SNAPSHOTS_LOOKED_AT {
        let stored = read(Reading::SnapshotAtMost(most)).ok()?;
        let snapshot = stored.snapshot.as_ref().filter(|_| stored.rules == Some(RULES_VERSION))?;
        let mut state = fresh_depth(config, depth);
        let restored = state.restore_watched(&snapshot.bytes, snapshot.checksum);
        let made = match restored {
            Ok(()) if state.rounds() >= *rounds.start() => {
                most = snapshot.after.checked_sub(1)?;
                continue;
            }
            Ok(()) => decode_history(&stored.entries)
                .and_then(|entries| state.record_restored(&entries, name, rounds.clone())),
            Err(error) => Err(error),
        };
        let after = snapshot.after;
        return made
            .inspect_err(
                |error| warn!(depth, after, %error, "a recording passes over the depth's snapshot"),
            )
            .ok();
    }
    None
}

/// What the player named `name` was sent on `depth` of the world `config`
/// plays, in `rounds`, made from the depth's `stored` history.
pub fn record_history(
    config: &crate::Config,
    depth: u16,
    stored: &crate::store::DepthHistory,
    name: &str,
    rounds: std::ops::RangeInclusive<u64>,
) -> Result<Vec<Recorded>, String> {
    match stored.rules {
        Some(RULES_VERSION) => {}
        Some(_) => return Err("the depth's history was made under other rules".into()),
        None => return Err("nothing was ever played on that depth".into()),
    }
    let entries = decode_history(&stored.entries)?;
    let mut state = fresh_depth(config, depth);
    state.record(&entries, name, rounds)
}

/// What `gloam-server record` prints: each message of the recording, a
/// line each (its round and the message, cut to a line's width), then how
/// many there are, their bytes on the wire and how long the recording
/// took to make (from the newest snapshot before its first round, or
/// `whole`, from the history's start) from how long a history.
pub fn record_report(
    store: &crate::store::Store,
    config: &crate::Config,
    depth: u16,
    name: &str,
    rounds: std::ops::RangeInclusive<u64>,
    whole: bool,
) -> anyhow::Result<String> {
    // Its length alone: the entries after the newest snapshot are read,
    // not the whole history a second time.
    let stored = store.read_history(depth, Reading::FromSnapshot)?;
    let started = std::time::Instant::now();
    let read = |reading| match reading {
        Reading::SnapshotAtMost(_) if whole => Err("not from a snapshot".to_owned()),
        reading => store.read_history(depth, reading).map_err(|e| e.to_string()),
    };
    let made = record_stored(config, depth, read, name, rounds)
        .map_err(|e| anyhow::anyhow!("depth {depth}: {e}"))?;
    let took = started.elapsed();
    let mut out = String::new();
    let mut bytes = 0;
    for r in &made {
        bytes += gloam_protocol::codec::encode(&r.msg).len();
        let said: String = format!("{:?}", r.msg).chars().take(100).collect();
        out.push_str(&format!("round {}: {said}\n", r.round));
    }
    out.push_str(&format!(
        "{} messages to {name} ({bytes} bytes), made in {:.3} s from a history of {} entries\n",
        made.len(),
        took.as_secs_f64(),
        stored.next - stored.start
    ));
    Ok(out)
}
