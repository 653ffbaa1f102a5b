//! The board: a rectangular grid of cells, their contents, and the derived regions.
//!
//! Every mutation goes through a method here that brings the derived data (regions,
//! cell sets) up to date before it returns, so no caller can forget (the original's
//! region bugs all came from patching ids by hand). Cell ids are `y * width + x`; row
//! `y = 0` is the *last* line of a board text, as in the original map files.

use serde::{Deserialize, Serialize};

use arbiter_engine::{ConfigError, Seat};

use crate::cellset::CellSet;
use crate::grid::{Grid, Neighbors};
use crate::kind::Kind;
use crate::masks::Masks;
use crate::regions::{Regions, NO_REGION};

/// The default 16 × 11 map (background §2.2), top line first.
pub const DEFAULT_BOARD: &str = "\
....MMMMM.A.M...
.A..M.......M..A
...MMA......MM..
MMMM.........MMM
.............AMM
..............M.
MMMM....A...MMM.
.A.MMMM.....M...
......MMMMMMM.A.
.....A..........
..........A.....
";

/// Largest accepted board side, so a config cannot ask for an absurd grid.
pub const MAX_SIDE: usize = 64;

// Region ids are stored as `u16` and read by sign extension (see `regions::widen`):
// every id, below the number of cells, must stay under `i16::MAX`.
const _: () = assert!(MAX_SIDE * MAX_SIDE < i16::MAX as usize);

/// What a cell is made of; it never changes (destruction is a separate flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Inhabitable by every kind except mining robots.
    #[default]
    Plain,
    /// Only mining robots may colonize it; leaders may never stand on it.
    Uninhabitable,
    /// Inhabitable; starts as a scientist colony holding one alien artifact.
    Artifact,
}

impl Terrain {
    pub fn inhabitable(self) -> bool {
        !matches!(self, Terrain::Uninhabitable)
    }
}

/// A leader on the board: its owner and kind (each player has at most one per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leader {
    pub owner: Seat,
    pub kind: Kind,
}

/// A board coordinate; `y = 0` is the bottom row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub struct Pos {
    pub x: u32,
    pub y: u32,
}

impl Pos {
    pub fn new(x: u32, y: u32) -> Self {
        Pos { x, y }
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One cell: terrain plus what is on it. A destroyed cell is always empty.
///
/// The state serializes a cell as a short code (it is hashed after every decision, so
/// size matters): the terrain as in board files (`.`, `M`, `A`), then `#` if destroyed,
/// the colony's letter (`S`, `R`, `M`, `P`), `*` for an artifact, and a leader as its
/// lowercase letter and owner seat (`.m1`: seat 1's merchant leader on a plain cell;
/// `MR`: a mining colony on an uninhabitable cell; `AS*`: an artifact colony). Views use [`crate::view::CellView`], which spells everything out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cell {
    pub terrain: Terrain,
    pub destroyed: bool,
    pub colony: Option<Kind>,
    /// An alien artifact; only ever on a scientist colony (nothing can remove one).
    pub artifact: bool,
    pub leader: Option<Leader>,
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write as _;
        f.write_char(match self.terrain {
            Terrain::Plain => '.',
            Terrain::Uninhabitable => 'M',
            Terrain::Artifact => 'A',
        })?;
        if self.destroyed {
            f.write_char('#')?;
        }
        if let Some(kind) = self.colony {
            f.write_char(kind.letter())?;
        }
        if self.artifact {
            f.write_char('*')?;
        }
        if let Some(leader) = self.leader {
            write!(
                f,
                "{}{}",
                leader.kind.letter().to_ascii_lowercase(),
                leader.owner
            )?;
        }
        Ok(())
    }
}

impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Cell {
    /// Occupied = part of a region: a colony or a leader.
    pub fn occupied(&self) -> bool {
        self.colony.is_some() || self.leader.is_some()
    }
}

