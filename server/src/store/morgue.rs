//! Morgue files: the plain-text record of a life that ended, one file
//! each, numbered per name from 1. The store's backend keeps them
//! ([`Backend::keep_morgues`](super::backend::Backend::keep_morgues)): a
//! redb store on the [`Shelf`] here, as `morgue/NAME/N.txt` in the data
//! folder beside its file (a store in memory in memory, for the life of
//! the process, so a throwaway world still offers them); a store on
//! PostgreSQL in its `morgues` table (see `postgres.rs`), so that they
//! outlive a restart as its records do.
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

/// One morgue file: life number `number` of `name`, and its text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Morgue {
    pub(super) name: String,
    pub(super) number: u32,
    pub(super) text: String,
}

/// Where a redb store keeps its morgue files.
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

    /// Keeps `file`. A name is only ever letters, digits, `-` and `_` (the
    /// handshake refuses others), so it is one plain folder name.
    pub(super) fn keep(&mut self, file: &Morgue) -> std::io::Result<()> {
        match self {
            Shelf::Memory(files) => {
                files.insert((file.name.clone(), file.number), file.text.clone());
            }
            Shelf::Folder(folder) => {
                let path = write(folder, file)?;
                debug!(player = file.name, file = %path.display(), "morgue file written");
            }
        }
        Ok(())
    }

    /// `name`'s morgue file number `number`; None when there is none.
    pub(super) fn read(&self, name: &str, number: u32) -> std::io::Result<Option<String>> {
        match self {
            Shelf::Memory(files) => Ok(files.get(&(name.to_owned(), number)).cloned()),
            Shelf::Folder(folder) => match std::fs::read_to_string(path(folder, name, number)) {
                Ok(text) => Ok(Some(text)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            },
        }
    }

    /// Every morgue file on the shelf, by name then number (for
    /// `gloam-server migrate`). What else a folder holds (a `.part` left by
    /// a crash, a file of another name) is passed over, with a warning.
    pub(super) fn all(&self) -> std::io::Result<Vec<Morgue>> {
        let mut all = match self {
            Shelf::Memory(files) => files
                .iter()
                .map(|((name, number), text)| Morgue {
                    name: name.clone(),
                    number: *number,
                    text: text.clone(),
                })
                .collect(),
            Shelf::Folder(folder) => read_folder(folder)?,
        };
        all.sort();
        Ok(all)
    }
}

/// Every morgue file in `folder` (none when it does not exist).
fn read_folder(folder: &Path) -> std::io::Result<Vec<Morgue>> {
    let names = match std::fs::read_dir(folder) {
        Ok(names) => names,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut all = Vec::new();
    for entry in names {
        let entry = entry?;
        let name = entry.file_name().into_string().ok().filter(|_| entry.path().is_dir());
        let Some(name) = name else {
            warn!(file = %entry.path().display(), "not a morgue folder: passed over");
            continue;
        };
        for file in std::fs::read_dir(entry.path())? {
            let file = file?.path();
            match number_of(&file) {
                Some(number) => {
                    let text = std::fs::read_to_string(&file).map_err(|e| {
                        std::io::Error::new(e.kind(), format!("{}: {e}", file.display()))
                    })?;
                    all.push(Morgue { name: name.clone(), number, text });
                }
                None => warn!(file = %file.display(), "not a morgue file: passed over"),
            }
        }
    }
    Ok(all)
}

/// The number of the morgue file at `file`: `N.txt`, as [`path`] names it.
fn number_of(file: &Path) -> Option<u32> {
    let named = file.file_name()?.to_str()?;
    let number: u32 = named.strip_suffix(".txt")?.parse().ok()?;
    (format!("{number}.txt") == named && file.is_file()).then_some(number)
}

fn path(folder: &Path, name: &str, number: u32) -> PathBuf {
    folder.join(name).join(format!("{number}.txt"))
}

/// Writes the file under a temporary name first, so that a reader never
/// sees half of one.
fn write(folder: &Path, file: &Morgue) -> std::io::Result<PathBuf> {
    let Morgue { name, number, text } = file;
    let to = path(folder, name, *number);
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

    fn morgue(name: &str, number: u32, text: &str) -> Morgue {
        Morgue { name: name.into(), number, text: text.into() }
    }

    #[test]
    fn a_folder_shelf_keeps_each_life_in_its_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut shelf = Shelf::beside(Some(&dir.path().join("world.redb")));
        shelf.keep(&morgue("ann", 1, "first\n")).unwrap();
        shelf.keep(&morgue("ann", 2, "second\n")).unwrap();
        let file = dir.path().join("morgue/ann/2.txt");
        assert_eq!(std::fs::read_to_string(file).unwrap(), "second\n");
        assert_eq!(shelf.read("ann", 1).unwrap().as_deref(), Some("first\n"));
        assert_eq!(shelf.read("ann", 3).unwrap(), None);
        assert_eq!(shelf.read("bob", 1).unwrap(), None);
    }

    #[test]
    fn a_shelf_that_cannot_write_says_so() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the folder should be: nothing can be made under it.
        std::fs::write(dir.path().join(FOLDER), "not a folder").unwrap();
        let mut shelf = Shelf::beside(Some(&dir.path().join("world.redb")));
        assert!(shelf.keep(&morgue("ann", 1, "lost\n")).is_err());
        assert!(shelf.read("ann", 1).is_err(), "a folder that is a file is not an absence");
    }

    #[test]
    fn a_memory_shelf_keeps_files_for_the_process() {
        let mut shelf = Shelf::beside(None);
        shelf.keep(&morgue("ann", 1, "text\n")).unwrap();
        assert_eq!(shelf.read("ann", 1).unwrap().as_deref(), Some("text\n"));
        assert_eq!(shelf.read("ann", 2).unwrap(), None);
        assert_eq!(shelf.all().unwrap(), [morgue("ann", 1, "text\n")]);
    }

    /// Every file the shelf wrote is listed, in order; what it did not
    /// write is passed over.
    #[test]
    fn a_folder_shelf_lists_every_file_it_keeps() {
        let dir = tempfile::tempdir().unwrap();
        let mut shelf = Shelf::beside(Some(&dir.path().join("world.redb")));
        assert_eq!(shelf.all().unwrap(), [], "no folder yet: no files");
        for file in [morgue("bob", 1, "b1"), morgue("ann", 10, "a10"), morgue("ann", 2, "a2")] {
            shelf.keep(&file).unwrap();
        }
        let ann = dir.path().join("morgue/ann");
        for stray in ["3.txt.part", "07.txt", "notes.txt", "0x1.txt"] {
            std::fs::write(ann.join(stray), "stray").unwrap();
        }
        std::fs::write(dir.path().join("morgue/README"), "stray").unwrap();
        let all = shelf.all().unwrap();
        let expected = [morgue("ann", 2, "a2"), morgue("ann", 10, "a10"), morgue("bob", 1, "b1")];
        assert_eq!(all, expected);
    }
}
