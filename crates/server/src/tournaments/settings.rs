//! A tournament's settings as a creator asks for them, checked and completed into what
//! the store records. Every refusal names the setting and its limits.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use arbiter_store::{AccountId, EntryRule, NewTournament, MAX_TOURNAMENT_NAME};
use arbiter_tournament::Format;

use crate::hub::Hub;
use crate::protocol::messages::TournamentSettings;
use crate::protocol::Refusal;

/// Unfinished tournaments one account may have created at once.
pub const MAX_OPEN_PER_CREATOR: u32 = 5;
/// Rounds of a Swiss tournament when the creator does not say.
pub const DEFAULT_ROUNDS: u32 = 5;
/// An arena's length when the creator does not say, and its longest (its shortest is
/// the server's `Limits::shortest_arena`, a minute unless a test lowers it).
pub const DEFAULT_ARENA: Duration = Duration::from_secs(30 * 60);
pub const MAX_ARENA: Duration = Duration::from_secs(24 * 3600);
/// How far ahead a start may be set.
pub const MAX_START_AHEAD: Duration = Duration::from_secs(30 * 24 * 3600);

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::new("bad_tournament", message)
}

/// `asked`, checked against the ruleset and the format's limits, as the store records
/// it; `creator` is recorded as its creator.
pub async fn check(
    hub: &Hub,
    asked: &TournamentSettings,
    creator: Option<AccountId>,
) -> Result<NewTournament, Refusal> {
    let ruleset = hub.ruleset(&asked.ruleset)?.clone();
    let format = match asked.format.as_str() {
        "swiss" => Format::Swiss,
        "arena" => Format::Arena,
        "round_robin" => Format::RoundRobin,
        other => {
            return Err(Refusal::new(
                "unknown_format",
                format!("unknown format {other:?}; formats: swiss, arena, round_robin"),
            ))
        }
    };
    let entry = match asked.entry.as_deref() {
        None => EntryRule::Both,
        Some(text) => EntryRule::parse(text).ok_or_else(|| {
            Refusal::new(
                "bad_entry",
                format!("unknown entry rule {text:?}; entry is people, bots or both"),
            )
        })?,
    };
    let (config, seats) = hub.check_game(&ruleset, &asked.config, asked.seats, 2)?;
    let least = ruleset
        .game
        .seat_counts(&config)
        .map(|range| (*range.start()).max(2))
        .unwrap_or(2);
    let max_entrants = asked.max_entrants.unwrap_or(match format {
        Format::RoundRobin if seats == 2 => arbiter_tournament::round_robin::MAX_ENTRANTS as u32,
        Format::RoundRobin => 6,
        Format::Swiss if seats == 2 => 64,
        Format::Swiss => 64,
        Format::Arena => 1000,
    });
    let rounds = match format {
        Format::Swiss => Some(asked.rounds.unwrap_or(DEFAULT_ROUNDS)),
        _ if asked.rounds.is_some() => return Err(bad(
            "rounds are set only for a Swiss tournament (a round-robin's follow from its entrants)",
        )),
        _ => None,
    };
    arbiter_tournament::check(format, seats, least, max_entrants as usize, rounds).map_err(bad)?;
    let duration_ms = match format {
        Format::Arena => {
            let asked = asked
                .duration_ms
                .map(Duration::from_millis)
                .unwrap_or(DEFAULT_ARENA);
            let shortest = hub.config.limits.shortest_arena;
            if !(shortest..=MAX_ARENA).contains(&asked) {
                return Err(bad(format!(
                    "an arena's duration_ms must be from {} to {}",
                    shortest.as_millis(),
                    MAX_ARENA.as_millis()
                )));
            }
            Some(asked.as_millis() as i64)
        }
        _ if asked.duration_ms.is_some() => {
            return Err(bad("duration_ms is set only for an arena"))
        }
        _ => None,
    };
    let starts_at = match &asked.starts_at {
        None => None,
        Some(text) => {
            let at = humantime::parse_rfc3339_weak(text).map_err(|e| {
                bad(format!(
                    "starts_at {text:?} is not RFC 3339 time (2026-12-24T18:00:00Z): {e}"
                ))
            })?;
            let now = SystemTime::now();
            if at < now {
                return Err(bad(format!("starts_at {text} is in the past")));
            }
            if at > now + MAX_START_AHEAD {
                return Err(bad(format!(
                    "starts_at may be at most {} days ahead",
                    MAX_START_AHEAD.as_secs() / 86_400
                )));
            }
            Some(
                at.duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as i64),
            )
        }
    };
    if let Some(count) = asked.start_when {
        if count < least as u32 || count > max_entrants {
            return Err(bad(format!(
                "start_when must be from {least} to max_entrants ({max_entrants})"
            )));
        }
    }
    if starts_at.is_none() && asked.start_when.is_none() {
        return Err(bad(
            "say when it starts: starts_at (RFC 3339 time), start_when (a number of entrants), or both",
        ));
    }
    let clock = match (asked.deadline_ms, asked.time_bank_ms) {
        (None, None) => hub.queue_clock(&ruleset),
        (deadline, bank) => {
            let mut clock = hub.table_clock(ruleset.id(), deadline, bank, None, None)?;
            if deadline.is_none() {
                clock.deadline = hub.queue_clock(&ruleset).deadline;
            }
            clock
        }
    };
    let name = match &asked.name {
        Some(name) => name.trim().to_string(),
        None => format!("{} {}", ruleset.game.name(), asked.format.replace('_', "-")),
    };
    if name.is_empty() || name.chars().count() > MAX_TOURNAMENT_NAME {
        return Err(bad(format!(
            "a tournament's name is 1 to {MAX_TOURNAMENT_NAME} characters"
        )));
    }
    if let Some(account) = creator {
        if hub.store.unfinished_tournaments_by(account).await? >= MAX_OPEN_PER_CREATOR {
            return Err(Refusal::new(
                "too_many_tournaments",
                format!(
                    "you have {MAX_OPEN_PER_CREATOR} tournaments that are not over; wait for one to end"
                ),
            ));
        }
    }
    Ok(NewTournament {
        name,
        ruleset: ruleset.id().to_string(),
        config,
        format: asked.format.clone(),
        seats: seats as u32,
        rounds,
        duration_ms,
        starts_at,
        start_when: asked.start_when,
        deadline_ms: clock.deadline.as_millis() as i64,
        time_bank_ms: clock.time_bank.as_millis() as i64,
        rated: asked.rated.unwrap_or(true),
        max_entrants,
        created_by: creator,
        entry,
    })
}
