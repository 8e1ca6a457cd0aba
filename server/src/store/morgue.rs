//! Morgue files: the plain-text record of a life that ended, one file
//! each, kept by the store's thread beside the store as
//! `morgue/NAME/N.txt` in the data folder (N counts the name's lives from
//! 1). A store in memory keeps them in memory for the life of the process
//! instead, so a throwaway world still offers them.
//!
//! The store's thread writes each file as its command comes, before it
//! takes the next, so a read sent after a write (a player's request for
//! the file it was just offered) finds it. A file that cannot be written
//! is reported in the server's log and the game goes on: its player is
//! offered a file that is not there (404).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tracing::{debug, warn};

/// The folder of morgue files in a data folder.
pub(crate) const FOLDER: &str = "morgue";

/// Where the morgue files are kept.
#[derive(Debug)]
pub(super) enum Shelf {
    /// The data folder's `morgue/`.
    Folder(PathBuf),
    /// A store in memory's: (name, number) to text.
    Memory(HashMap<(String, u32), String>),
}

impl Shelf {
    /// The shelf beside the store file `file`, or in memory when `file` is
    /// None.
    pub(super) fn beside(file: Option<&Path>) -> Self {
        match file {
            Some(file) => Shelf::Folder(file.parent().unwrap_or(Path::new(".")).join(FOLDER)),
            None => Shelf::Memory(HashMap::new()),
        }
    }

    /// Keeps `text` as `name`'s morgue file number `number`. A name is
    /// only ever letters, digits, `-` and `_` (the handshake refuses
    /// others), so it is one plain folder name.
    pub(super) fn keep(&mut self, name: &str, number: u32, text: String) {
        match self {
            Shelf::Memory(files) => {
                files.insert((name.to_owned(), number), text);
            }
            Shelf::Folder(folder) => match write(folder, name, number, &text) {
                Ok(path) => debug!(player = name, file = %path.display(), "morgue file written"),
                Err(e) => {
                    warn!(player = name, number, error = %e, "a morgue file could not be written")
                }
            },
        }
    }

    /// `name`'s morgue file number `number`; None when there is none (or
    /// it cannot be read: the server's log says why).
    pub(super) fn read(&self, name: &str, number: u32) -> Option<String> {
        match self {
            Shelf::Memory(files) => files.get(&(name.to_owned(), number)).cloned(),
            Shelf::Folder(folder) => match std::fs::read_to_string(path(folder, name, number)) {
                Ok(text) => Some(text),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => {
                    warn!(player = name, number, error = %e, "a morgue file could not be read");
                    None
                }
            },
        }
    }
}

fn path(folder: &Path, name: &str, number: u32) -> PathBuf {
    folder.join(name).join(format!("{number}.txt"))
}

/// Writes the file under a temporary name first, so that a reader never
/// sees half of one.
fn write(folder: &Path, name: &str, number: u32, text: &str) -> std::io::Result<PathBuf> {
    let to = path(folder, name, number);
    let dir = folder.join(name);
    std::fs::create_dir_all(&dir)?;
    let part = dir.join(format!("{number}.txt.part"));
    std::fs::write(&part, text)?;
    std::fs::rename(&part, &to)?;
    Ok(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_shelf_keeps_each_life_in_its_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut shelf = Shelf::beside(Some(&dir.path().join("world.redb")));
        shelf.keep("ann", 1, "first\n".into());
        shelf.keep("ann", 2, "second\n".into());
        let file = dir.path().join("morgue/ann/2.txt");
        assert_eq!(std::fs::read_to_string(file).unwrap(), "second\n");
        assert_eq!(shelf.read("ann", 1).as_deref(), Some("first\n"));
        assert_eq!(shelf.read("ann", 3), None);
        assert_eq!(shelf.read("bob", 1), None);
    }

    #[test]
    fn a_shelf_that_cannot_write_reports_and_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the folder should be: nothing can be made under it.
        std::fs::write(dir.path().join(FOLDER), "not a folder").unwrap();
        let mut shelf = Shelf::beside(Some(&dir.path().join("world.redb")));
        shelf.keep("ann", 1, "lost\n".into());
        assert_eq!(shelf.read("ann", 1), None);
    }

    #[test]
    fn a_memory_shelf_keeps_files_for_the_process() {
        let mut shelf = Shelf::beside(None);
        shelf.keep("ann", 1, "text\n".into());
        assert_eq!(shelf.read("ann", 1).as_deref(), Some("text\n"));
        assert_eq!(shelf.read("ann", 2), None);
    }
}
