//! The map: a sparse set of tiles on an unbounded grid, and the neighbour-only fit rule.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::cell_hash::CellHashing;
use crate::coord::Coord;
use crate::frontier::Frontier;
use crate::kinds::KindSet;
use crate::tile::Tile;

/// Tiles by cell, and the frontier they make.
#[derive(Clone, Default)]
pub struct Map {
    /// The tiles of the cells far from the origin. A hash map, not a sorted one: the
    /// rules look cells up far more often than they list them, and [`Map::iter`]
    /// sorts when they do.
    far: HashMap<Coord, Tile, CellHashing>,
    /// The tiles of the cells near the origin, by position: a lookup there is an index
    /// instead of a hash probe, and nearly every tile of a game falls there (a game's
    /// tiles grow from the origin). Kept only here: hashing every tile as well was a
    /// twentieth of a random game (inserts and the table's growth).
    near: NearOrigin,
    /// The occupied cells near the origin, in no particular order: for counting and
    /// listing the tiles without scanning the whole window.
    near_cells: Vec<Coord>,
    /// The free adjacent cells and what fits at each, kept up to date by [`Map::place`]
    /// and [`Map::remove`] because every candidate search (strategies, legal actions)
    /// starts from them. Derived from the tiles, so it is never serialized or compared.
    frontier: Frontier,
}

/// Cells with row and column in `-NEAR_HALF..NEAR_HALF`.
const NEAR_HALF: i32 = 32;
const NEAR_SIDE: usize = 2 * NEAR_HALF as usize;

/// The tiles of the cells near the origin, row by row.
#[derive(Clone)]
struct NearOrigin {
    tiles: Box<[Option<Tile>; NEAR_SIDE * NEAR_SIDE]>,
}

impl Default for NearOrigin {
    fn default() -> Self {
        NearOrigin {
            tiles: Box::new([None; NEAR_SIDE * NEAR_SIDE]),
        }
    }
}

impl NearOrigin {
    /// Where `at` is kept, if it is near the origin. Coordinates far out wrap to
    /// large unsigned offsets, which are outside too.
    fn slot(at: Coord) -> Option<usize> {
        let row = at.row.wrapping_add(NEAR_HALF) as u32 as usize;
        let column = at.column.wrapping_add(NEAR_HALF) as u32 as usize;
        (row < NEAR_SIDE && column < NEAR_SIDE).then_some(row * NEAR_SIDE + column)
    }
}

/// The two directions a line can run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Along a row (columns vary).
    Row,
    /// Along a column (rows vary).
    Column,
}

impl Axis {
    pub fn other(self) -> Axis {
        match self {
            Axis::Row => Axis::Column,
            Axis::Column => Axis::Row,
        }
    }

    fn step(self, at: Coord, forward: bool) -> Coord {
        match (self, forward) {
            (Axis::Row, true) => at.right(),
            (Axis::Row, false) => at.left(),
            (Axis::Column, true) => at.down(),
            (Axis::Column, false) => at.up(),
        }
    }
}

/// A maximal contiguous line of tiles, from its first cell (the smallest in
/// row-column order) along its axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub start: Coord,
    pub axis: Axis,
    pub len: usize,
}

impl Run {
    /// The run's cells in order.
    pub fn cells(self) -> impl Iterator<Item = Coord> {
        std::iter::successors(Some(self.start), move |&at| Some(self.axis.step(at, true)))
            .take(self.len)
    }

    /// Whether `at` is one of the run's cells.
    pub fn contains(self, at: Coord) -> bool {
        let (line, start, position) = match self.axis {
            Axis::Row => (self.start.row == at.row, self.start.column, at.column),
            Axis::Column => (self.start.column == at.column, self.start.row, at.row),
        };
        let offset = i64::from(position) - i64::from(start);
        line && (0..self.len as i64).contains(&offset)
    }
}

impl Map {
    /// A map holding one tile at the origin.
    pub fn starting_with(tile: Tile) -> Self {
        let mut map = Map::default();
        map.place(Coord::ORIGIN, tile);
        map
    }

    /// Inlined: asked several times for every cell a placement changes, and nearly
    /// always answered by the window near the origin.
    #[inline]
    pub fn get(&self, at: Coord) -> Option<Tile> {
        match NearOrigin::slot(at) {
            Some(slot) => self.near.tiles[slot],
            None => self.get_far(at),
        }
    }

