//! The native protocol's messages: what clients send and what the server answers.
//! One JSON object per line (TCP) or per text message (WebSocket), tagged by `type`.
//! `docs/protocol.md` documents each with a transcript.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version in the server's `welcome`; bumped on incompatible changes.
pub const PROTOCOL_VERSION: u32 = 1;

/// A request from a client. Serialized only to pass a lobby request to the node of a
/// deployment that holds the lobby (see `mesh`); passwords never serialize.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Create an account and log in as it; `bot` (default false) says that a program
    /// plays it rather than a person (a tournament may take only one kind).
    Register {
        name: String,
        #[serde(skip_serializing)]
        password: String,
        #[serde(default)]
        bot: bool,
    },
    /// Log in; a seat this account holds in a running match is resumed. `bot`, when
    /// given, sets the account's kind (an account registered before accounts had one
    /// is a person's until its bot says otherwise).
    Login {
        name: String,
        #[serde(skip_serializing)]
        password: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<bool>,
    },
    /// Log in with the `session` token a `registered` or `logged_in` reply gave (a web
    /// page keeps it across reloads instead of the password); seats resume as on login.
    Resume {
        #[serde(skip_serializing)]
        session: String,
    },
    /// End this connection's session: its token stops working, and the connection
    /// closes after `logged_out`.
    Logout,
    /// List the rulesets with their seat counts, bots, default configs and deadlines.
    Rulesets,
    /// Wait in the matchmaking queue of a ruleset (`config` fields default).
    Queue {
        ruleset: String,
        #[serde(default)]
        config: Value,
        /// Players per match; defaults to the smallest count of at least two.
        #[serde(default)]
        seats: Option<usize>,
    },
    /// Leave the matchmaking queue.
    LeaveQueue,
    /// List the tables waiting for players.
    Tables,
    /// Open a table for `seats` players; the creator takes seat 0. The clock is the
    /// creator's to set: time per decision and each seat's time bank, in milliseconds
    /// (defaults: at least two minutes a decision, five minutes of bank).
    CreateTable {
        ruleset: String,
        #[serde(default)]
        config: Value,
        seats: usize,
        #[serde(default)]
        deadline_ms: Option<u64>,
        #[serde(default)]
        time_bank_ms: Option<u64>,
        /// Missed deadlines in a row after which a seat has abandoned and is ejected
        /// (default 3; 0 never).
        #[serde(default)]
        abandon_after: Option<u32>,
        /// How long a silent seat (disconnected while it owes a decision) waits for its
        /// player before a house bot plays it, in milliseconds (default: the server's,
        /// 60 s; 0: no stand-in, silent seats are ejected after `abandon_after`).
        #[serde(default)]
        stand_in_grace_ms: Option<u64>,
    },
    /// Sit at a table, in the given seat or the first free one.
    JoinTable {
        table: u64,
        #[serde(default)]
        seat: Option<usize>,
    },
    /// Put a house bot in a free seat (the first free one if none given).
    AddBot {
        table: u64,
        bot: String,
        #[serde(default)]
        seat: Option<usize>,
    },
    /// Leave a table before it starts (the owner leaving closes it).
    LeaveTable { table: u64 },
    /// Start the table's match; `fill` puts that house bot in every empty seat first.
    StartTable {
        table: u64,
        #[serde(default)]
        fill: Option<String>,
    },
    /// List the matches being played now.
    Matches,
    /// Watch a live match: spectator views and events until it ends.
    Spectate {
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// Stop watching a match.
    Unspectate {
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// Submit a decision for your seat (`match` may be left out when you play only one).
    Act {
        #[serde(rename = "match", default)]
        match_id: Option<i64>,
        /// Your seat, if you want the server to check it (it knows it from your login).
        #[serde(default)]
        seat: Option<usize>,
        action: Value,
        /// The `step` of the prompt this answers. An answer to a decision that is
        /// closed (late, or sent twice) is refused as `stale_answer` instead of landing
        /// on your next decision. Left out, the answer is for whatever you owe now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<usize>,
    },
    /// Give up your seat in a match.
    Resign {
        #[serde(rename = "match", default)]
        match_id: Option<i64>,
        #[serde(default)]
        seat: Option<usize>,
    },
    /// The actions your seat may answer now (for a page that shows moves to click).
    Legal {
        #[serde(rename = "match", default)]
        match_id: Option<i64>,
    },
    /// Take your seat back from the house bot that plays it since you went silent
    /// (`stand_in`); answered with `seat_taken_back` to everyone in the match.
    /// Reconnecting or answering takes it back too.
    TakeSeat {
        #[serde(rename = "match", default)]
        match_id: Option<i64>,
    },
    /// Set this connection's options; answered with `options` (all of them, as they
    /// are now). `legal_in_prompt`: every prompt carries the seat's legal actions
    /// (`legal`), so a bot need not ask for them.
    Options {
        #[serde(default)]
        legal_in_prompt: Option<bool>,
    },
    /// Liveness check; answered with `pong`.
    Ping,
    /// List the tournaments: open and running ones, then the latest finished.
    Tournaments,
    /// Create a tournament (`docs/tournaments.md`); answered with `tournament_created`.
    CreateTournament {
        #[serde(flatten)]
        settings: TournamentSettings,
    },
    /// Enter a tournament; its pairings arrive as ordinary `match_started` messages
    /// (with the tournament's id), and this connection watches it.
    JoinTournament { tournament: i64 },
    /// Leave a tournament: games not yet played are forfeits.
    WithdrawTournament { tournament: i64 },
    /// Arena only: stop being paired (`paused` true) or be paired again (false); your
    /// standing and a game under way stay. Answered with `tournament_paused`.
    PauseTournament { tournament: i64, paused: bool },
    /// Receive the tournament's state (`tournament`) now and whenever it changes.
    WatchTournament { tournament: i64 },
    /// Stop receiving a tournament's state.
    UnwatchTournament { tournament: i64 },
}

/// What a tournament's creator chooses; every field but `ruleset` and `format` has a
/// default (`docs/tournaments.md` lists them and their limits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentSettings {
    #[serde(default)]
    pub name: Option<String>,
    pub ruleset: String,
    #[serde(default)]
    pub config: Value,
    /// `swiss`, `arena` or `round_robin`.
    pub format: String,
    /// Seats a game (default: two, or the ruleset's least above one).
    #[serde(default)]
    pub seats: Option<usize>,
    /// Swiss: rounds to play.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Arena: how long it runs.
    #[serde(default)]
    pub duration_ms: Option<u64>,
    /// When it starts, as RFC 3339 text (`2026-12-24T18:00:00Z`).
    #[serde(default)]
    pub starts_at: Option<String>,
    /// Start once this many have joined (with `starts_at`: whichever comes first).
    #[serde(default)]
    pub start_when: Option<u32>,
    /// Time per decision, and each seat's time bank, in milliseconds.
    #[serde(default)]
    pub deadline_ms: Option<u64>,
    #[serde(default)]
    pub time_bank_ms: Option<u64>,
    /// Whether its games move ratings (default true).
    #[serde(default)]
    pub rated: Option<bool>,
    #[serde(default)]
    pub max_entrants: Option<u32>,
    /// Who may enter: `people`, `bots` or `both` (the default).
    #[serde(default)]
    pub entry: Option<String>,
}

