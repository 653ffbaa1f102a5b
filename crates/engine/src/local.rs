//! Play a whole match in-process with bots, recording it as it goes.
//!
//! The synchronous counterpart of the network referee: the same rules (determinized
//! states for bots, ejection of an illegal answer, a log that replays exactly) without
//! clocks or sockets. Used by `arbiter play`, tournaments and tests.

use rand::{Rng, SeedableRng};

use crate::bot::Bot;
use crate::digest::digest_of;
use crate::erased::apply_checked;
use crate::game::{ConfigError, Game, Seat};
use crate::record::{DigestChain, LogEntry, MatchRecord, RECORD_FORMAT};
use crate::rng::GameRng;
use crate::turn::Turn;

/// A finished (or cut-off) local match.
pub struct LocalMatch<G: Game> {
    pub state: G::State,
    pub record: MatchRecord,
}

/// Limits for a local match.
#[derive(Debug, Clone, Copy)]
pub struct LocalOptions {
    /// Stop after this many decisions even if the game is not over (a safety net; every
    /// ruleset must end on its own).
    pub max_decisions: usize,
}

impl Default for LocalOptions {
    fn default() -> Self {
        LocalOptions {
            max_decisions: 1_000_000,
        }
    }
}

/// Play `config` with one bot per seat from `seed` to the end.
///
/// Each bot decides on a state determinized for its seat from a generator derived from
/// the seed, so the whole match is a pure function of config, bots and seed. An illegal
/// answer ejects the seat with the reason recorded.
pub fn play_local<G: Game>(
    config: &G::Config,
    names: Vec<String>,
    bots: &mut [Box<dyn Bot<G>>],
    seed: u64,
    options: LocalOptions,
) -> Result<LocalMatch<G>, ConfigError> {
    let seats = bots.len();
    if names.len() != seats {
        return Err(ConfigError::new("one name per seat is needed"));
    }
    let mut state = G::new(config, seats, seed)?;
    let mut bot_rng = GameRng::seed_from_u64(seed ^ 0x5EA7_B075_0000_0001);
    let mut record = MatchRecord {
        format: RECORD_FORMAT,
        ruleset: G::ID.to_string(),
        config: serde_json::to_value(config).map_err(|e| ConfigError::new(e.to_string()))?,
        seats: names,
        seed,
        initial_digest: digest_of(&state),
        log: Vec::new(),
        outcome: None,
        stand_ins: Vec::new(),
        resumptions: Vec::new(),
    };
    let mut chain = DigestChain::new(&record.initial_digest);
    let mut concurrent_turn = 0usize;
    for _ in 0..options.max_decisions {
        let seat: Seat = match G::to_act(&state) {
            Turn::Over => break,
            // A ruleset that names no seat cannot progress; stop rather than spin.
            Turn::Sealed(seats) | Turn::AnyOf(seats) if seats.is_empty() => break,
            Turn::One(seat) => seat,
            // Sealed decisions are collected one at a time; the ruleset keeps each
            // pending command hidden from the others until all are in.
            Turn::Sealed(waiting) => waiting[0],
            Turn::AnyOf(ready) => {
                concurrent_turn += 1;
                ready[(concurrent_turn + bot_rng.random_range(0..ready.len())) % ready.len()]
            }
        };
        let seen = G::determinize(&state, seat, &mut bot_rng);
        let action = bots[seat].decide(&seen, seat);
        let (entry, events) = match apply_checked::<G>(&mut state, seats, seat, &action) {
            Ok(events) => (
                LogEntry::Act {
                    seat,
                    action: serde_json::to_value(&action).unwrap_or_default(),
                    digest: String::new(),
                },
                events,
            ),
            Err(illegal) => {
                let reason = format!("illegal action: {illegal}");
                let events = G::eject(&mut state, seat, &reason);
                let digest = String::new();
                (
                    LogEntry::Eject {
                        seat,
                        reason,
                        digest,
                    },
                    events,
                )
            }
        };
        let over = G::to_act(&state).is_over();
        let entry = chain.seal(entry, &digest_of(&events), over, || digest_of(&state));
        record.log.push(entry);
    }
    record.outcome = G::outcome(&state);
    Ok(LocalMatch { state, record })
}
