//! What a seat may send, and why it can be refused (background §2.6, §2.8, §2.14).

use arbiter_engine::{Illegal, Seat};
use serde::{Deserialize, Serialize};

use crate::board::PlanetId;
use crate::state::ShipId;

/// One action; moves and builds cost one command point each.
///
/// On the wire: `{"type":"move_ship","ship":3,"planet":17}`,
/// `{"type":"build_ship","planet":17}`, `{"type":"end_turn"}`,
/// `{"type":"turn_timeout"}`, `{"type":"resign"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Move a ship one hex step: onto an empty planet (capturing it if not yours), onto
    /// your own ship (merging), or onto an enemy ship (battle).
    MoveShip { ship: ShipId, planet: PlanetId },
    /// Spend crack equal to the planet's size for a ship of that size on the planet.
    BuildShip { planet: PlanetId },
    /// Stop for this turn and keep the unspent points (up to the carry cap). Needs
    /// `allow_pass`. The harmless default action.
    #[default]
    EndTurn,
    /// Sent by the referee, as the seat, when the per-turn deadline passes: the same as
    /// `end_turn` but accepted whatever `allow_pass` says. Servers must not accept it
    /// from a player's own connection. Not listed by `legal`.
    TurnTimeout,
    /// Leave the game: planets stay (and count for ranking), the seat auto-passes every
    /// turn from now on. Not listed by `legal`, so bots never pick it.
    Resign,
}

/// Why an action was refused. Each has a stable snake_case code (see [`Self::code`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpaceCrackError {
    #[error("the game is over")]
    GameNotInPlay,
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(Seat),
    #[error("seat {0} has left the game (resigned, ejected or eliminated)")]
    NotPlaying(Seat),
    #[error("seat {0} has already finished this turn")]
    AlreadyFinished(Seat),
    #[error("seat {0} has no command points left this turn")]
    NoCommandPoints(Seat),
    #[error("seat {0} has no ships and not enough crack to build; it waits for the next turn")]
    Stuck(Seat),
    #[error("it is seat {current}'s go (sequential turns), not seat {seat}'s")]
    NotYourTurn { seat: Seat, current: Seat },
    #[error("there is no ship {0}")]
    UnknownShip(ShipId),
    #[error("ship {ship} belongs to seat {owner}")]
    NotYourShip { ship: ShipId, owner: Seat },
    #[error("there is no planet {0}")]
    UnknownPlanet(PlanetId),
    #[error("ship {ship} is already on planet {planet}")]
    SamePlanet { ship: ShipId, planet: PlanetId },
    #[error("planet {to} is not next to planet {from}, where ship {ship} is")]
    NotAdjacent {
        ship: ShipId,
        from: PlanetId,
        to: PlanetId,
    },
    #[error("planet {0} is not yours")]
    NotYourPlanet(PlanetId),
    #[error("building on planet {planet} costs {cost} crack, you have {have}")]
    InsufficientCrack {
        planet: PlanetId,
        cost: u32,
        have: u32,
    },
    #[error("planet {0} already has a ship on it")]
    PlanetOccupied(PlanetId),
    #[error("ending the turn early is not allowed in this game (allow_pass is off)")]
    PassNotAllowed,
}

impl SpaceCrackError {
    pub fn code(&self) -> &'static str {
        match self {
            SpaceCrackError::GameNotInPlay => "game_over",
            SpaceCrackError::NoSuchSeat(_) => "no_such_seat",
            SpaceCrackError::NotPlaying(_) => "not_playing",
            SpaceCrackError::AlreadyFinished(_) => "already_finished",
            SpaceCrackError::NoCommandPoints(_) => "no_command_points",
            SpaceCrackError::Stuck(_) => "stuck",
            SpaceCrackError::NotYourTurn { .. } => "not_your_turn",
            SpaceCrackError::UnknownShip(_) => "unknown_ship",
            SpaceCrackError::NotYourShip { .. } => "not_your_ship",
            SpaceCrackError::UnknownPlanet(_) => "unknown_planet",
            SpaceCrackError::SamePlanet { .. } => "same_planet",
            SpaceCrackError::NotAdjacent { .. } => "not_adjacent",
            SpaceCrackError::NotYourPlanet(_) => "not_your_planet",
            SpaceCrackError::InsufficientCrack { .. } => "insufficient_crack",
            SpaceCrackError::PlanetOccupied(_) => "planet_occupied",
            SpaceCrackError::PassNotAllowed => "pass_not_allowed",
        }
    }
}

impl From<SpaceCrackError> for Illegal {
    fn from(error: SpaceCrackError) -> Self {
        Illegal::new(error.code(), error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_format() {
        let cases = [
            (
                Action::MoveShip {
                    ship: 3,
                    planet: 17,
                },
                r#"{"type":"move_ship","ship":3,"planet":17}"#,
            ),
            (
                Action::BuildShip { planet: 17 },
                r#"{"type":"build_ship","planet":17}"#,
            ),
            (Action::EndTurn, r#"{"type":"end_turn"}"#),
            (Action::TurnTimeout, r#"{"type":"turn_timeout"}"#),
            (Action::Resign, r#"{"type":"resign"}"#),
        ];
        for (action, json) in cases {
            assert_eq!(serde_json::to_string(&action).unwrap(), json);
            assert_eq!(serde_json::from_str::<Action>(json).unwrap(), action);
        }
        assert_eq!(Action::default(), Action::EndTurn);
        assert!(
            serde_json::from_str::<Action>(r#"{"type":"move_ship","ship":-1,"planet":2}"#).is_err()
        );
        assert!(serde_json::from_str::<Action>(r#"{"type":"fly"}"#).is_err());
    }

    #[test]
    fn errors_convert_with_stable_codes() {
        let illegal: Illegal = SpaceCrackError::InsufficientCrack {
            planet: 4,
            cost: 7,
            have: 3,
        }
        .into();
        assert_eq!(illegal.code, "insufficient_crack");
        assert_eq!(
            illegal.message,
            "building on planet 4 costs 7 crack, you have 3"
        );
    }
}
