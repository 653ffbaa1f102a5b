//! Applying actions, ending turns and ending the game (background §2.5–2.11).
//!
//! Every action is checked in full before anything changes, so a refused action leaves
//! the state untouched. After each accepted action (or ejection) the same bookkeeping
//! runs: eliminations, the early end, and ending turns until somebody can act again.

use arbiter_engine::{EventSink, Outcome, Seat};

use crate::actions::{Action, SpaceCrackError};
use crate::battle::battle_with_edge;
use crate::board::PlanetId;
use crate::config::{BuildOnOccupied, PerimeterMode, TurnMode};
use crate::events::{BattleResult, Event, FinishReason};
use crate::production::{is_frontier, production};
use crate::state::{Ship, ShipId, State, Status};

/// Whether `seat` may send an action now, with the reason if not.
pub fn check_may_act(state: &State, seat: Seat) -> Result<(), SpaceCrackError> {
    if state.over {
        return Err(SpaceCrackError::GameNotInPlay);
    }
    let player = state
        .players
        .get(seat)
        .ok_or(SpaceCrackError::NoSuchSeat(seat))?;
    if player.status != Status::Playing || player.eliminated {
        return Err(SpaceCrackError::NotPlaying(seat));
    }
    if player.finished {
        return Err(SpaceCrackError::AlreadyFinished(seat));
    }
    if player.command_points == 0 {
        return Err(SpaceCrackError::NoCommandPoints(seat));
    }
    if state.is_stuck(seat) {
        return Err(SpaceCrackError::Stuck(seat));
    }
    if state.config.turn_mode == TurnMode::Sequential {
        if let Some(current) = state.sequential_seat().filter(|&c| c != seat) {
            return Err(SpaceCrackError::NotYourTurn { seat, current });
        }
    }
    Ok(())
}

/// Apply one action of `seat`; on error nothing changed.
pub fn apply(
    state: &mut State,
    seat: Seat,
    action: &Action,
) -> Result<Vec<Event>, SpaceCrackError> {
    let mut events = Vec::new();
    apply_into(state, seat, action, &mut events)?;
    Ok(events)
}

/// [`apply`], its events put into `events`: a playout passes a sink that keeps none
/// ([`arbiter_engine::Discard`]), and no event is built.
pub fn apply_into(
    state: &mut State,
    seat: Seat,
    action: &Action,
    events: &mut impl EventSink<Event>,
) -> Result<(), SpaceCrackError> {
    effect_into(state, seat, action, events)?;
    after_change(state, events);
    Ok(())
}

/// The action's own effect, without the bookkeeping that may follow it (eliminations,
/// turn end). Bots use it on a copy to judge an action's immediate gain; on a real game
/// it must be followed by [`after_change`], or the turn may be left with nobody to act.
pub(crate) fn effect_into(
    state: &mut State,
    seat: Seat,
    action: &Action,
    events: &mut impl EventSink<Event>,
) -> Result<(), SpaceCrackError> {
    check_may_act(state, seat)?;
    match *action {
        Action::MoveShip { ship, planet } => move_ship(state, seat, ship, planet, events)?,
        Action::BuildShip { planet } => build_ship(state, seat, planet, events)?,
        Action::EndTurn => {
            if !state.config.allow_pass {
                return Err(SpaceCrackError::PassNotAllowed);
            }
            finish(state, seat, FinishReason::Passed, events);
        }
        Action::TurnTimeout => finish(state, seat, FinishReason::TimedOut, events),
        Action::Resign => {
            let player = &mut state.players[seat];
            player.status = Status::Resigned;
            player.finished = true;
            events.push(Event::PlayerResigned { seat });
        }
    }
    Ok(())
}

/// Remove a seat for the referee: like resigning (planets stay, auto-pass), and the
/// outcome ranks it last. Nothing happens if it is already ejected or the game is over.
pub fn eject(state: &mut State, seat: Seat, reason: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let Some(player) = state.players.get_mut(seat) else {
        return events;
    };
    if state.over || player.status == Status::Ejected {
        return events;
    }
    player.status = Status::Ejected;
    player.ejected = Some(reason.to_string());
    player.finished = true;
    events.push(Event::PlayerEjected {
        seat,
        reason: reason.to_string(),
    });
    after_change(state, &mut events);
    events
}

fn finish(state: &mut State, seat: Seat, reason: FinishReason, events: &mut impl EventSink<Event>) {
    let player = &mut state.players[seat];
    player.finished = true;
    events.push(Event::PlayerFinished {
        seat,
        reason,
        command_points_left: player.command_points,
    });
}

/// Pay one command point; the last one finishes the player's turn.
fn spend_point(state: &mut State, seat: Seat, events: &mut impl EventSink<Event>) {
    let player = &mut state.players[seat];
    player.command_points = player.command_points.saturating_sub(1);
    if player.command_points == 0 {
        finish(state, seat, FinishReason::OutOfPoints, events);
    }
}

