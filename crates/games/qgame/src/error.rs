//! Why a Q-Game action is refused. Each variant becomes an engine `Illegal` with a
//! stable code.

use arbiter_engine::Illegal;

use crate::coord::Coord;
use crate::tile::Tile;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QgameError {
    #[error("a placement must place at least one tile")]
    EmptyPlacement,
    #[error("the {0} is not in your hand (tiles are counted as a multiset)")]
    TileNotOwned(Tile),
    #[error("all placed tiles must share one row or one column")]
    NotInLine,
    #[error("cell ({}, {}) is already occupied", .0.row, .0.column)]
    Occupied(Coord),
    #[error("cell ({}, {}) does not touch any tile", .0.row, .0.column)]
    NotAdjacent(Coord),
    #[error("the {tile} does not fit at ({}, {}) next to its neighbours", .at.row, .at.column)]
    DoesNotFit { tile: Tile, at: Coord },
    #[error("an exchange needs at least {hand} tiles in the pile, which holds {pile}")]
    PileTooSmall { hand: usize, pile: usize },
    #[error("the game is over")]
    GameOver,
    #[error("it is not this seat's turn")]
    NotYourTurn,
}

impl QgameError {
    pub fn code(&self) -> &'static str {
        match self {
            QgameError::EmptyPlacement => "empty_placement",
            QgameError::TileNotOwned(_) => "tile_not_owned",
            QgameError::NotInLine => "not_in_line",
            QgameError::Occupied(_) => "occupied",
            QgameError::NotAdjacent(_) => "not_adjacent",
            QgameError::DoesNotFit { .. } => "does_not_fit",
            QgameError::PileTooSmall { .. } => "pile_too_small",
            QgameError::GameOver => "game_over",
            QgameError::NotYourTurn => "not_your_turn",
        }
    }
}

impl From<QgameError> for Illegal {
    fn from(error: QgameError) -> Self {
        Illegal::new(error.code(), error.to_string())
    }
}
