//! Starting a match: a secret seed, the store row, the referee with its sink.

use std::sync::Arc;
use std::time::Duration;

use arbiter_referee::{
    IllegalAnswer, MatchHandle, MatchSetup, Program, Referee, SeatKind, SeatSetup, StandInSetup,
};
use arbiter_rulesets::Ruleset;
use arbiter_store::{
    AccountId, MatchId, MatchTerms, NewMatch, RatingSystem, SeatRecord, Store, StoreError,
};
use serde_json::Value;

use crate::instruments::{MatchInstruments, RefereeInstruments};
use crate::writer::{self, Recorded};

/// Who sits in a seat, as stored and as refereed.
#[derive(Clone)]
pub struct Entry {
    /// The name shown to everyone.
    pub name: String,
    /// The account whose rating the match moves, if any.
    pub account: Option<AccountId>,
    pub play: Play,
}

/// How a seat's decisions reach the referee.
#[derive(Clone)]
pub enum Play {
    /// Through a connection that attaches to the seat (and may come back).
    Remote,
    /// A house bot of the ruleset, run by the referee on a seed of its own.
    House { bot: String },
    /// An in-process player, such as a port's adapter speaking its client's protocol.
    Program(Program),
}

/// Everything a match starts from.
#[derive(Clone)]
pub struct Launch {
    pub ruleset: Ruleset,
    /// Already normalized by the ruleset (stored as is, defaults filled in).
    pub config: Value,
    /// One per seat, in seat order.
    pub entries: Vec<Entry>,
    /// `None` for an unrated match.
    pub rating: Option<RatingSystem>,
    pub deadline: Duration,
    pub time_bank: Duration,
    /// Missed deadlines in a row that abandon a seat (`None`: never).
    pub abandon_after: Option<u32>,
    /// The house bot for silent remote seats, and its grace (`None`: none).
    pub stand_in: Option<StandIn>,
    pub illegal_answer: IllegalAnswer,
    /// Only a test fixes the seed; otherwise it comes from the operating system.
    pub seed: Option<u64>,
    /// How long the match waits for a failing store before it is aborted
    /// ([`crate::DEFAULT_STORE_PATIENCE`] unless the server sets its own).
    pub store_patience: Duration,
    /// The compatibility port whose clients play the seats (`None`: native seats).
    /// Stored with the clock as the match's terms.
    pub port: Option<String>,
    /// The tournament game this match plays (`None`: none, or a resumed match, whose
    /// game knows it already); see [`arbiter_store::NewMatch::tournament_game`].
    pub tournament_game: Option<i64>,
}

impl Launch {
    /// What the store keeps of how this match is played, for it to go on after a
    /// restart or a takeover with the same clock.
    fn terms(&self) -> MatchTerms {
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        MatchTerms {
            deadline_ms: millis(self.deadline),
            time_bank_ms: millis(self.time_bank),
            abandon_after: self.abandon_after,
            stand_in_grace_ms: self.stand_in.as_ref().map(|s| millis(s.grace)),
            port: self.port.clone(),
        }
    }
}

/// How a resumed match makes up for the time its server was away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    /// How long the match was down (from its server's last sign of life), recorded.
    pub down: Duration,
    /// Extra time for every seat's next decision, for its client to come back.
    pub grace: Duration,
}

/// Which house bot plays a silent remote seat, and after how long
/// ([`arbiter_referee::StandInSetup`]; the runner draws the bot's seed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandIn {
    pub bot: String,
    pub grace: Duration,
}

/// A match that runs.
pub struct Launched {
    pub match_id: MatchId,
    pub handle: MatchHandle,
    /// Ends once the store has the match's end; every entry is stored before it.
    pub recorded: tokio::task::JoinHandle<Recorded>,
}

/// Why a match did not start (nothing runs; a row already written is marked aborted).
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("{0}")]
    Config(String),
    #[error("the server could not draw a seed; try again")]
    NoEntropy,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Record the match in `store` and start its referee. The seed comes from the
/// operating system, never derived: a seed, or anything it could be recomputed from,
/// would reveal every hidden hand and draw of the match.
pub async fn launch(
    store: &Store,
    launch: Launch,
    instruments: Option<Arc<dyn MatchInstruments>>,
) -> Result<Launched, LaunchError> {
    let seed = match launch.seed {
        Some(seed) => seed,
        None => secret_seed()?,
    };
    let game = &launch.ruleset.game;
    let initial = game
        .new_state(&launch.config, launch.entries.len(), seed)
        .map_err(|e| LaunchError::Config(e.to_string()))?;
    let new = NewMatch {
        ruleset: launch.ruleset.id().to_string(),
        config: launch.config.clone(),
        seed,
        initial_digest: initial.digest(),
        seats: launch
            .entries
            .iter()
            .map(|entry| SeatRecord {
                name: entry.name.clone(),
                account_id: entry.account,
                bot: match &entry.play {
                    Play::House { bot } => Some(bot.clone()),
                    Play::Remote | Play::Program(_) => None,
                },
            })
            .collect(),
        rating: launch.rating,
        terms: Some(launch.terms()),
        tournament_game: launch.tournament_game,
    };
    // Every seed is drawn before the row is written: a refusal leaves nothing behind.
    let seats = seat_setups(&launch.entries)?;
    let stand_in_seed = secret_seed()?;
    let match_id = store.create_match(&new).await?;
    let store_patience = launch.store_patience;
    let setup = match_setup(
        match_id,
        launch,
        (seed, stand_in_seed),
        seats,
        instruments.clone(),
    );
    let (sink, recorded) = writer::spawn(store.clone(), store_patience, instruments);
    let started = Referee::start(setup, Arc::new(sink));
    running(
        store,
        match_id,
        started,
        recorded,
        "the referee refused the match",
    )
    .await
}

