//! Group commit for log appends: one background task owns the log writes, takes every
//! entry queued while its previous write ran, and commits them as one statement.
//!
//! Why: every running match appends one entry per move and waits for it before the
//! move is announced. One commit per entry caps a server at a few thousand moves a
//! second (SQLite has one writer, and every commit has a fixed cost: locking and
//! writing the WAL, a round trip to PostgreSQL), and makes each move wait behind
//! everyone else's commits. A commit holding every waiting entry costs little more
//! than one holding a single entry.
//!
//! How: callers queue their row with a oneshot for the answer (`Store::queue_log`
//! returns once it is queued, so a match may queue its next entry before the last is
//! committed) and wait for it. The task waits
//! for the first row, takes whatever else is queued (up to [`MAX_BATCH`]) and writes
//! them all in one `INSERT … SELECT`, a single statement and so a single commit, then
//! answers each caller. Nothing waits on a timer: a lone entry is written
//! at once, and batches grow only because entries arrive while a write runs. An answer
//! is sent only once the statement has returned, that is committed with the pool's
//! usual synchronous settings, so `append_log` returning `Ok` means what it always did.
//!
//! Each row carries the guards a single append has in the statement's `WHERE` (the
//! match is running here; on PostgreSQL also that the index is the next one, which
//! SQLite checks in memory before the statement, see `log_tail`, because its rows go to
//! an arrival-order tail), so a refused row is simply not
//! inserted and never aborts the statement (PostgreSQL would abort the whole
//! transaction on any error). On PostgreSQL a batch holds at most one row per match
//! (later ones wait for the next batch), since a row's guard cannot see rows inserted
//! by the same statement; SQLite's in-memory guard follows a match's rows through a
//! batch, so it takes them all. Should the statement fail anyway (a unique violation
//! from another server writing the same match, a database fault), its rows are written
//! again one by one, so one bad row fails only itself and its match's later rows
//! (which would leave a gap).
//!
//! The task ends when every handle is dropped (the queue closes) or the log pool is
//! closed by `Store::close`; callers still queued then get `PoolClosed`.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use sqlx::{AnyPool, Row as _};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::log_commits::LogCommits;
use super::log_tail::{Folds, LogTable, NextIndices, StoredRow, LINGER, NEXT_INDEX_SQL};
use super::MatchId;
use crate::connect::Backend;
use crate::error::is_unique_violation;

/// Most rows in one statement: bounds the statement's size and its parameters
/// (3 each; SQLite allows 32 766) and the time one commit holds the writer.
const MAX_BATCH: usize = 512;
/// Statements PostgreSQL's log writer has running at once, each on a connection of its
/// own (see `run_postgres`); SQLite has one writer.
pub(crate) const POSTGRES_WRITES_AT_ONCE: usize = 2;
/// Appends that may wait for the task; further callers wait to queue, so memory stays
/// bounded however many matches run.
const QUEUE: usize = 2 * MAX_BATCH;

/// A log row to insert, already checked and serialized by the caller.
#[derive(Debug)]
pub(crate) struct LogRow {
    pub match_id: MatchId,
    pub idx: i64,
    pub entry: String,
    /// The node writing it: only the node that runs the match may.
    pub node: std::sync::Arc<str>,
}

/// One caller's row and where its answer goes: `Ok(true)` committed, `Ok(false)`
/// refused by its guards (the caller finds out why).
#[derive(Debug)]
struct Append {
    row: LogRow,
    answer: oneshot::Sender<Result<bool, sqlx::Error>>,
}

/// The handle callers queue rows on. Cheap to clone; the task ends with the last one.
#[derive(Debug, Clone)]
pub(crate) struct LogBatcher {
    queue: mpsc::Sender<Append>,
    /// What the task has written so far.
    commits: Arc<LogCommits>,
    /// SQLite only: the next index of each running match's log (see `log_tail`).
    next: Option<NextIndices>,
}

