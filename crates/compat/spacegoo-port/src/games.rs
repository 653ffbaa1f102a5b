//! A paired couple becomes an ordinary Arbiter match, started by `arbiter-runner` like
//! every other: recorded in the store (rated with Elo, the reference's system), refereed
//! with the port's deadline, its log written entry by entry, and finished (outcome and
//! rating changes in one transaction) when the referee is done. Here the port works out
//! the rating changes it prints. The server is told of
//! every match through [`MatchObserver`] so it can list and show it like its own.

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::Seat;
use arbiter_referee::MatchHandle;
use arbiter_rulesets::Ruleset;
use arbiter_runner::{Entry, Launch, LaunchError, Launched, Play, Recorded};
use arbiter_spacegoo::Config;
use arbiter_store::{AccountId, FinishedMatch, MatchId, RatingSystem, Store};
use tokio::sync::watch;

/// The ruleset this port plays.
pub const RULESET: &str = "spacegoo";

/// A player about to be seated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub account: AccountId,
    pub name: String,
}

/// A match the port started, as the server needs it to show the match.
#[derive(Clone)]
pub struct StartedMatch {
    pub match_id: MatchId,
    /// Player 1 then player 2.
    pub players: [Entrant; 2],
    /// The full configuration the match runs with.
    pub config: serde_json::Value,
    pub deadline: Duration,
    /// The referee's handle: spectate, status.
    pub handle: MatchHandle,
}

/// Told about the port's matches (the server registers them beside its own, so they
/// are listed and watchable). Called from the port's tasks; must not block.
pub trait MatchObserver: Send + Sync + 'static {
    fn started(&self, started: &StartedMatch);
    /// The match ended (finished or aborted) and the store has its result.
    fn ended(&self, match_id: MatchId, result: &GameResult);
}

/// How a match ended, as the store took it.
#[derive(Debug, Clone, PartialEq)]
pub enum GameResult {
    /// Finished: each seat's rating change (after − before, in the rating's own units).
    Rated { change: [f64; 2] },
    /// The store could not record the result; the ratings did not move.
    Unrated { why: String },
    /// The match stopped without an outcome.
    Aborted { reason: String },
}

impl GameResult {
    /// This seat's rating change to print (0 when nothing moved).
    pub fn change_for(&self, seat: Seat) -> f64 {
        match self {
            GameResult::Rated { change } => change.get(seat).copied().unwrap_or(0.0),
            _ => 0.0,
        }
    }

    /// The change this seat's `game ended` line shows, as the reference printed it.
    /// It worked out one figure from player 1's side (player 1's change, or when player
    /// 2 won, player 2's change negated), printed it to player 1 and its negation to
    /// player 2. So player 2's figure is always player 1's negated, zero included: a
    /// draw between equal ratings reads `0.00` and `-0.00` (`%.2f` keeps the sign of
    /// zero, as Rust's `{:.2}` does). `winner` is the winning player id (1 or 2), `None`
    /// for a draw. Matches whose ratings did not move show `0.00` to both.
    pub fn printed_change(&self, seat: Seat, winner: Option<u8>) -> f64 {
        let GameResult::Rated { change } = self else {
            return 0.0;
        };
        let player_one = if winner == Some(2) {
            -change[1]
        } else {
            change[0]
        };
        if seat == 0 {
            player_one
        } else {
            -player_one
        }
    }
}

/// What a seat's connection needs to play its game.
pub struct Seated {
    pub match_id: MatchId,
    pub seat: Seat,
    pub handle: MatchHandle,
    /// Player 1 then player 2.
    pub names: [String; 2],
    pub config: Config,
    /// Set once the store has the result.
    pub result: watch::Receiver<Option<GameResult>>,
}

/// Why a match could not start (the players go back to the lobby's care: their
/// connections are told and closed).
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("the spacegoo ruleset is missing from this build")]
    NoRuleset,
    #[error("invalid spacegoo configuration: {0}")]
    Config(String),
    #[error("the store refused the match: {0}")]
    Store(#[from] arbiter_store::StoreError),
}

/// Starts and records the port's matches.
#[derive(Clone)]
pub struct Games {
    store: Store,
    ruleset: Ruleset,
    config: Config,
    deadline: Duration,
    seed: Option<u64>,
    observer: Option<Arc<dyn MatchObserver>>,
    /// How long a match waits for a failing store before it is aborted.
    store_patience: Duration,
}

