//! A tournament as people and programs read it: its settings, standings with their
//! tie-breaks, and its rounds' games, as one JSON document (the `tournament` message
//! and `GET /api/tournaments/{id}`) or the standings as CSV. Built from the store alone,
//! so every node shows the same thing.

use std::collections::{HashMap, HashSet};

use arbiter_store::{
    rfc3339, AccountId, EntrantStatus, EntryRule, MatchId, Store, StoreError, Tournament,
    TournamentBye, TournamentEntrant, TournamentGame, TournamentId, TournamentStatus,
};
use arbiter_tournament::{ByeRecord, Entrant, Format, GameRecord, Standing};
use serde::Serialize;
use serde_json::{json, Value};

/// Everything stored about one tournament, read at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub tournament: Tournament,
    pub entrants: Vec<TournamentEntrant>,
    pub games: Vec<TournamentGame>,
    pub byes: Vec<TournamentBye>,
}

/// Which games a document lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Games {
    /// Every game of every round (the API's document, the downloads).
    All,
    /// The latest round's (arena: the games not yet decided, and the latest decided
    /// ones): what a live page shows, bounded for big fields.
    Current,
}

/// Games a `Current` document lists at most.
const CURRENT_GAMES: usize = 200;

impl Snapshot {
    pub async fn load(store: &Store, id: TournamentId) -> Result<Option<Snapshot>, StoreError> {
        let Some(tournament) = store.tournament(id).await? else {
            return Ok(None);
        };
        Ok(Some(Snapshot {
            entrants: store.tournament_entrants(id).await?,
            games: store.tournament_games(id).await?,
            byes: store.tournament_byes(id).await?,
            tournament,
        }))
    }

    pub fn format(&self) -> Format {
        format_of(&self.tournament.format)
    }

    /// The entrants as pairing sees them (withdrawn ones inactive).
    pub fn field(&self) -> Vec<Entrant> {
        self.entrants
            .iter()
            .map(|e| Entrant {
                id: e.account_id,
                rating: e.rating,
                active: e.status == EntrantStatus::Active,
            })
            .collect()
    }

    pub fn game_records(&self) -> Vec<GameRecord> {
        self.games
            .iter()
            .map(|g| GameRecord {
                round: g.round,
                seats: g.seats.clone(),
                ranks: g.ranks.clone(),
                forfeit: g.forfeit,
            })
            .collect()
    }

    pub fn bye_records(&self) -> Vec<ByeRecord> {
        self.byes
            .iter()
            .map(|b| ByeRecord {
                round: b.round,
                entrant: b.account_id,
            })
            .collect()
    }

    pub fn standings(&self) -> Vec<Standing> {
        arbiter_tournament::standings(
            self.format(),
            self.tournament.seats as usize,
            &self.field(),
            &self.game_records(),
            &self.bye_records(),
        )
    }

    /// The entrants a program plays.
    fn bots(&self) -> HashSet<AccountId> {
        self.entrants
            .iter()
            .filter(|e| e.bot)
            .map(|e| e.account_id)
            .collect()
    }

    fn names(&self) -> HashMap<AccountId, &str> {
        self.entrants
            .iter()
            .map(|e| (e.account_id, e.name.as_str()))
            .collect()
    }