/// An `act` line, the same fields as [`ClientMessage::Act`], read without the enum's
/// buffering (see [`ClientMessage::parse`]). Any other `type` fails to read, and the
/// line is read as a [`ClientMessage`] instead.
#[derive(Deserialize)]
struct ActLine {
    #[serde(rename = "type")]
    _type: ActType,
    #[serde(rename = "match", default)]
    match_id: Option<i64>,
    #[serde(default)]
    seat: Option<usize>,
    action: Value,
    #[serde(default)]
    step: Option<usize>,
}

/// The one `type` an [`ActLine`] has.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum ActType {
    Act,
}

/// Why a line could not be read as a request: a protocol-level error code and a reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub code: &'static str,
    pub message: String,
}

/// The `type`s a client may send, for error messages.
pub const CLIENT_TYPES: &[&str] = &[
    "register",
    "login",
    "resume",
    "logout",
    "rulesets",
    "queue",
    "leave_queue",
    "tables",
    "create_table",
    "join_table",
    "add_bot",
    "leave_table",
    "start_table",
    "matches",
    "spectate",
    "unspectate",
    "act",
    "resign",
    "legal",
    "take_seat",
    "options",
    "ping",
    "tournaments",
    "create_tournament",
    "join_tournament",
    "withdraw_tournament",
    "pause_tournament",
    "watch_tournament",
    "unwatch_tournament",
];

