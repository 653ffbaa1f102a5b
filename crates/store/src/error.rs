//! Everything the store can refuse or fail at. Variants above `Database` are the caller's
//! to show to a person; the rest are server faults.

use crate::accounts::AccountId;
use crate::matches::MatchId;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("invalid account name: {0}")]
    InvalidName(&'static str),
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    #[error("the password must not be empty")]
    WeakPassword,
    #[error("the password is longer than {max} bytes")]
    PasswordTooLong { max: usize },
    /// Unknown name or wrong password: deliberately the same error (and the same work)
    /// for both, so a caller cannot probe which names exist.
    #[error("unknown name or wrong password")]
    BadCredentials,
    /// Too many failed logins for this account or from this address: try again after
    /// `retry_after`. Refused before any password is checked.
    #[error("too many failed logins; try again in {} s", retry_after.as_secs().max(1))]
    Throttled { retry_after: std::time::Duration },
    /// A session token that was never issued, was closed, or has expired.
    #[error("this session is unknown or has expired; log in again")]
    UnknownSession,
    #[error("no account named {0:?}")]
    UnknownAccount(String),
    #[error("no account with id {0}")]
    UnknownAccountId(AccountId),
    #[error("no match {0}")]
    UnknownMatch(MatchId),
    #[error("match {0} is not running")]
    NotRunning(MatchId),
    #[error("log entry {index} of match {match_id} is out of order: the next entry is {expected}")]
    LogOutOfOrder {
        match_id: MatchId,
        index: u64,
        expected: u64,
    },
    /// A match may finish only with its whole log stored: the caller holds `expected`
    /// entries, the store `stored`.
    #[error("match {match_id} cannot finish: {stored} of its {expected} log entries are stored")]
    IncompleteLog {
        match_id: MatchId,
        stored: u64,
        expected: u64,
    },
    #[error("invalid match: {0}")]
    InvalidMatch(String),
    #[error("invalid result: {0}")]
    InvalidResult(String),
    /// A request about a tournament that its state refuses (joining twice, joining a
    /// full or finished one, withdrawing without having joined, …): a stable code for
    /// programs and a sentence for people.
    #[error("{message}")]
    Tournament { code: &'static str, message: String },
    #[error("{ruleset} ratings use {stored}, not {requested}")]
    RatingSystemMismatch {
        ruleset: String,
        stored: String,
        requested: String,
    },
    #[error(
        "unsupported database URL {0:?}: use sqlite:PATH, sqlite://PATH (a file) or postgres://…"
    )]
    UnsupportedUrl(String),
    /// Another store (in this process or another) has the SQLite database open: two
    /// servers on one file would abort each other's matches.
    #[error(
        "the database {} is in use by another Arbiter server (it holds {}): stop that server, or give this one its own --data-dir",
        database.display(),
        lock.display()
    )]
    DatabaseInUse {
        database: std::path::PathBuf,
        lock: std::path::PathBuf,
    },
    #[error("the data directory path {0:?} is not valid UTF-8")]
    PathNotUtf8(std::path::PathBuf),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The database carries a migration this binary does not have: a newer Arbiter
    /// upgraded it. Refused rather than run, since this binary would not read what
    /// the newer schema stores (a downgrade needs the newer binary or a backup).
    #[error(
        "the database was upgraded by a newer Arbiter: it has schema migration {found}, and this binary knows migrations up to {known}; run that newer version, or restore a backup taken before the upgrade"
    )]
    NewerSchema { found: i64, known: i64 },
    #[error("file system error: {0}")]
    Io(#[from] std::io::Error),
    #[error("password hashing failed: {0}")]
    Hashing(String),
}

impl StoreError {
    /// True for errors caused by what the caller asked (bad name, taken name, unknown
    /// match…), false for faults of the database or the server.
    pub fn is_caller_error(&self) -> bool {
        !matches!(
            self,
            StoreError::Corrupt(_)
                | StoreError::Database(_)
                | StoreError::Migrate(_)
                | StoreError::NewerSchema { .. }
                | StoreError::Io(_)
                | StoreError::Hashing(_)
                | StoreError::UnsupportedUrl(_)
                | StoreError::PathNotUtf8(_)
                | StoreError::DatabaseInUse { .. }
        )
    }
}

impl StoreError {
    /// True when the store was closed: the server is stopping, and a request that came
    /// in meanwhile is answered so (its client connects again, to this server once it
    /// is back or to another node).
    pub fn is_closed(&self) -> bool {
        matches!(self, StoreError::Database(sqlx::Error::PoolClosed))
    }

    /// True for faults that may mend by themselves, so the same write may succeed if
    /// tried again: the database unreachable, restarting or out of connections, a lock
    /// held too long, a full disk, an I/O error. False for what the caller asked
    /// (retrying cannot change the answer), for a closed store (the server is
    /// stopping), and for corrupt or unreadable data.
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Io(_) => true,
            StoreError::Database(error) => is_transient_database_error(error),
            _ => false,
        }
    }
}

fn is_transient_database_error(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| {
            match code.parse::<i64>() {
                // SQLite's result codes (extended ones carry the primary in the low
                // byte): BUSY, LOCKED, NOMEM, IOERR, FULL, CANTOPEN.
                Ok(sqlite) => matches!(sqlite & 0xff, 5 | 6 | 7 | 10 | 13 | 14),
                // PostgreSQL's SQLSTATE classes: connection exception, insufficient
                // resources (disk full, too many connections), operator intervention
                // (shutdown, restarting), system error; and a lost serialization race.
                Err(_) => ["08", "53", "57P", "58", "40001", "40P01"]
                    .iter()
                    .any(|prefix| code.starts_with(prefix)),
            }
        }),
        _ => false,
    }
}

/// True when a database error is a unique-constraint violation (a name already taken,
/// a log index already written).
pub(crate) fn is_unique_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.is_unique_violation())
}

/// True when a database error is a foreign-key violation (an unknown account id).
pub(crate) fn is_foreign_key_violation(error: &sqlx::Error) -> bool {
    error
        .as_database_error()
        .is_some_and(|e| e.is_foreign_key_violation())
}
