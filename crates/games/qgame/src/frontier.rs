//! The frontier: the free cells next to tiles, each with the tile kinds that fit there,
//! in row-column order. Whether a kind fits a cell depends only on the cell's four
//! neighbours, so a placement changes a handful of entries; the map updates those
//! (see `Map::place`) instead of every move search testing every cell for every tile.

use crate::coord::Coord;
use crate::kinds::{kind_index, KindSet, KIND_COUNT};
use crate::tile::Tile;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontier {
    /// The free adjacent cells, ascending (row-column order, the order every list of
    /// candidates and of legal actions follows).
    cells: Vec<Coord>,
    /// `fitting[i]`: the kinds that fit at `cells[i]`. A separate array so that scans
    /// for one kind read nothing else.
    fitting: Vec<KindSet>,
    /// By kind: at how many cells it fits. The size of a list of placements, without
    /// listing them.
    places_by_kind: [usize; KIND_COUNT],
}

impl Default for Frontier {
    fn default() -> Self {
        Frontier {
            cells: Vec::new(),
            fitting: Vec::new(),
            places_by_kind: [0; KIND_COUNT],
        }
    }
}

impl Frontier {
    /// The free adjacent cells in row-column order.
    pub fn cells(&self) -> &[Coord] {
        &self.cells
    }

    pub fn contains(&self, at: Coord) -> bool {
        self.cells.binary_search(&at).is_ok()
    }

    /// The kinds that fit at `at`, if it is a free adjacent cell.
    pub fn fitting_at(&self, at: Coord) -> Option<KindSet> {
        let index = self.cells.binary_search(&at).ok()?;
        Some(self.fitting[index])
    }

    /// Every cell with the kinds that fit there, in row-column order.
    pub fn iter(&self) -> impl Iterator<Item = (Coord, KindSet)> + '_ {
        self.cells.iter().copied().zip(self.fitting.iter().copied())
    }

    /// Make `at` a frontier cell where `fitting` fits (adding it or updating it).
    pub fn set(&mut self, at: Coord, fitting: KindSet) {
        match self.cells.binary_search(&at) {
            Ok(index) => {
                let before = std::mem::replace(&mut self.fitting[index], fitting);
                self.count(before, fitting);
            }
            Err(index) => {
                self.cells.insert(index, at);
                self.fitting.insert(index, fitting);
                self.count(KindSet::EMPTY, fitting);
            }
        }
    }

    /// Take `at` out of the frontier (nothing happens if it is not in it).
    pub fn remove(&mut self, at: Coord) {
        if let Ok(index) = self.cells.binary_search(&at) {
            self.cells.remove(index);
            let before = self.fitting.remove(index);
            self.count(before, KindSet::EMPTY);
        }
    }

    /// The cells where `tile` fits, in row-column order.
    pub fn places_for(&self, tile: Tile) -> impl Iterator<Item = Coord> + '_ {
        self.iter()
            .filter(move |(_, fitting)| fitting.contains(tile))
            .map(|(at, _)| at)
    }

    /// The `n`th (from 0) of [`Frontier::places_for`]`(tile)`. It skips whole blocks
    /// of cells by counting the fits in each, which is quicker than stepping through
    /// the places one by one.
    pub fn nth_place(&self, tile: Tile, n: usize) -> Option<Coord> {
        const BLOCK: usize = 16;
        let kind = KindSet::single(tile);
        let fits_in = |block: &[KindSet]| {
            block
                .iter()
                .map(|fitting| usize::from(!fitting.intersection(kind).is_empty()))
                .sum::<usize>()
        };
        let mut rest = n;
        let mut skipped = 0;
        for block in self.fitting.chunks_exact(BLOCK) {
            let fits = fits_in(block);
            if rest < fits {
                break;
            }
            rest -= fits;
            skipped += BLOCK;
        }
        let index = self.fitting[skipped..]
            .iter()
            .enumerate()
            .filter(|(_, fitting)| fitting.contains(tile))
            .nth(rest)?
            .0;
        Some(self.cells[skipped + index])
    }

    /// How many cells `tile` fits at (the length of [`Frontier::places_for`]).
    pub fn count_places(&self, tile: Tile) -> usize {
        self.places_by_kind[kind_index(tile)]
    }

    /// Keep the per-kind counts right when a cell's kinds change from `before` to `after`.
    fn count(&mut self, before: KindSet, after: KindSet) {
        for lost in before.difference(after).indices() {
            self.places_by_kind[lost] -= 1;
        }
        for gained in after.difference(before).indices() {
            self.places_by_kind[gained] += 1;
        }
    }
}
