//! The board's contents as cell sets (occupied cells, scientist colonies, leaders, …),
//! updated one cell at a time by the board's mutations, so that legal listing and
//! region upkeep never scan the cells to find them.

use crate::board::Cell;
use crate::cellset::CellSet;
use crate::kind::Kind;

/// One set per fact the rules ask about a whole board at once. Derived from the cells
/// alone: [`Masks::compute`] on the same cells gives the same sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Masks {
    /// Cells with a colony or a leader: the cells that form regions.
    pub occupied: CellSet,
    /// Scientist colonies: a leader needs one next to it.
    pub scientists: CellSet,
    pub leaders: CellSet,
    pub destroyed: CellSet,
    pub artifacts: CellSet,
    /// Terrain other than uninhabitable (never changes).
    pub inhabitable: CellSet,
}

impl Masks {
    pub fn compute(cells: &[Cell]) -> Masks {
        let set = |keep: fn(&Cell) -> bool| CellSet::from_fn(cells.len(), |c| keep(&cells[c]));
        Masks {
            occupied: set(Cell::occupied),
            scientists: set(|c| c.colony == Some(Kind::Scientist)),
            leaders: set(|c| c.leader.is_some()),
            destroyed: set(|c| c.destroyed),
            artifacts: set(|c| c.artifact),
            inhabitable: set(|c| c.terrain.inhabitable()),
        }
    }

    /// Record the new contents of one cell.
    pub fn update(&mut self, id: usize, cell: &Cell) {
        self.occupied.set(id, cell.occupied());
        self.scientists
            .set(id, cell.colony == Some(Kind::Scientist));
        self.leaders.set(id, cell.leader.is_some());
        self.destroyed.set(id, cell.destroyed);
        self.artifacts.set(id, cell.artifact);
        self.inhabitable.set(id, cell.terrain.inhabitable());
    }
}