/// The grid, its cells and the data derived from them.
///
/// The derived fields are a function of the cells, so they are not serialized (the
/// state digest covers the cells) and equality compares the cells alone.
#[derive(Debug, Clone, Serialize)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
    #[serde(skip)]
    grid: Grid,
    /// The cells' contents as cell sets (an index so that whole-board questions do
    /// not scan the cells).
    #[serde(skip)]
    masks: Masks,
    /// The cells next to a scientist colony (where a leader may stand, terrain and
    /// regions aside): asked at every turn action, and changed only by the rarer moves
    /// that place or remove a scientist colony.
    #[serde(skip)]
    near_scientists: CellSet,
    /// Region of each occupied cell; always equal to a fresh labelling.
    #[serde(skip)]
    regions: Regions,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        (self.width, self.height, &self.cells) == (other.width, other.height, &other.cells)
    }
}

/// The distinct regions around a cell (at most four), without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeighborRegions {
    ids: [u32; 4],
    len: usize,
}

impl NeighborRegions {
    pub fn as_slice(&self) -> &[u32] {
        &self.ids[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn none() -> NeighborRegions {
        NeighborRegions {
            ids: [0; 4],
            len: 0,
        }
    }

    /// Add `region`, keeping the ids distinct and ascending.
    fn insert(&mut self, region: u32) {
        if self.as_slice().contains(&region) {
            return;
        }
        let mut at = self.len;
        while at > 0 && self.ids[at - 1] > region {
            self.ids[at] = self.ids[at - 1];
            at -= 1;
        }
        self.ids[at] = region;
        self.len += 1;
    }
}

/// Parse a board text: `.` plain, `M` uninhabitable, `A` artifact, one line per row,
/// the last line being row 0. Trailing empty lines (and `\r`) are ignored; anything
/// else must form a rectangle of known characters. Artifact cells start as scientist
/// colonies holding an artifact.
pub fn board_from_text(text: &str) -> Result<Board, ConfigError> {
    let mut lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return Err(ConfigError::new("board: the board text is empty"));
    }
    let width = lines[0].chars().count();
    let height = lines.len();
    if width == 0 {
        return Err(ConfigError::new("board: line 1 is empty"));
    }
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(ConfigError::new(format!(
            "board: {width} × {height} is too large (at most {MAX_SIDE} × {MAX_SIDE})"
        )));
    }
    let mut cells = vec![Cell::default(); width * height];
    for (line_no, line) in lines.iter().enumerate() {
        let len = line.chars().count();
        if len != width {
            return Err(ConfigError::new(format!(
                "board: not rectangular: line {} has {len} cells but line 1 has {width}",
                line_no + 1
            )));
        }
        let y = height - 1 - line_no;
        for (x, ch) in line.chars().enumerate() {
            let terrain = match ch {
                '.' => Terrain::Plain,
                'M' => Terrain::Uninhabitable,
                'A' => Terrain::Artifact,
                other => {
                    return Err(ConfigError::new(format!(
                        "board: unknown character {other:?} at line {}, column {} \
                         (allowed: '.' plain, 'M' uninhabitable, 'A' artifact)",
                        line_no + 1,
                        x + 1
                    )))
                }
            };
            let cell = &mut cells[y * width + x];
            cell.terrain = terrain;
            if terrain == Terrain::Artifact {
                cell.colony = Some(Kind::Scientist);
                cell.artifact = true;
            }
        }
    }
    Ok(Board::from_cells(width, height, cells))
}

/// The default 16 × 11 board (parsed once: every new game on it starts from a copy).
pub fn default_board() -> Board {
    static DEFAULT: std::sync::LazyLock<Board> = std::sync::LazyLock::new(|| {
        // The constant is known-good; an error here would be a bug caught by the tests.
        board_from_text(DEFAULT_BOARD).unwrap_or_else(|_| Board::empty(1, 1))
    });
    DEFAULT.clone()
}

