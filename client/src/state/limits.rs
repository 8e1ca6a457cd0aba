//! The most a client keeps of anything a server sends, and the checks of
//! sizes, names and texts against them: a broken or hostile server is
//! refused here, before the mirror changes or allocates.

use gloam_protocol::{DeathRecord, MAX_MAP_HEIGHT, MAX_MAP_WIDTH, MAX_NAME_CHARS};

use super::StateError;
use super::reasons;

/// How many lines of the message log are kept.
pub const LOG_LINES: usize = 200;

/// The longest line of the log kept, in characters; longer ones are cut.
pub const MAX_NOTE_CHARS: usize = 500;

/// The most players a client keeps on its roster or in sight: far more
/// than a server lets onto one depth, so only a broken or hostile server
/// ever reaches it.
pub const MAX_ROSTER: usize = 4096;

/// The most kinds of monster a client keeps.
pub const MAX_KINDS: usize = 1024;

/// The most kinds of item a client keeps.
pub const MAX_ITEM_KINDS: usize = 1024;

/// The longest monster name (or cause of death) a client keeps, in characters.
pub const MAX_KIND_NAME_CHARS: usize = 40;

/// The most backgrounds a client keeps: one a letter on the first screen.
pub const MAX_BACKGROUNDS: usize = 26;

/// The most graveyard records a client keeps.
pub const MAX_GRAVEYARD: usize = 2000;

/// The most watchers a client keeps in its list: far more than a server
/// seats, so only a broken or hostile server reaches it.
pub const MAX_WATCHERS: usize = 256;

/// A map a client will hold: not empty, and no larger than the protocol allows.
pub(super) fn check_size(width: u16, height: u16) -> Result<(), StateError> {
    if width == 0 || height == 0 {
        return Err(StateError::Inconsistent(reasons::MAP_WITH_NO_CELLS));
    }
    if width > MAX_MAP_WIDTH || height > MAX_MAP_HEIGHT {
        return Err(StateError::TooLarge { width, height });
    }
    Ok(())
}

/// A player's name as the server allows them.
pub(super) fn check_name(name: &str) -> Result<(), StateError> {
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(StateError::Inconsistent(reasons::PLAYER_NAME_THE_SERVER_WOULD_NEVER_ALLOW));
    }
    Ok(())
}

/// A world's name a server could have been given: at most
/// [`MAX_WORLD_NAME_CHARS`](gloam_protocol::MAX_WORLD_NAME_CHARS)
/// characters, none of them a control character (empty: none).
pub(super) fn check_world_name(name: &str) -> Result<(), StateError> {
    if name.chars().count() > gloam_protocol::MAX_WORLD_NAME_CHARS
        || name.chars().any(char::is_control)
    {
        return Err(StateError::Inconsistent(reasons::WORLD_NAME_THE_SERVER_WOULD_NEVER_ALLOW));
    }
    Ok(())
}

/// Every name of a list, as [`check_name`] checks one.
pub(super) fn check_names(names: &[String]) -> Result<(), StateError> {
    names.iter().try_for_each(|n| check_name(n))
}

/// Text a server may send: some, and no longer than `most` characters.
pub(super) fn check_text(text: &str, most: usize) -> Result<(), StateError> {
    if text.is_empty() || text.chars().count() > most {
        return Err(StateError::Inconsistent(
            reasons::NAME_EMPTY_OR_LONGER_THAN_THE_PROTOCOL_ALLOWS,
        ));
    }
    Ok(())
}

/// A graveyard record a server could have kept.
pub(super) fn check_record(record: &DeathRecord) -> Result<(), StateError> {
    check_name(&record.name)?;
    check_text(&record.killed_by, MAX_KIND_NAME_CHARS)
}
