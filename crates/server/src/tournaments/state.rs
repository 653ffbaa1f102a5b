//! A tournament as people and programs read it: its settings, standings with their
//! tie-breaks, and its rounds' games, as one JSON document (the `tournament` message
//! and `GET /api/tournaments/{id}`) or the standings as CSV. Built from the store alone,
//! so every node shows the same thing.

use std::collections::{HashMap, HashSet};

use arbiter_store::{
    rfc3339, AccountId, EntrantStatus, Store, StoreError, Tournament, TournamentBye,
    TournamentEntrant, TournamentGame, TournamentId,
};
use arbiter_tournament::{ByeRecord, Entrant, Format, GameRecord, Standing};
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
    pub fn document(&self, games: Games) -> Value {
        let t = &self.tournament;
        let names = self.names();
        let name_of = |id: &AccountId| names.get(id).copied().unwrap_or("?").to_string();
        let withdrawn: Vec<AccountId> = self
            .entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Withdrawn)
            .map(|e| e.account_id)
            .collect();
        let paused: Vec<AccountId> = self
            .entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Active && e.paused)
            .map(|e| e.account_id)
            .collect();
        let bots = self.bots();
        let table = self.standings();
        let standings: Vec<Value> = table
            .iter()
            .map(|s| {
                let mut row = json!({
                    "rank": s.rank,
                    "name": name_of(&s.entrant),
                    "points": s.points.as_f64(),
                    "played": s.played,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "byes": s.byes,
                    "forfeits": s.forfeits,
                    "tiebreaks": s
                        .tiebreaks
                        .iter()
                        .map(|t| (t.name.to_string(), json!(t.as_f64())))
                        .collect::<serde_json::Map<_, _>>(),
                });
                if paused.contains(&s.entrant) {
                    row["paused"] = json!(true);
                }
                if withdrawn.contains(&s.entrant) {
                    row["withdrawn"] = json!(true);
                }
                if bots.contains(&s.entrant) {
                    row["bot"] = json!(true);
                }
                row
            })
            .collect();
        let listed: Vec<&TournamentGame> = match games {
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
        };
        let games: Vec<Value> = listed
            .iter()
            .map(|g| {
                json!({
                    "game": g.id,
                    "round": g.round,
                    "players": g.seats.iter().map(name_of).collect::<Vec<_>>(),
                    "match": g.match_id,
                    "ranks": g.ranks,
                    "forfeit": g.forfeit,
                    "status": match (&g.ranks, g.forfeit, g.match_id) {
                        (Some(_), true, _) => "forfeit",
                        (Some(_), false, _) => "finished",
                        (None, _, Some(_)) => "playing",
                        (None, _, None) => "pending",
                    },
                })
            })
            .collect();
        let byes: Vec<Value> = self
            .byes
            .iter()
            .map(|b| json!({"round": b.round, "player": name_of(&b.account_id)}))
            .collect();
        let ends_at = match (t.started_at, t.duration_ms) {
            (Some(start), Some(length)) => Some(rfc3339(start + length)),
            _ => None,
        };
        json!({
            "tournament": t.id,
            "name": t.name,
            "ruleset": t.ruleset,
            "config": t.config,
            "format": t.format,
            "seats": t.seats,
            "status": t.status,
            "round": t.round,
            "rounds": t.rounds,
            "duration_ms": t.duration_ms,
            "starts_at": t.starts_at.map(rfc3339),
            "start_when": t.start_when,
            "started_at": t.started_at.map(rfc3339),
            "ends_at": ends_at,
            "finished_at": t.finished_at.map(rfc3339),
            "deadline_ms": t.deadline_ms,
            "time_bank_ms": t.time_bank_ms,
            "rated": t.rated,
            "max_entrants": t.max_entrants,
            "entry": t.entry,
            "entrants": t.entrants,
            "tiebreaks": tiebreak_names(&table),
            "standings": standings,
            "games": games,
            "games_total": self.games.len(),
            "byes": byes,
        })
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
