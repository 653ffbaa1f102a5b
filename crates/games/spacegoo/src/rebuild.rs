//! A full state from one seat's view, for players that receive only views.
//!
//! Spacegoo is perfect information but for the other seat's sealed command, so the view
//! holds the whole board; the rebuilt state has the seat's own sealed command (if any)
//! and none of the other seat's, exactly as `determinize` leaves it. Nothing is random.

use arbiter_engine::Seat;

use crate::config::Config;
use crate::reasons;
use crate::state::{player_id, Disqualification, End, State, SEATS};
use crate::view::View;
use crate::world::{EngineResult, Fleet, World};

/// The state `seat` may be in, given its `view`; see `Game::state_from_view`.
pub fn state_from_view(config: &Config, view: &View, seat: Seat) -> Result<State, String> {
    if seat >= SEATS || view.player_id != Some(player_id(seat)) {
        return Err(format!("this is not seat {seat}'s view"));
    }
    if view.max_rounds != config.max_rounds {
        return Err(format!(
            "the view plays {} rounds but the configuration {}",
            view.max_rounds, config.max_rounds
        ));
    }
    for (index, planet) in view.planets.iter().enumerate() {
        if planet.id != index {
            return Err(format!("planet {index} is listed with id {}", planet.id));
        }
    }
    let planets = view.planets.len();
    let fleets = view
        .fleets
        .iter()
        .map(|f| {
            if f.origin >= planets || f.target >= planets {
                return Err(format!("fleet {} names a planet that does not exist", f.id));
            }
            Ok(Fleet {
                id: f.id,
                owner_id: f.owner_id,
                ships: f.ships,
                origin: f.origin,
                target: f.target,
                eta: f.eta,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let out = view.disqualified.clone().map(|reason| {
        reason.map(|reason| Disqualification {
            missed_deadline: reasons::is_missed_deadline(&reason),
            reason,
        })
    });
    let end = match (view.game_over, &view.end_reason) {
        (false, None) => None,
        (true, Some(reason)) => Some(End {
            winner: view.winner,
            reason: reason.clone(),
        }),
        _ => return Err("the view's end and end reason disagree".to_string()),
    };
    // The engine's own result exists exactly when the tick, not a disqualification,
    // ended the game (a disqualification ends it without a tick, and nothing is
    // disqualified after the end).
    let result = match &end {
        Some(end) if out.iter().all(Option::is_none) => Some(match end.winner {
            Some(player) => EngineResult::Winner(player),
            None => EngineResult::Draw,
        }),
        _ => None,
    };
    let pending = view
        .your_command
        .iter()
        .map(|action| (seat, action.clone()))
        .collect();
    Ok(State {
        config: config.clone(),
        world: World {
            planets: view.planets.clone(),
            fleets,
            round: view.round,
            max_rounds: view.max_rounds,
            next_fleet_id: view.next_fleet_id,
            result,
        },
        pending,
        out,
        end,
    })
}
