//! The board's contents as cell sets (occupied cells, scientist colonies, leaders, …),
//! updated one cell at a time by the board's mutations, so that legal listing and
//! region upkeep never scan the cells to find them.

use arbiter_engine::Seat;

use crate::board::{Cell, Leader};
use crate::cellset::CellSet;
use crate::config::MAX_SEATS;
use crate::kind::Kind;

/// By seat and kind: the lowest cell holding that leader (at rest there is one at
/// most), `None` when it is not on the board.
type LeaderCells = [[Option<u32>; Kind::ALL.len()]; MAX_SEATS];

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
    /// Where each seat's leaders stand: finding one is asked many times a decision
    /// (every drawn placement, every conflict), and walking every leader was a
    /// noticeable part of a game. Kept by [`Masks::refresh_leader`].
    leader_cells: LeaderCells,
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
            leader_cells: leader_cells(cells),
        }
    }

    /// Where `owner`'s leader of `kind` stands: `Some(answer)` for the seats kept
    /// here, `None` for a seat past [`MAX_SEATS`] (the caller looks for itself).
    pub fn leader_cell(&self, owner: Seat, kind: Kind) -> Option<Option<usize>> {
        let cell = self.leader_cells.get(owner)?[kind.index()];
        Some(cell.map(|cell| cell as usize))
    }

    /// After `leader` arrived on or left a cell: find where it stands now.
    pub fn refresh_leader(&mut self, cells: &[Cell], leader: Leader) {
        let Some(slots) = self.leader_cells.get_mut(leader.owner) else {
            return;
        };
        slots[leader.kind.index()] = self
            .leaders
            .iter()
            .find(|&cell| cells[cell].leader == Some(leader))
            .and_then(|cell| u32::try_from(cell).ok());
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

/// [`LeaderCells`] of a board, from scratch.
fn leader_cells(cells: &[Cell]) -> LeaderCells {
    let mut found: LeaderCells = [[None; Kind::ALL.len()]; MAX_SEATS];
    for (cell, contents) in cells.iter().enumerate() {
        let Some(leader) = contents.leader else {
            continue;
        };
        if let Some(slots) = found.get_mut(leader.owner) {
            let slot = &mut slots[leader.kind.index()];
            if slot.is_none() {
                *slot = u32::try_from(cell).ok();
            }
        }
    }
    found
}
