//! The referee's full state (secrets included) and the phases of a turn.
//!
//! A turn is a small state machine: the active player acts (`Act`), an action may open
//! conflicts (`Conflicts`: choose the order, then attacker and defender commit), and the
//! end of the turn may ask merchant leaders' owners to pick an artifact (`Harvest`).
//! Every prompt is addressed to exactly one seat (`Turn::One`).

use serde::{Deserialize, Serialize};

use arbiter_engine::Seat;

use crate::board::Board;
use crate::kind::{Kind, Resources, Tiles};

/// Actions per turn.
pub const ACTIONS_PER_TURN: u32 = 2;

/// One seat's pieces and secrets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Player {
    /// Colonists in hand (secret).
    pub hand: Tiles,
    /// Resource totals (secret until the end).
    pub resources: Resources,
    /// Harvested artifacts (public: the harvest happens in the open).
    pub artifacts: u32,
    /// The leader kinds this player owns; those not on the board are in hand.
    pub leaders: Vec<Kind>,
    /// Bombers left.
    pub bombers: u32,
    /// Colonists this player swapped out of the game (secret; kept so that determinizing
    /// does not reveal which kinds were discarded).
    pub discarded: Tiles,
    /// Why the seat was ejected, if it was.
    pub ejected: Option<String>,
}

/// A conflict being fought: the attacker commits, then the defender.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    /// The leader kind in conflict (internal conflicts are fought with scientists).
    pub kind: Kind,
    pub internal: bool,
    pub attacker: Seat,
    pub defender: Seat,
    pub attacker_base: u32,
    pub defender_base: u32,
    /// The attacker's committed colonists, once committed (public).
    pub attacker_commit: Option<u32>,
}

impl Battle {
    /// The colonist kind that may be committed.
    pub fn support_kind(&self) -> Kind {
        if self.internal {
            Kind::Scientist
        } else {
            self.kind
        }
    }

    /// The seat that must commit now.
    pub fn to_commit(&self) -> Seat {
        if self.attacker_commit.is_none() {
            self.attacker
        } else {
            self.defender
        }
    }

    pub fn attacker_total(&self) -> Option<u32> {
        self.attacker_commit.map(|c| self.attacker_base + c)
    }
}

/// An external conflict waiting its turn: two same-kind leaders brought together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct War {
    pub kind: Kind,
    pub attacker: Seat,
    pub defender: Seat,
}

/// The conflicts opened by one action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conflicts {
    /// The colony that joined the regions (external conflicts); `None` for internal.
    pub join: Option<usize>,
    /// External conflicts not yet fought, in kind order.
    pub pending: Vec<War>,
    /// The conflict being fought; `None` while the active player picks the next one.
    pub battle: Option<Battle>,
}

/// A merchant leader's owner entitled to one artifact of a region.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Claim {
    pub owner: Seat,
    /// The region's artifact cells, ascending (the default choice is the first).
    pub cells: Vec<usize>,
}

/// Why the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum EndReason {
    /// Two or fewer artifacts remain on the board.
    Artifacts { left: u32 },
    /// The bag could not refill every hand.
    BagEmpty,
    /// A whole round in which every seat still playing only passed (nobody will play
    /// on: without this, a match of passing or absent players would never end).
    AllPassed,
    /// Every other seat was ejected.
    LastPlayer,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The active player takes an action.
    Act,
    /// Conflicts opened by the last action.
    Conflicts(Conflicts),
    /// End of turn: claims still to be taken, in region order.
    Harvest {
        claims: Vec<Claim>,
    },
    Over(EndReason),
}

/// Everything the referee knows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct State {
    pub(crate) board: Board,
    /// The bag in draw order (drawing pops the last tile). Shuffled at setup from the
    /// match seed, so every draw is uniform over the tiles left; its order is secret.
    pub(crate) bag: Vec<Kind>,
    pub(crate) players: Vec<Player>,
    pub(crate) hand_size: u32,
    pub(crate) active: Seat,
    pub(crate) actions_left: u32,
    /// Turns started so far (the first turn is 1).
    pub(crate) turn: u32,
    /// Turns in a row in which the active seat passed without giving an order; when
    /// every seat still playing has done so, the game ends ([`EndReason::AllPassed`]).
    pub(crate) passing_turns: u32,
    pub(crate) phase: Phase,
}

