//! The board: a rectangular grid of cells, their contents, and the derived regions.
//!
//! Every mutation goes through a method here that relabels the regions before it
//! returns, so no caller can forget (the original's region bugs all came from patching
//! ids by hand). Cell ids are `y * width + x`; row `y = 0` is the *last* line of a board
//! text, as in the original map files.

use serde::{Deserialize, Serialize};

use arbiter_engine::{ConfigError, Seat};

use crate::kind::Kind;
use crate::regions::{self, Grid, Neighbors};

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

/// The grid, its cells and the regions derived from them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
    /// Region of each occupied cell; always equal to a fresh labelling. Derived from
    /// the cells, so not serialized (the state digest covers the cells).
    #[serde(skip)]
    regions: Vec<Option<u32>>,
    #[serde(skip)]
    region_count: u32,
    /// Cells holding a leader, ascending; derived like the regions (an index so that
    /// leader lookups do not scan the grid).
    #[serde(skip)]
    leader_cells: Vec<usize>,
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
    let mut board = Board {
        width,
        height,
        cells,
        regions: Vec::new(),
        region_count: 0,
        leader_cells: Vec::new(),
    };
    board.relabel();
    Ok(board)
}

/// The default 16 × 11 board.
pub fn default_board() -> Board {
    // The constant is known-good; an error here would be a bug caught by the tests.
    board_from_text(DEFAULT_BOARD).unwrap_or_else(|_| Board::empty(1, 1))
}

