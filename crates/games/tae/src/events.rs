//! What happened, and who may know it.
//!
//! Draws, swaps and resource gains carry secrets; [`redact`] gives other seats and
//! spectators only the public part (how many tiles, never which; nothing of resources).

use serde::Serialize;

use arbiter_engine::Seat;

use crate::board::Pos;
use crate::kind::Kind;
use crate::state::EndReason;

/// Why a leader left the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnReason {
    /// Its owner withdrew it.
    Withdrawn,
    /// It lost a conflict.
    LostConflict,
    /// No scientist colony is adjacent any more.
    NoScientist,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    TurnStarted {
        seat: Seat,
        turn: u32,
    },
    LeaderPlaced {
        seat: Seat,
        kind: Kind,
        at: Pos,
        /// Where it came from when moved.
        from: Option<Pos>,
    },
    LeaderReturned {
        seat: Seat,
        kind: Kind,
        from: Pos,
        reason: ReturnReason,
    },
    Colonized {
        seat: Seat,
        kind: Kind,
        at: Pos,
    },
    /// A secret resource gain; only the gaining seat sees it.
    Gained {
        seat: Seat,
        kind: Kind,
        amount: u32,
    },
    Bombed {
        seat: Seat,
        at: Pos,
        removed: Option<Kind>,
    },
    /// Colonists swapped out; `discarded` is `None` for everyone but the swapper.
    Swapped {
        seat: Seat,
        count: u32,
        discarded: Option<Vec<Kind>>,
    },
    /// Colonists drawn; `kinds` is `None` for everyone but the drawer.
    Drew {
        seat: Seat,
        count: u32,
        kinds: Option<Vec<Kind>>,
    },
    ConflictStarted {
        kind: Kind,
        internal: bool,
        attacker: Seat,
        defender: Seat,
        attacker_base: u32,
        defender_base: u32,
    },
    ConflictChosen {
        kind: Kind,
    },
    /// A conflict whose leaders no longer share a region.
    ConflictLapsed {
        kind: Kind,
        attacker: Seat,
        defender: Seat,
    },
    Committed {
        seat: Seat,
        kind: Kind,
        count: u32,
        total: u32,
    },
    ConflictResolved {
        kind: Kind,
        internal: bool,
        winner: Seat,
        loser: Seat,
        attacker_total: u32,
        defender_total: u32,
        /// Colonies removed from the loser's side (external conflicts).
        removed: Vec<Pos>,
    },
    ArtifactTaken {
        seat: Seat,
        at: Pos,
    },
    Ejected {
        seat: Seat,
        reason: String,
    },
    GameOver {
        end: EndReason,
    },
}

/// The part of `event` that `audience` (a seat, or `None` for spectators) may see.
pub fn redact(event: &Event, audience: Option<Seat>) -> Option<Event> {
    match event {
        Event::Gained { seat, .. } => (audience == Some(*seat)).then(|| event.clone()),
        Event::Swapped { seat, count, .. } if audience != Some(*seat) => Some(Event::Swapped {
            seat: *seat,
            count: *count,
            discarded: None,
        }),
        Event::Drew { seat, count, .. } if audience != Some(*seat) => Some(Event::Drew {
            seat: *seat,
            count: *count,
            kinds: None,
        }),
        // The drawer sees what it drew, in kind order: the order the tiles left the bag
        // is not in its view, and telling it would tell more than the hand shows. (The
        // record's fingerprint keeps the event as drawn, so stored digests stand.)
        Event::Drew {
            seat,
            count,
            kinds: Some(kinds),
        } => {
            let mut kinds = kinds.clone();
            kinds.sort_unstable();
            Some(Event::Drew {
                seat: *seat,
                count: *count,
                kinds: Some(kinds),
            })
        }
        _ => Some(event.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_reach_only_their_owner() {
        let gained = Event::Gained {
            seat: 1,
            kind: Kind::Merchant,
            amount: 2,
        };
        assert_eq!(redact(&gained, Some(1)), Some(gained.clone()));
        assert_eq!(redact(&gained, Some(0)), None);
        assert_eq!(redact(&gained, None), None);
        let drew = Event::Drew {
            seat: 0,
            count: 2,
            kinds: Some(vec![Kind::Mining, Kind::Settler]),
        };
        assert_eq!(redact(&drew, Some(0)), Some(drew.clone()));
        let unsorted = Event::Drew {
            seat: 0,
            count: 2,
            kinds: Some(vec![Kind::Settler, Kind::Mining]),
        };
        assert_eq!(redact(&unsorted, Some(0)), Some(drew.clone()));
        assert_eq!(
            redact(&drew, None),
            Some(Event::Drew {
                seat: 0,
                count: 2,
                kinds: None
            })
        );
    }
}