impl LogBatcher {
    /// Start the task writing to `pool`, on a thread of its own (see below); the call
    /// must be made in a Tokio runtime. The task ends by itself; the handle (a task of
    /// the caller's runtime that ends with it) is for tests. `checkpoints`: for SQLite,
    /// a pool other than the writer's on which the WAL is checkpointed now and then
    /// (see [`Checkpoints`]).
    ///
    /// Why a thread: the task is the one stage every move of every match passes one at
    /// a time, so each moment it waits to be polled, every match waits. On the server's
    /// runtime, the database's answer woke it into the queue behind every session and
    /// match task made ready meanwhile (thousands, at a thousand matches). On a
    /// runtime of its own it runs as soon as the answer comes: at 1,000 matches 19%
    /// more moves a second, at 100 (where the cores, not the writer, are then the
    /// limit) about 2% fewer for the extra thread switches (docs/benchmarks.md).
    pub(crate) fn start(
        pool: AnyPool,
        backend: Backend,
        checkpoints: Option<AnyPool>,
    ) -> (LogBatcher, JoinHandle<()>) {
        let (queue, rows) = mpsc::channel(QUEUE);
        let checkpoints = checkpoints.map(Checkpoints::new);
        let commits = Arc::new(LogCommits::default());
        let next = (backend == Backend::Sqlite).then(NextIndices::default);
        let thread = own_thread();
        // A linger blocks the thread it runs on: only the writer's own may.
        let may_linger = thread.is_ok();
        let work: Work = Box::pin(run(
            pool,
            backend,
            rows,
            checkpoints,
            commits.clone(),
            next.clone(),
            may_linger,
        ));
        let task = match thread {
            Ok((hand, ended)) => match hand.send(work) {
                Ok(()) => tokio::spawn(async move {
                    let _ = ended.await;
                }),
                Err(std::sync::mpsc::SendError(work)) => tokio::spawn(work),
            },
            // No thread to be had (the process is at its limit): the caller's runtime
            // runs the task instead.
            Err(error) => {
                tracing::warn!(%error, "no thread for the log writer; it shares the runtime");
                tokio::spawn(work)
            }
        };
        (
            LogBatcher {
                queue,
                commits,
                next,
            },
            task,
        )
    }

    /// A match was created: its log starts at entry 0.
    pub(crate) fn match_started(&self, match_id: MatchId) {
        if let Some(next) = &self.next {
            next.started(match_id);
        }
    }

    /// A match ended: no more entries will come.
    pub(crate) fn match_ended(&self, match_id: MatchId) {
        if let Some(next) = &self.next {
            next.forget(match_id);
        }
    }

    /// The totals of the task's commits, kept up as it writes.
    pub(crate) fn commits(&self) -> Arc<LogCommits> {
        self.commits.clone()
    }

    /// Queue `row`; the answer says once it is committed (`true`) or refused by its
    /// guards (`false`). Once queued, the row is written even if the answer is dropped.
    /// Rows one caller queues are written in the order queued.
    pub(crate) async fn queue(&self, row: LogRow) -> Result<Answer, sqlx::Error> {
        let (answer, answered) = oneshot::channel();
        self.queue
            .send(Append { row, answer })
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        Ok(Answer(answered))
    }
}

/// The answer to one queued row (see [`LogBatcher::queue`]).
#[derive(Debug)]
pub(crate) struct Answer(oneshot::Receiver<Result<bool, sqlx::Error>>);