    /// The whole state as one JSON object.
    pub fn document(&self, games: Games) -> TournamentDocument {
        let t = &self.tournament;
        let names = self.names();
        let name_of = |id: &AccountId| names.get(id).copied().unwrap_or("?").to_string();
        let table = self.standings();
        let ends_at = match (t.started_at, t.duration_ms) {
            (Some(start), Some(length)) => Some(rfc3339(start + length)),
            _ => None,
        };
        TournamentDocument {
            tournament: t.id,
            name: t.name.clone(),
            ruleset: t.ruleset.clone(),
            config: t.config.clone(),
            format: t.format.clone(),
            seats: t.seats,
            status: t.status,
            round: t.round,
            rounds: t.rounds,
            duration_ms: t.duration_ms,
            starts_at: t.starts_at.map(rfc3339),
            start_when: t.start_when,
            started_at: t.started_at.map(rfc3339),
            ends_at,
            finished_at: t.finished_at.map(rfc3339),
            deadline_ms: t.deadline_ms,
            time_bank_ms: t.time_bank_ms,
            rated: t.rated,
            max_entrants: t.max_entrants,
            entry: t.entry,
            entrants: t.entrants,
            tiebreaks: tiebreak_names(&table),
            standings: self.standing_rows(&table, &name_of),
            games: self
                .listed_games(games)
                .into_iter()
                .map(|game| GameRow::of(game, &name_of))
                .collect(),
            games_total: self.games.len(),
            byes: self
                .byes
                .iter()
                .map(|bye| ByeRow {
                    round: bye.round,
                    player: name_of(&bye.account_id),
                })
                .collect(),
        }
    }

    /// The standings' rows, each entrant's state marked (paused, withdrawn, a bot).
    fn standing_rows(
        &self,
        table: &[Standing],
        name_of: &dyn Fn(&AccountId) -> String,
    ) -> Vec<StandingRow> {
        let bots = self.bots();
        let entrant = |id: &AccountId| self.entrants.iter().find(|e| e.account_id == *id);
        table
            .iter()
            .map(|s| {
                let status = entrant(&s.entrant).map(|e| (e.status, e.paused));
                StandingRow {
                    rank: s.rank,
                    name: name_of(&s.entrant),
                    points: s.points.as_f64(),
                    played: s.played,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    byes: s.byes,
                    forfeits: s.forfeits,
                    tiebreaks: s
                        .tiebreaks
                        .iter()
                        .map(|t| (t.name.to_string(), json!(t.as_f64())))
                        .collect(),
                    paused: status == Some((EntrantStatus::Active, true)),
                    withdrawn: status.is_some_and(|(status, _)| status == EntrantStatus::Withdrawn),
                    bot: bots.contains(&s.entrant),
                }
            })
            .collect()
    }

    /// The games a document lists: all, or the current round's (an arena's latest,
    /// those still playing first).
    fn listed_games(&self, games: Games) -> Vec<&TournamentGame> {
        match games {
            Games::All => self.games.iter().collect(),
            Games::Current => {
                let latest = self.games.iter().map(|g| g.round).max().unwrap_or(0);
                let mut current: Vec<&TournamentGame> = match self.format() {
                    Format::Arena => self
                        .games
                        .iter()
                        .rev()
                        .filter(|g| g.ranks.is_none())
                        .chain(self.games.iter().rev().filter(|g| g.ranks.is_some()))
                        .take(CURRENT_GAMES)
                        .collect(),
                    _ => self
                        .games
                        .iter()
                        .filter(|g| g.round == latest)
                        .take(CURRENT_GAMES)
                        .collect(),
                };
                current.sort_by_key(|g| (g.round, g.id));
                current
            }
        }
    }

    /// The standings as CSV: a header line, then one line an entrant. The last column,
    /// `bot`, says whether a program plays the account (`true`/`false`).
    pub fn standings_csv(&self) -> String {
        let names = self.names();
        let bots = self.bots();
        let table = self.standings();
        let breaks = tiebreak_names(&table);
        let mut out = CSV_COLUMNS.join(",");
        for name in &breaks {
            // A tie-break named as a column already there (`wins`) gets a prefix, so
            // that every column has its own name.
            out.push(',');
            if CSV_COLUMNS.contains(&name.as_str()) {
                out.push_str("tiebreak_");
            }
            out.push_str(name);
        }
        out.push_str(",bot\n");
        for s in table {
            let name = names.get(&s.entrant).copied().unwrap_or("?");
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{}",
                s.rank,
                csv_field(name),
                s.points.as_f64(),
                s.played,
                s.wins,
                s.draws,
                s.losses,
                s.byes,
                s.forfeits
            ));
            for t in &s.tiebreaks {
                out.push(',');
                out.push_str(&t.to_string());
            }
            out.push_str(if bots.contains(&s.entrant) {
                ",true\n"
            } else {
                ",false\n"
            });
        }
        out
    }
}

