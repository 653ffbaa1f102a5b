//! A player's command for one round.
//!
//! JSON shape (serde's externally tagged enum):
//! - `"nop"` (also accepted: `{"nop": null}`) — pass;
//! - `{"send": {"origin": 1, "target": 0, "ships": [5, 0, 2]}}` — launch a fleet.
//!
//! Numbers are signed on purpose. The reference distinguishes three fates of a send and
//! so do we: a send with a **negative ship count or planet id disqualifies** its sender
//! (that is the rule, so applying it is legal and ends the game; it is not an
//! `Illegal` error); a send that is well formed but useless (planet not yours, bad ids,
//! origin = target, nothing to send) is **ignored** yet still uses the round's command;
//! any other send launches a fleet of `min(requested, on planet)` per ship type.

use serde::{Deserialize, Serialize};

use crate::battle::SHIP_TYPES;

/// One command per player per round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Do nothing this round.
    #[default]
    Nop,
    /// Send ships from `origin` to `target`.
    Send(SendOrder),
}

/// `send origin target a b c` of the text protocol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendOrder {
    pub origin: i64,
    pub target: i64,
    pub ships: [i64; SHIP_TYPES],
}

impl Action {
    /// A send order, for tests and bots.
    pub fn send(origin: usize, target: usize, ships: [i64; SHIP_TYPES]) -> Self {
        Action::Send(SendOrder {
            origin: origin as i64,
            target: target as i64,
            ships,
        })
    }

    /// The disqualification this command earns by itself, if any (reason text as the
    /// reference prints it after "player N disqualified: ").
    pub fn disqualifies(&self) -> Option<&'static str> {
        match self {
            Action::Nop => None,
            Action::Send(order) if order.ships.iter().any(|&n| n < 0) => {
                Some(crate::reasons::NEGATIVE_SHIPS)
            }
            Action::Send(order) if order.origin < 0 || order.target < 0 => {
                Some(crate::reasons::NEGATIVE_PLANET)
            }
            Action::Send(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_shapes() {
        assert_eq!(
            serde_json::to_string(&Action::Nop).ok().as_deref(),
            Some("\"nop\"")
        );
        let send = Action::send(1, 0, [5, 0, 2]);
        let text = r#"{"send":{"origin":1,"target":0,"ships":[5,0,2]}}"#;
        assert_eq!(serde_json::to_string(&send).ok().as_deref(), Some(text));
        assert_eq!(serde_json::from_str::<Action>(text).ok(), Some(send));
        assert_eq!(
            serde_json::from_str::<Action>(r#"{"nop":null}"#).ok(),
            Some(Action::Nop)
        );
        assert!(serde_json::from_str::<Action>(r#"{"send":{"origin":1}}"#).is_err());
    }

    #[test]
    fn negative_numbers_disqualify() {
        assert_eq!(Action::Nop.disqualifies(), None);
        assert_eq!(Action::send(0, 1, [0, 0, 0]).disqualifies(), None);
        let negative_ships = Action::Send(SendOrder {
            origin: 0,
            target: 1,
            ships: [1, -1, 0],
        });
        assert_eq!(
            negative_ships.disqualifies(),
            Some("sent negative amount of ships")
        );
        let negative_id = Action::Send(SendOrder {
            origin: -1,
            target: 1,
            ships: [1, 1, 0],
        });
        assert_eq!(
            negative_id.disqualifies(),
            Some("sent a negative planet id")
        );
    }
}