impl Answer {
    /// Wait until the row is committed (`true`) or refused by its guards (`false`).
    pub(crate) async fn committed(self) -> Result<bool, sqlx::Error> {
        self.0.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// The group-commit loop, boxed to be handed to its thread.
type Work = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// A thread named `arbiter-log` with a one-thread runtime, waiting for the loop to run:
/// where to hand it, and what resolves when it has ended.
fn own_thread() -> std::io::Result<(std::sync::mpsc::SyncSender<Work>, oneshot::Receiver<()>)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (hand, handed) = std::sync::mpsc::sync_channel::<Work>(1);
    let (ended, end) = oneshot::channel();
    std::thread::Builder::new()
        .name("arbiter-log".into())
        .spawn(move || {
            if let Ok(work) = handed.recv() {
                runtime.block_on(work);
            }
            let _ = ended.send(());
        })?;
    Ok((hand, end))
}

/// The group-commit loop: wait for work, take all that is queued, write, answer.
/// PostgreSQL's runs in [`run_postgres`].
async fn run(
    pool: AnyPool,
    backend: Backend,
    mut queue: mpsc::Receiver<Append>,
    mut checkpoints: Option<Checkpoints>,
    commits: Arc<LogCommits>,
    next: Option<NextIndices>,
    may_linger: bool,
) {
    if backend == Backend::Postgres {
        return run_postgres(pool, queue, commits).await;
    }
    let closed = pool.close_event();
    // SQLite's log goes through its tail (see `log_tail`): the next indices kept in
    // memory, and the folds, the first of them for whatever an earlier process left.
    let mut tail = next.map(|next| (next, Folds::default()));
    if let Some((_, folds)) = &mut tail {
        folds.fold(&pool, &commits).await;
    }
    tokio::pin!(closed);
    // Rows taken from the queue and not yet written: at most `MAX_BATCH` plus those a
    // batch put back.
    let mut waiting = Vec::with_capacity(MAX_BATCH);
    loop {
        if waiting.is_empty() {
            tokio::select! {
                biased;
                () = &mut closed => return,
                taken = queue.recv_many(&mut waiting, MAX_BATCH) => {
                    if taken == 0 {
                        return;
                    }
                }
            }
        }
        take_queued(&mut queue, &mut waiting);
        if let Some((_, folds)) = &tail {
            if may_linger && folds.lingers(waiting.len()) {
                // A busy writer waits a moment for more entries to share the commit
                // (see `LINGER`). A blocking sleep: Tokio's timers count whole
                // milliseconds, and this thread runs nothing else that must not wait.
                std::thread::sleep(LINGER);
                take_queued(&mut queue, &mut waiting);
            }
        }
        let mut batch = next_batch(&mut waiting, backend, &HashSet::new());
        let next = tail.as_ref().map(|(next, _)| next);
        let mut out_of_order = Vec::new();
        if let Some(next) = next {
            (batch, out_of_order) = in_order(&pool, next, batch).await;
        }
        // PostgreSQL writes to `match_log` always, SQLite to its tail unless the
        // commit is light (see `Folds::table_for`).
        let more = !waiting.is_empty() || !queue.is_empty();
        let table = tail.as_ref().map_or(LogTable::Log, |(_, folds)| {
            folds.table_for(batch.len(), more)
        });
        let (stored, doubtful) = write(&pool, backend, table, batch, &commits, next).await;
        // Only now, with the batch committed: a refused caller asks the database what
        // its match's next index is, and must see the earlier rows of its match that
        // were in this batch (answered at once, one of them read "expected 0" while
        // entry 0 was still on its way; CI saw it).
        for append in out_of_order {
            let _ = append.answer.send(Ok(false));
        }
        if let Some((_, folds)) = &mut tail {
            folds.appended(stored, table, doubtful);
            if folds.due(!waiting.is_empty() || !queue.is_empty()) {
                folds.fold(&pool, &commits).await;
            }
        }
        if let Some(checkpoints) = &mut checkpoints {
            checkpoints.after_commit();
            checkpoints.restart_if_due(&pool).await;
        }
    }
}

/// PostgreSQL's group-commit loop: like [`run`], but with up to
/// [`POSTGRES_WRITES_AT_ONCE`] batches written at once, each on a connection of its
/// own, and a batch started as soon as a connection is free.
///
/// Why: one statement at a time kept the writer busy 97% of a saturated run while a
/// third of the machine was idle. A statement's time is mostly PostgreSQL's work on
/// its rows (the guards' lookups, the foreign key's check) and a round trip, and
/// PostgreSQL runs two statements on two of its processes side by side.
///
/// Order: a match's row waits while a row of the same match is in a statement not
/// yet answered (`next_batch`'s `in_flight`), since its next-index guard cannot see
/// that row before it commits. Rows of different matches need no order.
async fn run_postgres(pool: AnyPool, mut queue: mpsc::Receiver<Append>, commits: Arc<LogCommits>) {
    let closed = pool.close_event();
    tokio::pin!(closed);
    let mut waiting = Vec::with_capacity(MAX_BATCH);
    let mut writing = tokio::task::JoinSet::new();
    // The matches each running write holds (found again by the write's task id, even
    // should the write panic).
    let mut held: HashMap<tokio::task::Id, Vec<MatchId>> = HashMap::new();
    let mut queue_open = true;
    loop {
        take_queued(&mut queue, &mut waiting);
        while writing.len() < POSTGRES_WRITES_AT_ONCE {
            let in_flight: HashSet<MatchId> = held.values().flatten().copied().collect();
            let batch = next_batch(&mut waiting, Backend::Postgres, &in_flight);
            if batch.is_empty() {
                break;
            }
            let matches: Vec<MatchId> = batch.iter().map(|append| append.row.match_id).collect();
            let (pool, commits) = (pool.clone(), commits.clone());
            let write = writing.spawn(async move {
                write(
                    &pool,
                    Backend::Postgres,
                    LogTable::Log,
                    batch,
                    &commits,
                    None,
                )
                .await;
            });
            held.insert(write.id(), matches);
        }
        if !queue_open && writing.is_empty() {
            // Nothing more can come, and nothing waiting can be written: a row waits
            // only behind a write of its match.
            return;
        }
        let may_take = queue_open && writing.len() < POSTGRES_WRITES_AT_ONCE;
        tokio::select! {
            biased;
            () = &mut closed => {
                // Writes already running end with their answers; rows still waiting
                // are dropped, and their callers learn the pool closed.
                while writing.join_next().await.is_some() {}
                return;
            }
            Some(done) = writing.join_next_with_id() => {
                let id = match done {
                    Ok((id, ())) => id,
                    Err(error) => error.id(),
                };
                held.remove(&id);
            }
            taken = queue.recv_many(&mut waiting, MAX_BATCH), if may_take => {
                queue_open = taken > 0;
            }
        }
    }
}

/// Move what is queued into `waiting`, up to [`MAX_BATCH`] rows.
fn take_queued(queue: &mut mpsc::Receiver<Append>, waiting: &mut Vec<Append>) {
    while waiting.len() < MAX_BATCH {
        match queue.try_recv() {
            Ok(append) => waiting.push(append),
            Err(_) => break,
        }
    }
}

/// SQLite's WAL is copied back into the database by a checkpoint. Left to SQLite, the
/// commit that fills the WAL past its threshold copies all of it itself, and every
/// match waiting on that commit waits for it too (the store's slowest commits, a few
/// milliseconds each, were these). So after every [`Checkpoints::EVERY`] log commits a
/// passive checkpoint runs on a reader connection, beside the writer (passive never
/// blocks a writer; it copies what it can), and the writer's own checkpoint at the
/// threshold (`connect.rs`) finds little left to copy before it restarts the WAL.
///
/// That restart is not certain: the writer restarts the WAL only when it begins a
/// transaction with every frame copied and no checkpoint copying, and a side
/// checkpoint slowed by a busy disk can be copying nearly all the time. Once, in CI,
/// the WAL so grew to 29 MB over 4,000 commits. So when a side checkpoint finds the
/// WAL past [`Checkpoints::RESTART_AT`] frames, the writer itself checkpoints with
/// `RESTART` once that side checkpoint has ended: it waits for the readers, and the
/// next commit starts the WAL again from its beginning. Not while a side checkpoint
/// runs: SQLite lets one connection checkpoint at a time, and a second one's `RESTART`
/// fails at once without waiting for it (SQLite's source says so; it reports itself
/// "busy"), so a restart asked for during a side checkpoint's last pass was lost.
///
/// What no checkpoint bounds is the WAL's size between two restarts on a slow disk:
/// while a checkpoint's `fsync` waits, nothing can be copied back, and commits (which
/// do not `fsync` with `synchronous = NORMAL`) go on adding to the WAL. With a build
/// writing beside the tests, the WAL grew to 14–25 MB over a thousand or more commits
/// between restarts that came as they should (`docs/benchmarks.md`).
struct Checkpoints {
    pool: AnyPool,
    commits: u32,
    running: Arc<AtomicBool>,
    /// Set by a side checkpoint that found the WAL past `RESTART_AT` frames.
    restart_due: Arc<AtomicBool>,
}

impl Checkpoints {
    const EVERY: u32 = 32;
    /// Passes of one checkpoint at most (see `after_commit`).
    const PASSES: usize = 8;
    /// Twice the writer's own threshold (`wal_autocheckpoint`, `connect.rs`): about
    /// 8 MB of WAL.
    const RESTART_AT: i64 = 2_000;