    #[cold]
    #[inline(never)]
    fn get_far(&self, at: Coord) -> Option<Tile> {
        self.far.get(&at).copied()
    }

    fn is_occupied(&self, at: Coord) -> bool {
        self.get(at).is_some()
    }

    /// Put `tile` at `at`; the tile that was there, if any.
    fn insert(&mut self, at: Coord, tile: Tile) -> Option<Tile> {
        let Some(slot) = NearOrigin::slot(at) else {
            return self.far.insert(at, tile);
        };
        let before = self.near.tiles[slot].replace(tile);
        if before.is_none() {
            self.near_cells.push(at);
        }
        before
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> usize {
        self.near_cells.len() + self.far.len()
    }

    /// Every occupied cell, in no particular order.
    fn occupied(&self) -> impl Iterator<Item = Coord> + '_ {
        self.near_cells
            .iter()
            .copied()
            .chain(self.far.keys().copied())
    }

    pub fn place(&mut self, at: Coord, tile: Tile) {
        self.insert(at, tile);
        self.refresh_frontier_around(at);
    }

    /// Take a tile off again (for trying placements on a working copy).
    pub fn remove(&mut self, at: Coord) {
        let removed = match NearOrigin::slot(at) {
            Some(slot) => {
                let removed = self.near.tiles[slot].take().is_some();
                // Most removals take back the latest tiles: searched from the end.
                if removed {
                    if let Some(i) = self.near_cells.iter().rposition(|&c| c == at) {
                        self.near_cells.swap_remove(i);
                    }
                }
                removed
            }
            None => self.far.remove(&at).is_some(),
        };
        if removed {
            self.refresh_frontier_around(at);
        }
    }

    /// After `at` changed: `at` and its neighbours are the only cells whose frontier
    /// membership or fitting kinds can have changed (the fit rule looks at neighbours
    /// only). Occupied neighbours were off the frontier and stay off.
    fn refresh_frontier_around(&mut self, at: Coord) {
        if self.is_occupied(at) {
            self.frontier.remove(at);
        } else {
            self.refresh_free_cell(at);
        }
        for next in at.neighbours() {
            if !self.is_occupied(next) {
                self.refresh_free_cell(next);
            }
        }
    }

    /// The frontier of all tiles at once, for a map read whole: placing its tiles one
    /// by one would shift the sorted frontier once per tile, which a map sent from
    /// outside could make slow on purpose.
    fn rebuild_frontier(&mut self) {
        let mut free: Vec<Coord> = self
            .occupied()
            .flat_map(|at| at.neighbours())
            .filter(|&next| !self.is_occupied(next))
            .collect();
        free.sort_unstable();
        free.dedup();
        self.frontier = Frontier::default();
        for at in free {
            // In ascending order, so each cell goes on the end.
            self.frontier.set(at, self.fitting_kinds(at));
        }
    }

    /// Put an empty cell on the frontier with what fits there, or take it off when no
    /// tile touches it.
    fn refresh_free_cell(&mut self, at: Coord) {
        let around = at.neighbours().map(|next| self.get(next));
        if around.iter().any(Option::is_some) {
            self.frontier.set(at, fitting_kinds_between(around));
        } else {
            self.frontier.remove(at);
        }
    }

    /// Every tile in row-column order.
    pub fn iter(&self) -> impl Iterator<Item = (Coord, Tile)> {
        let mut tiles: Vec<(Coord, Tile)> = self
            .occupied()
            .filter_map(|at| Some((at, self.get(at)?)))
            .collect();
        tiles.sort_unstable_by_key(|&(at, _)| at);
        tiles.into_iter()
    }

    /// How many of the four neighbours of `at` hold a tile.
    pub fn occupied_neighbours(&self, at: Coord) -> usize {
        at.neighbours()
            .iter()
            .filter(|n| self.is_occupied(**n))
            .count()
    }

    /// Empty and touching at least one tile.
    pub fn is_free_adjacent(&self, at: Coord) -> bool {
        self.frontier.contains(at)
    }

