//! SQLite's log tail: entries are appended in arrival order to `match_log_tail`, and
//! now and then folded out of it in one transaction, each match's entries as one row of
//! `match_log_chunk` (see [`fold`]).
//!
//! Why: `match_log` is keyed by `(match_id, idx)`, so a commit holding one entry of each
//! of a hundred matches changed a hundred leaf pages, and SQLite wrote each of them
//! whole to its WAL (two `pwrite`s of a 4 KiB page per entry, a third of the log
//! writer's thread). In the tail a commit's entries share a page or two. A fold then
//! writes one row for each match's many entries (see [`FOLD_AT`] for when). That pays
//! only for commits of many entries: a light commit of one or two goes straight to
//! `match_log` (see [`Folds::table_for`]), where it costs a page or two as well.
//!
//! What stays true:
//! - An entry is committed before `append_log` returns, as before: it is in the tail,
//!   in a chunk or in `match_log`.
//! - Readers (records, listings, the length check that finishing does) take the union
//!   of the three tables, in one statement or one snapshot, and a fold moves rows in
//!   one transaction, so a reader sees each entry exactly once.
//! - The guard that an entry's index is the next one can no longer be a subquery (the
//!   tail has no index on the match; scanning it per row would cost more than the pages
//!   saved). [`NextIndices`] keeps it in memory instead. That is sound because SQLite is
//!   the single-node store: this process's log writer is the only one writing these
//!   matches' logs. The guards that the match is running and is this node's stay in
//!   the statement.
//!
//! PostgreSQL keeps appending to `match_log` directly with every guard in the
//! statement: its heap is in arrival order already, and several nodes append at once,
//! so no in-memory guard would be sound there. Its tail and chunks stay empty.

use foldhash::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};

use sqlx::AnyPool;

use super::log_commits::LogCommits;
use super::MatchId;

/// Fold once the tail holds this many entries, even while appends wait, or
/// [`FOLD_PER_MATCH`] entries for each match in it if that is more. The more entries a
/// fold moves, the more of them share each match's page write, but every append waits
/// while it runs: 2,048 entries take about 9 ms at 100 matches. Readers scan the tail
/// too; it stays under about 160 KiB, or 1.3 MiB at 1,000 busy matches.
pub const FOLD_AT: usize = 2048;
/// See [`FOLD_AT`]: with one or two entries per match a fold writes as many pages as
/// appending to `match_log` directly did (at 1,000 busy matches, folds of 2,048 entries
/// took most of the writer's time).
pub(crate) const FOLD_PER_MATCH: usize = 16;
/// Fold as soon as the tail holds this many entries if the writer is idle: no append
/// waits, and its recent commits held fewer than [`IDLE_COMMIT`] entries on average (the
/// batches grow with the load, and even a busy writer finds its queue empty for a
/// moment after many commits). A lightly loaded writer's commits skip the tail (see
/// [`Folds::table_for`]), so this folds what a busy spell left in it. A busy server
/// folds at [`FOLD_AT`], and its moves queue anyway.
pub(crate) const FOLD_WHEN_IDLE_AT: usize = 64;
/// The most entries a light commit holds, alone and on recent average (see
/// [`Folds::table_for`]).
pub(crate) const LIGHT_COMMIT: usize = 4;
/// Recent commits must hold fewer entries than this on average for an early fold
/// ([`FOLD_WHEN_IDLE_AT`]); at 1,000 matches moving once a second they hold 1.3. It was
/// [`LIGHT_COMMIT`] once, and at 100 busy matches, whose commits hold ten entries on
/// average, the average dipped under four for a moment after drained queues: nine
/// folds in ten were early ones, of 400 entries of a hundred matches at the median, 2.5
/// to 7 ms each with every append waiting, for about four entries a match's page write.
pub(crate) const IDLE_COMMIT: usize = 2;

/// How long a busy writer waits for more entries before a commit of fewer than
/// [`LINGER_UNTIL`] (PostgreSQL's `commit_delay` is the same idea). Each commit writes
/// its WAL pages whatever it holds, so larger commits cost less an entry, and a busy
/// writer's next entries are a fraction of a millisecond away. Measured at 100 busy
/// matches: commits of 32–34 entries instead of 10–12, a third as many, 2–4% more
/// moves a second and half the thread switches (docs/benchmarks.md).
pub(crate) const LINGER: std::time::Duration = std::time::Duration::from_micros(200);
/// A commit of this many entries waits for no more.
pub(crate) const LINGER_UNTIL: usize = 16;

