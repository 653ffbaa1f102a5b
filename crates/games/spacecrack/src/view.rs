//! The one projection to the outside. Space Crack has no secrets (background §2.4,
//! "spectators see what players see"), so every seat and every spectator get the same
//! view, byte for byte; a client knows its own seat from the protocol, not the view.

use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::board::PlanetId;
use crate::config::Config;
use crate::production::{income, is_core, is_frontier};
use crate::rules::winners;
use crate::state::{Ship, ShipId, State, Status};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub config: Config,
    /// Board width and height in doubled coordinates.
    pub width: u32,
    pub height: u32,
    /// The current turn, from 1.
    pub turn: u32,
    /// Turns left including the current one.
    pub turns_left: u32,
    /// Seats that may act now (under `turn_mode`); empty once the game is over.
    pub to_act: Vec<Seat>,
    pub over: bool,
    /// Set once the game is over: the seats sharing first place.
    pub winners: Option<Vec<Seat>>,
    pub planets: Vec<PlanetView>,
    pub ships: Vec<Ship>,
    /// The id the next ship built will get (ids count every ship ever built).
    pub next_ship_id: ShipId,
    pub players: Vec<PlayerView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanetView {
    pub id: PlanetId,
    pub x: u32,
    pub y: u32,
    pub q: i32,
    pub r: i32,
    pub size: u32,
    pub owner: Option<Seat>,
    pub ship: Option<ShipId>,
    pub neighbours: Vec<PlanetId>,
    /// Core (all six neighbours owned by the owner): earns `interior_bonus`.
    pub core: bool,
    /// Frontier (borders an opponent's planet): earns or defends with `perimeter_bonus`.
    pub frontier: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub crack: u32,
    pub command_points: u32,
    pub finished: bool,
    /// No ships and not enough crack to build: sits the turn out.
    pub stuck: bool,
    pub status: Status,
    pub eliminated: bool,
    /// Why the referee ejected this seat, if it did.
    pub ejected: Option<String>,
    pub planets: usize,
    /// Crack this player would gain if the turn ended now.
    pub income: u32,
}

/// The view of `state` for anyone (the seat does not matter: nothing is hidden).
pub fn view(state: &State, _seat: Option<Seat>) -> View {
    let board = state.board();
    let planets = state
        .planets()
        .iter()
        .enumerate()
        .map(|(id, planet)| {
            let site = &board.sites[id];
            PlanetView {
                id,
                x: site.x,
                y: site.y,
                q: site.q,
                r: site.r,
                size: planet.size,
                owner: planet.owner,
                ship: planet.ship,
                neighbours: board.neighbours[id].clone(),
                core: is_core(state, id),
                frontier: is_frontier(state, id),
            }
        })
        .collect();
    let players = state
        .players()
        .iter()
        .enumerate()
        .map(|(seat, player)| PlayerView {
            seat,
            crack: player.crack,
            command_points: player.command_points,
            finished: player.finished,
            stuck: state.is_stuck(seat),
            status: player.status,
            eliminated: player.eliminated,
            ejected: player.ejected.clone(),
            planets: state.planet_count(seat),
            income: income(state, seat),
        })
        .collect();
    View {
        config: state.config().clone(),
        width: board.width,
        height: board.height,
        turn: state.turn(),
        turns_left: state.turns_left(),
        to_act: crate::game::to_act_seats(state),
        over: state.is_over(),
        winners: state.is_over().then(|| winners(state)),
        planets,
        ships: state.ships().cloned().collect(),
        next_ship_id: state.next_ship,
        players,
    }
}