fn move_ship(
    state: &mut State,
    seat: Seat,
    ship_id: ShipId,
    to: PlanetId,
    events: &mut impl EventSink<Event>,
) -> Result<(), SpaceCrackError> {
    let ship = state
        .ships
        .get(&ship_id)
        .cloned()
        .ok_or(SpaceCrackError::UnknownShip(ship_id))?;
    if ship.owner != seat {
        return Err(SpaceCrackError::NotYourShip {
            ship: ship_id,
            owner: ship.owner,
        });
    }
    if to >= state.planets.len() {
        return Err(SpaceCrackError::UnknownPlanet(to));
    }
    let from = ship.planet;
    if to == from {
        return Err(SpaceCrackError::SamePlanet {
            ship: ship_id,
            planet: to,
        });
    }
    if !state.board.adjacent(from, to) {
        return Err(SpaceCrackError::NotAdjacent {
            ship: ship_id,
            from,
            to,
        });
    }
    match state.ship_at(to).cloned() {
        None => {
            relocate(state, ship_id, from, to);
            events.push(Event::ShipMoved {
                seat,
                ship: ship_id,
                from,
                to,
            });
            capture(state, seat, to, events);
        }
        Some(target) if target.owner == seat => {
            let size = target.size.saturating_add(ship.size);
            remove_ship(state, ship_id);
            if let Some(target) = state.ships.get_mut(&target.id) {
                target.size = size;
            }
            events.push(Event::ShipsMerged {
                seat,
                ship: ship_id,
                into: target.id,
                size,
            });
        }
        Some(defender) => fight(state, seat, ship, defender, events),
    }
    spend_point(state, seat, events);
    Ok(())
}

/// Battle (background §2.7, with the `defender_edge` option of §2.13).
fn fight(
    state: &mut State,
    seat: Seat,
    attacker: Ship,
    defender: Ship,
    events: &mut impl EventSink<Event>,
) {
    let planet = defender.planet;
    let config = &state.config;
    let edge = if config.perimeter_mode == PerimeterMode::DefenderEdge && is_frontier(state, planet)
    {
        config.perimeter_bonus
    } else {
        0
    };
    let (a_left, d_left) = battle_with_edge(attacker.size, defender.size, edge);
    let result = match (a_left > 0, d_left > 0) {
        (true, _) => BattleResult::AttackerWon,
        (false, true) => BattleResult::DefenderWon,
        (false, false) => BattleResult::BothDestroyed,
    };
    events.push(Event::Battle {
        planet,
        attacker: seat,
        attacker_ship: attacker.id,
        defender: defender.owner,
        defender_ship: defender.id,
        attacker_before: attacker.size,
        defender_before: defender.size,
        attacker_after: a_left,
        defender_after: d_left,
        result,
    });
    match result {
        BattleResult::AttackerWon => {
            remove_ship(state, defender.id);
            relocate(state, attacker.id, attacker.planet, planet);
            if let Some(ship) = state.ships.get_mut(&attacker.id) {
                ship.size = a_left;
            }
            capture(state, seat, planet, events);
        }
        BattleResult::DefenderWon => {
            remove_ship(state, attacker.id);
            if let Some(ship) = state.ships.get_mut(&defender.id) {
                ship.size = d_left;
            }
        }
        // The planet keeps its owner, now with no ship on it.
        BattleResult::BothDestroyed => {
            remove_ship(state, attacker.id);
            remove_ship(state, defender.id);
        }
    }
}

fn relocate(state: &mut State, ship: ShipId, from: PlanetId, to: PlanetId) {
    state.planets[from].ship = None;
    state.planets[to].ship = Some(ship);
    if let Some(ship) = state.ships.get_mut(&ship) {
        ship.planet = to;
    }
}

fn remove_ship(state: &mut State, ship: ShipId) {
    if let Some(ship) = state.ships.remove(&ship) {
        state.planets[ship.planet].ship = None;
    }
}

fn capture(state: &mut State, seat: Seat, planet: PlanetId, events: &mut impl EventSink<Event>) {
    let from = state.planets[planet].owner;
    if from != Some(seat) {
        state.planets[planet].owner = Some(seat);
        events.push(Event::PlanetCaptured { seat, planet, from });
    }
}

fn build_ship(
    state: &mut State,
    seat: Seat,
    planet: PlanetId,
    events: &mut impl EventSink<Event>,
) -> Result<(), SpaceCrackError> {
    let target = state
        .planets
        .get(planet)
        .ok_or(SpaceCrackError::UnknownPlanet(planet))?;
    if target.owner != Some(seat) {
        return Err(SpaceCrackError::NotYourPlanet(planet));
    }
    let cost = target.size;
    let have = state.players[seat].crack;
    if have < cost {
        return Err(SpaceCrackError::InsufficientCrack { planet, cost, have });
    }
    let occupant = target.ship;
    if occupant.is_some() && state.config.build_on_occupied == BuildOnOccupied::Reject {
        return Err(SpaceCrackError::PlanetOccupied(planet));
    }
    state.players[seat].crack = have - cost;
    let crack_left = have - cost;
    match occupant.and_then(|id| state.ships.get_mut(&id)) {
        Some(ship) => {
            ship.size = ship.size.saturating_add(cost);
            events.push(Event::ShipReinforced {
                seat,
                ship: ship.id,
                planet,
                added: cost,
                size: ship.size,
                crack_left,
            });
        }
        None => {
            let id = state.put_ship(seat, planet, cost);
            events.push(Event::ShipBuilt {
                seat,
                ship: id,
                planet,
                size: cost,
                crack_left,
            });
        }
    }
    spend_point(state, seat, events);
    Ok(())
}