impl ClientMessage {
    /// Read one line; the error says what is wrong in words a client author can act on.
    pub fn parse(line: &str) -> Result<ClientMessage, ParseError> {
        // Every answer of every match comes here: an `act` is read as a plain struct,
        // in one pass (serde reads a `type`-tagged enum by first copying the whole
        // object into a buffer of its own). Any other good line is read straight into
        // its message; only a bad one is read again as a tree, to say what is wrong.
        if let Ok(act) = serde_json::from_str::<ActLine>(line) {
            return Ok(ClientMessage::Act {
                match_id: act.match_id,
                seat: act.seat,
                action: act.action,
                step: act.step,
            });
        }
        if let Ok(message) = serde_json::from_str(line) {
            return Ok(message);
        }
        let value: Value = serde_json::from_str(line).map_err(|e| ParseError {
            code: "bad_json",
            message: format!("the line is not JSON: {e}"),
        })?;
        let Some(kind) = value.get("type").and_then(Value::as_str) else {
            return Err(ParseError {
                code: "bad_message",
                message: "a message is a JSON object with a string \"type\" field".into(),
            });
        };
        if !CLIENT_TYPES.contains(&kind) {
            return Err(ParseError {
                code: "unknown_type",
                message: format!(
                    "unknown message type {kind:?}; known: {}",
                    CLIENT_TYPES.join(", ")
                ),
            });
        }
        let kind = kind.to_string();
        serde_json::from_value(value).map_err(|e| ParseError {
            code: "bad_message",
            message: format!("bad {kind:?} message: {e}"),
        })
    }
}

/// A ruleset as listed to clients.
#[derive(Debug, Clone, Serialize)]
pub struct RulesetInfo {
    pub id: String,
    pub name: String,
    /// Smallest and largest seat count with the default config.
    pub seats: [usize; 2],
    pub bots: Vec<String>,
    pub default_config: Value,
    /// Time per decision on this server, in milliseconds.
    pub deadline_ms: u64,
}

/// A seat at a table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableSeat {
    pub seat: usize,
    /// Account name or `bot:NAME`; absent while the seat is free.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// A table as shown to clients.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableInfo {
    pub table: u64,
    pub ruleset: String,
    pub config: Value,
    pub owner: String,
    pub seats: Vec<TableSeat>,
    /// Time per decision.
    pub deadline_ms: u64,
    /// Each seat's time bank.
    pub time_bank_ms: u64,
}

/// A live match as listed to clients.
#[derive(Debug, Clone, Serialize)]
pub struct MatchInfo {
    #[serde(rename = "match")]
    pub match_id: i64,
    pub ruleset: String,
    pub players: Vec<String>,
    pub rated: bool,
    /// The compatibility port whose clients play it (`spacegoo`, `qgame`); absent for
    /// matches of the native protocol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<String>,
}

