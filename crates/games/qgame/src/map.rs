//! The map: a sparse set of tiles on an unbounded grid, and the neighbour-only fit rule.

use std::collections::{BTreeMap, BTreeSet};

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::coord::Coord;
use crate::tile::Tile;

/// Tiles by cell. A `BTreeMap` so iteration is in row-column order and digests are
/// stable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Map {
    cells: BTreeMap<Coord, Tile>,
    /// The free adjacent cells, kept up to date by [`Map::place`] because every
    /// candidate search (strategies, legal actions) starts from them. Derived from
    /// `cells`, so it is never serialized.
    frontier: BTreeSet<Coord>,
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

impl Map {
    /// A map holding one tile at the origin.
    pub fn starting_with(tile: Tile) -> Self {
        let mut map = Map::default();
        map.place(Coord::ORIGIN, tile);
        map
    }

    pub fn get(&self, at: Coord) -> Option<Tile> {
        self.cells.get(&at).copied()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn place(&mut self, at: Coord, tile: Tile) {
        self.cells.insert(at, tile);
        self.frontier.remove(&at);
        for next in at.neighbours() {
            if !self.cells.contains_key(&next) {
                self.frontier.insert(next);
            }
        }
    }

    /// Take a tile off again (for trying placements on a working copy).
    pub fn remove(&mut self, at: Coord) {
        if self.cells.remove(&at).is_none() {
            return;
        }
        if self.occupied_neighbours(at) > 0 {
            self.frontier.insert(at);
        }
        for next in at.neighbours() {
            if !self.cells.contains_key(&next) && self.occupied_neighbours(next) == 0 {
                self.frontier.remove(&next);
            }
        }
    }

    /// Every tile in row-column order.
    pub fn iter(&self) -> impl Iterator<Item = (Coord, Tile)> + '_ {
        self.cells.iter().map(|(c, t)| (*c, *t))
    }

    /// How many of the four neighbours of `at` hold a tile.
    pub fn occupied_neighbours(&self, at: Coord) -> usize {
        at.neighbours()
            .iter()
            .filter(|n| self.cells.contains_key(n))
            .count()
    }

    /// Empty and touching at least one tile.
    pub fn is_free_adjacent(&self, at: Coord) -> bool {
        self.frontier.contains(&at)
    }

    /// All free adjacent cells, in row-column order.
    pub fn free_adjacent(&self) -> &BTreeSet<Coord> {
        &self.frontier
    }

    /// The neighbour-only fit rule (§3.1).
    pub fn fits(&self, at: Coord, tile: Tile) -> bool {
        fits_with(|c| self.get(c), at, tile)
    }

    /// Free adjacent cells where `tile` fits, in row-column order (`xmap`).
    pub fn candidates(&self, tile: Tile) -> Vec<Coord> {
        self.frontier
            .iter()
            .copied()
            .filter(|&c| self.fits(c, tile))
            .collect()
    }

    /// The maximal contiguous run of tiles through `at` along `axis`, in order.
    pub fn run_through(&self, at: Coord, axis: Axis) -> Vec<Coord> {
        if !self.cells.contains_key(&at) {
            return Vec::new();
        }
        let mut start = at;
        while self.cells.contains_key(&axis.step(start, false)) {
            start = axis.step(start, false);
        }
        let mut run = vec![start];
        let mut next = axis.step(start, true);
        while self.cells.contains_key(&next) {
            run.push(next);
            next = axis.step(next, true);
        }
        run
    }
}

/// The fit rule over any lookup, so a placement can be checked against the map plus
/// the tiles placed so far without copying the map. On each axis: with one neighbour
/// the tile shares its shape or colour; with two, all three share the shape or all
/// three share the colour.
pub fn fits_with(get: impl Fn(Coord) -> Option<Tile>, at: Coord, tile: Tile) -> bool {
    let fits_line = |before: Option<Tile>, after: Option<Tile>| match (before, after) {
        (None, None) => true,
        (Some(one), None) | (None, Some(one)) => tile.matches(one),
        (Some(a), Some(b)) => {
            (tile.shape == a.shape && tile.shape == b.shape)
                || (tile.color == a.color && tile.color == b.color)
        }
    };
    fits_line(get(at.left()), get(at.right())) && fits_line(get(at.up()), get(at.down()))
}

/// JMap: `[[row, [column, JTile], ...], ...]`, rows ascending, cells by column.
impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut rows: BTreeMap<i32, Vec<Value>> = BTreeMap::new();
        for (coord, tile) in &self.cells {
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
                if map.get(at).is_some() {
                    return Err(D::Error::custom(format!(
                        "cell ({row_index}, {column}) appears twice"
                    )));
                }
                map.place(at, tile);
                cells += 1;
            }
            if cells == 0 {
                return Err(D::Error::custom(format!("row {row_index} has no cells")));
            }
        }
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

    #[test]
    fn duplicates_are_allowed_in_a_line() {
        let mut map = Map::starting_with(t(Shape::Square, Color::Blue));
        assert!(map.fits(Coord::new(0, 1), t(Shape::Square, Color::Blue)));
        map.place(Coord::new(0, 1), t(Shape::Square, Color::Blue));
        assert_eq!(map.run_through(Coord::new(0, 0), Axis::Row).len(), 2);
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
