//! Where the client keeps each character's secret token: one small file per
//! server address and name, in the user's config directory, readable only by
//! the user. Without it a name cannot be played again on that server.

use std::path::{Path, PathBuf};

use gloam_protocol::Token;

/// Where one character's token is kept: the store and the names it is
/// filed under (the server, or a hosted world's id, and the player's name).
#[derive(Debug)]
pub struct TokenSlot {
    pub store: Option<TokenStore>,
    pub server: String,
    pub name: String,
}

impl TokenSlot {
    /// The kept token, if there is one.
    pub fn load(&self) -> Option<Token> {
        self.store.as_ref().and_then(|s| s.load(&self.server, &self.name))
    }

    /// Keeps a new token; says where, or why not, for the message log (in
    /// the player's words, a key).
    pub fn keep(&self, token: &Token) -> String {
        match self.store.as_ref().map(|s| s.save(&self.server, &self.name, token)) {
            Some(Ok(path)) => format!("Your character's key is kept in {}.", path.display()),
            Some(Err(e)) => format!("Could not keep your character's key: {e}"),
            None => "No config directory: your character's key is not kept.".into(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct TokenStore {
    dir: PathBuf,
}

impl TokenStore {
    /// The user's config directory (`~/.config/gloam/tokens` on Linux).
    pub fn default_location() -> Option<Self> {
        let dirs = directories::ProjectDirs::from("", "", "gloam")?;
        Some(Self::at(dirs.config_dir().join("tokens")))
    }

    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, server: &str, name: &str) -> PathBuf {
        let key: String = format!("{name}@{server}")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '@' { c } else { '_' }
            })
            .collect();
        self.dir.join(key)
    }

    /// The token kept for `name` on `server`, if any.
    pub fn load(&self, server: &str, name: &str) -> Option<Token> {
        let text = std::fs::read_to_string(self.file(server, name)).ok()?;
        let text = text.trim();
        if text.len() != 32 {
            return None;
        }
        let mut token = [0u8; 16];
        for (i, byte) in token.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(token)
    }

    /// Keeps `token` for `name` on `server`; returns the file written.
    pub fn save(&self, server: &str, name: &str, token: &Token) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.file(server, name);
        let hex: String = token.iter().map(|b| format!("{b:02x}")).collect();
        std::fs::write(&path, hex + "\n")?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> TokenStore {
        let dir = std::env::temp_dir().join(format!("gloam-tokens-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TokenStore::at(dir)
    }

    #[test]
    fn a_saved_token_comes_back_for_its_server_and_name_only() {
        let store = scratch("roundtrip");
        let token = [7u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255];
        store.save("ws://host:7777", "ann", &token).unwrap();
        assert_eq!(store.load("ws://host:7777", "ann"), Some(token));
        assert_eq!(store.load("ws://host:7778", "ann"), None);
        assert_eq!(store.load("ws://host:7777", "bob"), None);
        let _ = std::fs::remove_dir_all(store.dir());
    }

    #[test]
    fn a_damaged_file_reads_as_no_token() {
        let store = scratch("damaged");
        std::fs::create_dir_all(store.dir()).unwrap();
        std::fs::write(store.file("s", "ann"), "not hex at all, nope, no way!!\n").unwrap();
        assert_eq!(store.load("s", "ann"), None);
        let _ = std::fs::remove_dir_all(store.dir());
    }
}