/// Bookkeeping after any change: eliminations, the early end, and ending turns while
/// nobody can act (stuck, finished or inactive players never hold a turn up).
pub(crate) fn after_change(state: &mut State, events: &mut impl EventSink<Event>) {
    if state.over {
        return;
    }
    // Who holds a planet or a ship, in one pass over the planets (every action asks):
    // a ship stands on a planet of its owner (invariant I2), so holding a planet is
    // enough.
    // A bit per seat (at most four).
    let holds = state
        .planets
        .iter()
        .filter_map(|p| p.owner)
        .fold(0u64, |held, seat| {
            held | 1u64.checked_shl(seat as u32).unwrap_or(0)
        });
    let held = |seat: Seat| holds & 1u64.checked_shl(seat as u32).unwrap_or(0) != 0;
    for seat in 0..state.players.len() {
        if !state.players[seat].eliminated && !held(seat) {
            state.players[seat].eliminated = true;
            events.push(Event::PlayerEliminated { seat });
        }
    }
    let alive = (0..state.players.len()).filter(|&seat| held(seat)).count();
    if state.config.end_on_elimination && state.players.len() >= 2 && alive <= 1 {
        game_over(state, events);
        return;
    }
    while !state.over && !state.anyone_ready() {
        end_turn(state, events);
    }
}

/// End-of-turn processing (background §2.5): production, then the turn counter, then
/// new command points (saved points capped at the carry cap).
fn end_turn(state: &mut State, events: &mut impl EventSink<Event>) {
    let reports: Vec<_> = (0..state.players.len())
        .map(|seat| production(state, seat))
        .collect();
    for report in &reports {
        let player = &mut state.players[report.seat];
        player.crack = player.crack.saturating_add(report.crack);
    }
    events.push(Event::TurnEnded {
        turn: state.turn,
        production: reports,
    });
    state.turns_left = state.turns_left.saturating_sub(1);
    if state.turns_left == 0 {
        game_over(state, events);
        return;
    }
    state.turn += 1;
    let cap = state.config.carry_cap();
    let gain = state.config.command_points;
    for player in &mut state.players {
        player.command_points = player.command_points.min(cap) + gain;
        player.finished = player.status != Status::Playing;
    }
    events.push(Event::TurnStarted {
        turn: state.turn,
        turns_left: state.turns_left,
        command_points: state.players.iter().map(|p| p.command_points).collect(),
    });
}

fn game_over(state: &mut State, events: &mut impl EventSink<Event>) {
    state.over = true;
    events.push(Event::GameOver {
        winners: winners(state),
        planets: (0..state.players.len())
            .map(|s| state.planet_count(s))
            .collect(),
        crack: state.players.iter().map(|p| p.crack).collect(),
    });
}

/// Ranks: most planets, then most crack; equal on both ties. Ejected seats last.
pub fn ranks(state: &State) -> Vec<u32> {
    let keys: Vec<(usize, u32)> = (0..state.players.len())
        .map(|s| (state.planet_count(s), state.players[s].crack))
        .collect();
    let ejected: Vec<Option<String>> = state.players.iter().map(|p| p.ejected.clone()).collect();
    Outcome::rank_by(&keys, &ejected)
}

/// The seats sharing first place (never an ejected seat).
pub fn winners(state: &State) -> Vec<Seat> {
    ranks(state)
        .iter()
        .enumerate()
        .filter(|&(s, &rank)| rank == 1 && state.players[s].ejected.is_none())
        .map(|(s, _)| s)
        .collect()
}

/// The result, once the game is over.
pub fn outcome(state: &State) -> Option<Outcome> {
    if !state.over {
        return None;
    }
    let ranks = ranks(state);
    let ejected: Vec<Option<String>> = state.players.iter().map(|p| p.ejected.clone()).collect();
    let scores: Vec<i64> = (0..state.players.len())
        .map(|s| state.planet_count(s) as i64)
        .collect();
    let winners = winners(state);
    let summary = match winners.as_slice() {
        [] => "nobody wins".to_string(),
        [seat] => format!(
            "seat {seat} wins with {} planets and {} crack",
            scores[*seat], state.players[*seat].crack
        ),
        many => format!(
            "seats {} share the win with {} planets and {} crack",
            many.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            scores[many[0]],
            state.players[many[0]].crack
        ),
    };
    Some(Outcome {
        ranks,
        scores,
        ejected,
        summary,
    })
}
