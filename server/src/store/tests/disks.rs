//! Disks the tests control, under a store by redb's storage backend (the
//! store's code has no hook for them): one that fills up, and one the test
//! can hold still.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use redb::backends::{FileBackend, InMemoryBackend};
use redb::{Database, StorageBackend};

use super::super::embedded::Redb;
use super::super::keeper::{MEMORY, Reopen};
use super::super::{STORE_FILE, Store, open};

impl Store {
    /// A store on a disk that fills up when the returned switch is set
    /// (every write then fails, as on a full disk) and has room again when
    /// it is cleared.
    pub(crate) fn on_a_disk_that_fills() -> (Self, Arc<AtomicBool>) {
        let disk = Arc::new(FillingDisk::default());
        let full = disk.full.clone();
        let open = {
            let disk = disk.clone();
            move || Database::builder().create_with_backend(Shared(disk.clone()))
        };
        let db = open().expect("a database in memory always opens");
        open::mark_new(&db).expect("a database in memory takes its version mark");
        let reopen = Some(Reopen(Box::new(move || Ok(open()?))));
        let backend = Box::new(Redb::new(db, None, reopen));
        let store = Self::on(backend, MEMORY.into(), None, None).expect("a new store reads");
        (store, full)
    }
}

/// A disk in memory that can be made full: every write then fails.
#[derive(Debug, Default)]
struct FillingDisk {
    data: InMemoryBackend,
    full: Arc<AtomicBool>,
}

/// One [`FillingDisk`] shared by every opening of the database on it.
#[derive(Debug)]
struct Shared(Arc<FillingDisk>);

impl Shared {
    fn check(&self) -> std::io::Result<()> {
        if self.0.full.load(Ordering::SeqCst) {
            return Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left"));
        }
        Ok(())
    }
}

impl StorageBackend for Shared {
    fn len(&self) -> std::io::Result<u64> {
        self.0.data.len()
    }
    fn read(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.0.data.read(offset, out)
    }
    fn set_len(&self, len: u64) -> std::io::Result<()> {
        self.check()?;
        self.0.data.set_len(len)
    }
    fn sync_data(&self) -> std::io::Result<()> {
        self.check()?;
        self.0.data.sync_data()
    }
    fn write(&self, offset: u64, data: &[u8]) -> std::io::Result<()> {
        self.check()?;
        self.0.data.write(offset, data)
    }
}

/// Holds a [`HeldDisk`] still, or lets it go on.
#[derive(Debug, Default)]
pub(super) struct Hold {
    held: Mutex<bool>,
    released: Condvar,
    /// A write has waited for the hold since it began.
    stopped: AtomicBool,
}

impl Hold {
    /// From now on every write to the disk waits until [`Hold::release`].
    pub(super) fn hold(&self) {
        *self.held.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.stopped.store(false, Ordering::SeqCst);
    }

    /// Whether a write is waiting, or waited, for this hold.
    pub(super) fn stopped_a_write(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    pub(super) fn release(&self) {
        *self.held.lock().unwrap_or_else(PoisonError::into_inner) = false;
        self.released.notify_all();
    }

    fn wait(&self) {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if *held {
            self.stopped.store(true, Ordering::SeqCst);
        }
        let _free = self.released.wait_while(held, |held| *held);
    }
}

/// The store's own file in a data folder, whose writes wait while the test
/// holds it (as a slow disk would make them).
#[derive(Debug)]
struct HeldDisk {
    file: FileBackend,
    hold: Arc<Hold>,
}

impl StorageBackend for HeldDisk {
    fn len(&self) -> std::io::Result<u64> {
        self.file.len()
    }
    fn read(&self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.file.read(offset, out)
    }
    fn set_len(&self, len: u64) -> std::io::Result<()> {
        self.hold.wait();
        self.file.set_len(len)
    }
    fn sync_data(&self) -> std::io::Result<()> {
        self.hold.wait();
        self.file.sync_data()
    }
    fn write(&self, offset: u64, data: &[u8]) -> std::io::Result<()> {
        self.hold.wait();
        self.file.write(offset, data)
    }
    fn close(&self) -> std::io::Result<()> {
        self.file.close()
    }
}

/// A new store in the data folder `dir` (its lock taken, as
/// [`Store::open`] takes it) on a disk the test can hold still.
pub(super) fn on_a_disk_the_test_holds(dir: &Path) -> (Store, Arc<Hold>) {
    let path = dir.join(STORE_FILE);
    let lock = open::lock_folder(dir, &path).expect("the folder is free");
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .expect("a new store file");
    let hold = Arc::new(Hold::default());
    let disk =
        HeldDisk { file: FileBackend::new(file).expect("a file backend"), hold: hold.clone() };
    let db = Database::builder().create_with_backend(disk).expect("a new store opens");
    open::mark_new(&db).expect("a new store takes its version mark");
    let backend = Box::new(Redb::new(db, Some(path.clone()), None));
    let store =
        Store::on(backend, path.clone(), Some(path), Some(lock)).expect("a new store reads");
    (store, hold)
}
