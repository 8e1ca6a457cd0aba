//! Opening a data folder: taking its lock, opening or creating the redb
//! file, and checking that it is a Gloam store of this version. Every
//! failure names the file and leaves it as it was.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use redb::{Database, DatabaseError, ReadableDatabase, StorageError, TableError};

use super::StoreError;
use super::tables::{META, STORE_VERSION};

/// The store's file in a data folder.
pub const STORE_FILE: &str = "world.redb";
/// The file a running server holds locked, with its process id inside.
pub const LOCK_FILE: &str = "server.lock";

/// Takes the data folder's lock, so that two servers never share a store.
/// The lock lasts as long as the returned file is open, and the operating
/// system lets it go when the process ends, however it ends.
pub(super) fn lock_folder(dir: &Path, store: &Path) -> Result<File, StoreError> {
    let path = dir.join(LOCK_FILE);
    let io = |source| StoreError::Io { file: path.clone(), cause: source };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io)?;
    match file.try_lock() {
        Ok(()) => {
            file.set_len(0).map_err(io)?;
            writeln!(file, "{}", std::process::id()).map_err(io)?;
            Ok(file)
        }
        Err(TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.is_empty() { "unknown".to_owned() } else { holder.to_owned() };
            Err(StoreError::Locked { file: store.to_path_buf(), holder })
        }
        Err(TryLockError::Error(source)) => Err(io(source)),
    }
}

/// Opens the store file, creating it when it does not exist (or is empty,
/// as a first start that crashed at once may leave it), and checks that it
/// is a Gloam store of this version. A file that exists is first opened
/// read-only, so a foreign, damaged or other-version file is refused before
/// anything could write to it; only then is it opened for writing, which
/// finishes a crashed server's last commit and checks every page.
pub(super) fn open_file(file: &Path) -> Result<Database, StoreError> {
    let fresh = match std::fs::metadata(file) {
        Ok(meta) => meta.len() == 0,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
        Err(source) => return Err(StoreError::Io { file: file.to_path_buf(), cause: source }),
    };
    if fresh {
        let db = Database::builder().create(file).map_err(|e| from_redb(file, e))?;
        mark_new(&db).map_err(|e| failed(file, e))?;
        return Ok(db);
    }
    let path = file.to_path_buf();
    let looked = quietly(move || match Database::builder().open_read_only(&path) {
        Ok(db) => check_version(&db, &path),
        // Left by a server that did not stop cleanly: opening it for
        // writing below recovers it, and its version is checked then.
        Err(DatabaseError::RepairAborted) => Ok(()),
        Err(e) => Err(from_redb(&path, e)),
    });
    looked.unwrap_or_else(|| {
        Err(StoreError::Corrupt {
            file: file.to_path_buf(),
            detail: "its pages do not hold together".into(),
        })
    })?;
    let mut builder = Database::builder();
    // A damaged file is reported as such rather than trusted.
    builder.set_check_integrity_on_open(true);
    let db = builder.open(file).map_err(|e| from_redb(file, e))?;
    check_version(&db, file)?;
    Ok(db)
}

/// The thread that takes the read-only look.
const LOOK_THREAD: &str = "gloam-store-look";

/// Runs `look` on its own thread, where redb's panics on a damaged file
/// (it trusts a read-only file's pages) become None, without a panic
/// message: the error that follows says what happened.
fn quietly<T: Send + 'static>(look: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(LOOK_THREAD) {
                previous(info);
            }
        }));
    });
    std::thread::Builder::new().name(LOOK_THREAD.into()).spawn(look).ok()?.join().ok()
}

/// Marks a new store: its version, and the world's id, drawn now.
pub(super) fn mark_new(db: &Database) -> Result<(), redb::Error> {
    let mut world_id = [0u8; 8];
    getrandom::fill(&mut world_id)
        .map_err(|e| redb::Error::Corrupted(format!("no randomness for the world id: {e}")))?;
    let txn = db.begin_write()?;
    {
        let mut meta = txn.open_table(META)?;
        meta.insert("version", STORE_VERSION.to_le_bytes().as_slice())?;
        meta.insert("world-id", world_id.as_slice())?;
    }
    txn.commit()?;
    Ok(())
}

/// Checks the version mark of a store that existed.
fn check_version(db: &impl ReadableDatabase, file: &Path) -> Result<(), StoreError> {
    let found = (|| -> Result<Option<Vec<u8>>, redb::Error> {
        let txn = db.begin_read()?;
        let meta = match txn.open_table(META) {
            Ok(meta) => meta,
            Err(TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        Ok(meta.get("version")?.map(|v| v.value().to_vec()))
    })()
    .map_err(|e| failed(file, e))?;
    match found {
        None => Err(StoreError::Corrupt {
            file: file.to_path_buf(),
            detail: "it is a redb file without Gloam's version mark".into(),
        }),
        Some(bytes) => match <[u8; 4]>::try_from(bytes.as_slice()).map(u32::from_le_bytes) {
            Ok(STORE_VERSION) => Ok(()),
            Ok(other) => Err(StoreError::OtherVersion {
                file: file.to_path_buf(),
                found: format!("Gloam store version {other}"),
            }),
            Err(_) => Err(StoreError::Corrupt {
                file: file.to_path_buf(),
                detail: format!("its version mark is {} bytes long, not 4", bytes.len()),
            }),
        },
    }
}

fn from_redb(file: &Path, e: DatabaseError) -> StoreError {
    let file = file.to_path_buf();
    match e {
        DatabaseError::DatabaseAlreadyOpen | DatabaseError::LockProtocolMismatch => {
            StoreError::Locked { file, holder: "unknown".into() }
        }
        DatabaseError::UpgradeRequired(format) => {
            StoreError::OtherVersion { file, found: format!("redb file format {format}") }
        }
        DatabaseError::Storage(StorageError::Io(source))
            if source.kind() == std::io::ErrorKind::InvalidData =>
        {
            StoreError::Corrupt { file, detail: source.to_string() }
        }
        DatabaseError::Storage(StorageError::Io(source)) => StoreError::Io { file, cause: source },
        other => StoreError::Corrupt { file, detail: other.to_string() },
    }
}

/// A failure after the file opened: I/O is I/O, anything else is damage.
pub(super) fn failed(file: &Path, e: redb::Error) -> StoreError {
    let file: PathBuf = file.to_path_buf();
    match e {
        redb::Error::Io(source) if source.kind() != std::io::ErrorKind::InvalidData => {
            StoreError::Io { file, cause: source }
        }
        other => StoreError::Corrupt { file, detail: other.to_string() },
    }
}
