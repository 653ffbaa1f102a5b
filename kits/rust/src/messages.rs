//! The JSON messages the kit sends and reads, as serde types (`docs/protocol.md`).
//!
//! Every message is an object tagged by `"type"`; serde's `tag = "type"` writes and
//! reads that tag. Only the messages and fields the kit uses are here: anything else the
//! server sends reads as [`ServerMessage::Other`], and views, actions, configurations
//! and turns stay `serde_json::Value`s (each ruleset has its own shapes:
//! `crates/games/<ruleset>/RULES.md`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A request from the kit to the server.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Create an account and log in as it (`registered`, or `error` `name_taken`);
    /// `bot` says a program plays it (the kit's accounts are bots': a tournament may
    /// take only people, or only bots).
    Register {
        name: String,
        password: String,
        bot: bool,
    },
    /// Log in (`logged_in`, with the running matches whose seats come back); `bot`
    /// sets the account's kind (an account older than kinds is a person's until then).
    Login {
        name: String,
        password: String,
        bot: bool,
    },
    /// Log in again with the `session` token of an earlier `registered`/`logged_in`.
    Resume { session: String },
    /// List the rulesets (`rulesets`).
    Rulesets,
    /// Wait for a rated match (`queued`, later `match_started`).
    Queue {
        ruleset: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        config: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        seats: Option<usize>,
    },
    /// Leave the queue (`left_queue`).
    LeaveQueue,
    /// Open a table; you sit in seat 0 (`table`).
    CreateTable {
        ruleset: String,
        seats: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        config: Option<Value>,
        #[serde(skip_serializing_if = "Option::is_none")]
        deadline_ms: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        time_bank_ms: Option<u64>,
    },
    /// Start your table, `fill`ing every empty seat with that house bot (`match_started`).
    StartTable {
        table: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        fill: Option<String>,
    },
    /// The actions your seat may answer now (`legal`).
    Legal {
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// Your answer to a prompt; nothing comes back when it is accepted, `rejected` when not.
    /// `step`: the prompt's, so that an answer to a decision already closed is refused
    /// (`stale_answer`) instead of landing on a later one (older servers ignore it).
    Act {
        #[serde(rename = "match")]
        match_id: i64,
        action: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        step: Option<u64>,
    },
    /// Give up your seat (`ejected` with reason `resigned`).
    Resign {
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// Set this connection's options (`options`, with all of them as they are now).
    /// `legal_in_prompt`: every `prompt` lists the seat's legal actions (`legal`), so
    /// the kit need not ask. Per connection: sent again after every reconnection.
    Options {
        #[serde(skip_serializing_if = "Option::is_none")]
        legal_in_prompt: Option<bool>,
    },
    /// Liveness check (`pong`).
    Ping,
    /// Enter a tournament (`tournament_joined`, then its state); entered before, the
    /// answer is `error` `already_entered` and this connection watches it again.
    JoinTournament { tournament: i64 },
}

impl ClientMessage {
    /// The message's `type`, for log lines.
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMessage::Register { .. } => "register",
            ClientMessage::Login { .. } => "login",
            ClientMessage::Resume { .. } => "resume",
            ClientMessage::Rulesets => "rulesets",
            ClientMessage::Queue { .. } => "queue",
            ClientMessage::LeaveQueue => "leave_queue",
            ClientMessage::CreateTable { .. } => "create_table",
            ClientMessage::StartTable { .. } => "start_table",
            ClientMessage::Legal { .. } => "legal",
            ClientMessage::Act { .. } => "act",
            ClientMessage::Resign { .. } => "resign",
            ClientMessage::Options { .. } => "options",
            ClientMessage::Ping => "ping",
            ClientMessage::JoinTournament { .. } => "join_tournament",
        }
    }
}