    fn new(pool: AnyPool) -> Checkpoints {
        Checkpoints {
            pool,
            commits: 0,
            running: Arc::new(AtomicBool::new(false)),
            restart_due: Arc::new(AtomicBool::new(false)),
        }
    }

    /// If a side checkpoint asked for it and has ended, checkpoint on the writer's own
    /// connection (`writer`) with `RESTART` (see [`Checkpoints`]). The writer waits
    /// meanwhile, but this happens only once the WAL has outgrown twice its threshold.
    /// A restart that readers kept from finishing is asked for again by the next side
    /// checkpoint, not retried at once: each try may wait the busy timeout for them.
    async fn restart_if_due(&self, writer: &AnyPool) {
        if self.running.load(Ordering::Acquire) || !self.restart_due.swap(false, Ordering::AcqRel) {
            return;
        }
        let busy = sqlx::query("PRAGMA wal_checkpoint(RESTART)")
            .fetch_all(writer)
            .await
            .map(|rows| rows.first().and_then(|row| row.try_get::<i64, _>(0).ok()));
        match busy {
            Ok(Some(0)) => tracing::debug!("the WAL outgrew its threshold and was restarted"),
            Ok(_) => tracing::debug!(
                "the WAL outgrew its threshold; its readers kept it from restarting"
            ),
            Err(error) => {
                tracing::warn!(%error, "the WAL outgrew its threshold and could not be restarted")
            }
        }
    }

