//! What happened, step by step (background §2.14). All public: every audience gets the
//! same stream, so the engine's default `event_for` (a clone) is right.

use arbiter_engine::Seat;
use serde::Serialize;

use crate::board::PlanetId;
use crate::production::Production;
use crate::state::ShipId;

/// Why a player is done for the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// Spent the last command point.
    OutOfPoints,
    /// Chose `end_turn`.
    Passed,
    /// The referee's deadline passed (`turn_timeout`).
    TimedOut,
}

/// Who won a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleResult {
    AttackerWon,
    DefenderWon,
    BothDestroyed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A ship moved onto a planet with no ship on it.
    ShipMoved {
        seat: Seat,
        ship: ShipId,
        from: PlanetId,
        to: PlanetId,
    },
    /// A planet changed hands.
    PlanetCaptured {
        seat: Seat,
        planet: PlanetId,
        from: Option<Seat>,
    },
    /// A ship moved onto its owner's ship and joined it.
    ShipsMerged {
        seat: Seat,
        ship: ShipId,
        into: ShipId,
        size: u32,
    },
    Battle {
        planet: PlanetId,
        attacker: Seat,
        attacker_ship: ShipId,
        defender: Seat,
        defender_ship: ShipId,
        attacker_before: u32,
        defender_before: u32,
        /// 0 = destroyed.
        attacker_after: u32,
        defender_after: u32,
        result: BattleResult,
    },
    ShipBuilt {
        seat: Seat,
        ship: ShipId,
        planet: PlanetId,
        size: u32,
        crack_left: u32,
    },
    /// `build_on_occupied = merge`: the new ship joined the one on the planet.
    ShipReinforced {
        seat: Seat,
        ship: ShipId,
        planet: PlanetId,
        added: u32,
        size: u32,
        crack_left: u32,
    },
    PlayerFinished {
        seat: Seat,
        reason: FinishReason,
        command_points_left: u32,
    },
    PlayerResigned {
        seat: Seat,
    },
    PlayerEjected {
        seat: Seat,
        reason: String,
    },
    /// No planets and no ships left.
    PlayerEliminated {
        seat: Seat,
    },
    /// The end-of-turn production report, itemised per planet.
    TurnEnded {
        turn: u32,
        production: Vec<Production>,
    },
    TurnStarted {
        turn: u32,
        turns_left: u32,
        /// Each seat's command points for this turn.
        command_points: Vec<u32>,
    },
    GameOver {
        winners: Vec<Seat>,
        planets: Vec<usize>,
        crack: Vec<u32>,
    },
}
