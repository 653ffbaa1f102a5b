//! The frontier: the free cells next to tiles, each with the tile kinds that fit there,
//! in row-column order. Whether a kind fits a cell depends only on the cell's four
//! neighbours, so a placement changes a handful of entries; the map updates those
//! (see `Map::place`) instead of every move search testing every cell for every tile.
//!
//! The cells are kept row by row. A long random two-seat game's frontier peaks at
//! about 600 cells over some 60 rows; kept as one sorted array, every new cell shifted
//! the ones after it (a sixth of a random Q-Game decision went to `memmove`). A row
//! holds about ten, so a new cell shifts only those, and each row counts its fits by
//! kind, so the `n`th place for a tile skips whole rows.

use crate::coord::Coord;
use crate::kinds::{kind_index, KindSet, KIND_COUNT};
use crate::tile::Tile;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontier {
    /// The rows that hold at least one frontier cell, ascending. A row that loses its
    /// last cell is dropped, so equal frontiers compare equal.
    rows: Vec<Row>,
    /// `row_numbers[i]` is the number of `rows[i]`, kept apart so that the search for
    /// a cell's row reads this short array, not a cache line of each `Row` it passes.
    row_numbers: Vec<i32>,
    /// By kind: at how many cells it fits. The size of a list of placements, without
    /// listing them.
    places_by_kind: PlacesByKind,
}

impl Default for Frontier {
    fn default() -> Self {
        Frontier {
            rows: Vec::new(),
            row_numbers: Vec::new(),
            places_by_kind: [0; KIND_COUNT],
        }
    }
}

/// One row's frontier cells (its number is in `Frontier::row_numbers`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    /// The columns of the row's free adjacent cells, ascending.
    columns: Vec<i32>,
    /// `fitting[i]`: the kinds that fit at `columns[i]`. A separate array so that scans
    /// for one kind read nothing else.
    fitting: Vec<KindSet>,
    places_by_kind: PlacesByKind,
}

/// Frontier cells a new row has room for (a long game's rows hold about ten).
const ROW_ROOM: usize = 8;

/// At how many cells each kind fits.
type PlacesByKind = [u32; KIND_COUNT];

impl Frontier {
    /// The free adjacent cells in row-column order.
    pub fn cells(&self) -> impl Iterator<Item = Coord> + '_ {
        self.iter().map(|(at, _)| at)
    }

    pub fn contains(&self, at: Coord) -> bool {
        self.fitting_at(at).is_some()
    }

    /// The kinds that fit at `at`, if it is a free adjacent cell.
    pub fn fitting_at(&self, at: Coord) -> Option<KindSet> {
        let row = &self.rows[self.find_row(at.row).ok()?];
        let index = row.columns.binary_search(&at.column).ok()?;
        Some(row.fitting[index])
    }

    /// Every cell with the kinds that fit there, in row-column order.
    pub fn iter(&self) -> impl Iterator<Item = (Coord, KindSet)> + '_ {
        self.numbered_rows().flat_map(|(number, row)| {
            let cells = row.columns.iter().zip(row.fitting.iter());
            cells.map(move |(&column, &fitting)| (Coord::new(number, column), fitting))
        })
    }

    /// Make `at` a frontier cell where `fitting` fits (adding it or updating it).
    pub fn set(&mut self, at: Coord, fitting: KindSet) {
        let index = match self.find_row(at.row) {
            Ok(index) => index,
            Err(index) => {
                self.rows.insert(index, Row::new());
                self.row_numbers.insert(index, at.row);
                index
            }
        };
        let row = &mut self.rows[index];
        let before = match row.columns.binary_search(&at.column) {
            Ok(cell) => std::mem::replace(&mut row.fitting[cell], fitting),
            Err(cell) => {
                row.columns.insert(cell, at.column);
                row.fitting.insert(cell, fitting);
                KindSet::EMPTY
            }
        };
        recount(
            [&mut row.places_by_kind, &mut self.places_by_kind],
            before,
            fitting,
        );
    }

    /// Take `at` out of the frontier (nothing happens if it is not in it).
    pub fn remove(&mut self, at: Coord) {
        let Ok(index) = self.find_row(at.row) else {
            return;
        };
        let row = &mut self.rows[index];
        let Ok(cell) = row.columns.binary_search(&at.column) else {
            return;
        };
        row.columns.remove(cell);
        let before = row.fitting.remove(cell);
        recount(
            [&mut row.places_by_kind, &mut self.places_by_kind],
            before,
            KindSet::EMPTY,
        );
        if row.columns.is_empty() {
            self.rows.remove(index);
            self.row_numbers.remove(index);
        }
    }

    /// The cells where `tile` fits, in row-column order.
    pub fn places_for(&self, tile: Tile) -> impl Iterator<Item = Coord> + '_ {
        self.iter()
            .filter(move |(_, fitting)| fitting.contains(tile))
            .map(|(at, _)| at)
    }

    /// The `n`th (from 0) of [`Frontier::places_for`]`(tile)`: whole rows are skipped by
    /// their counts, and only the row that holds it is stepped through.
    pub fn nth_place(&self, tile: Tile, n: usize) -> Option<Coord> {
        let kind = kind_index(tile);
        let mut rest = n;
        for (number, row) in self.numbered_rows() {
            let here = row.places_by_kind[kind] as usize;
            if rest < here {
                let (index, _) = row
                    .fitting
                    .iter()
                    .enumerate()
                    .filter(|(_, fitting)| fitting.contains(tile))
                    .nth(rest)?;
                return Some(Coord::new(number, row.columns[index]));
            }
            rest -= here;
        }
        None
    }

    /// How many cells `tile` fits at (the length of [`Frontier::places_for`]).
    pub fn count_places(&self, tile: Tile) -> usize {
        self.places_by_kind[kind_index(tile)] as usize
    }

    fn find_row(&self, row: i32) -> Result<usize, usize> {
        self.row_numbers.binary_search(&row)
    }

    /// The rows, ascending, with their numbers.
    fn numbered_rows(&self) -> impl Iterator<Item = (i32, &Row)> {
        self.row_numbers.iter().copied().zip(self.rows.iter())
    }
}

impl Row {
    fn new() -> Row {
        // Room for a typical row's cells from the start, not grown one at a time.
        Row {
            columns: Vec::with_capacity(ROW_ROOM),
            fitting: Vec::with_capacity(ROW_ROOM),
            places_by_kind: [0; KIND_COUNT],
        }
    }
}

/// Keep per-kind counts (a row's and the frontier's, in one pass over the changed
/// kinds) right when a cell's kinds change from `before` to `after`.
fn recount([row, all]: [&mut PlacesByKind; 2], before: KindSet, after: KindSet) {
    for lost in before.difference(after).indices() {
        row[lost] -= 1;
        all[lost] -= 1;
    }
    for gained in after.difference(before).indices() {
        row[gained] += 1;
        all[gained] += 1;
    }
}
