//! What the kit knows about a match it plays ([`Match`]), and how it ended for your
//! seat ([`GameResult`]).

use std::collections::HashMap;
use std::time::Instant;

use serde_json::Value;

use crate::messages::Outcome;

/// A `prompt` the seat owes (or owed) an answer to.
#[derive(Debug, Clone)]
pub struct PendingPrompt {
    /// Numbered by the client as prompts arrive: "is this still the same decision?"
    pub serial: u64,
    pub step: u64,
    pub deadline_ms: u64,
    pub time_bank_ms: u64,
    pub turn: Value,
    /// The seat's legal actions as the prompt listed them (the connection asked for
    /// them with `options`), else `None`.
    pub legal: Option<Vec<Value>>,
    pub received_at: Instant,
}

/// One match you play, kept up to date with what the server pushes.
#[derive(Debug, Clone)]
pub struct Match {
    pub id: i64,
    pub ruleset: String,
    pub seat: Option<usize>,
    pub players: Vec<String>,
    pub config: Value,
    /// The last `view` and its `step`.
    pub view: Value,
    pub step: u64,
    /// The prompt owed an answer.
    pub pending: Option<PendingPrompt>,
    /// The prompt answered last (owed again if the answer is `rejected`).
    pub answered: Option<PendingPrompt>,
    /// The last refusal of an answer to the current decision: (code, message).
    pub rejected: Option<(String, String)>,
    /// Answers refused for the current decision.
    pub tries: u32,
    /// Seat → why it was ejected.
    pub ejected: HashMap<usize, String>,
    pub outcome: Option<Outcome>,
    pub headline: Option<String>,
    pub aborted: Option<String>,
    /// Outcome or aborted (or lost for good): nothing more will come.
    pub done: bool,
    pub started: Instant,
    /// Answers sent.
    pub decisions: u32,
}

impl Match {
    pub fn new(id: i64) -> Match {
        Match {
            id,
            ruleset: String::new(),
            seat: None,
            players: Vec::new(),
            config: Value::Null,
            view: Value::Null,
            step: 0,
            pending: None,
            answered: None,
            rejected: None,
            tries: 0,
            ejected: HashMap::new(),
            outcome: None,
            headline: None,
            aborted: None,
            done: false,
            started: Instant::now(),
            decisions: 0,
        }
    }
}

/// How a match ended for your seat.
#[derive(Debug, Clone)]
pub struct GameResult {
    pub game: Match,
    pub seconds: f64,
    /// Why your seat was ejected, if it was.
    pub ejected: Option<String>,
    /// An outcome came, and your seat was not ejected.
    pub ok: bool,
}

impl GameResult {
    pub fn new(game: Match) -> GameResult {
        let seconds = game.started.elapsed().as_secs_f64();
        let from_outcome = game.outcome.as_ref().and_then(|o| {
            let seat = game.seat?;
            o.ejected.get(seat).cloned().flatten()
        });
        let ejected = game
            .seat
            .and_then(|seat| game.ejected.get(&seat).cloned())
            .or(from_outcome);
        let ok = game.outcome.is_some() && ejected.is_none() && game.aborted.is_none();
        GameResult {
            game,
            seconds,
            ejected,
            ok,
        }
    }

    /// One line for people, e.g.
    /// `match 3 tae seat 0: rank 1 of 2, scores [5, 3], 40 decisions, 2.1 s: alice wins with 5`.
    pub fn line(&self) -> String {
        let m = &self.game;
        if let Some(reason) = &m.aborted {
            return format!("match {} {}: aborted: {reason}", m.id, m.ruleset);
        }
        let Some(outcome) = &m.outcome else {
            return format!("match {} {}: no outcome (connection lost)", m.id, m.ruleset);
        };
        let rank = m
            .seat
            .and_then(|seat| outcome.ranks.get(seat))
            .map_or("?".to_string(), u32::to_string);
        let seat = m.seat.map_or("?".to_string(), |s| s.to_string());
        let headline = m
            .headline
            .clone()
            .unwrap_or_else(|| outcome.summary.clone());
        let mut text = format!(
            "match {} {} seat {seat}: rank {rank} of {}, scores {:?}, {} decisions, {:.1} s: {headline}",
            m.id,
            m.ruleset,
            outcome.ranks.len(),
            outcome.scores,
            m.decisions,
            self.seconds,
        );
        if let Some(reason) = &self.ejected {
            text += &format!(" -- EJECTED: {reason}");
        }
        text
    }
}