impl Games {
    /// Matches of `max_rounds` rounds with `deadline` per round, on `seed` when given
    /// (a fresh one per match otherwise).
    pub fn new(
        store: Store,
        max_rounds: u32,
        deadline: Duration,
        seed: Option<u64>,
        observer: Option<Arc<dyn MatchObserver>>,
    ) -> Result<Games, StartError> {
        let ruleset = arbiter_rulesets::find(RULESET).ok_or(StartError::NoRuleset)?;
        let config = Config {
            max_rounds,
            deadline_ms: u64::try_from(deadline.as_millis()).unwrap_or(u64::MAX),
        };
        config
            .validate()
            .map_err(|e| StartError::Config(e.to_string()))?;
        Ok(Games {
            store,
            ruleset,
            config,
            deadline,
            seed,
            observer,
            store_patience: arbiter_runner::DEFAULT_STORE_PATIENCE,
        })
    }

    /// The same games, waiting `patience` for a failing store before aborting a match.
    pub fn with_store_patience(mut self, patience: Duration) -> Games {
        self.store_patience = patience;
        self
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Record and start a rated match between player 1 and player 2 on a fresh seed.
    /// Returns each seat's share, in seat order.
    pub async fn start(&self, players: [Entrant; 2]) -> Result<[Seated; 2], StartError> {
        let config =
            serde_json::to_value(&self.config).map_err(|e| StartError::Config(e.to_string()))?;
        let config = self
            .ruleset
            .game
            .normalize_config(&config)
            .map_err(|e| StartError::Config(e.to_string()))?;
        let launch = Launch {
            ruleset: self.ruleset.clone(),
            config: config.clone(),
            entries: players
                .iter()
                .map(|p| Entry {
                    name: p.name.clone(),
                    account: Some(p.account),
                    play: Play::Remote,
                })
                .collect(),
            rating: Some(RatingSystem::Elo),
            deadline: self.deadline,
            // The reference has no abandonment: a silent bot sends nothing, round after round.
            abandon_after: None,
            // Nor a house bot for leavers: its rounds simply pass.
            stand_in: None,
            // The reference's clock: a fixed time per round, no bank.
            time_bank: Duration::ZERO,
            illegal_answer: self.ruleset.game.policy().illegal_answer,
            // From the operating system unless a test fixed it: a seed is a secret.
            seed: self.seed,
            store_patience: self.store_patience,
            port: Some("spacegoo".to_string()),
            tournament_game: None,
        };
        let Launched {
            match_id,
            handle,
            recorded,
        } = arbiter_runner::launch(&self.store, launch, None)
            .await
            .map_err(|error| match error {
                LaunchError::Store(error) => StartError::Store(error),
                other => StartError::Config(other.to_string()),
            })?;
        // The observer hears of the start before the writer can report the end.
        if let Some(observer) = &self.observer {
            observer.started(&StartedMatch {
                match_id,
                players: players.clone(),
                config,
                deadline: self.deadline,
                handle: handle.clone(),
            });
        }
        let (result_sender, result) = watch::channel(None);
        let accounts = [players[0].account, players[1].account];
        tokio::spawn(announce(
            self.store.clone(),
            match_id,
            accounts,
            recorded,
            result_sender,
            self.observer.clone(),
        ));
        let names = [players[0].name.clone(), players[1].name.clone()];
        let seated = |seat| Seated {
            match_id,
            seat,
            handle: handle.clone(),
            names: names.clone(),
            config: self.config.clone(),
            result: result.clone(),
        };
        Ok([seated(0), seated(1)])
    }
}

/// Waits for the store to have the match's end, works out each seat's rating change,
/// and publishes it for the seats' connections (and the observer).
async fn announce(
    store: Store,
    match_id: MatchId,
    accounts: [AccountId; 2],
    recorded: tokio::task::JoinHandle<Recorded>,
    result: watch::Sender<Option<GameResult>>,
    observer: Option<Arc<dyn MatchObserver>>,
) {
    let outcome = match recorded.await {
        Ok(Recorded::Finished(finished)) => rated(&store, match_id, accounts, &finished).await,
        Ok(Recorded::Unrecorded { why }) => GameResult::Unrated { why },
        Ok(Recorded::Aborted { reason }) => GameResult::Aborted { reason },
        Err(error) => GameResult::Aborted {
            reason: format!("the match's writer stopped: {error}"),
        },
    };
    if let Some(observer) = observer {
        observer.ended(match_id, &outcome);
    }
    result.send_replace(Some(outcome));
}

/// Each seat's rating change in a finished match.
async fn rated(
    store: &Store,
    match_id: MatchId,
    accounts: [AccountId; 2],
    finished: &FinishedMatch,
) -> GameResult {
    let mut change = [0.0; 2];
    for (seat, account) in accounts.iter().enumerate() {
        let Some(after) = finished
            .rating_changes
            .iter()
            .find(|c| c.account_id == *account)
        else {
            continue;
        };
        // The exact change from the ratings themselves; the shown (rounded) values
        // only when the history cannot say.
        change[seat] = match rating_before(store, *account, match_id).await {
            Ok(Some(before)) => after.mu - before,
            Ok(None) => (after.after - after.before) as f64,
            Err(error) => {
                tracing::warn!(match_id, account, %error, "cannot read a rating's history");
                (after.after - after.before) as f64
            }
        };
    }
    GameResult::Rated { change }
}

/// The account's Elo rating right before `match_id` moved it: the history point before
/// that match's, or the start rating when the match was its first. `None` when the
/// point before lies outside the history read (an account with hundreds of results
/// recorded since).
async fn rating_before(
    store: &Store,
    account: AccountId,
    match_id: MatchId,
) -> Result<Option<f64>, arbiter_store::StoreError> {
    const WINDOW: u32 = 200;
    let history = store.rating_history(account, RULESET, WINDOW).await?;
    Ok(
        match history.iter().rposition(|p| p.match_id == Some(match_id)) {
            Some(index) if index > 0 => Some(history[index - 1].mu),
            Some(_) if history.len() < WINDOW as usize => {
                Some(arbiter_store::INITIAL_DISPLAY as f64)
            }
            _ => None,
        },
    )
}

/// The rating the reference printed at login: the Elo rating with its decimals, or the
/// start rating before the first rated game.
pub async fn current_score(
    store: &Store,
    account: AccountId,
) -> Result<f64, arbiter_store::StoreError> {
    Ok(match store.rating(account, RULESET).await? {
        Some(rating) if rating.system == RatingSystem::Elo => rating.mu,
        Some(rating) => rating.display as f64,
        None => arbiter_store::INITIAL_DISPLAY as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(result: &GameResult, seat: Seat, winner: Option<u8>) -> String {
        format!("{:.2}", result.printed_change(seat, winner))
    }

    /// The reference printed one figure to player 1 and its negation to player 2
    /// (`%.2f`, which keeps the sign of zero): a draw between equal ratings moves
    /// nothing, and player 2 reads `-0.00`.
    #[test]
    fn player_two_reads_player_one_s_figure_negated() {
        let draw = GameResult::Rated { change: [0.0, 0.0] };
        assert_eq!(line(&draw, 0, None), "0.00");
        assert_eq!(line(&draw, 1, None), "-0.00");
        // A draw between unequal ratings: the lower rated gains.
        let uneven = GameResult::Rated {
            change: [-0.3, 0.3],
        };
        assert_eq!(line(&uneven, 0, None), "-0.30");
        assert_eq!(line(&uneven, 1, None), "0.30");
        // Player 1 wins by a tiny margin of expectation: player 2's line is negative.
        let tiny = GameResult::Rated {
            change: [0.001, -0.001],
        };
        assert_eq!(line(&tiny, 0, Some(1)), "0.00");
        assert_eq!(line(&tiny, 1, Some(1)), "-0.00");
        // Player 2 wins: the figure is worked out from player 2's change, negated for
        // player 1, so a zero gain reads `-0.00` on player 1's line and `0.00` on
        // player 2's.
        let nothing = GameResult::Rated { change: [0.0, 0.0] };
        assert_eq!(line(&nothing, 0, Some(2)), "-0.00");
        assert_eq!(line(&nothing, 1, Some(2)), "0.00");
        let won = GameResult::Rated {
            change: [-5.0, 5.0],
        };
        assert_eq!(line(&won, 0, Some(2)), "-5.00");
        assert_eq!(line(&won, 1, Some(2)), "5.00");
        // No rating moved on Arbiter's side (the store failed, the match aborted).
        let unrated = GameResult::Unrated { why: "x".into() };
        assert_eq!(line(&unrated, 0, None), "0.00");
        assert_eq!(line(&unrated, 1, None), "0.00");
    }
}