/// The table a commit of log rows goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LogTable {
    /// `match_log`, keyed by match and index: PostgreSQL's every commit, and SQLite's
    /// light ones (see [`Folds::table_for`]).
    Log,
    /// `match_log_tail`, in arrival order: SQLite's busy commits.
    Tail,
}

impl LogTable {
    pub(crate) fn name(self) -> &'static str {
        match self {
            LogTable::Log => "match_log",
            LogTable::Tail => "match_log_tail",
        }
    }
}

/// The index each running match's next log entry must have, for the matches this
/// store's log writer knows. Shared by the writer (which checks and advances it) and
/// the store (which adds a match when it is created and forgets it when it ends).
#[derive(Debug, Clone, Default)]
pub(crate) struct NextIndices(Arc<Mutex<HashMap<MatchId, i64>>>);

impl NextIndices {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<MatchId, i64>> {
        // The map holds plain integers, whole after any panic.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new match: its first entry is entry 0.
    pub(crate) fn started(&self, match_id: MatchId) {
        self.map().insert(match_id, 0);
    }

    /// A match that ended, or whose entry the statement's guards refused: forget it
    /// (should it come back, its length is read from the database).
    pub(crate) fn forget(&self, match_id: MatchId) {
        self.map().remove(&match_id);
    }

    /// The index `match_id`'s next entry must have, if known.
    pub(crate) fn expected(&self, match_id: MatchId) -> Option<i64> {
        self.map().get(&match_id).copied()
    }

    /// `match_id`'s entry `idx` is committed.
    pub(crate) fn committed(&self, match_id: MatchId, idx: i64) {
        self.map().insert(match_id, idx + 1);
    }
}

/// When to fold: counts what was appended since the last fold, and how large commits
/// have been lately (kept across folds: a busy writer stays busy after one).
#[derive(Debug, Default)]
pub(crate) struct Folds {
    entries: usize,
    /// The matches with entries in the tail.
    matches: HashSet<MatchId>,
    /// Entries per commit, a moving average over about the last 16 commits.
    recent_batch: f64,
    /// What the tail holds, as this writer put it there; `None` while that is not
    /// known (a tail an earlier process left, a commit whose outcome is unknown, a
    /// failed fold), and the next fold reads the tail instead (see [`Mirror`]).
    mirror: Option<Mirror>,
}

/// A row the writer committed to the log: its match, index and JSON text.
#[derive(Debug)]
pub(crate) struct StoredRow {
    pub match_id: MatchId,
    pub idx: i64,
    pub entry: String,
}

/// The most text a [`Mirror`] holds; past it the writer forgets the copy and its next
/// fold reads the tail. A fold is due long before (2,048 entries, or 16 a match), so
/// only folds failing again and again would reach it.
const MIRROR_BYTES: usize = 64 << 20;

/// The tail's entries kept in memory as the writer committed them, each match's runs
/// of consecutive entries already joined as a chunk's text. A fold then inserts these
/// chunks and empties the tail, instead of grouping and sorting the tail's rows in SQL
/// (half of a fold's time). Its entries are counted against the rows the fold deletes
/// from the tail; should they differ, the fold is undone and the tail read instead.
#[derive(Debug, Default)]
struct Mirror {
    runs: HashMap<MatchId, Vec<Run>>,
    entries: u64,
    bytes: usize,
}

/// Consecutive entries of one match: one `match_log_chunk` row.
#[derive(Debug)]
struct Run {
    first_idx: i64,
    entries: i64,
    log: String,
}

impl Mirror {
    fn push(&mut self, row: StoredRow) {
        self.entries += 1;
        self.bytes += row.entry.len() + 1;
        let runs = self.runs.entry(row.match_id).or_default();
        match runs.last_mut() {
            Some(run) if run.first_idx + run.entries == row.idx => {
                run.log.push('\n');
                run.log.push_str(&row.entry);
                run.entries += 1;
            }
            // A match's first entry in the tail, or one after a gap (entries in between
            // went to `match_log` by light commits).
            _ => runs.push(Run {
                first_idx: row.idx,
                entries: 1,
                log: row.entry,
            }),
        }
    }