impl Board {
    /// An all-plain, empty board (for scenarios and tests).
    pub fn empty(width: usize, height: usize) -> Board {
        let (width, height) = (width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE));
        Board::from_cells(width, height, vec![Cell::default(); width * height])
    }

    /// A board of `width × height` cells (the caller checked the sizes) with its
    /// derived data computed from scratch.
    pub(crate) fn from_cells(width: usize, height: usize, cells: Vec<Cell>) -> Board {
        let grid = Grid::new(width, height);
        let masks = Masks::compute(&cells);
        let regions = Regions::compute(&grid, &masks.occupied);
        let near_scientists = grid.next_to(&masks.scientists);
        Board {
            width,
            height,
            cells,
            grid,
            masks,
            near_scientists,
            regions,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn cell(&self, id: usize) -> &Cell {
        &self.cells[id]
    }

    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell id of a position, if it is on the board.
    pub fn id(&self, pos: Pos) -> Option<usize> {
        let (x, y) = (pos.x as usize, pos.y as usize);
        (x < self.width && y < self.height).then_some(y * self.width + x)
    }

    pub fn pos(&self, id: usize) -> Pos {
        let (x, y) = self.grid.coords(id);
        Pos::new(x as u32, y as u32)
    }

    pub(crate) fn grid(&self) -> &Grid {
        &self.grid
    }

    pub(crate) fn masks(&self) -> &Masks {
        &self.masks
    }

    /// The cells orthogonally next to a scientist colony.
    pub(crate) fn near_scientists(&self) -> &CellSet {
        &self.near_scientists
    }

    /// After cells changed: the cells next to a scientist colony again, if the
    /// colonies changed.
    fn scientists_changed(&mut self, changed: bool) {
        if changed {
            self.near_scientists = self.grid.next_to(&self.masks.scientists);
        }
    }

    pub fn neighbors(&self, id: usize) -> Neighbors {
        self.grid.neighbors(id)
    }

    /// The region of a cell (None when empty).
    pub fn region(&self, id: usize) -> Option<u32> {
        self.regions.of(&self.grid, id)
    }

    /// The region of each cell (`None` where empty).
    pub fn regions(&self) -> Vec<Option<u32>> {
        self.regions.labels(&self.grid)
    }

    pub fn region_count(&self) -> u32 {
        self.regions.count()
    }

    /// The distinct regions orthogonally adjacent to a cell, ascending.
    pub fn neighbor_regions(&self, id: usize) -> NeighborRegions {
        let mut out = NeighborRegions::none();
        for region in self.regions_around(id) {
            if region != NO_REGION {
                out.insert(region);
            }
        }
        out
    }

    /// The regions on the four sides of a cell (west, east, south, north),
    /// [`NO_REGION`] where empty or off the board.
    pub(crate) fn regions_around(&self, id: usize) -> [u32; 4] {
        self.regions.sides(&self.grid, id)
    }

    /// The distinct kingdoms orthogonally adjacent to a cell, ascending.
    pub fn neighbor_kingdoms(&self, id: usize) -> NeighborRegions {
        // Asked at every colony that joins regions: the leaders' regions are looked up
        // in place, without listing and sorting the kingdoms.
        let around = self.neighbor_regions(id);
        let mut kingdoms = NeighborRegions::none();
        self.masks.leaders.for_each(|leader| {
            if let Some(region) = self.region(leader) {
                if around.as_slice().contains(&region) {
                    kingdoms.insert(region);
                }
            }
        });
        kingdoms
    }

    /// The cells of one region, ascending.
    pub fn region_cells(&self, region: u32) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&c| self.region(c) == Some(region))
            .collect()
    }

    /// Every leader on the board with its cell, in cell order.
    pub fn leaders(&self) -> impl Iterator<Item = (usize, Leader)> + '_ {
        self.masks
            .leaders
            .iter()
            .filter_map(|id| self.cells[id].leader.map(|l| (id, l)))
    }

    /// The leaders standing in a region, in cell order.
    pub fn region_leaders(&self, region: u32) -> Vec<(usize, Leader)> {
        self.leaders()
            .filter(|&(id, _)| self.region(id) == Some(region))
            .collect()
    }

    /// The leader of `kind` in `region`, if any (at rest there is at most one).
    pub fn region_leader(&self, region: u32, kind: Kind) -> Option<(usize, Leader)> {
        self.leaders()
            .find(|&(id, l)| l.kind == kind && self.region(id) == Some(region))
    }

    /// The leader of each kind (by [`Kind::index`]) in each of two regions, each the
    /// first in cell order, as [`Board::region_leader`] finds it: one pass over the
    /// leaders where asking for every kind in both regions would make eight (judging a
    /// colony that unites two kingdoms asks this of every such candidate).
    pub(crate) fn leaders_by_kind(
        &self,
        regions: [u32; 2],
    ) -> [[Option<Leader>; Kind::ALL.len()]; 2] {
        let mut found = [[None; Kind::ALL.len()]; 2];
        for (cell, leader) in self.leaders() {
            let Some(region) = self.region(cell) else {
                continue;
            };
            for (side, &wanted) in regions.iter().enumerate() {
                let slot = &mut found[side][leader.kind.index()];
                if region == wanted && slot.is_none() {
                    *slot = Some(leader);
                }
            }
        }
        found
    }

    /// Where a player's leader of `kind` stands, if it is on the board.
    pub fn find_leader(&self, owner: Seat, kind: Kind) -> Option<usize> {
        match self.masks.leader_cell(owner, kind) {
            Some(cell) => cell,
            None => self
                .leaders()
                .find(|&(_, l)| l.owner == owner && l.kind == kind)
                .map(|(id, _)| id),
        }
    }

    /// Scientist colonies orthogonally adjacent to a cell (a leader's internal strength).
    pub fn adjacent_scientists(&self, id: usize) -> u32 {
        self.neighbors(id)
            .into_iter()
            .filter(|&n| self.cells[n].colony == Some(Kind::Scientist))
            .count() as u32
    }

    /// The cells holding an artifact, ascending.
    pub fn artifact_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.masks.artifacts.iter()
    }

    /// Artifacts still on the board.
    pub fn artifact_count(&self) -> u32 {
        self.masks.artifacts.count() as u32
    }

    /// The connected occupied cells reachable from `start` when `masked` counts as
    /// empty: a leader's "pre-join region" in an external conflict, where `masked` is
    /// the joining colony. Ascending cell ids.
    pub fn component_without(&self, start: usize, masked: Option<usize>) -> Vec<usize> {
        let mut usable = self.masks.occupied.clone();
        if let Some(masked) = masked {
            usable.remove(masked);
        }
        self.grid.component(&usable, start).iter().collect()
    }

    // ---- mutations: each one brings the derived data up to date before returning ----

    /// Change one cell, then its cell sets and, if its occupancy changed, the regions.
    fn change(&mut self, id: usize, edit: impl FnOnce(&mut Cell)) {
        let cell = &mut self.cells[id];
        let (was_occupied, leader_before) = (cell.occupied(), cell.leader);
        let was_scientist = cell.colony == Some(Kind::Scientist);
        edit(cell);
        let (now_occupied, leader_after) = (cell.occupied(), cell.leader);
        let is_scientist = cell.colony == Some(Kind::Scientist);
        self.masks.update(id, cell);
        self.scientists_changed(was_scientist != is_scientist);
        if leader_before != leader_after {
            for leader in [leader_before, leader_after].into_iter().flatten() {
                self.masks.refresh_leader(&self.cells, leader);
            }
        }
        match (was_occupied, now_occupied) {
            (false, true) => self.regions.occupy(&self.grid, id),
            (true, false) => self.regions.vacate(&self.grid, &self.masks.occupied, &[id]),
            _ => {}
        }
    }

    /// Put a colony on an empty cell.
    pub(crate) fn put_colony(&mut self, id: usize, kind: Kind) {
        self.change(id, |cell| cell.colony = Some(kind));
    }

    /// Remove the colonies on several cells at once (artifacts stay only on cells the
    /// caller keeps).
    pub(crate) fn remove_colonies(&mut self, ids: &[usize]) {
        let mut vacated = Vec::with_capacity(ids.len());
        let mut scientists_removed = false;
        for &id in ids {
            let cell = &mut self.cells[id];
            if cell.occupied() {
                vacated.push(id);
            }
            scientists_removed |= cell.colony == Some(Kind::Scientist);
            cell.colony = None;
            cell.artifact = false;
            self.masks.update(id, cell);
        }
        self.scientists_changed(scientists_removed);
        vacated.retain(|&id| !self.cells[id].occupied());
        self.regions
            .vacate(&self.grid, &self.masks.occupied, &vacated);
    }

    pub(crate) fn put_leader(&mut self, id: usize, leader: Leader) {
        self.change(id, |cell| cell.leader = Some(leader));
    }

    pub(crate) fn remove_leader(&mut self, id: usize) -> Option<Leader> {
        let mut leader = None;
        self.change(id, |cell| leader = cell.leader.take());
        leader
    }

    /// Destroy a cell forever, removing its colony. Returns the removed colony.
    pub(crate) fn destroy(&mut self, id: usize) -> Option<Kind> {
        let mut colony = None;
        self.change(id, |cell| {
            colony = cell.colony.take();
            cell.destroyed = true;
            cell.artifact = false;
        });
        colony
    }

    /// Take the artifact off a cell; the scientist colony stays (regions depend only on
    /// occupancy, so they do not change).
    pub(crate) fn take_artifact(&mut self, id: usize) {
        self.change(id, |cell| cell.artifact = false);
    }

    /// Set a cell directly (scenario building only).
    pub(crate) fn set_cell(&mut self, id: usize, cell: Cell) {
        self.change(id, |old| *old = cell);
    }

    /// Replace every cell at once (a board rebuilt from a view); derives everything
    /// afresh.
    pub(crate) fn set_cells(&mut self, cells: Vec<Cell>) -> Result<(), String> {
        if cells.len() != self.cells.len() {
            return Err(format!(
                "{} cells for a board of {}",
                cells.len(),
                self.cells.len()
            ));
        }
        *self = Board::from_cells(self.width, self.height, cells);
        Ok(())
    }

    fn occupancy(&self) -> Vec<bool> {
        self.cells.iter().map(Cell::occupied).collect()
    }

    /// Check the derived data against an independent computation, and the cell
    /// invariants (destroyed cells empty, artifacts only on scientist colonies, leaders
    /// only on inhabitable cells, mining only on uninhabitable cells).
    pub fn verify(&self) -> Result<(), String> {
        self.regions.verify(&self.grid, &self.occupancy())?;
        if self.masks != Masks::compute(&self.cells) {
            return Err("the cell sets are stale".into());
        }
        if self.near_scientists != self.grid.next_to(&self.masks.scientists) {
            return Err("the cells next to scientist colonies are stale".into());
        }
        for (id, cell) in self.cells.iter().enumerate() {
            let at = self.pos(id);
            if cell.destroyed && (cell.occupied() || cell.artifact) {
                return Err(format!("destroyed cell {at} is not empty"));
            }
            if cell.artifact && cell.colony != Some(Kind::Scientist) {
                return Err(format!("artifact at {at} without a scientist colony"));
            }
            if cell.leader.is_some() && cell.colony.is_some() {
                return Err(format!("cell {at} holds a leader and a colony"));
            }
            if cell.leader.is_some() && !cell.terrain.inhabitable() {
                return Err(format!("leader on uninhabitable cell {at}"));
            }
            if let Some(kind) = cell.colony {
                if (kind == Kind::Mining) == cell.terrain.inhabitable() {
                    return Err(format!("{kind:?} colony on {:?} cell {at}", cell.terrain));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_play::{config, play};

    #[test]
    fn default_board_matches_the_background() {
        let board = default_board();
        assert_eq!((board.width(), board.height()), (16, 11));
        let count = |t: Terrain| board.cells().iter().filter(|c| c.terrain == t).count();
        assert_eq!(count(Terrain::Uninhabitable), 41);
        assert_eq!(count(Terrain::Artifact), 10);
        assert_eq!(count(Terrain::Plain), 125);
        let artifacts: Vec<Pos> = (0..board.len())
            .filter(|&c| board.cell(c).artifact)
            .map(|c| board.pos(c))
            .collect();
        let mut expected = vec![
            Pos::new(1, 3),
            Pos::new(1, 9),
            Pos::new(5, 1),
            Pos::new(5, 8),
            Pos::new(8, 4),
            Pos::new(10, 0),
            Pos::new(10, 10),
            Pos::new(13, 6),
            Pos::new(14, 2),
            Pos::new(15, 9),
        ];
        expected.sort_by_key(|p| (p.y, p.x));
        assert_eq!(artifacts, expected);
        // Each artifact colony is its own one-cell region with no leader.
        assert_eq!(board.region_count(), 10);
        assert_eq!(board.verify(), Ok(()));
    }

    #[test]
    fn last_line_is_row_zero() {
        let board = board_from_text("M..\n..A\n").unwrap();
        assert_eq!(
            board.cell(board.id(Pos::new(0, 1)).unwrap()).terrain,
            Terrain::Uninhabitable
        );
        assert_eq!(
            board.cell(board.id(Pos::new(2, 0)).unwrap()).terrain,
            Terrain::Artifact
        );
    }

    #[test]
    fn rejects_bad_boards_with_clear_errors() {
        let err = board_from_text("...\n..\n").unwrap_err();
        assert!(err.0.contains("not rectangular"), "{err}");
        assert!(err.0.contains("line 2"), "{err}");
        let err = board_from_text("..x\n...\n").unwrap_err();
        assert!(err.0.contains("unknown character 'x'"), "{err}");
        assert!(err.0.contains("line 1, column 3"), "{err}");
        assert!(board_from_text("\n\n").unwrap_err().0.contains("empty"));
        let huge = format!("{}\n", ".".repeat(MAX_SIDE + 1));
        assert!(board_from_text(&huge).unwrap_err().0.contains("too large"));
        // CRLF and trailing blank lines are fine.
        assert!(board_from_text("..\r\n.A\r\n\r\n").is_ok());
    }

    #[test]
    fn cells_serialize_as_short_codes() {
        let mut board = board_from_text("AM.\n").unwrap();
        board.put_colony(1, Kind::Mining);
        board.put_leader(
            2,
            Leader {
                owner: 1,
                kind: Kind::Merchant,
            },
        );
        let json = serde_json::to_string(board.cells()).unwrap();
        assert_eq!(json, r#"["AS*","MR",".m1"]"#);
        board.remove_leader(2);
        board.destroy(2);
        assert_eq!(board.cell(2).to_string(), ".#");
    }

    /// The cell sets and regions kept up to date by every mutation equal those
    /// derived from scratch from the same cells.
    fn assert_derived_data_is_fresh(board: &Board) {
        let fresh = Board::from_cells(board.width, board.height, board.cells.clone());
        assert_eq!(board.masks, fresh.masks);
        assert_eq!(board.regions, fresh.regions);
        assert_eq!(board.regions(), fresh.regions());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 64,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn upkept_derived_data_equals_a_fresh_derivation(
            seed in proptest::prelude::any::<u64>(),
            seats in 2usize..=4,
            board in proptest::prelude::any::<u8>(),
            ejections in proptest::prelude::any::<bool>(),
        ) {
            let config = config(board);
            play(&config, seats, seed, ejections.then_some(150), |state| {
                assert_derived_data_is_fresh(state.board());
                assert_leaders_by_kind_agree(state.board());
            });
        }
    }

    /// [`Board::leaders_by_kind`] finds what [`Board::region_leader`] finds, for each
    /// region beside the next one (and beside itself).
    fn assert_leaders_by_kind_agree(board: &Board) {
        let count = board.region_count();
        for region in 0..count {
            for other in [region, (region + 1) % count] {
                let found = board.leaders_by_kind([region, other]);
                for kind in Kind::ALL {
                    let by_scan = |r| board.region_leader(r, kind).map(|(_, leader)| leader);
                    assert_eq!(found[0][kind.index()], by_scan(region), "{region} {kind:?}");
                    assert_eq!(found[1][kind.index()], by_scan(other), "{other} {kind:?}");
                }
            }
        }
    }

    /// Derived data stays out of the state's serialization (digests and records) and
    /// out of equality: boards with the same cells are equal however they were built.
    #[test]
    fn only_the_cells_are_serialized_and_compared() {
        let mut board = board_from_text("A..\n...\n").unwrap();
        let json = serde_json::to_value(&board).unwrap();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["width", "height", "cells"]);
        board.put_colony(1, Kind::Settler);
        board.put_colony(2, Kind::Settler);
        board.remove_colonies(&[1]);
        let rebuilt = Board::from_cells(3, 2, board.cells().to_vec());
        assert_eq!(board, rebuilt);
        assert_derived_data_is_fresh(&board.clone());
    }

    #[test]
    fn component_without_masks_the_joining_cell() {
        // A row of three occupied cells; masking the middle one splits it.
        let mut board = Board::empty(3, 1);
        for c in 0..3 {
            board.put_colony(c, Kind::Settler);
        }
        assert_eq!(board.region_count(), 1);
        assert_eq!(board.component_without(0, Some(1)), vec![0]);
        assert_eq!(board.component_without(2, None), vec![0, 1, 2]);
    }
}
