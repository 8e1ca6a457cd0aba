//! Why a data folder could not be used: each error names the file and says
//! what to do, and none of them changed it.

use std::path::PathBuf;

use super::tables::STORE_VERSION;

/// Why a data folder could not be used. Each names the file concerned; none
/// of them changes it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "{file} is in use by another Gloam server (process {holder}); stop that server, or give \
         this one another --data folder"
    )]
    Locked { file: PathBuf, holder: String },
    #[error(
        "{file} is not a readable Gloam store ({detail}); it was left untouched: restore it from \
         a backup, or give the server another --data folder"
    )]
    Corrupt { file: PathBuf, detail: String },
    #[error(
        "{file} is a {found}, and this server reads Gloam store version {STORE_VERSION}; it was \
         left untouched: run the server version that wrote it, or give this one another --data \
         folder"
    )]
    OtherVersion { file: PathBuf, found: String },
    #[error("cannot use {file}: {cause}")]
    Io { file: PathBuf, cause: std::io::Error },
    #[error(
        "{file} holds a world of {stored}, but the server was started with {asked}; leave the \
         option out to play the stored world, or give another --data folder for a new one"
    )]
    OtherWorld { file: PathBuf, stored: String, asked: String },
    #[error(
        "cannot use the store at {file}: {detail}; check that the database server runs and \
         takes this server's connections"
    )]
    Unreachable { file: PathBuf, detail: String },
}
