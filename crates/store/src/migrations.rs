//! The schema's migrations, embedded in the binary so that a server needs nothing beside
//! it to create or upgrade its database.
//!
//! Why not `sqlx::migrate!`: that macro needs SQLx's `macros` feature, which compiles a
//! second copy of SQLx's PostgreSQL and SQLite drivers (and Tokio, and more) for the
//! macro's own use; every build of the workspace (clippy, tests, release, fuzz targets)
//! paid for it (about 80 s of CPU in the test build). The files are embedded with
//! `include_str!` instead and handed to SQLx's migrator through its public
//! [`MigrationSource`] trait, with the version, description and checksum SQLx itself
//! derives from a file name and its text (the test below compares them with SQLx's own
//! reading of the folders, so databases migrated before keep matching).

use std::borrow::Cow;
use std::future::Future;
use std::ops::Deref;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migrate, MigrateError, Migration, MigrationSource, MigrationType, Migrator};
use sqlx::Acquire;

use crate::StoreError;

/// One migration file: its version (the number before `_`), its description (the rest
/// of the name, `_` read as a space, as SQLx reads it) and its SQL.
type MigrationFile = (i64, &'static str, &'static str);

/// `migrations/sqlite`, in version order.
pub(crate) const SQLITE: &[MigrationFile] = &[
    (
        1,
        "initial",
        include_str!("../migrations/sqlite/0001_initial.sql"),
    ),
    (
        2,
        "sessions",
        include_str!("../migrations/sqlite/0002_sessions.sql"),
    ),
    (
        3,
        "nodes",
        include_str!("../migrations/sqlite/0003_nodes.sql"),
    ),
    (
        4,
        "node started",
        include_str!("../migrations/sqlite/0004_node_started.sql"),
    ),
    (
        5,
        "log tail",
        include_str!("../migrations/sqlite/0005_log_tail.sql"),
    ),
    (
        6,
        "log chunks",
        include_str!("../migrations/sqlite/0006_log_chunks.sql"),
    ),
    (
        7,
        "tournaments",
        include_str!("../migrations/sqlite/0007_tournaments.sql"),
    ),
    (
        8,
        "stand ins",
        include_str!("../migrations/sqlite/0008_stand_ins.sql"),
    ),
    (
        9,
        "entrant pause",
        include_str!("../migrations/sqlite/0009_entrant_pause.sql"),
    ),
    (
        10,
        "house slots",
        include_str!("../migrations/sqlite/0010_house_slots.sql"),
    ),
    (
        11,
        "account kind",
        include_str!("../migrations/sqlite/0011_account_kind.sql"),
    ),
    (
        12,
        "resuming",
        include_str!("../migrations/sqlite/0012_resuming.sql"),
    ),
];

/// `migrations/postgres`, in version order.
pub(crate) const POSTGRES: &[MigrationFile] = &[
    (
        1,
        "initial",
        include_str!("../migrations/postgres/0001_initial.sql"),
    ),
    (
        2,
        "sessions",
        include_str!("../migrations/postgres/0002_sessions.sql"),
    ),
    (
        3,
        "nodes",
        include_str!("../migrations/postgres/0003_nodes.sql"),
    ),
    (
        4,
        "node started",
        include_str!("../migrations/postgres/0004_node_started.sql"),
    ),
    (
        5,
        "log tail",
        include_str!("../migrations/postgres/0005_log_tail.sql"),
    ),
    (
        6,
        "log chunks",
        include_str!("../migrations/postgres/0006_log_chunks.sql"),
    ),
    (
        7,
        "tournaments",
        include_str!("../migrations/postgres/0007_tournaments.sql"),
    ),
    (
        8,
        "stand ins",
        include_str!("../migrations/postgres/0008_stand_ins.sql"),
    ),
    (
        9,
        "entrant pause",
        include_str!("../migrations/postgres/0009_entrant_pause.sql"),
    ),
    (
        10,
        "house slots",
        include_str!("../migrations/postgres/0010_house_slots.sql"),
    ),
    (
        11,
        "account kind",
        include_str!("../migrations/postgres/0011_account_kind.sql"),
    ),
    (
        12,
        "resuming",
        include_str!("../migrations/postgres/0012_resuming.sql"),
    ),
];

/// Embedded migration files as SQLx's migrator takes them.
#[derive(Debug)]
struct Embedded(&'static [MigrationFile]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        let migrations = self
            .0
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    // SQLx's own marker for a migration that must run outside a
                    // transaction (none of ours does).
                    sql.starts_with("-- no-transaction"),
                )
            })
            .collect();
        Box::pin(std::future::ready(Ok(migrations)))
    }
}

/// The migrator for one flavour's files.
pub(crate) async fn migrator(files: &'static [MigrationFile]) -> Result<Migrator, MigrateError> {
    Migrator::new(Embedded(files)).await
}

/// Bring the database behind `target` up to `files`. A database holding a migration
/// past the last of ours is refused as a newer binary's upgrade (see [`refused`]).
pub(crate) async fn run<'a, A>(files: &'static [MigrationFile], target: A) -> Result<(), StoreError>
where
    A: Acquire<'a>,
    <A::Connection as Deref>::Target: Migrate,
{
    migrator(files)
        .await?
        .run(target)
        .await
        .map_err(|error| refused(error, files))
}

/// What a failed run of `files` tells the host. SQLx refuses a database holding a
/// migration it was not given; past the last of ours, that is a newer binary's
/// upgrade, and the host is told so (a downgrade), not that a migration failed.
fn refused(error: MigrateError, files: &[MigrationFile]) -> StoreError {
    let known = files.last().map_or(0, |&(version, _, _)| version);
    match error {
        MigrateError::VersionMissing(found) if found > known => {
            StoreError::NewerSchema { found, known }
        }
        other => StoreError::Migrate(other),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// What SQLx reads from a folder (as `sqlx::migrate!` did) is exactly what is
    /// embedded: the same versions, descriptions, kinds and checksums (of the texts), and no
    /// file of the folder left out.
    #[tokio::test]
    async fn the_embedded_migrations_are_the_folders() {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (folder, files) in [("sqlite", SQLITE), ("postgres", POSTGRES)] {
            let from_folder = Migrator::new(crate_dir.join("migrations").join(folder))
                .await
                .expect("SQLx reads the folder");
            let embedded = migrator(files).await.expect("the embedded migrations");
            let read = |m: &Migrator| {
                m.iter()
                    .map(|m| {
                        // The checksum is the SQL's SHA-384: equal checksums, equal SQL.
                        let kind = format!("{:?}", m.migration_type);
                        let description = m.description.to_string();
                        (m.version, description, kind, m.checksum.to_vec(), m.no_tx)
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(read(&embedded), read(&from_folder), "migrations/{folder}");
            assert!(!files.is_empty());
        }
    }
}