    /// All free adjacent cells, in row-column order.
    pub fn free_adjacent(&self) -> impl Iterator<Item = Coord> + '_ {
        self.frontier.cells()
    }

    /// The free adjacent cells with the kinds that fit at each.
    pub fn frontier(&self) -> &Frontier {
        &self.frontier
    }

    /// The neighbour-only fit rule (§3.1).
    pub fn fits(&self, at: Coord, tile: Tile) -> bool {
        self.fitting_kinds(at).contains(tile)
    }

    /// The kinds the fit rule allows at `at`, judged by its neighbours.
    pub fn fitting_kinds(&self, at: Coord) -> KindSet {
        fitting_kinds_with(|c| self.get(c), at)
    }

    /// Free adjacent cells where `tile` fits, in row-column order (`xmap`).
    pub fn candidates(&self, tile: Tile) -> Vec<Coord> {
        self.frontier.places_for(tile).collect()
    }

    /// The maximal contiguous run of tiles through `at` along `axis`; `None` on an
    /// empty cell. A run ends at the edge of the grid too.
    pub fn run(&self, at: Coord, axis: Axis) -> Option<Run> {
        if !self.is_occupied(at) {
            return None;
        }
        let tile_beyond = |from: Coord, forward: bool| {
            let next = axis.step(from, forward);
            (next != from && self.is_occupied(next)).then_some(next)
        };
        let mut start = at;
        while let Some(before) = tile_beyond(start, false) {
            start = before;
        }
        let mut len = 1;
        let mut end = start;
        while let Some(after) = tile_beyond(end, true) {
            len += 1;
            end = after;
        }
        Some(Run { start, axis, len })
    }
}

/// Maps are equal when they hold the same tiles; the frontier follows from them.
impl PartialEq for Map {
    fn eq(&self, other: &Self) -> bool {
        self.near.tiles == other.near.tiles && self.far == other.far
    }
}

impl Eq for Map {}

/// Tiles in row-column order, like the derived form of a sorted map.
impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The fit rule (§3.1) as the set of kinds it allows at `at`, over any lookup, so a
/// placement can be checked against the map plus the tiles placed so far without
/// copying the map. On each axis: with one neighbour a tile must share its shape or
/// colour; with two, all three must share the shape or all three the colour.
pub fn fitting_kinds_with(get: impl Fn(Coord) -> Option<Tile>, at: Coord) -> KindSet {
    fitting_kinds_between(at.neighbours().map(get))
}

/// The fit rule given the tiles around a cell, in [`Coord::neighbours`] order (left,
/// right, up, down).
fn fitting_kinds_between([left, right, up, down]: [Option<Tile>; 4]) -> KindSet {
    let on_line = |before: Option<Tile>, after: Option<Tile>| match (before, after) {
        (None, None) => KindSet::ALL,
        (Some(one), None) | (None, Some(one)) => KindSet::matching(one),
        (Some(a), Some(b)) => {
            let shape = if a.shape == b.shape {
                KindSet::of_shape(a.shape)
            } else {
                KindSet::EMPTY
            };
            let color = if a.color == b.color {
                KindSet::of_color(a.color)
            } else {
                KindSet::EMPTY
            };
            shape.union(color)
        }
    };
    on_line(left, right).intersection(on_line(up, down))
}