impl State {
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn player(&self, seat: Seat) -> Option<&Player> {
        self.players.get(seat)
    }

    pub fn bag_count(&self) -> usize {
        self.bag.len()
    }

    pub fn hand_size(&self) -> u32 {
        self.hand_size
    }

    pub fn active(&self) -> Seat {
        self.active
    }

    pub fn actions_left(&self) -> u32 {
        self.actions_left
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Turns in a row that only passed ([`EndReason::AllPassed`]).
    pub fn passing_turns(&self) -> u32 {
        self.passing_turns
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over(_))
    }

    pub fn seats(&self) -> usize {
        self.players.len()
    }

    pub(crate) fn is_ejected(&self, seat: Seat) -> bool {
        self.players.get(seat).is_none_or(|p| p.ejected.is_some())
    }

    pub(crate) fn live_seats(&self) -> usize {
        self.players.iter().filter(|p| p.ejected.is_none()).count()
    }

    /// The leader kinds `seat` owns that are off the board.
    pub fn leaders_in_hand(&self, seat: Seat) -> Vec<Kind> {
        let Some(player) = self.players.get(seat) else {
            return Vec::new();
        };
        player
            .leaders
            .iter()
            .copied()
            .filter(|&k| self.board.find_leader(seat, k).is_none())
            .collect()
    }

    /// Draw up to `n` colonists for `seat`; returns what was drawn.
    pub(crate) fn draw(&mut self, seat: Seat, n: u32) -> Vec<Kind> {
        let mut drawn = Vec::new();
        for _ in 0..n {
            let Some(kind) = self.bag.pop() else { break };
            drawn.push(kind);
        }
        if let Some(player) = self.players.get_mut(seat) {
            player.hand.add(&Tiles::from_kinds(&drawn));
        }
        drawn
    }

    /// Check every cross-cutting invariant (used by the property tests after every
    /// step): regions and cells, one leader per (owner, kind), only owned leaders on
    /// the board, and the phase's seats in range.
    pub fn verify(&self) -> Result<(), String> {
        self.board.verify()?;
        let mut seen = Vec::new();
        for (cell, leader) in self.board.leaders() {
            let Some(player) = self.players.get(leader.owner) else {
                return Err(format!("leader of unknown seat {} at {cell}", leader.owner));
            };
            if !player.leaders.contains(&leader.kind) {
                return Err(format!(
                    "seat {} does not own a {:?} leader",
                    leader.owner, leader.kind
                ));
            }
            if seen.contains(&(leader.owner, leader.kind)) {
                return Err(format!(
                    "two {:?} leaders of seat {}",
                    leader.kind, leader.owner
                ));
            }
            seen.push((leader.owner, leader.kind));
            if self.board.adjacent_scientists(cell) == 0 {
                return Err(format!("leader at {cell} has no adjacent scientist colony"));
            }
        }
        // At rest, a region holds at most one leader of each kind. Not at rest: while a
        // conflict is open, or when the last opponent's ejection ended the game mid-way.
        let at_rest = !matches!(
            self.phase,
            Phase::Conflicts(_) | Phase::Over(EndReason::LastPlayer)
        );
        if at_rest {
            for region in 0..self.board.region_count() {
                let leaders = self.board.region_leaders(region);
                for (i, (_, a)) in leaders.iter().enumerate() {
                    if leaders[..i].iter().any(|(_, b)| b.kind == a.kind) {
                        return Err(format!("region {region} holds two {:?} leaders", a.kind));
                    }
                }
            }
        }
        if self.active >= self.players.len() {
            return Err("active seat out of range".into());
        }
        Ok(())
    }
}