impl Board {
    /// An all-plain, empty board (for scenarios and tests).
    pub fn empty(width: usize, height: usize) -> Board {
        let (width, height) = (width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE));
        let mut board = Board {
            width,
            height,
            cells: vec![Cell::default(); width * height],
            regions: Vec::new(),
            region_count: 0,
            leader_cells: Vec::new(),
        };
        board.relabel();
        board
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
        Pos::new((id % self.width) as u32, (id / self.width) as u32)
    }

    fn grid(&self) -> Grid {
        Grid {
            width: self.width,
            height: self.height,
        }
    }

    pub fn neighbors(&self, id: usize) -> Neighbors {
        self.grid().neighbors(id)
    }

    /// The region of a cell (None when empty).
    pub fn region(&self, id: usize) -> Option<u32> {
        self.regions[id]
    }

    pub fn regions(&self) -> &[Option<u32>] {
        &self.regions
    }

    pub fn region_count(&self) -> u32 {
        self.region_count
    }

    /// The distinct regions orthogonally adjacent to a cell, ascending.
    pub fn neighbor_regions(&self, id: usize) -> NeighborRegions {
        let mut out = NeighborRegions {
            ids: [0; 4],
            len: 0,
        };
        for n in self.neighbors(id) {
            if let Some(r) = self.regions[n] {
                if !out.as_slice().contains(&r) {
                    out.ids[out.len] = r;
                    out.len += 1;
                }
            }
        }
        out.ids[..out.len].sort_unstable();
        out
    }

    /// The cells of one region, ascending.
    pub fn region_cells(&self, region: u32) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&c| self.regions[c] == Some(region))
            .collect()
    }

    /// Every leader on the board with its cell, in cell order.
    pub fn leaders(&self) -> impl Iterator<Item = (usize, Leader)> + '_ {
        self.leader_cells
            .iter()
            .filter_map(|&id| self.cells[id].leader.map(|l| (id, l)))
    }

    /// The leaders standing in a region, in cell order.
    pub fn region_leaders(&self, region: u32) -> Vec<(usize, Leader)> {
        self.leaders()
            .filter(|&(id, _)| self.regions[id] == Some(region))
            .collect()
    }

    /// The leader of `kind` in `region`, if any (at rest there is at most one).
    pub fn region_leader(&self, region: u32, kind: Kind) -> Option<(usize, Leader)> {
        self.leaders()
            .find(|&(id, l)| l.kind == kind && self.regions[id] == Some(region))
    }

    /// Where a player's leader of `kind` stands, if it is on the board.
    pub fn find_leader(&self, owner: Seat, kind: Kind) -> Option<usize> {
        self.leaders()
            .find(|&(_, l)| l.owner == owner && l.kind == kind)
            .map(|(id, _)| id)
    }

    /// Scientist colonies orthogonally adjacent to a cell (a leader's internal strength).
    pub fn adjacent_scientists(&self, id: usize) -> u32 {
        self.neighbors(id)
            .into_iter()
            .filter(|&n| self.cells[n].colony == Some(Kind::Scientist))
            .count() as u32
    }

    /// Artifacts still on the board.
    pub fn artifact_count(&self) -> u32 {
        self.cells.iter().filter(|c| c.artifact).count() as u32
    }

    /// The connected occupied cells reachable from `start` when `masked` counts as
    /// empty: a leader's "pre-join region" in an external conflict, where `masked` is
    /// the joining colony. Ascending cell ids.
    pub fn component_without(&self, start: usize, masked: Option<usize>) -> Vec<usize> {
        let mut seen = vec![false; self.cells.len()];
        let usable = |c: usize| self.cells[c].occupied() && Some(c) != masked;
        if !usable(start) {
            return Vec::new();
        }
        let mut stack = vec![start];
        seen[start] = true;
        let mut out = Vec::new();
        while let Some(cell) = stack.pop() {
            out.push(cell);
            for n in self.neighbors(cell) {
                if !seen[n] && usable(n) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        out.sort_unstable();
        out
    }

    // ---- mutations: each one relabels the regions before returning ----

    /// Put a colony on an empty cell.
    pub(crate) fn put_colony(&mut self, id: usize, kind: Kind) {
        self.cells[id].colony = Some(kind);
        self.relabel();
    }

    /// Remove the colonies on several cells at once (artifacts stay only on cells the
    /// caller keeps).
    pub(crate) fn remove_colonies(&mut self, ids: &[usize]) {
        for &id in ids {
            self.cells[id].colony = None;
            self.cells[id].artifact = false;
        }
        self.relabel();
    }

    pub(crate) fn put_leader(&mut self, id: usize, leader: Leader) {
        self.cells[id].leader = Some(leader);
        self.relabel();
    }

    pub(crate) fn remove_leader(&mut self, id: usize) -> Option<Leader> {
        let leader = self.cells[id].leader.take();
        self.relabel();
        leader
    }

    /// Destroy a cell forever, removing its colony. Returns the removed colony.
    pub(crate) fn destroy(&mut self, id: usize) -> Option<Kind> {
        let cell = &mut self.cells[id];
        let colony = cell.colony.take();
        cell.destroyed = true;
        cell.artifact = false;
        self.relabel();
        colony
    }

    /// Take the artifact off a cell; the scientist colony stays. Regions depend only on
    /// occupancy, so they do not change, but they are relabelled anyway for uniformity.
    pub(crate) fn take_artifact(&mut self, id: usize) {
        self.cells[id].artifact = false;
        self.relabel();
    }

    /// Set a cell directly (scenario building only); relabels.
    pub(crate) fn set_cell(&mut self, id: usize, cell: Cell) {
        self.cells[id] = cell;
        self.relabel();
    }

    /// Replace every cell at once (a board rebuilt from a view); relabels once.
    pub(crate) fn set_cells(&mut self, cells: Vec<Cell>) -> Result<(), String> {
        if cells.len() != self.cells.len() {
            return Err(format!(
                "{} cells for a board of {}",
                cells.len(),
                self.cells.len()
            ));
        }
        self.cells = cells;
        self.relabel();
        Ok(())
    }

    fn occupancy(&self) -> Vec<bool> {
        self.cells.iter().map(Cell::occupied).collect()
    }

    fn relabel(&mut self) {
        let (labels, count) = regions::label(self.grid(), &self.occupancy());
        self.regions = labels;
        self.region_count = count;
        self.leader_cells = (0..self.cells.len())
            .filter(|&c| self.cells[c].leader.is_some())
            .collect();
    }

    /// Check the stored regions against an independent computation, and the cell
    /// invariants (destroyed cells empty, artifacts only on scientist colonies, leaders
    /// only on inhabitable cells, mining only on uninhabitable cells).
    pub fn verify(&self) -> Result<(), String> {
        regions::verify(self.grid(), &self.occupancy(), &self.regions)?;
        let leader_cells: Vec<usize> = (0..self.cells.len())
            .filter(|&c| self.cells[c].leader.is_some())
            .collect();
        if leader_cells != self.leader_cells {
            return Err("the leader index is stale".into());
        }
        let counted = self.regions.iter().flatten().max().map_or(0, |m| m + 1);
        if counted != self.region_count {
            return Err(format!(
                "region count {} but {counted} regions labelled",
                self.region_count
            ));
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
