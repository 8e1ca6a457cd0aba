//! Watching: whom this client watches (when it watches rather than plays),
//! who watches its player, and the answer to `/who`, everyone playing and
//! whether they may be watched. A watcher coming or going is a line of the
//! log, but for a watcher itself: it was told "You are watching ann." as
//! it came, and is told its own leaving by the server, as "you".

use gloam_protocol::{MAX_WHO, PlayerId, Playing};

use super::limits::{MAX_WATCHERS, check_name, check_names};
use super::log::Topic;
use super::reasons;
use super::{ClientState, StateError};

/// How the answer to `/who` says to watch a player (the page says its
/// own: see `web_export/keys.rs`, `WORDS`).
pub(crate) const WATCH_WITH: &str = "--watch NAME";

/// The widest line of the `/who` list, in characters (a HUD row of the
/// default window holds 80).
const WHO_LINE_CHARS: usize = 78;

impl ClientState {
    /// This client watches `player`, and speaks as `you`.
    pub(super) fn watch(&mut self, player: &str, you: PlayerId) -> Result<(), StateError> {
        self.sight_disc()?;
        check_name(player)?;
        self.note(Topic::Note, &format!("You are watching {player}."));
        self.watching = Some((player.to_owned(), you));
        Ok(())
    }

    /// Who watches the player now: each who came or went is told.
    pub(super) fn set_watchers(&mut self, names: &[String]) -> Result<(), StateError> {
        self.sight_disc()?;
        if names.len() > MAX_WATCHERS {
            return Err(StateError::Inconsistent(reasons::MORE_WATCHERS_THAN_A_CLIENT_KEEPS));
        }
        check_names(names)?;
        let whom = match &self.watching {
            Some((player, _)) => player.clone(),
            None => "you".to_owned(),
        };
        let me = self.name.as_deref();
        let news = |n: &&String| Some(n.as_str()) != me;
        let came: Vec<String> =
            names.iter().filter(|n| !self.watchers.contains(n)).filter(news).cloned().collect();
        let went: Vec<String> =
            self.watchers.iter().filter(|n| !names.contains(n)).filter(news).cloned().collect();
        for name in came {
            self.note(Topic::Others, &format!("{name} is watching {whom}."));
        }
        for name in went {
            self.note(Topic::Others, &format!("{name} stopped watching {whom}."));
        }
        self.watchers = names.to_vec();
        Ok(())
    }

    /// The answer to `/who`: everyone playing, as lines of the log no
    /// wider than a HUD row, each name with how many watch it or that it
    /// cannot be watched.
    pub(super) fn list_players(&mut self, playing: &[Playing]) -> Result<(), StateError> {
        self.sight_disc()?;
        if playing.len() > MAX_WHO {
            return Err(StateError::Inconsistent(reasons::LONGER_LIST_OF_PLAYERS_THAN_ANY_SENT));
        }
        playing.iter().try_for_each(|p| check_name(&p.name))?;
        let entries = playing.iter().map(|p| match (p.watchable, p.watchers) {
            (false, _) => format!("{} (not to be watched)", p.name),
            (true, 0) => p.name.clone(),
            (true, n) => format!("{} ({n} watching)", p.name),
        });
        let mut line = format!("Playing now ({}), watch with {WATCH_WITH}:", playing.len());
        for entry in entries {
            if line.chars().count() + entry.chars().count() + 1 > WHO_LINE_CHARS {
                self.note(Topic::Note, &std::mem::take(&mut line));
                line.push(' ');
            }
            line.push(' ');
            line.push_str(&entry);
        }
        self.note(Topic::Note, &line);
        Ok(())
    }

    /// The player this client watches, when it watches: the HUD speaks of
    /// it by name where it would say "you".
    pub fn watched(&self) -> Option<&str> {
        self.watching.as_ref().map(|(player, _)| player.as_str())
    }

    /// True when `id` is who this client speaks as: its player, or for a
    /// watcher, the watcher itself.
    pub fn is_me(&self, id: PlayerId) -> bool {
        match &self.watching {
            Some((_, you)) => *you == id,
            None => self.me == Some(id),
        }
    }
}