/// Go on with match `match_id`, which this node runs but whose referee went away with
/// a server (this one, restarted; or a node that died or stopped, taken over): its
/// record, with every stored log entry, comes from the store, and the referee replays it
/// (each digest checked) and continues at the next entry. `launch` says who plays the
/// seats now and on which clock; its configuration and seed are not used (the record's
/// are). House bots get fresh seeds. The record gains the resumption (`gap`); the
/// caller stores it ([`Store::record_resumptions`], many matches at once). A match
/// whose log cannot be rebuilt is marked aborted with the reason, its log kept.
pub async fn resume(
    store: &Store,
    match_id: MatchId,
    launch: Launch,
    gap: Gap,
    instruments: Option<Arc<dyn MatchInstruments>>,
) -> Result<Launched, LaunchError> {
    let record = store
        .match_record(match_id)
        .await?
        .ok_or(StoreError::UnknownMatch(match_id))?;
    resume_from(store, match_id, record, launch, gap, instruments).await
}

/// [`resume`] from a record already read.
pub async fn resume_from(
    store: &Store,
    match_id: MatchId,
    mut record: arbiter_engine::MatchRecord,
    launch: Launch,
    gap: Gap,
    instruments: Option<Arc<dyn MatchInstruments>>,
) -> Result<Launched, LaunchError> {
    record.resumptions.push(arbiter_engine::Resumption {
        step: record.log.len(),
        down_ms: u64::try_from(gap.down.as_millis()).unwrap_or(u64::MAX),
    });
    let seats = seat_setups(&launch.entries)?;
    let store_patience = launch.store_patience;
    let seeds = (record.seed, secret_seed()?);
    let mut setup = match_setup(match_id, launch, seeds, seats, instruments.clone());
    setup.resume_grace = gap.grace;
    let (sink, recorded) = writer::spawn(store.clone(), store_patience, instruments);
    let resumed = Referee::resume(setup, record, Arc::new(sink));
    running(
        store,
        match_id,
        resumed,
        recorded,
        "the match could not go on from its stored log",
    )
    .await
}

/// The launched match, or (the referee refused it) the row marked aborted, `why`.
async fn running(
    store: &Store,
    match_id: MatchId,
    referee: Result<MatchHandle, arbiter_engine::ConfigError>,
    recorded: tokio::task::JoinHandle<Recorded>,
    why: &str,
) -> Result<Launched, LaunchError> {
    match referee {
        Ok(handle) => Ok(Launched {
            match_id,
            handle,
            recorded,
        }),
        Err(error) => {
            let reason = format!("{why}: {error}");
            if let Err(e) = store.abort_match(match_id, &reason).await {
                tracing::error!(match_id, error = %e, "cannot mark a match aborted");
            }
            Err(LaunchError::Config(error.to_string()))
        }
    }
}

/// Who plays each seat, as the referee sees it; house bots get secret seeds.
fn seat_setups(entries: &[Entry]) -> Result<Vec<SeatSetup>, LaunchError> {
    entries
        .iter()
        .map(|entry| {
            Ok(match &entry.play {
                Play::Remote => SeatSetup::remote(entry.name.clone()),
                Play::House { bot } => SeatSetup::house(entry.name.clone(), bot, secret_seed()?),
                Play::Program(program) => SeatSetup {
                    name: entry.name.clone(),
                    kind: SeatKind::Program(program.clone()),
                },
            })
        })
        .collect()
}

/// The referee's setup; `seeds` are the match's and its stand-in bot's.
fn match_setup(
    match_id: MatchId,
    launch: Launch,
    (seed, stand_in_seed): (u64, u64),
    seats: Vec<SeatSetup>,
    instruments: Option<Arc<dyn MatchInstruments>>,
) -> MatchSetup {
    MatchSetup {
        match_id,
        ruleset: launch.ruleset,
        config: launch.config,
        seed,
        seats,
        deadline: launch.deadline,
        time_bank: launch.time_bank,
        illegal_answer: launch.illegal_answer,
        abandon_after: launch.abandon_after,
        stand_in: launch.stand_in.map(|stand_in| StandInSetup {
            bot: stand_in.bot,
            grace: stand_in.grace,
            seed: stand_in_seed,
        }),
        instruments: instruments.map(|instruments| {
            Arc::new(RefereeInstruments(instruments)) as Arc<dyn arbiter_referee::Instruments>
        }),
        resume_grace: Duration::ZERO,
    }
}

/// A seed from the operating system's entropy.
fn secret_seed() -> Result<u64, LaunchError> {
    use rand::TryRngCore;
    rand::rngs::OsRng.try_next_u64().map_err(|error| {
        tracing::error!(%error, "the operating system gave no entropy");
        LaunchError::NoEntropy
    })
}
