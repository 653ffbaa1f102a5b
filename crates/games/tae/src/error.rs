//! Why an action is refused, as a typed enum with stable snake_case codes.

use arbiter_engine::{Illegal, Seat};

use crate::board::Pos;
use crate::kind::Kind;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaeError {
    #[error("the game is over")]
    GameOver,
    #[error("seat {0} does not owe a decision now")]
    NotYourTurn(Seat),
    #[error("this action does not answer the current prompt ({0})")]
    WrongPhase(&'static str),
    #[error("{0} is not on the board")]
    OffBoard(Pos),
    #[error("{0} is destroyed")]
    Destroyed(Pos),
    #[error("{0} is not empty")]
    Occupied(Pos),
    #[error("leaders may only stand on inhabitable cells; {0} is uninhabitable")]
    LeaderUninhabitable(Pos),
    #[error("a leader must stand next to a scientist colony; {0} has none")]
    NoScientistNeighbor(Pos),
    #[error("a leader may not join regions; {0} borders {1} regions")]
    LeaderJoinsRegions(Pos, usize),
    #[error("the leader is already at {0}")]
    SameCell(Pos),
    #[error("you have no {0:?} leader")]
    NoSuchLeader(Kind),
    #[error("your {0:?} leader is not on the board")]
    LeaderNotOnBoard(Kind),
    #[error("mining robots may only colonize uninhabitable cells; {0} is inhabitable")]
    MiningNeedsUninhabitable(Pos),
    #[error("only mining robots may colonize the uninhabitable cell {0}")]
    NeedsInhabitable(Pos),
    #[error("you hold no {0:?} colonist")]
    NotInHand(Kind),
    #[error("a colony may not join {0} regions that hold leaders (at most 2)")]
    JoinsThreeKingdoms(usize),
    #[error("you have no bombers left")]
    NoBomber,
    #[error("{0} holds a leader and cannot be bombed")]
    BombLeader(Pos),
    #[error("{0} holds an artifact and cannot be bombed")]
    BombArtifact(Pos),
    #[error("a swap discards 1 to 6 colonists, not {0}")]
    SwapCount(u32),
    #[error("you do not hold the colonists you tried to swap")]
    SwapNotInHand,
    #[error("you may commit at most {max} {kind:?} colonists, not {asked}")]
    CommitTooMany { kind: Kind, max: u32, asked: u32 },
    #[error("{0:?} is not one of the pending conflicts")]
    NoSuchConflict(Kind),
    #[error("{0} is not an artifact you may take")]
    NotClaimable(Pos),
}

impl TaeError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            TaeError::GameOver => "game_over",
            TaeError::NotYourTurn(_) => "not_your_turn",
            TaeError::WrongPhase(_) => "wrong_phase",
            TaeError::OffBoard(_) => "off_board",
            TaeError::Destroyed(_) => "cell_destroyed",
            TaeError::Occupied(_) => "cell_occupied",
            TaeError::LeaderUninhabitable(_) => "leader_uninhabitable",
            TaeError::NoScientistNeighbor(_) => "no_scientist_neighbor",
            TaeError::LeaderJoinsRegions(..) => "leader_joins_regions",
            TaeError::SameCell(_) => "same_cell",
            TaeError::NoSuchLeader(_) => "no_such_leader",
            TaeError::LeaderNotOnBoard(_) => "leader_not_on_board",
            TaeError::MiningNeedsUninhabitable(_) => "mining_needs_uninhabitable",
            TaeError::NeedsInhabitable(_) => "needs_inhabitable",
            TaeError::NotInHand(_) => "not_in_hand",
            TaeError::JoinsThreeKingdoms(_) => "joins_three_kingdoms",
            TaeError::NoBomber => "no_bomber",
            TaeError::BombLeader(_) => "bomb_leader",
            TaeError::BombArtifact(_) => "bomb_artifact",
            TaeError::SwapCount(_) => "swap_count",
            TaeError::SwapNotInHand => "swap_not_in_hand",
            TaeError::CommitTooMany { .. } => "commit_too_many",
            TaeError::NoSuchConflict(_) => "no_such_conflict",
            TaeError::NotClaimable(_) => "not_claimable",
        }
    }
}

impl From<TaeError> for Illegal {
    fn from(e: TaeError) -> Self {
        Illegal::new(e.code(), e.to_string())
    }
}
