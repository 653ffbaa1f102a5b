//! A leader's move is judged on the board with the leader lifted off, where its region
//! may have split. Rather than copying the board and relabelling it for every move
//! considered, [`Lifted`] answers the one question the rules ask of that board — which
//! distinct regions border a cell — from the real board's regions. The lifted leader's
//! region is split (a flood fill) only when a cell borders it twice and the leader's
//! neighbours are not plainly joined around it.

use std::cell::OnceCell;

use crate::board::Board;
use crate::grid::Parts;

/// The board as it would be with one leader (or none) lifted off.
pub(crate) struct Lifted<'a> {
    board: &'a Board,
    /// The lifted leader's cell and region.
    from: Option<(usize, u32)>,
    /// That region without the leader, as connected parts (`None` when it does not
    /// split); computed on first need.
    parts: OnceCell<Option<Parts>>,
}

/// The occupied neighbours of a cell on the lifted board.
struct Around {
    /// Distinct regions other than the lifted leader's.
    others: usize,
    /// Neighbours in the lifted leader's region.
    in_lifted: [usize; 4],
    in_lifted_len: usize,
}

impl<'a> Lifted<'a> {
    /// `board` with the leader at `from` lifted (`None`: nothing lifted).
    pub fn new(board: &'a Board, from: Option<usize>) -> Lifted<'a> {
        Lifted {
            board,
            from: from.and_then(|cell| board.region(cell).map(|region| (cell, region))),
            parts: OnceCell::new(),
        }
    }

    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// The number of distinct regions orthogonally adjacent to `cell`.
    pub fn neighbor_region_count(&self, cell: usize) -> usize {
        let around = self.around(cell);
        around.others + self.distinct_parts(&around.in_lifted[..around.in_lifted_len])
    }

    /// Whether lifting the leader splits its region (then cells bordering that region
    /// twice may border two of its parts).
    pub fn splits(&self) -> bool {
        self.parts().is_some()
    }

    /// Whether `cell` borders two regions or more (`neighbor_region_count(cell) >= 2`,
    /// splitting the lifted region only when that alone decides).
    pub fn joins_regions(&self, cell: usize) -> bool {
        let around = self.around(cell);
        let in_lifted = &around.in_lifted[..around.in_lifted_len];
        around.others + in_lifted.len().min(1) >= 2
            || (in_lifted.len() >= 2 && around.others + self.distinct_parts(in_lifted) >= 2)
    }

    fn around(&self, cell: usize) -> Around {
        let board = self.board;
        let (from, lifted_region) = self.from.unzip();
        let mut others = [0u32; 4];
        let mut around = Around {
            others: 0,
            in_lifted: [0; 4],
            in_lifted_len: 0,
        };
        for nb in board.neighbors(cell) {
            if Some(nb) == from {
                continue;
            }
            let Some(region) = board.region(nb) else {
                continue;
            };
            if Some(region) == lifted_region {
                around.in_lifted[around.in_lifted_len] = nb;
                around.in_lifted_len += 1;
            } else if !others[..around.others].contains(&region) {
                others[around.others] = region;
                around.others += 1;
            }
        }
        around
    }

    /// How many parts of the lifted region `cells` (all in it) touch.
    fn distinct_parts(&self, cells: &[usize]) -> usize {
        if cells.len() <= 1 {
            return cells.len();
        }
        let Some(parts) = self.parts() else {
            return 1;
        };
        let mut seen = [usize::MAX; 4];
        let mut distinct = 0;
        for &cell in cells {
            let part = parts.of(cell);
            if !seen[..distinct].contains(&part) {
                seen[distinct] = part;
                distinct += 1;
            }
        }
        distinct
    }

    /// The lifted leader's region without it, split into its connected parts (every
    /// cell of it is connected to one of the leader's neighbours); `None` when it
    /// stays whole.
    fn parts(&self) -> Option<&Parts> {
        self.parts
            .get_or_init(|| {
                let (from, _) = self.from?;
                let board = self.board;
                let grid = board.grid();
                let occupied = &board.masks().occupied;
                if grid.joined_around(occupied, from) {
                    return None;
                }
                let mut remaining = occupied.clone();
                remaining.remove(from);
                let seeds = board.neighbors(from);
                let parts = grid.parts_around(&remaining, seeds.as_slice());
                (parts.count() > 1).then_some(parts)
            })
            .as_ref()
    }
}
