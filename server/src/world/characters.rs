//! Who may play which name: every character made while the server runs, its
//! secret token (kept only as a hash), whether it is online, and where it
//! was when it left. A character is in the world at most once: a second
//! connection with the right token takes over and the first is closed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gloam_protocol::{PlayerId, Refusal, Token};
use sha2::{Digest, Sha256};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::player::Player;

/// A character as it was when it left the world.
#[derive(Debug)]
pub struct Saved {
    pub depth: u16,
    pub player: Player,
}

/// What joining under a name gave.
#[derive(Debug)]
pub struct Claim {
    pub id: PlayerId,
    /// A brand-new character: the token its client must keep.
    pub new_token: Option<Token>,
    /// A returning character: where it was and what it remembered.
    pub saved: Option<Saved>,
    /// Cancelled when another connection takes this character over.
    pub kicked: CancellationToken,
}

#[derive(Debug)]
struct Character {
    id: PlayerId,
    token_hash: [u8; 32],
    online: Option<CancellationToken>,
    saved: Option<Saved>,
    left: Arc<Notify>,
}

#[derive(Debug, Default)]
pub struct Characters {
    by_name: Mutex<HashMap<String, Character>>,
    next_id: AtomicU32,
}

fn hash(token: &Token) -> [u8; 32] {
    let digest = Sha256::digest(token);
    let mut out = [0u8; 32];
    out.copy_from_slice(digest.as_slice());
    out
}

/// How long a taking-over connection waits for the old one to leave.
const TAKEOVER_WAIT: Duration = Duration::from_secs(3);

impl Characters {
    /// Joins as `name`: creates the character (with a fresh token) the first
    /// time, lets its token holder back in afterwards, and takes it over from
    /// a connection still playing it.
    pub async fn claim(&self, name: &str, token: Option<Token>) -> Result<Claim, Refusal> {
        let deadline = tokio::time::Instant::now() + TAKEOVER_WAIT;
        loop {
            let waiting = {
                let mut all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
                match all.get_mut(name) {
                    None => {
                        let mut fresh = [0u8; 16];
                        // Without OS randomness no secret can be made: refuse
                        // rather than hand out a guessable one.
                        getrandom::fill(&mut fresh).map_err(|_| Refusal::NameInvalid {
                            reason: "the server cannot make a secret token right now".into(),
                        })?;
                        let id = PlayerId(self.next_id.fetch_add(1, Ordering::Relaxed) + 1);
                        let kicked = CancellationToken::new();
                        all.insert(
                            name.to_owned(),
                            Character {
                                id,
                                token_hash: hash(&fresh),
                                online: Some(kicked.clone()),
                                saved: None,
                                left: Arc::new(Notify::new()),
                            },
                        );
                        return Ok(Claim { id, new_token: Some(fresh), saved: None, kicked });
                    }
                    Some(c) if token.as_ref().map(hash) != Some(c.token_hash) => {
                        return Err(Refusal::WrongToken);
                    }
                    Some(c) => match &c.online {
                        None => {
                            let kicked = CancellationToken::new();
                            c.online = Some(kicked.clone());
                            return Ok(Claim {
                                id: c.id,
                                new_token: None,
                                saved: c.saved.take(),
                                kicked,
                            });
                        }
                        Some(old) => {
                            old.cancel();
                            c.left.clone()
                        }
                    },
                }
            };
            // The old connection saves and leaves; look again when it has (or
            // soon, in case its notice came before we listened).
            if tokio::time::Instant::now() >= deadline {
                return Err(Refusal::NameTaken);
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), waiting.notified()).await;
        }
    }

    /// The connection playing `name` ended; keep where it was for next time.
    pub fn release(&self, name: &str, saved: Option<Saved>) {
        let mut all = self.by_name.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = all.get_mut(name) {
            c.online = None;
            if saved.is_some() {
                c.saved = saved;
            }
            c.left.notify_waiters();
        }
    }
}
