//! What happened, for logs and live displays.
//!
//! Only [`Event::CommandReceived`] is private: it echoes a sealed command to its sender
//! alone (the reference answered "command received. waiting for other player..." to the
//! sender only). Everything else happens when the round resolves, in public.

use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::actions::Action;
use crate::world::{Capture, Fleet, Ignored};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// `seat`'s command for this round is in (seen by that seat only).
    CommandReceived { seat: Seat, action: Action },
    /// A send became a fleet when the round resolved.
    FleetLaunched { seat: Seat, fleet: Fleet },
    /// A send made no fleet; it still was the seat's command for the round.
    SendIgnored { seat: Seat, reason: Ignored },
    /// A planet changed hands during the tick.
    PlanetCaptured(Capture),
    /// The tick ran; `round` is the new round number.
    RoundResolved { round: u32 },
    /// `seat` was disqualified (`reason` as in `"player N disqualified: <reason>"`).
    Disqualified { seat: Seat, reason: String },
    /// The game ended; `winner` is a player id (1 or 2), `None` for a draw.
    GameOver { winner: Option<u8>, reason: String },
}

impl Event {
    /// The part of this event `audience` may see (`None` = spectator).
    pub fn for_audience(&self, audience: Option<Seat>) -> Option<Event> {
        match self {
            Event::CommandReceived { seat, .. } if audience != Some(*seat) => None,
            _ => Some(self.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialize_with_a_type_tag() {
        let capture = Event::PlanetCaptured(Capture {
            planet: 3,
            from: 0,
            to: 1,
        });
        assert_eq!(
            serde_json::to_string(&capture).ok().as_deref(),
            Some(r#"{"type":"planet_captured","planet":3,"from":0,"to":1}"#)
        );
        let ignored = Event::SendIgnored {
            seat: 1,
            reason: Ignored::SamePlanet,
        };
        assert_eq!(
            serde_json::to_string(&ignored).ok().as_deref(),
            Some(r#"{"type":"send_ignored","seat":1,"reason":"same_planet"}"#)
        );
        let received = Event::CommandReceived {
            seat: 0,
            action: Action::Nop,
        };
        assert_eq!(received.for_audience(Some(0)), Some(received.clone()));
        assert_eq!(received.for_audience(Some(1)), None);
        assert_eq!(received.for_audience(None), None);
        assert_eq!(capture.for_audience(None), Some(capture.clone()));
    }
}