/// Everything the server sends that does not come from a referee. Referee messages
/// (`joined`, `view`, `prompt`, `events`, `rejected`, `ejected`, `outcome`) are
/// forwarded as the referee writes them, with the `match` id added.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// First line on every connection.
    Welcome {
        protocol: u32,
        server: String,
        rulesets: Vec<String>,
    },
    Registered {
        name: String,
        /// A token that logs this account in again (`resume`) until it expires or is
        /// closed (`logout`); for this client only.
        session: String,
        /// Whether the account is a bot's (a tournament's entry rule judges it).
        bot: bool,
    },
    LoggedIn {
        name: String,
        /// As in `registered`: the session to `resume` with later.
        session: String,
        /// As in `registered`.
        bot: bool,
        /// Live matches in which this account holds a seat (resumed on this connection).
        resumed: Vec<i64>,
    },
    Rulesets {
        rulesets: Vec<RulesetInfo>,
    },
    Queued {
        ruleset: String,
        seats: usize,
        config: Value,
        /// Players waiting in this queue, you included.
        waiting: usize,
        /// What happens next, for people (e.g. that you are the only one waiting).
        note: String,
    },
    LeftQueue {
        ruleset: String,
    },
    Tables {
        tables: Vec<TableInfo>,
    },
    /// A table you sit at changed (or you just created or joined it).
    Table {
        #[serde(flatten)]
        table: TableInfo,
    },
    /// You left a table.
    LeftTable {
        table: u64,
    },
    /// The table you sat at was closed without a match.
    TableClosed {
        table: u64,
        reason: String,
    },
    /// The table you sat at became this match (sent after the players' `match_started`).
    TableStarted {
        table: u64,
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// A match with one of your seats started (from the queue or a table).
    MatchStarted {
        #[serde(rename = "match")]
        match_id: i64,
        ruleset: String,
        config: Value,
        players: Vec<String>,
        seat: usize,
        /// Time per decision.
        deadline_ms: u64,
        /// Each seat's time bank for the whole match, drawn on past `deadline_ms`.
        time_bank_ms: u64,
        rated: bool,
        /// The tournament this match is a game of.
        #[serde(skip_serializing_if = "Option::is_none")]
        tournament: Option<i64>,
    },
    Matches {
        matches: Vec<MatchInfo>,
    },
    /// You now watch this match; spectator views and events follow.
    Spectating {
        #[serde(rename = "match")]
        match_id: i64,
        ruleset: String,
        players: Vec<String>,
    },
    Unspectated {
        #[serde(rename = "match")]
        match_id: i64,
    },
    /// The actions a seat may answer at `step` (empty when it owes no decision). A
    /// sample where the ruleset's moves are combinatorial (its rules page says so).
    Legal {
        #[serde(rename = "match")]
        match_id: i64,
        seat: usize,
        step: usize,
        actions: Vec<Value>,
    },
    Pong,
    /// This connection's options, after an `options` request.
    Options {
        legal_in_prompt: bool,
    },
    /// Tournaments, newest first (open and running ones before finished ones).
    Tournaments {
        tournaments: Vec<arbiter_store::Tournament>,
    },
    TournamentCreated {
        tournament: i64,
    },
    TournamentJoined {
        tournament: i64,
    },
    /// Your pairing in an arena is paused (or resumed), after `pause_tournament`.
    TournamentPaused {
        tournament: i64,
        paused: bool,
    },
    TournamentWithdrawn {
        tournament: i64,
    },
    TournamentUnwatched {
        tournament: i64,
    },
    /// A tournament's state: settings, standings, rounds and games (the same document
    /// as `GET /api/tournaments/{id}`); sent to its watchers when it changes.
    Tournament {
        #[serde(flatten)]
        state: Value,
    },
    /// A tournament you entered or watch is over (its final state came just before).
    TournamentEnded {
        tournament: i64,
    },
    /// The session is closed; the connection closes next.
    LoggedOut,
    /// The server is stopping (an upgrade, a restart); the connection closes next.
    /// Nothing is lost: every running match goes on from its stored log when the server
    /// (or another node of the deployment) resumes it. Connect again after about
    /// `retry_after_ms`, log in (`resume`), and your seats and tournament entries are
    /// yours again, each pending decision with its time left and the resume grace.
    ServerRestarting {
        retry_after_ms: u64,
    },
    /// A request was refused, or the connection is about to be closed.
    Error {
        code: String,
        message: String,
        /// When to try again (a throttled login), in milliseconds.
        #[serde(skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
}

impl ServerMessage {
    pub fn error(code: impl Into<String>, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code: code.into(),
            message: message.into(),
            retry_after_ms: None,
        }
    }

    /// The message as one line of JSON (without the newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                r#"{{"type":"error","code":"internal","message":"cannot encode a reply: {e}"}}"#
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_bot_registers_and_a_tournament_says_who_may_enter() {
        let read = |line: &str| ClientMessage::parse(line).map_err(|e| e.message);
        let register = |bot| ClientMessage::Register {
            name: "a".into(),
            password: "p".into(),
            bot,
        };
        assert_eq!(
            read(r#"{"type":"register","name":"a","password":"p","bot":true}"#),
            Ok(register(true))
        );
        assert_eq!(
            read(r#"{"type":"register","name":"a","password":"p"}"#),
            Ok(register(false))
        );
        let entry = |line| match read(line) {
            Ok(ClientMessage::CreateTournament { settings }) => {
                assert_eq!(
                    (settings.ruleset.as_str(), settings.format.as_str()),
                    ("tae", "arena")
                );
                settings.entry
            }
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            entry(
                r#"{"type":"create_tournament","ruleset":"tae","format":"arena","entry":"bots"}"#
            ),
            Some("bots".to_string())
        );
        assert_eq!(
            entry(r#"{"type":"create_tournament","ruleset":"tae","format":"arena"}"#),
            None
        );
    }

    #[test]
    fn parses_every_request_type() {
        let cases = [
            (
                r#"{"type":"register","name":"a","password":"p"}"#,
                "register",
            ),
            (r#"{"type":"login","name":"a","password":"p"}"#, "login"),
            (r#"{"type":"resume","session":"ab"}"#, "resume"),
            (r#"{"type":"logout"}"#, "logout"),
            (r#"{"type":"rulesets"}"#, "rulesets"),
            (
                r#"{"type":"queue","ruleset":"tae","config":{"hand":6},"seats":3}"#,
                "queue",
            ),
            (r#"{"type":"leave_queue"}"#, "leave_queue"),
            (r#"{"type":"tables"}"#, "tables"),
            (
                r#"{"type":"create_table","ruleset":"tae","seats":2}"#,
                "create_table",
            ),
            (r#"{"type":"join_table","table":3}"#, "join_table"),
            (
                r#"{"type":"add_bot","table":3,"bot":"greedy","seat":1}"#,
                "add_bot",
            ),
            (r#"{"type":"leave_table","table":3}"#, "leave_table"),
            (
                r#"{"type":"start_table","table":3,"fill":"random"}"#,
                "start_table",
            ),
            (r#"{"type":"matches"}"#, "matches"),
            (r#"{"type":"spectate","match":9}"#, "spectate"),
            (r#"{"type":"unspectate","match":9}"#, "unspectate"),
            (
                r#"{"type":"act","match":9,"action":{"kind":"pass"}}"#,
                "act",
            ),
            (r#"{"type":"act","action":"nop"}"#, "act"),
            (r#"{"type":"resign"}"#, "resign"),
            (r#"{"type":"legal","match":9}"#, "legal"),
            (r#"{"type":"take_seat","match":9}"#, "take_seat"),
            (r#"{"type":"options","legal_in_prompt":true}"#, "options"),
            (r#"{"type":"ping"}"#, "ping"),
            (r#"{"type":"tournaments"}"#, "tournaments"),
            (
                r#"{"type":"create_tournament","ruleset":"tae","format":"swiss","rounds":3}"#,
                "create_tournament",
            ),
            (
                r#"{"type":"join_tournament","tournament":2}"#,
                "join_tournament",
            ),
            (
                r#"{"type":"withdraw_tournament","tournament":2}"#,
                "withdraw_tournament",
            ),
            (
                r#"{"type":"pause_tournament","tournament":2,"paused":true}"#,
                "pause_tournament",
            ),
            (
                r#"{"type":"watch_tournament","tournament":2}"#,
                "watch_tournament",
            ),
            (
                r#"{"type":"unwatch_tournament","tournament":2}"#,
                "unwatch_tournament",
            ),
        ];
        assert_eq!(cases.len(), CLIENT_TYPES.len() + 1);
        for (line, _) in cases {
            // Read straight, as read through a tree.
            let tree: Value = serde_json::from_str(line).unwrap();
            let through_tree: ClientMessage = serde_json::from_value(tree).unwrap();
            assert_eq!(
                ClientMessage::parse(line).ok(),
                Some(through_tree),
                "{line}"
            );
        }
        // The `act` lines' own reader agrees with the enum's and the tree's (what
        // `parse` read before it) on good lines, and leaves the rest (another type, a
        // field twice, a missing action) to them.
        for line in [
            r#"{"type":"act","match":9,"action":{"kind":"pass"}}"#,
            r#"{"action":"nop","type":"act"}"#,
            r#"{"type":"act","match":null,"seat":1,"action":null,"extra":[1]}"#,
            r#"{"type":"act","match":9,"type":"ping","action":1}"#,
            r#"{"type":"act","match":9,"match":9,"action":1}"#,
            r#"{"type":"act","match":-3,"seat":-1,"action":1}"#,
            r#"{"type":"act","match":9}"#,
            r#"{"type":"ping","action":1}"#,
        ] {
            let without_act_reader = serde_json::from_str::<ClientMessage>(line)
                .ok()
                .or_else(|| serde_json::from_value(serde_json::from_str(line).ok()?).ok());
            assert_eq!(
                ClientMessage::parse(line).ok(),
                without_act_reader,
                "{line}"
            );
        }
        assert_eq!(
            ClientMessage::parse(r#"{"type":"act","match":9,"action":[1,2]}"#).unwrap(),
            ClientMessage::Act {
                match_id: Some(9),
                seat: None,
                action: json!([1, 2]),
                step: None,
            }
        );
        assert_eq!(
            ClientMessage::parse(r#"{"type":"act","match":9,"step":4,"action":"pass"}"#).unwrap(),
            ClientMessage::Act {
                match_id: Some(9),
                seat: None,
                action: json!("pass"),
                step: Some(4),
            }
        );
    }

    #[test]
    fn bad_requests_get_distinct_codes() {
        for (line, code) in [
            ("garbage", "bad_json"),
            ("{\"type\":", "bad_json"),
            ("[1,2]", "bad_message"),
            ("{\"kind\":\"login\"}", "bad_message"),
            ("{\"type\":\"fly\"}", "unknown_type"),
            ("{\"type\":\"login\",\"name\":\"a\"}", "bad_message"),
            ("{\"type\":\"spectate\",\"match\":\"x\"}", "bad_message"),
            (
                "{\"type\":\"create_table\",\"ruleset\":\"tae\",\"seats\":-1}",
                "bad_message",
            ),
        ] {
            let error = ClientMessage::parse(line).unwrap_err();
            assert_eq!(error.code, code, "{line}: {}", error.message);
            assert!(!error.message.is_empty());
        }
    }

    #[test]
    fn server_messages_are_tagged_lines() {
        let line = ServerMessage::error("bad_json", "nope").to_line();
        assert_eq!(
            line,
            r#"{"type":"error","code":"bad_json","message":"nope"}"#
        );
        let table = ServerMessage::Table {
            table: TableInfo {
                table: 1,
                ruleset: "tae".into(),
                config: json!({}),
                owner: "ann".into(),
                seats: vec![
                    TableSeat {
                        seat: 0,
                        player: Some("ann".into()),
                    },
                    TableSeat {
                        seat: 1,
                        player: None,
                    },
                ],
                deadline_ms: 120_000,
                time_bank_ms: 300_000,
            },
        };
        assert_eq!(
            table.to_line(),
            r#"{"type":"table","table":1,"ruleset":"tae","config":{},"owner":"ann","seats":[{"seat":0,"player":"ann"},{"seat":1}],"deadline_ms":120000,"time_bank_ms":300000}"#
        );
    }
}