/// JMap: `[[row, [column, JTile], ...], ...]`, rows ascending, cells by column.
impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut rows: BTreeMap<i32, Vec<Value>> = BTreeMap::new();
        for (coord, tile) in self.iter() {
            let cell = serde_json::json!([coord.column, tile]);
            rows.entry(coord.row)
                .or_insert_with(|| vec![Value::from(coord.row)])
                .push(cell);
        }
        let rows: Vec<Value> = rows.into_values().map(Value::Array).collect();
        rows.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let rows = Vec::<Value>::deserialize(deserializer)?;
        let mut map = Map::default();
        let mut seen_rows = BTreeSet::new();
        for row in rows {
            let Value::Array(items) = row else {
                return Err(D::Error::custom(
                    "a JRow must be an array [row, [column, tile], ...]",
                ));
            };
            let mut items = items.into_iter();
            let row_index = items
                .next()
                .and_then(|v| v.as_i64())
                .and_then(|v| i32::try_from(v).ok())
                .ok_or_else(|| D::Error::custom("a JRow must start with an integer row index"))?;
            if !seen_rows.insert(row_index) {
                return Err(D::Error::custom(format!("row {row_index} appears twice")));
            }
            let mut cells = 0;
            for cell in items {
                let (column, tile): (i64, Tile) = serde_json::from_value(cell)
                    .map_err(|e| D::Error::custom(format!("bad JCell in row {row_index}: {e}")))?;
                let column = i32::try_from(column)
                    .map_err(|_| D::Error::custom("column index out of range"))?;
                let at = Coord::new(row_index, column);
                if map.insert(at, tile).is_some() {
                    return Err(D::Error::custom(format!(
                        "cell ({row_index}, {column}) appears twice"
                    )));
                }
                cells += 1;
            }
            if cells == 0 {
                return Err(D::Error::custom(format!("row {row_index} has no cells")));
            }
        }
        map.rebuild_frontier();
        Ok(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{Color, Shape};

    fn t(shape: Shape, color: Color) -> Tile {
        Tile::new(shape, color)
    }

    #[test]
    fn both_sides_must_match_by_the_same_attribute() {
        let mut map = Map::default();
        map.place(Coord::new(0, -1), t(Shape::Star, Color::Red));
        map.place(Coord::new(0, 1), t(Shape::Circle, Color::Blue));
        // Red circle matches the left by colour and the right by shape: not enough.
        assert!(!map.fits(Coord::new(0, 0), t(Shape::Circle, Color::Red)));
        map.place(Coord::new(0, 1), t(Shape::Circle, Color::Red));
        assert!(map.fits(Coord::new(0, 0), t(Shape::Square, Color::Red)));
    }

    /// Tiles on both sides of the near-origin window's edges, and at the far ends of
    /// the grid, are found where they were put and gone where they were taken.
    #[test]
    fn lookups_agree_inside_and_outside_the_window_near_the_origin() {
        let tile = t(Shape::Star, Color::Red);
        let edges = [-NEAR_HALF - 1, -NEAR_HALF, 0, NEAR_HALF - 1, NEAR_HALF];
        let mut cells: Vec<Coord> = edges
            .iter()
            .flat_map(|&row| edges.iter().map(move |&column| Coord::new(row, column)))
            .collect();
        cells.extend([
            Coord::new(i32::MAX, i32::MIN),
            Coord::new(i32::MIN, i32::MAX),
            Coord::new(i32::MIN, 0),
            Coord::new(0, i32::MAX),
        ]);
        let mut map = Map::default();
        for &at in &cells {
            assert_eq!(map.get(at), None, "{at:?}");
            map.place(at, tile);
        }
        for &at in &cells {
            assert_eq!(map.get(at), Some(tile), "{at:?}");
            for next in at.neighbours() {
                assert_eq!(map.get(next).is_some(), cells.contains(&next), "{next:?}");
            }
        }
        assert_eq!(map.len(), cells.len());
        // A tile put on a filled cell replaces the one there: still one entry a cell,
        // in the window and outside it.
        let other = t(Shape::Circle, Color::Blue);
        for &at in &cells {
            map.place(at, other);
        }
        assert_eq!(map.len(), cells.len());
        let listed: Vec<(Coord, Tile)> = map.iter().collect();
        assert_eq!(listed.len(), cells.len());
        assert!(listed
            .iter()
            .all(|&(at, tile)| tile == other && cells.contains(&at)));
        for &at in &cells {
            map.remove(at);
            assert_eq!(map.get(at), None, "{at:?}");
        }
        assert!(map.is_empty());
    }

    #[test]
    fn duplicates_are_allowed_in_a_line() {
        let mut map = Map::starting_with(t(Shape::Square, Color::Blue));
        assert!(map.fits(Coord::new(0, 1), t(Shape::Square, Color::Blue)));
        map.place(Coord::new(0, 1), t(Shape::Square, Color::Blue));
        assert_eq!(
            map.run(Coord::new(0, 0), Axis::Row).map(|run| run.len),
            Some(2)
        );
    }

    #[test]
    fn jmap_round_trips_sorted_and_rejects_duplicates() {
        let text = r#"[[1,[0,{"color":"red","shape":"star"}],[-1,{"color":"red","shape":"clover"}]],[0,[0,{"color":"blue","shape":"star"}]]]"#;
        let map: Map = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_string(&map).unwrap(),
            r#"[[0,[0,{"shape":"star","color":"blue"}]],[1,[-1,{"shape":"clover","color":"red"}],[0,{"shape":"star","color":"red"}]]]"#
        );
        let dup =
            r#"[[0,[0,{"color":"red","shape":"star"}]],[0,[1,{"color":"red","shape":"star"}]]]"#;
        assert!(serde_json::from_str::<Map>(dup).is_err());
        assert!(serde_json::from_str::<Map>(r#"[[0]]"#).is_err());
        assert!(
            serde_json::from_str::<Map>(r#"[["x",[0,{"color":"red","shape":"star"}]]]"#).is_err()
        );
    }
}