/// A message from the server. Match messages carry the match id in `match`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The first line on every connection.
    Welcome {
        protocol: u32,
        #[serde(default)]
        server: String,
        #[serde(default)]
        rulesets: Vec<String>,
    },
    Registered {
        name: String,
        /// The token for `resume`; keep it to yourself.
        #[serde(default)]
        session: Option<String>,
        /// Whether the server counts the account a bot's (a tournament may take only bots).
        #[serde(default)]
        bot: bool,
    },
    LoggedIn {
        name: String,
        #[serde(default)]
        session: Option<String>,
        #[serde(default)]
        bot: bool,
        /// Running matches whose seats now come to this connection.
        #[serde(default)]
        resumed: Vec<i64>,
    },
    Rulesets {
        rulesets: Vec<Value>,
    },
    Queued {
        ruleset: String,
        #[serde(default)]
        seats: usize,
        #[serde(default)]
        waiting: usize,
        #[serde(default)]
        note: String,
    },
    LeftQueue {
        #[serde(default)]
        ruleset: String,
    },
    /// A table you sit at (just created, joined or changed).
    Table {
        table: u64,
        ruleset: String,
        #[serde(default)]
        deadline_ms: u64,
        #[serde(default)]
        time_bank_ms: u64,
    },
    TableClosed {
        table: u64,
        #[serde(default)]
        reason: String,
    },
    /// A match with one of your seats started.
    MatchStarted {
        #[serde(rename = "match")]
        match_id: i64,
        ruleset: String,
        #[serde(default)]
        config: Value,
        #[serde(default)]
        players: Vec<String>,
        seat: usize,
        #[serde(default)]
        deadline_ms: u64,
        #[serde(default)]
        time_bank_ms: u64,
        #[serde(default)]
        rated: bool,
    },
    /// The first message of every (re)attachment to a match; `seat` is `null` for a
    /// spectator.
    Joined {
        #[serde(rename = "match")]
        match_id: i64,
        ruleset: String,
        seat: Option<usize>,
        #[serde(default)]
        seats: Vec<String>,
        #[serde(default)]
        config: Value,
    },
    /// What your seat may see after `step` log entries.
    View {
        #[serde(rename = "match")]
        match_id: i64,
        step: u64,
        view: Value,
    },
    /// Your seat owes a decision, within `deadline_ms` (the time bank included).
    Prompt {
        #[serde(rename = "match")]
        match_id: i64,
        step: u64,
        deadline_ms: u64,
        #[serde(default)]
        time_bank_ms: u64,
        #[serde(default)]
        turn: Value,
        /// The seat's legal actions (as `legal` answers), when the connection asked for
        /// them with `options`; `None` from a server that did not (or an older one).
        #[serde(default)]
        legal: Option<Vec<Value>>,
    },
    Events {
        #[serde(rename = "match")]
        match_id: i64,
        #[serde(default)]
        events: Value,
    },
    /// An answer was refused; nothing changed and the decision is still owed.
    Rejected {
        #[serde(rename = "match")]
        match_id: i64,
        code: String,
        #[serde(default)]
        message: String,
    },
    Ejected {
        #[serde(rename = "match")]
        match_id: i64,
        seat: usize,
        reason: String,
    },
    /// A house bot plays `seat` from `step` on (its player went silent).
    StandIn {
        #[serde(rename = "match")]
        match_id: i64,
        seat: usize,
        #[serde(default)]
        bot: String,
    },
    SeatTakenBack {
        #[serde(rename = "match")]
        match_id: i64,
        seat: usize,
    },
    /// The game is over.
    Outcome {
        #[serde(rename = "match")]
        match_id: i64,
        outcome: Outcome,
        #[serde(default)]
        headline: String,
    },
    /// The match stopped without an outcome.
    Aborted {
        #[serde(rename = "match")]
        match_id: i64,
        #[serde(default)]
        reason: String,
    },
    /// The answer to `legal`: empty `actions` when the seat owes nothing.
    Legal {
        #[serde(rename = "match")]
        match_id: i64,
        #[serde(default)]
        seat: Option<usize>,
        step: u64,
        actions: Vec<Value>,
    },
    Pong,
    /// This connection's options, after an `options` request.
    Options {
        #[serde(default)]
        legal_in_prompt: bool,
    },
    Error {
        code: String,
        #[serde(default)]
        message: String,
        #[serde(default)]
        retry_after_ms: Option<u64>,
    },
    /// The server is stopping (a restart): it closes the connection next. Connect
    /// again after `retry_after_ms`.
    ServerRestarting {
        #[serde(default)]
        retry_after_ms: u64,
    },
    /// You entered the tournament.
    TournamentJoined {
        tournament: i64,
    },
    /// A tournament's state (only its `status` is read: `open`, `running`, `finished`,
    /// `cancelled`).
    Tournament {
        tournament: i64,
        #[serde(default)]
        status: String,
    },
    TournamentEnded {
        tournament: i64,
    },
    /// Any other message (spectating, tables listed, …): the kit does not need it.
    #[serde(other)]
    Other,
}

impl ServerMessage {
    /// The match a match message is about.
    pub fn match_id(&self) -> Option<i64> {
        match self {
            ServerMessage::MatchStarted { match_id, .. }
            | ServerMessage::Joined { match_id, .. }
            | ServerMessage::View { match_id, .. }
            | ServerMessage::Prompt { match_id, .. }
            | ServerMessage::Events { match_id, .. }
            | ServerMessage::Rejected { match_id, .. }
            | ServerMessage::Ejected { match_id, .. }
            | ServerMessage::StandIn { match_id, .. }
            | ServerMessage::SeatTakenBack { match_id, .. }
            | ServerMessage::Outcome { match_id, .. }
            | ServerMessage::Aborted { match_id, .. }
            | ServerMessage::Legal { match_id, .. } => Some(*match_id),
            _ => None,
        }
    }
}

/// How a game ended (the `outcome` message's `outcome`, or the HTTP API's).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Outcome {
    /// Each seat's rank, 1 = best; ties share a rank.
    #[serde(default)]
    pub ranks: Vec<u32>,
    /// Each seat's score in the ruleset's own unit.
    #[serde(default)]
    pub scores: Vec<i64>,
    /// For each seat, why it was ejected, if it was.
    #[serde(default)]
    pub ejected: Vec<Option<String>>,
    /// The ruleset's one line about the result.
    #[serde(default)]
    pub summary: String,
}