    /// Count a commit; every [`Self::EVERY`] commits start a side checkpoint, unless one
    /// still runs or the writer's restart is due (it copies everything itself).
    fn after_commit(&mut self) {
        self.commits += 1;
        if self.commits < Self::EVERY
            || self.restart_due.load(Ordering::Acquire)
            || self.running.swap(true, Ordering::AcqRel)
        {
            return;
        }
        self.commits = 0;
        let (pool, running) = (self.pool.clone(), self.running.clone());
        let restart_due = self.restart_due.clone();
        tokio::spawn(async move {
            // A pass copies the frames present when it began; the writer restarts the
            // WAL from its start only once every frame is copied. So passes repeat
            // (each copies only what the last one missed) until one catches up.
            for _ in 0..Self::PASSES {
                // `fetch_all` runs the statement to its end: a statement left open
                // would hold a read lock on the WAL and stop the writer restarting it.
                match sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                    .fetch_all(&pool)
                    .await
                    .map(|rows| rows.into_iter().next())
                {
                    Ok(Some(row)) => {
                        let (busy, frames, copied): (i64, i64, i64) =
                            match (row.try_get(0), row.try_get(1), row.try_get(2)) {
                                (Ok(busy), Ok(frames), Ok(copied)) => (busy, frames, copied),
                                _ => break,
                            };
                        if frames >= Self::RESTART_AT {
                            // The writer's restart copies the rest.
                            restart_due.store(true, Ordering::Release);
                            break;
                        }
                        if busy != 0 || copied >= frames {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(error) => {
                        tracing::debug!(%error, "WAL checkpoint not made");
                        break;
                    }
                }
            }
            running.store(false, Ordering::Release);
        });
    }
}

/// Take up to `MAX_BATCH` rows in their order, leaving the rest in `waiting`. On
/// PostgreSQL only the oldest row of each match: its statement's guard that a row's
/// index is the next one cannot see rows the same statement inserts. SQLite's guard is
/// in memory (see `in_order`) and follows a match's rows through the batch, so a match
/// whose moves came quickly (both seats of a sealed round) has them all committed at
/// once.
///
/// `in_flight`: matches with a row in a statement not yet answered (PostgreSQL writes
/// several at once, see `run_postgres`); their rows wait, since the next-index guard
/// cannot see a row until its statement commits.
fn next_batch(
    waiting: &mut Vec<Append>,
    backend: Backend,
    in_flight: &HashSet<MatchId>,
) -> Vec<Append> {
    let several_per_match = backend == Backend::Sqlite;
    let mut matches = HashSet::new();
    let mut batch = Vec::new();
    for append in std::mem::take(waiting) {
        let match_id = append.row.match_id;
        let first_of_match = matches.insert(match_id) && !in_flight.contains(&match_id);
        if batch.len() < MAX_BATCH && (first_of_match || several_per_match) {
            batch.push(append);
        } else {
            waiting.push(append);
        }
    }
    batch
}

/// SQLite's guard that each row's index is the next one (see `log_tail`): splits the
/// batch into the rows that pass and those out of order, which the caller answers
/// "refused" once the passing rows are committed. A match the map does not know has its
/// length read from the database first. A match's later rows in the batch must follow
/// its earlier ones that passed.
async fn in_order(
    pool: &AnyPool,
    next: &NextIndices,
    batch: Vec<Append>,
) -> (Vec<Append>, Vec<Append>) {
    let mut passed = Vec::with_capacity(batch.len());
    let mut out_of_order = Vec::new();
    let mut in_batch: HashMap<MatchId, i64> = HashMap::new();
    for append in batch {
        let match_id = append.row.match_id;
        let known = in_batch
            .get(&match_id)
            .copied()
            .or_else(|| next.expected(match_id));
        let expected = match known {
            Some(expected) => expected,
            None => match sqlx::query_scalar::<_, i64>(NEXT_INDEX_SQL)
                .bind(match_id)
                .fetch_one(pool)
                .await
            {
                Ok(expected) => {
                    next.committed(match_id, expected - 1);
                    expected
                }
                Err(error) => {
                    let _ = append.answer.send(Err(error));
                    continue;
                }
            },
        };
        if append.row.idx == expected {
            in_batch.insert(match_id, expected + 1);
            passed.push(append);
        } else {
            in_batch.insert(match_id, expected);
            out_of_order.push(append);
        }
    }
    (passed, out_of_order)
}

/// Write `batch` as one statement and answer each caller; if the statement fails,
/// write its rows one by one so each gets its own outcome (a match's row after one of
/// its rows that did not go in is refused: it would leave a gap). Returns the rows
/// committed, and whether some row's outcome is unknown (its statement failed), and
/// keeps `next` (SQLite's in-memory guard) in step.
async fn write(
    pool: &AnyPool,
    backend: Backend,
    table: LogTable,
    batch: Vec<Append>,
    commits: &LogCommits,
    next: Option<&NextIndices>,
) -> (Vec<StoredRow>, bool) {
    let mut stored = Vec::with_capacity(batch.len());
    let mut doubtful = false;
    let mut settle = |append: Append, outcome: Result<bool, sqlx::Error>| {
        let Append { row, answer } = append;
        let (match_id, idx) = (row.match_id, row.idx);
        match (&outcome, next) {
            (Ok(true), Some(next)) => next.committed(match_id, idx),
            // Refused by the statement's guards: the match is not running here. Or
            // failed: whether anything went in is read from the database next time.
            (Ok(false) | Err(_), Some(next)) => next.forget(match_id),
            _ => {}
        }
        match outcome {
            Ok(true) => stored.push(StoredRow {
                match_id,
                idx,
                entry: row.entry,
            }),
            Ok(false) => {}
            Err(_) => doubtful = true,
        }
        // A caller that stopped waiting needs no answer.
        let _ = answer.send(outcome);
    };
    if batch.len() > 1 {
        match insert(pool, backend, table, &batch, commits).await {
            Ok(written) => {
                for append in batch {
                    let committed = written.contains(&(append.row.match_id, append.row.idx));
                    settle(append, Ok(committed));
                }
                return (stored, doubtful);
            }
            Err(error) => tracing::warn!(
                %error,
                rows = batch.len(),
                "a batch of log entries failed; writing them one by one"
            ),
        }
    }
    let mut gaps = HashSet::new();
    for append in batch {
        let match_id = append.row.match_id;
        if gaps.contains(&match_id) {
            settle(append, Ok(false));
            continue;
        }
        let outcome =
            match insert(pool, backend, table, std::slice::from_ref(&append), commits).await {
                Ok(written) => Ok(!written.is_empty()),
                // Another writer took this index between the guard and the insert.
                Err(error) if is_unique_violation(&error) => Ok(false),
                Err(error) => Err(error),
            };
        if !matches!(outcome, Ok(true)) {
            gaps.insert(match_id);
        }
        settle(append, outcome);
    }
    (stored, doubtful)
}

/// A stored row's key: its match and index.
type RowKey = (MatchId, i64);

/// Insert the rows whose guards pass, in one statement; the keys of the rows that went
/// in. The statement is counted in `commits`.
async fn insert(
    pool: &AnyPool,
    backend: Backend,
    table: LogTable,
    batch: &[Append],
    commits: &LogCommits,
) -> Result<HashSet<RowKey>, sqlx::Error> {
    let started = std::time::Instant::now();
    let written = insert_rows(pool, backend, table, batch).await;
    let stored = written.as_ref().map_or(0, HashSet::len);
    commits.record(stored, started.elapsed());
    written
}

async fn insert_rows(
    pool: &AnyPool,
    backend: Backend,
    table: LogTable,
    batch: &[Append],
) -> Result<HashSet<RowKey>, sqlx::Error> {
    let rows = statement_rows(batch.len());
    let sql = insert_sql(rows, backend, table);
    let mut query = sqlx::query(&sql);
    for Append { row, .. } in batch {
        query = query
            .bind(row.match_id)
            .bind(row.idx)
            .bind(row.entry.as_str())
            .bind(&*row.node);
    }
    for _padding in batch.len()..rows {
        query = query
            .bind(None::<MatchId>)
            .bind(None::<i64>)
            .bind(None::<&str>)
            .bind(None::<&str>);
    }
    if backend == Backend::Postgres {
        let written = query.fetch_all(pool).await?;
        return written
            .iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect();
    }
    // SQLite: no `RETURNING`, which SQLx's SQLite thread answers with a message per
    // row (a thread wake-up each); the count of rows tells whether every guard passed,
    // as it nearly always does. Only when some row was refused are the batch's rows
    // looked up, to learn which: this task is the log's only writer, so what it finds
    // there is what the statement put in.
    let inserted = query.execute(pool).await?.rows_affected();
    if inserted == batch.len() as u64 {
        return Ok(batch
            .iter()
            .map(|append| (append.row.match_id, append.row.idx))
            .collect());
    }
    if inserted == 0 {
        return Ok(HashSet::new());
    }
    let pairs = vec!["(?, ?)"; batch.len()].join(", ");
    let sql = format!(
        "SELECT match_id, idx FROM {} WHERE (match_id, idx) IN (VALUES {pairs})",
        table.name()
    );
    let mut query = sqlx::query_as::<_, RowKey>(&sql);
    for Append { row, .. } in batch {
        query = query.bind(row.match_id).bind(row.idx);
    }
    Ok(query.fetch_all(pool).await?.into_iter().collect())
}

/// The rows of the statement that writes a batch of `rows`: `rows` itself up to 16,
/// then the next of eight sizes an octave (18, 20, …, 32, 36, …, 512), the rest padded
/// with rows of NULLs, which no guard lets in. SQLx keeps a connection's last 100
/// prepared statements, and a statement per batch size (up to 512 of them) made it
/// prepare batches of new sizes again and again, parsing hundreds of rows each time
/// (3% of a busy server's CPU at 100 matches). Now there are 56 sizes, and a batch
/// carries at most an eighth of padding.
fn statement_rows(rows: usize) -> usize {
    if rows <= 16 {
        return rows;
    }
    // For `rows` in [2^k, 2^(k+1)), steps of 2^(k-3): eight sizes an octave.
    let octave = usize::BITS - rows.leading_zeros() - 1;
    let step = 1 << (octave - 3);
    rows.div_ceil(step) * step
}

/// The statement for `rows` rows: each inserted only if its match is running on the
/// writing node and (PostgreSQL; SQLite checks it in memory) its index is the next one.
/// The guards are scalar subqueries, which PostgreSQL runs per
/// row on the primary keys; an `EXISTS` may be planned as a join over every running
/// match instead. The match is looked up once a row: its node if it is running, else
/// nothing (two subqueries, one for the status and one for the node, were two lookups).
///
/// The parameters are numbered (`$1`) for PostgreSQL, which takes no other kind, and
/// anonymous (`?`, bound in order) for SQLite: SQLx's SQLite driver asks SQLite for
/// every parameter's name, and SQLite finds a named parameter's name by walking the
/// statement's list of names, so binding a batch of numbered parameters took time
/// growing with the square of its rows (11% of a server's CPU with batches of 500
/// rows, 2,000 parameters, at 1,000 matches). An anonymous parameter has no name to find.
fn insert_sql(rows: usize, backend: Backend, table: LogTable) -> String {
    let values = match backend {
        Backend::Sqlite => vec!["(?, ?, ?, ?)"; rows].join(", "),
        Backend::Postgres => (0..rows)
            .map(|i| {
                format!(
                    "(${}, ${}, ${}, ${})",
                    4 * i + 1,
                    4 * i + 2,
                    4 * i + 3,
                    4 * i + 4
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
    };
    // SQLite checks the index in memory (see `log_tail`).
    let next_index_guard = match backend {
        Backend::Sqlite => "",
        Backend::Postgres => {
            "AND (SELECT COALESCE(MAX(log.idx) + 1, 0) FROM match_log log
                WHERE log.match_id = batch.match_id) = batch.idx"
        }
    };
    let table = table.name();
    // PostgreSQL returns the rows it inserted; SQLite's are counted (see `insert_rows`).
    let returning = match backend {
        Backend::Sqlite => "",
        Backend::Postgres => "RETURNING match_id, idx",
    };
    format!(
        "WITH batch (match_id, idx, entry, node) AS (VALUES {values})
         INSERT INTO {table} (match_id, idx, entry)
         SELECT match_id, idx, entry FROM batch
         WHERE (SELECT node FROM matches
                WHERE matches.id = batch.match_id AND matches.status = 'running') = batch.node
           {next_index_guard}
         {returning}"
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::connect::Store;

    fn append(match_id: MatchId, idx: i64) -> Append {
        let (answer, _) = oneshot::channel();
        Append {
            row: LogRow {
                match_id,
                idx,
                entry: String::new(),
                node: "local".into(),
            },
            answer,
        }
    }

    fn rows(appends: &[Append]) -> Vec<(MatchId, i64)> {
        appends
            .iter()
            .map(|a| (a.row.match_id, a.row.idx))
            .collect()
    }

    /// The next batch while no statement is running.
    fn no_flight(waiting: &mut Vec<Append>, backend: Backend) -> Vec<Append> {
        next_batch(waiting, backend, &HashSet::new())
    }

    fn waiting() -> Vec<Append> {
        vec![
            append(1, 0),
            append(2, 0),
            append(1, 1),
            append(1, 2),
            append(3, 4),
        ]
    }

    #[test]
    fn a_postgres_batch_takes_one_row_per_match_and_keeps_the_rest_in_order() {
        let mut waiting = waiting();
        let batch = no_flight(&mut waiting, Backend::Postgres);
        assert_eq!(rows(&batch), [(1, 0), (2, 0), (3, 4)]);
        assert_eq!(rows(&waiting), [(1, 1), (1, 2)]);
        assert_eq!(rows(&no_flight(&mut waiting, Backend::Postgres)), [(1, 1)]);
        assert_eq!(rows(&no_flight(&mut waiting, Backend::Postgres)), [(1, 2)]);
        assert!(waiting.is_empty());
    }

    #[test]
    fn a_postgres_batch_leaves_the_rows_of_matches_in_flight_waiting_in_order() {
        let mut waiting = waiting();
        let in_flight = HashSet::from_iter([1]);
        let batch = next_batch(&mut waiting, Backend::Postgres, &in_flight);
        assert_eq!(rows(&batch), [(2, 0), (3, 4)]);
        assert_eq!(rows(&waiting), [(1, 0), (1, 1), (1, 2)]);
        assert!(next_batch(&mut waiting, Backend::Postgres, &in_flight).is_empty());
        assert_eq!(rows(&waiting), [(1, 0), (1, 1), (1, 2)]);
    }

    #[test]
    fn a_sqlite_batch_takes_every_row_in_order() {
        let mut waiting = waiting();
        let batch = no_flight(&mut waiting, Backend::Sqlite);
        assert_eq!(rows(&batch), rows(&self::waiting()));
        assert!(waiting.is_empty());
    }

    #[test]
    fn batches_are_written_by_few_statements_with_little_padding() {
        let sizes: HashSet<usize> = (1..=MAX_BATCH).map(statement_rows).collect();
        assert_eq!(sizes.len(), 56);
        for rows in 1..=MAX_BATCH {
            let padded = statement_rows(rows);
            assert!(padded >= rows && padded <= MAX_BATCH, "{rows} -> {padded}");
            assert!(
                8 * (padded - rows) <= rows,
                "{rows} -> {padded}: over an eighth"
            );
            assert!(statement_rows(rows + 1) >= padded, "monotone at {rows}");
        }
        assert_eq!(
            [16, 17, 18, 19, 33, 100, 500].map(statement_rows),
            [16, 18, 18, 20, 36, 104, 512]
        );
    }

    #[test]
    fn a_batch_holds_at_most_max_batch_rows() {
        let full = MAX_BATCH as MatchId;
        for backend in [Backend::Sqlite, Backend::Postgres] {
            let mut waiting: Vec<_> = (0..full + 2).map(|m| append(m, 0)).collect();
            assert_eq!(no_flight(&mut waiting, backend).len(), MAX_BATCH);
            assert_eq!(rows(&waiting), [(full, 0), (full + 1, 0)]);
        }
    }

    #[test]
    fn the_statement_has_four_parameters_a_row_numbered_for_postgres_only() {
        let sql = insert_sql(2, Backend::Postgres, LogTable::Log);
        assert!(
            sql.contains("VALUES ($1, $2, $3, $4), ($5, $6, $7, $8))"),
            "{sql}"
        );
        for table in [LogTable::Tail, LogTable::Log] {
            let sql = insert_sql(2, Backend::Sqlite, table);
            assert!(sql.contains("VALUES (?, ?, ?, ?), (?, ?, ?, ?))"), "{sql}");
            assert!(!sql.contains('$'), "{sql}");
            assert!(
                sql.contains(&format!("INSERT INTO {} ", table.name())),
                "{sql}"
            );
        }
    }

    /// Waits for a task that must end; a bound turns a hang into a failure.
    async fn ends(task: JoinHandle<()>) {
        tokio::time::timeout(Duration::from_secs(30), task)
            .await
            .expect("the batcher ends")
            .expect("the batcher does not panic");
    }

    #[tokio::test]
    async fn the_task_ends_when_every_handle_is_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open_data_dir(dir.path()).await.expect("open");
        let (batcher, task) = LogBatcher::start(store.log.clone(), store.backend(), None);
        let copy = batcher.clone();
        drop(batcher);
        assert!(!task.is_finished());
        drop(copy);
        ends(task).await;
        store.close().await;
    }

    #[tokio::test]
    async fn the_task_ends_when_the_pool_closes_and_later_appends_fail() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open_data_dir(dir.path()).await.expect("open");
        ends_when_closed_and_later_appends_fail(&store).await;
    }

    /// A batcher on `store`'s log pool ends when `store` is closed, and refuses rows.
    async fn ends_when_closed_and_later_appends_fail(store: &Store) {
        let (batcher, task) = LogBatcher::start(store.log.clone(), store.backend(), None);
        store.close().await;
        ends(task).await;
        let row = LogRow {
            match_id: 1,
            idx: 0,
            entry: String::new(),
            node: "local".into(),
        };
        assert!(matches!(
            batcher.queue(row).await,
            Err(sqlx::Error::PoolClosed)
        ));
    }

    /// PostgreSQL's loop (`run_postgres`) ends as SQLite's does: when every handle is
    /// dropped, and when the pool closes, after which appends fail.
    #[tokio::test]
    async fn postgres_s_task_ends_when_every_handle_is_dropped_or_the_pool_closes() {
        let database = crate::testing::ScratchDatabase::create().await;
        let store = Store::connect(&database.url).await.expect("open");
        let (batcher, task) = LogBatcher::start(store.log.clone(), store.backend(), None);
        drop(batcher);
        ends(task).await;
        ends_when_closed_and_later_appends_fail(&store).await;
    }

    /// The writer's `RESTART` (see [`Checkpoints`]), once a side checkpoint asks for
    /// it, makes the next commit write the WAL from its beginning again. Nothing else
    /// checkpoints here (the writer's own threshold is far off), so without it every
    /// commit adds to the WAL: the file grows. After it, the next commits overwrite
    /// the file's first frames and it does not grow.
    #[tokio::test]
    async fn a_restart_asked_for_writes_the_wal_from_its_beginning_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open_data_dir(dir.path()).await.expect("open");
        let wal = dir
            .path()
            .join(format!("{}-wal", crate::connect::DATABASE_FILE));
        let wal_bytes = || std::fs::metadata(&wal).map_or(0, |m| m.len());
        sqlx::query("CREATE TABLE filler (bytes BLOB)")
            .execute(&store.write)
            .await
            .expect("create");
        let commits = |n: usize| {
            let writer = store.write.clone();
            async move {
                for _ in 0..n {
                    sqlx::query("INSERT INTO filler VALUES (randomblob(3000))")
                        .execute(&writer)
                        .await
                        .expect("insert");
                }
            }
        };
        commits(20).await;
        let checkpoints = Checkpoints::new(store.read.clone());

        // Not asked for: nothing happens, and the WAL grows.
        checkpoints.restart_if_due(&store.write).await;
        let before = wal_bytes();
        commits(10).await;
        let grown = wal_bytes();
        assert!(grown > before, "{before} -> {grown}");

        // Asked for while a side checkpoint runs: the restart waits until it has ended
        // (SQLite's second checkpoint would fail at once) and stays due.
        checkpoints.restart_due.store(true, Ordering::Release);
        checkpoints.running.store(true, Ordering::Release);
        checkpoints.restart_if_due(&store.write).await;
        assert!(checkpoints.restart_due.load(Ordering::Acquire), "still due");
        commits(10).await;
        let grown = wal_bytes();
        checkpoints.running.store(false, Ordering::Release);

        // Asked for, with no side checkpoint running: the WAL starts again, and ten
        // commits fit in what it held.
        checkpoints.restart_if_due(&store.write).await;
        assert!(
            !checkpoints.restart_due.load(Ordering::Acquire),
            "done once"
        );
        commits(10).await;
        assert_eq!(wal_bytes(), grown, "the WAL restarted");
        store.close().await;
    }
}
