//! What a seat or a spectator may see: the only projection of the state to the outside.
//!
//! Public: the board (colonies, leaders, artifacts, destroyed cells, regions), hand
//! sizes, how many colonists each seat swapped out, leaders and bombers left, harvested
//! artifacts, the bag count, the actions left and the current prompt (including
//! committed colonists, which are played in the open, and the harvest claims still to
//! come). Secret until the game ends: each hand, each player's resources and the kinds
//! of swapped-out colonists — a seat sees only its own; a spectator sees none.
//!
//! `unseen` is public arithmetic, not a secret: the bag's contents from the
//! configuration minus every colonist played in the open, minus what the viewer holds
//! and swapped out itself. With it a player that receives only views can deal the
//! hidden colonists afresh (`Game::state_from_view`).

use serde::{Deserialize, Serialize};

use arbiter_engine::{Outcome, Seat};

use crate::board::{Leader, Pos, Terrain};
use crate::kind::{Kind, Resources, Tiles};
use crate::score;
use crate::state::{Battle, EndReason, Phase, State, War};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellView {
    pub x: u32,
    pub y: u32,
    pub terrain: Terrain,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub destroyed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colony: Option<Kind>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub artifact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader: Option<Leader>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub hand_count: u32,
    /// Colonists this seat swapped out of the game (each swap is announced with its
    /// count; the kinds stay secret).
    pub discarded_count: u32,
    /// Only for the seat itself, or everyone once the game is over.
    pub hand: Option<Tiles>,
    /// Only for the seat itself, or everyone once the game is over.
    pub resources: Option<Resources>,
    /// Only for the seat itself, or everyone once the game is over.
    pub discarded: Option<Tiles>,
    pub artifacts: u32,
    pub leaders_in_hand: Vec<Kind>,
    pub leaders_on_board: Vec<(Kind, Pos)>,
    pub bombers: u32,
    pub ejected: Option<String>,
    /// The final score, once the game is over.
    pub score: Option<u32>,
}

/// The decision the game waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "prompt", rename_all = "snake_case")]
pub enum PromptView {
    /// The active player takes an action.
    Act {
        seat: Seat,
        actions_left: u32,
    },
    /// The active player picks the next external conflict.
    ChooseConflict {
        seat: Seat,
        join: Option<Pos>,
        options: Vec<War>,
    },
    /// A conflict: `seat` commits (the attacker first, then the defender, who sees the
    /// attacker's total).
    Commit {
        seat: Seat,
        join: Option<Pos>,
        battle: Battle,
        /// External conflicts still waiting after this one.
        pending: Vec<War>,
    },
    /// A merchant leader's owner takes one artifact of these cells.
    Harvest {
        seat: Seat,
        cells: Vec<Pos>,
        /// The claims after this one, in region order (fixed from the board when the
        /// turn's actions ended).
        later: Vec<ClaimView>,
    },
    Over {
        end: EndReason,
    },
}

/// A merchant leader's owner entitled to one artifact of these cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimView {
    pub seat: Seat,
    pub cells: Vec<Pos>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// Whose view this is; `None` for spectators.
    pub seat: Option<Seat>,
    pub width: usize,
    pub height: usize,
    /// Cells in id order (`y * width + x`, row 0 first).
    pub cells: Vec<CellView>,
    pub bag_count: usize,
    /// Colonists this audience cannot see, by kind: the bag, the other seats' hands and
    /// their swapped-out colonists (see the module doc: public arithmetic).
    pub unseen: Tiles,
    pub hand_size: u32,
    pub turn: u32,
    pub active: Seat,
    /// The active player's actions left this turn.
    pub actions_left: u32,
    /// Turns in a row in which the active player only passed: when it reaches the number
    /// of seats still playing, the game ends.
    pub passing_turns: u32,
    pub players: Vec<PlayerView>,
    pub prompt: PromptView,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
}

pub fn view(state: &State, seat: Option<Seat>) -> View {
    let board = &state.board;
    let over = state.is_over();
    let cells = (0..board.len())
        .map(|id| {
            let cell = board.cell(id);
            let pos = board.pos(id);
            CellView {
                x: pos.x,
                y: pos.y,
                terrain: cell.terrain,
                destroyed: cell.destroyed,
                colony: cell.colony,
                artifact: cell.artifact,
                leader: cell.leader,
                region: board.region(id),
            }
        })
        .collect();
    let players = state
        .players
        .iter()
        .enumerate()
        .map(|(s, p)| {
            let sees = over || seat == Some(s);
            PlayerView {
                seat: s,
                hand_count: p.hand.total(),
                discarded_count: p.discarded.total(),
                hand: sees.then_some(p.hand),
                resources: sees.then_some(p.resources),
                discarded: sees.then_some(p.discarded),
                artifacts: p.artifacts,
                leaders_in_hand: state.leaders_in_hand(s),
                leaders_on_board: p
                    .leaders
                    .iter()
                    .filter_map(|&k| board.find_leader(s, k).map(|c| (k, board.pos(c))))
                    .collect(),
                bombers: p.bombers,
                ejected: p.ejected.clone(),
                score: over.then(|| score::score(&p.resources, p.artifacts)),
            }
        })
        .collect();
    View {
        seat,
        width: board.width(),
        height: board.height(),
        cells,
        bag_count: state.bag.len(),
        unseen: unseen_by(state, seat),
        hand_size: state.hand_size,
        turn: state.turn,
        active: state.active,
        actions_left: state.actions_left,
        passing_turns: state.passing_turns,
        players,
        prompt: prompt(state),
        outcome: score::outcome(state),
    }
}

/// The colonists `seat` cannot see (everyone's but the bag for a spectator).
fn unseen_by(state: &State, seat: Option<Seat>) -> Tiles {
    let mut unseen = Tiles::from_kinds(&state.bag);
    for (s, player) in state.players.iter().enumerate() {
        if seat != Some(s) {
            unseen.add(&player.hand);
            unseen.add(&player.discarded);
        }
    }
    unseen
}

pub fn prompt(state: &State) -> PromptView {
    let board = &state.board;
    match &state.phase {
        Phase::Act => PromptView::Act {
            seat: state.active,
            actions_left: state.actions_left,
        },
        Phase::Conflicts(c) => {
            let join = c.join.map(|j| board.pos(j));
            match &c.battle {
                Some(battle) => PromptView::Commit {
                    seat: battle.to_commit(),
                    join,
                    battle: battle.clone(),
                    pending: c.pending.clone(),
                },
                None => PromptView::ChooseConflict {
                    seat: state.active,
                    join,
                    options: c.pending.clone(),
                },
            }
        }
        Phase::Harvest { claims } => match claims.split_first() {
            Some((claim, later)) => PromptView::Harvest {
                seat: claim.owner,
                cells: claim.cells.iter().map(|&c| board.pos(c)).collect(),
                later: later
                    .iter()
                    .map(|claim| ClaimView {
                        seat: claim.owner,
                        cells: claim.cells.iter().map(|&c| board.pos(c)).collect(),
                    })
                    .collect(),
            },
            None => PromptView::Act {
                seat: state.active,
                actions_left: 0,
            },
        },
        Phase::Over(end) => PromptView::Over { end: end.clone() },
    }
}
