//! One process per SQLite database.
//!
//! A SQLite store assumes it is the only process writing its file: at start-up a
//! server marks every running match aborted (they are the previous run's), and the
//! log's writer keeps each running match's next index in memory
//! (`matches::log_tail::NextIndices`). A second server on the same file would abort
//! the first one's matches and write beside its guard. So a store holds an exclusive
//! advisory lock on a file beside the database for as long as it is open, and a second
//! store on the same database is refused at once with an error that says so.
//!
//! The lock is the operating system's (`flock` on Unix, through `File::try_lock`): it
//! goes with the process, so a killed server leaves nothing to clean up. The lock file
//! itself stays; it holds no data.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use sqlx::sqlite::SqliteConnectOptions;

use crate::error::StoreError;

/// The lock file's name: the database file's with this added.
const SUFFIX: &str = ".lock";

/// An exclusive lock on a SQLite database, released on [`WriterLock::release`] or when
/// the last clone is dropped.
#[derive(Debug, Clone)]
pub(crate) struct WriterLock {
    held: Arc<Mutex<Option<File>>>,
}

impl WriterLock {
    /// Lock the database a `sqlite:` URL names, or refuse with
    /// [`StoreError::DatabaseInUse`] when another store holds it.
    pub(crate) fn acquire_for_url(url: &str) -> Result<WriterLock, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?;
        WriterLock::acquire(options.get_filename())
    }

    /// Lock `database` (the file need not exist yet).
    pub(crate) fn acquire(database: &Path) -> Result<WriterLock, StoreError> {
        let path = lock_path(database);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|error| naming(&path, error))?;
        match file.try_lock() {
            Ok(()) => Ok(WriterLock {
                held: Arc::new(Mutex::new(Some(file))),
            }),
            Err(TryLockError::WouldBlock) => Err(StoreError::DatabaseInUse {
                database: database.to_path_buf(),
                lock: path,
            }),
            // A file system without locks (some network mounts): serve all the same,
            // as before there was a lock, and say what is not guarded.
            Err(TryLockError::Error(error)) if error.kind() == std::io::ErrorKind::Unsupported => {
                tracing::warn!(
                    lock = %path.display(),
                    "this file system cannot lock files: nothing stops a second server from opening the same database"
                );
                Ok(WriterLock {
                    held: Arc::new(Mutex::new(None)),
                })
            }
            Err(TryLockError::Error(error)) => Err(naming(&path, error).into()),
        }
    }

    /// Let another store open the database (after this one has closed its pools).
    pub(crate) fn release(&self) {
        // A poisoned mutex still holds the file; dropping it unlocks all the same.
        let mut held = self
            .held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        held.take();
    }
}

/// `error`, saying which lock file it is about.
fn naming(path: &Path, error: std::io::Error) -> std::io::Error {
    std::io::Error::new(
        error.kind(),
        format!("cannot lock {}: {error}", path.display()),
    )
}

fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_os_string();
    name.push(SUFFIX);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_released() {
        let dir = tempfile::tempdir().expect("temp dir");
        let database = dir.path().join("arbiter.db");
        let first = WriterLock::acquire(&database).expect("first");
        let refused = WriterLock::acquire(&database).expect_err("second while held");
        assert!(
            matches!(&refused, StoreError::DatabaseInUse { lock, .. } if *lock == dir.path().join("arbiter.db.lock")),
            "{refused}"
        );
        // A clone shares the one lock; releasing it frees the database.
        first.clone().release();
        let again = WriterLock::acquire(&database).expect("after release");
        drop(again);
        WriterLock::acquire(&database).expect("after drop");
    }

    #[test]
    fn a_lock_that_cannot_be_made_says_which_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let database = dir.path().join("missing/arbiter.db");
        let error = WriterLock::acquire(&database).expect_err("no such folder");
        let message = error.to_string();
        assert!(
            message.contains("cannot lock") && message.contains("missing/arbiter.db.lock"),
            "{message}"
        );
    }

    #[test]
    fn urls_name_the_database_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let database = dir.path().join("a?b.db");
        let url = format!(
            "sqlite://{}?mode=rwc",
            database.display().to_string().replace('?', "%3F")
        );
        let held = WriterLock::acquire_for_url(&url).expect("by url");
        assert!(matches!(
            WriterLock::acquire(&database),
            Err(StoreError::DatabaseInUse { .. })
        ));
        held.release();
    }
}