    /// The chunks, by match and first index.
    fn chunks(&self) -> Vec<(MatchId, &Run)> {
        let mut chunks: Vec<(MatchId, &Run)> = self
            .runs
            .iter()
            .flat_map(|(&match_id, runs)| runs.iter().map(move |run| (match_id, run)))
            .collect();
        chunks.sort_unstable_by_key(|&(match_id, run)| (match_id, run.first_idx));
        chunks
    }
}

impl Folds {
    /// Where a commit of `rows` rows goes, `waiting` telling whether further appends
    /// wait behind it. A light commit (few rows, nothing waiting, recent commits small
    /// too) goes straight to `match_log`: it writes a page per match, as many as its
    /// entries would cost a fold later, and leaves nothing to fold. At 1,000 matches
    /// moving once a second, folds of the tail were the writer's only slow moments,
    /// and every entry arriving during one waited for it.
    pub(crate) fn table_for(&self, rows: usize, waiting: bool) -> LogTable {
        if rows <= LIGHT_COMMIT && self.loaded_below(LIGHT_COMMIT, waiting) {
            LogTable::Log
        } else {
            LogTable::Tail
        }
    }

    /// Whether to wait [`LINGER`] for company before committing `waiting` rows: only
    /// while the writer is busy (its recent commits held [`LIGHT_COMMIT`] entries or
    /// more on average). A lightly loaded writer commits at once: at 1,000 matches
    /// moving once a second, lingering whenever two entries waited raised the round
    /// trip's median from 0.34 to 0.50 ms and saved nothing.
    pub(crate) fn lingers(&self, waiting: usize) -> bool {
        waiting < LINGER_UNTIL && self.recent_batch >= LIGHT_COMMIT as f64
    }

    /// A commit put `rows` into `table`; `doubtful` if some row's outcome is unknown
    /// (its statement failed).
    pub(crate) fn appended(&mut self, rows: Vec<StoredRow>, table: LogTable, doubtful: bool) {
        self.recent_batch += (rows.len() as f64 - self.recent_batch) / 16.0;
        if table == LogTable::Log {
            return;
        }
        self.entries += rows.len();
        self.matches.extend(rows.iter().map(|row| row.match_id));
        if let Some(mirror) = &mut self.mirror {
            for row in rows {
                mirror.push(row);
            }
            if doubtful || mirror.bytes > MIRROR_BYTES {
                self.mirror = None;
            }
        }
    }

    /// Whether the tail has grown enough to fold, `waiting` telling whether any append
    /// is waiting.
    pub(crate) fn due(&self, waiting: bool) -> bool {
        let cap = FOLD_AT.max(FOLD_PER_MATCH * self.matches.len());
        self.entries >= cap
            || (self.loaded_below(IDLE_COMMIT, waiting) && self.entries >= FOLD_WHEN_IDLE_AT)
    }

    /// Whether no append waits (`waiting` is false) and the writer's recent commits
    /// held fewer than `entries` entries on average.
    fn loaded_below(&self, entries: usize, waiting: bool) -> bool {
        !waiting && self.recent_batch < entries as f64
    }

    /// The tail was folded: count afresh, keeping what the recent commits were like.
    fn emptied(&mut self) {
        self.entries = 0;
        self.matches.clear();
        self.mirror = Some(Mirror::default());
    }

