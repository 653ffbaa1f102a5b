//! Coordinates on the unbounded map, in screen orientation (row grows downwards).

use serde::{Deserialize, Serialize};

/// A cell. The derived order is the course's row-column order: rows first, then
/// columns, both ascending (so field order matters here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Coord {
    pub row: i32,
    pub column: i32,
}

impl Coord {
    pub const ORIGIN: Coord = Coord { row: 0, column: 0 };

    pub const fn new(row: i32, column: i32) -> Self {
        Coord { row, column }
    }

    pub fn left(self) -> Coord {
        Coord::new(self.row, self.column.saturating_sub(1))
    }
    pub fn right(self) -> Coord {
        Coord::new(self.row, self.column.saturating_add(1))
    }
    pub fn up(self) -> Coord {
        Coord::new(self.row.saturating_sub(1), self.column)
    }
    pub fn down(self) -> Coord {
        Coord::new(self.row.saturating_add(1), self.column)
    }

    /// The four orthogonal neighbours: left, right, up, down (the fit rule reads them
    /// in pairs in this order).
    pub fn neighbours(self) -> [Coord; 4] {
        [self.left(), self.right(), self.up(), self.down()]
    }
}
