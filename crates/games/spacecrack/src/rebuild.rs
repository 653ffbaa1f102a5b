//! A full state from a view, for players that receive only views.
//!
//! Space Crack has no secrets: the view holds every planet, ship, player and counter,
//! and the board follows from `board_size`. The rebuild only checks that the view is
//! one a game could show (ships and planets agree), so a malformed view is an error
//! rather than a state the rules would trip over.

use std::collections::BTreeMap;

use arbiter_engine::Seat;

use crate::board::Board;
use crate::config::Config;
use crate::state::{Planet, Player, State};
use crate::view::View;

/// The state behind `view`; see `Game::state_from_view`.
pub fn state_from_view(config: &Config, view: &View, seat: Seat) -> Result<State, String> {
    if view.config != *config {
        return Err("the view was made under another configuration".to_string());
    }
    let seats = view.players.len();
    if seat >= seats {
        return Err(format!("seat {seat} in a view of {seats} seats"));
    }
    let board = Board::shared(config.board_size);
    if view.planets.len() != board.planet_count() {
        return Err(format!(
            "the view lists {} planets but the board has {}",
            view.planets.len(),
            board.planet_count()
        ));
    }
    let planets: Vec<Planet> = view
        .planets
        .iter()
        .map(|p| Planet {
            size: p.size,
            owner: p.owner,
            ship: p.ship,
        })
        .collect();
    let mut ships = BTreeMap::new();
    for ship in &view.ships {
        let Some(planet) = planets.get(ship.planet) else {
            return Err(format!("ship {} stands on no planet", ship.id));
        };
        if planet.ship != Some(ship.id) || planet.owner != Some(ship.owner) || ship.owner >= seats {
            return Err(format!("ship {} and its planet disagree", ship.id));
        }
        if ships.insert(ship.id, ship.clone()).is_some() {
            return Err(format!("ship {} is listed twice", ship.id));
        }
    }
    let on_planets = planets.iter().filter(|p| p.ship.is_some()).count();
    if on_planets != ships.len() || planets.iter().any(|p| p.owner.is_some_and(|o| o >= seats)) {
        return Err("the planets name ships or owners that do not exist".to_string());
    }
    let players = view
        .players
        .iter()
        .map(|p| Player {
            crack: p.crack,
            command_points: p.command_points,
            finished: p.finished,
            status: p.status,
            eliminated: p.eliminated,
            ejected: p.ejected.clone(),
        })
        .collect();
    Ok(State {
        config: config.clone(),
        board,
        planets,
        ships,
        next_ship: view.next_ship_id,
        players,
        turn: view.turn,
        turns_left: view.turns_left,
        over: view.over,
    })
}