    /// Fold the whole tail into `match_log`, in one transaction, counted in `commits`.
    /// On failure the tail stays as it is (readers see its entries all the same) and
    /// the next commit tries again.
    pub(crate) async fn fold(&mut self, pool: &AnyPool, commits: &LogCommits) {
        let started = std::time::Instant::now();
        // Whatever happens, the copy is spent: after a failure the tail is read.
        let folded = match self.mirror.take() {
            Some(mirror) => match fold_mirrored(pool, &mirror).await {
                Ok(Some(moved)) => Ok(moved),
                Ok(None) => {
                    tracing::warn!(
                        entries = mirror.entries,
                        "the log writer's copy of the tail did not match it; reading it"
                    );
                    fold(pool).await
                }
                Err(error) => Err(error),
            },
            None => fold(pool).await,
        };
        commits.record_fold(folded.as_ref().map_or(0, |&rows| rows), started.elapsed());
        match folded {
            Ok(_) => self.emptied(),
            Err(error) => {
                tracing::warn!(%error, "the log tail could not be folded; retrying later")
            }
        }
    }
}

/// Fold the tail from the writer's copy of it: insert its chunks and empty the tail, in
/// one transaction. `None`, with the transaction undone, if the tail held other than
/// the copy's entries.
async fn fold_mirrored(pool: &AnyPool, mirror: &Mirror) -> Result<Option<u64>, sqlx::Error> {
    /// Chunks a statement inserts at most (four parameters each; SQLite allows 32,766).
    const CHUNKS_PER_STATEMENT: usize = 1024;
    let mut tx = pool.begin().await?;
    for chunks in mirror.chunks().chunks(CHUNKS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO match_log_chunk (match_id, first_idx, entries, log) VALUES {}
             ON CONFLICT DO NOTHING",
            vec!["(?, ?, ?, ?)"; chunks.len()].join(", ")
        );
        // Its size follows the matches in the tail: not worth a place in the
        // connection's cache of prepared statements, which the commits use.
        let mut query = sqlx::query(&sql).persistent(false);
        for &(match_id, run) in chunks {
            query = query
                .bind(match_id)
                .bind(run.first_idx)
                .bind(run.entries)
                .bind(run.log.as_str());
        }
        query.execute(&mut *tx).await?;
    }
    let moved = sqlx::query("DELETE FROM match_log_tail")
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if moved != mirror.entries {
        tx.rollback().await?;
        return Ok(None);
    }
    tx.commit().await?;
    Ok(Some(moved))
}

/// Fold a tail the writer has no copy of (see [`Mirror`]), reading it: move every tail
/// entry out of the tail in one transaction, each match's entries, if
/// they run without a gap, as one row of `match_log_chunk`; otherwise (some of its
/// entries in between went to `match_log` by light commits) one row an entry into
/// `match_log`, sorted by match so each match's page is written once. A row a match
/// instead of a row an entry: inserting a hundred matches' entries into the keyed
/// `match_log`, each match's rows splitting its own pages, was most of a fold's time,
/// and every append waits while a fold runs. SQLite has one writer: from the first
/// `INSERT` on, this transaction holds the write lock, so the `DELETE` removes exactly
/// the rows copied. `DO NOTHING` on a key already present: only a second process
/// writing the same file could cause one, and the entries kept are those folded first.
/// Returns how many entries were moved.
async fn fold(pool: &AnyPool) -> Result<u64, sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query(
        "INSERT INTO match_log_chunk (match_id, first_idx, entries, log)
         SELECT match_id, MIN(idx), COUNT(*), group_concat(entry, char(10) ORDER BY idx)
         FROM match_log_tail GROUP BY match_id
         HAVING MAX(idx) - MIN(idx) + 1 = COUNT(*)
         ON CONFLICT DO NOTHING",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO match_log (match_id, idx, entry)
         SELECT match_id, idx, entry FROM match_log_tail
         WHERE match_id IN (SELECT match_id FROM match_log_tail GROUP BY match_id
                            HAVING MAX(idx) - MIN(idx) + 1 <> COUNT(*))
         ORDER BY match_id, idx
         ON CONFLICT DO NOTHING",
    )
    .execute(&mut *tx)
    .await?;
    let moved = sqlx::query("DELETE FROM match_log_tail")
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(moved)
}

/// The statement giving match `$1`'s stored log length, all three tables counted.
pub(crate) const LOG_LENGTH_SQL: &str =
    "SELECT (SELECT COUNT(*) FROM match_log WHERE match_id = $1)
      + (SELECT COUNT(*) FROM match_log_tail WHERE match_id = $1)
      + (SELECT CAST(COALESCE(SUM(entries), 0) AS BIGINT) FROM match_log_chunk
         WHERE match_id = $1)";

/// The statement giving the index match `$1`'s next entry must have.
pub(crate) const NEXT_INDEX_SQL: &str = "SELECT COALESCE(MAX(idx) + 1, 0) FROM (
        SELECT idx FROM match_log WHERE match_id = $1
        UNION ALL SELECT idx FROM match_log_tail WHERE match_id = $1
        UNION ALL SELECT first_idx + entries - 1 FROM match_log_chunk
            WHERE match_id = $1) AS stored";