/// The standings CSV's first columns, before the tie-breaks.
const CSV_COLUMNS: [&str; 9] = [
    "rank", "name", "points", "played", "wins", "draws", "losses", "byes", "forfeits",
];

pub fn format_of(text: &str) -> Format {
    match text {
        "arena" => Format::Arena,
        "round_robin" => Format::RoundRobin,
        _ => Format::Swiss,
    }
}

/// A tournament's state as its page, its watchers and `GET /api/tournaments/{id}` see
/// it (docs/protocol.md, "Tournaments").
#[derive(Debug, Clone, Serialize)]
pub struct TournamentDocument {
    pub tournament: TournamentId,
    pub name: String,
    pub ruleset: String,
    pub config: Value,
    pub format: String,
    pub seats: u32,
    pub status: TournamentStatus,
    pub round: u32,
    pub rounds: Option<u32>,
    pub duration_ms: Option<i64>,
    pub starts_at: Option<String>,
    pub start_when: Option<u32>,
    pub started_at: Option<String>,
    pub ends_at: Option<String>,
    pub finished_at: Option<String>,
    pub deadline_ms: i64,
    pub time_bank_ms: i64,
    pub rated: bool,
    pub max_entrants: u32,
    pub entry: EntryRule,
    pub entrants: u32,
    /// The tie-breaks' names, in the order they break ties.
    pub tiebreaks: Vec<String>,
    pub standings: Vec<StandingRow>,
    pub games: Vec<GameRow>,
    /// Every game so far, listed or not.
    pub games_total: usize,
    pub byes: Vec<ByeRow>,
}

impl TournamentDocument {
    /// As a JSON value, for the `tournament` message.
    pub fn into_value(self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// One entrant's line of the standings.
#[derive(Debug, Clone, Serialize)]
pub struct StandingRow {
    pub rank: u32,
    pub name: String,
    pub points: f64,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    pub forfeits: u32,
    /// Each tie-break's value, by name.
    pub tiebreaks: serde_json::Map<String, Value>,
    #[serde(skip_serializing_if = "is_false")]
    pub paused: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub withdrawn: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub bot: bool,
}

/// One game of the tournament.
#[derive(Debug, Clone, Serialize)]
pub struct GameRow {
    pub game: i64,
    pub round: u32,
    pub players: Vec<String>,
    #[serde(rename = "match")]
    pub match_id: Option<MatchId>,
    pub ranks: Option<Vec<u8>>,
    pub forfeit: bool,
    /// `pending`, `playing`, `finished` or `forfeit`.
    pub status: &'static str,
}

impl GameRow {
    fn of(game: &TournamentGame, name_of: &dyn Fn(&AccountId) -> String) -> GameRow {
        GameRow {
            game: game.id,
            round: game.round,
            players: game.seats.iter().map(name_of).collect(),
            match_id: game.match_id,
            ranks: game.ranks.clone(),
            forfeit: game.forfeit,
            status: match (&game.ranks, game.forfeit, game.match_id) {
                (Some(_), true, _) => "forfeit",
                (Some(_), false, _) => "finished",
                (None, _, Some(_)) => "playing",
                (None, _, None) => "pending",
            },
        }
    }
}

/// A round's bye.
#[derive(Debug, Clone, Serialize)]
pub struct ByeRow {
    pub round: u32,
    pub player: String,
}

fn is_false(flag: &bool) -> bool {
    !*flag
}

/// The tie-breaks' names in the order the standings apply them (every line has the
/// same; none before anyone has joined).
fn tiebreak_names(table: &[Standing]) -> Vec<String> {
    table.first().map_or_else(Vec::new, |s| {
        s.tiebreaks.iter().map(|t| t.name.to_string()).collect()
    })
}

/// A CSV field: quoted when it holds a comma, a quote or a line break. Account names
/// cannot, but the file should not depend on that.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}