/// Split a `match_log_chunk` row's `log` into its entries' JSON texts, with their
/// indices: `None` unless it holds exactly `entries` of them.
pub(crate) fn chunk_entries(
    first_idx: i64,
    entries: i64,
    log: &str,
) -> Option<impl Iterator<Item = (i64, &str)>> {
    let count = i64::try_from(log.split('\n').count()).ok()?;
    (count == entries).then(|| (first_idx..).zip(log.split('\n')))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of the given matches, as a commit stores them.
    fn rows(matches: &[MatchId]) -> Vec<StoredRow> {
        matches
            .iter()
            .map(|&match_id| StoredRow {
                match_id,
                idx: 0,
                entry: "{}".into(),
            })
            .collect()
    }

    #[test]
    fn a_fold_is_due_once_the_tail_holds_enough_entries() {
        let mut light = Folds::default();
        for i in 0..FOLD_WHEN_IDLE_AT - 1 {
            light.appended(rows(&[i as MatchId]), LogTable::Tail, false);
        }
        assert!(!light.due(false));
        light.appended(rows(&[0]), LogTable::Tail, false);
        assert!(light.due(false), "a lightly loaded writer folds early");
        assert!(!light.due(true), "not while an append waits");

        // Commits of 16 entries from 16 matches.
        let sixteen: Vec<MatchId> = (0..16).collect();
        let mut busy = Folds::default();
        for _ in 0..FOLD_AT / 16 - 1 {
            busy.appended(rows(&sixteen), LogTable::Tail, false);
        }
        busy.appended(rows(&sixteen[..15]), LogTable::Tail, false);
        assert!(!busy.due(false), "large commits wait for the cap");
        busy.appended(rows(&sixteen[..1]), LogTable::Tail, false);
        assert!(busy.due(true), "and fold there");
        busy.emptied();
        for _ in 0..FOLD_WHEN_IDLE_AT / 16 + 1 {
            busy.appended(rows(&sixteen), LogTable::Tail, false);
        }
        assert!(!busy.due(false), "after a fold, still busy: no early fold");

        // Commits of three entries: not idle, though light enough for `match_log`
        // when nothing waits.
        let mut middling = Folds::default();
        for i in 0..FOLD_WHEN_IDLE_AT as MatchId {
            middling.appended(rows(&[3 * i, 3 * i + 1, 3 * i + 2]), LogTable::Tail, false);
        }
        assert_eq!(middling.table_for(3, false), LogTable::Log);
        assert!(
            !middling.due(false),
            "commits of three fold at the cap, not early"
        );

        // Commits of 100 entries from 1,000 matches: the cap is 16 entries a match.
        let mut many = Folds::default();
        for round in 0..FOLD_PER_MATCH * 10 - 1 {
            let first = (round % 10) as MatchId * 100;
            many.appended(
                rows(&(first..first + 100).collect::<Vec<_>>()),
                LogTable::Tail,
                false,
            );
        }
        assert!(!many.due(true), "many matches wait for more entries each");
        many.appended(
            rows(&(900..1000).collect::<Vec<_>>()),
            LogTable::Tail,
            false,
        );
        assert!(many.due(true));
    }

    #[test]
    fn light_commits_go_to_match_log_and_leave_nothing_to_fold() {
        let mut folds = Folds::default();
        assert_eq!(folds.table_for(1, false), LogTable::Log);
        assert_eq!(folds.table_for(LIGHT_COMMIT, false), LogTable::Log);
        assert_eq!(folds.table_for(1, true), LogTable::Tail, "appends wait");
        assert_eq!(folds.table_for(LIGHT_COMMIT + 1, false), LogTable::Tail);
        for i in 0..10 * FOLD_WHEN_IDLE_AT {
            folds.appended(rows(&[i as MatchId]), LogTable::Log, false);
        }
        assert!(!folds.due(false), "entries in match_log are not folded");

        // After a run of large commits, even a small one goes to the tail until the
        // commits have stayed small for a while.
        let hundred: Vec<MatchId> = (0..100).collect();
        for _ in 0..8 {
            folds.appended(rows(&hundred), LogTable::Tail, false);
        }
        assert_eq!(folds.table_for(1, false), LogTable::Tail);
        let mut small_commits = 0;
        while folds.table_for(1, false) == LogTable::Tail {
            folds.appended(rows(&[0]), LogTable::Tail, false);
            small_commits += 1;
        }
        assert!((16..200).contains(&small_commits), "{small_commits}");
    }

    #[test]
    fn the_mirror_joins_each_matchs_consecutive_entries_into_chunks() {
        let mut mirror = Mirror::default();
        for (match_id, idx, entry) in [(9, 4, "a"), (2, 0, "b"), (9, 5, "c"), (9, 7, "d")] {
            mirror.push(StoredRow {
                match_id,
                idx,
                entry: entry.into(),
            });
        }
        let chunks: Vec<_> = mirror
            .chunks()
            .into_iter()
            .map(|(match_id, run)| (match_id, run.first_idx, run.entries, run.log.as_str()))
            .collect();
        assert_eq!(
            chunks,
            [(2, 0, 1, "b"), (9, 4, 2, "a\nc"), (9, 7, 1, "d")],
            "entry 6 went elsewhere: a chunk ends before it"
        );
        assert_eq!(mirror.entries, 4);
        for (match_id, run) in mirror.chunks() {
            let split: Vec<_> = chunk_entries(run.first_idx, run.entries, &run.log)
                .expect("as many as it says")
                .collect();
            assert_eq!(split.len() as i64, run.entries, "match {match_id}");
        }
    }

    #[test]
    fn a_doubtful_commit_or_a_fold_ends_the_copy_until_the_tail_is_emptied() {
        let mut folds = Folds::default();
        folds.appended(rows(&[1]), LogTable::Tail, false);
        assert!(
            folds.mirror.is_none(),
            "a tail an earlier process may have left"
        );
        folds.emptied();
        folds.appended(rows(&[1, 2]), LogTable::Tail, false);
        assert_eq!(folds.mirror.as_ref().map(|m| m.entries), Some(2));
        folds.appended(rows(&[3]), LogTable::Log, true);
        assert!(
            folds.mirror.is_some(),
            "match_log's rows are not the tail's"
        );
        folds.appended(rows(&[3]), LogTable::Tail, true);
        assert!(
            folds.mirror.is_none(),
            "a row of the tail may or may not be in"
        );
    }

    #[test]
    fn a_chunk_splits_into_its_entries_or_is_refused() {
        let entries: Vec<_> = chunk_entries(7, 3, "{\"a\":1}\n{}\n{\"b\":\"x\\ny\"}")
            .expect("three entries")
            .collect();
        assert_eq!(
            entries,
            [(7, "{\"a\":1}"), (8, "{}"), (9, "{\"b\":\"x\\ny\"}")],
            "an escaped newline inside a string is no separator"
        );
        assert!(
            chunk_entries(7, 2, "{}\n{}\n{}").is_none(),
            "more than it says"
        );
        assert!(
            chunk_entries(7, 4, "{}\n{}\n{}").is_none(),
            "fewer than it says"
        );
    }

    #[test]
    fn next_indices_follow_commits_and_forget_ended_matches() {
        let next = NextIndices::default();
        assert_eq!(next.expected(7), None);
        next.started(7);
        assert_eq!(next.expected(7), Some(0));
        next.committed(7, 0);
        assert_eq!(next.expected(7), Some(1));
        next.forget(7);
        assert_eq!(next.expected(7), None);
    }

    #[test]
    fn only_a_busy_writer_lingers_and_not_once_a_commit_is_full() {
        let mut folds = Folds::default();
        assert!(!folds.lingers(1), "a writer that has not committed yet");
        // A paced server: commits of one or two entries.
        for i in 0..64 {
            folds.appended(
                rows(&[i, i + 1][..1 + (i as usize % 2)]),
                LogTable::Log,
                false,
            );
        }
        assert!(!folds.lingers(2), "a lightly loaded writer commits at once");
        // A busy one: commits of eight.
        let eight: Vec<MatchId> = (0..8).collect();
        for _ in 0..64 {
            folds.appended(rows(&eight), LogTable::Tail, false);
        }
        assert!(folds.lingers(1));
        assert!(folds.lingers(LINGER_UNTIL - 1));
        assert!(!folds.lingers(LINGER_UNTIL), "enough company already");
    }
}
