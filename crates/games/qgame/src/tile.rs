//! Tiles: six shapes × six colours, thirty copies of each.

use serde::{Deserialize, Serialize};

/// Shapes in the course's canonical order (the order strategies sort by).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Shape {
    #[serde(rename = "star")]
    Star,
    #[serde(rename = "8star")]
    EightStar,
    #[serde(rename = "square")]
    Square,
    #[serde(rename = "circle")]
    Circle,
    #[serde(rename = "clover")]
    Clover,
    #[serde(rename = "diamond")]
    Diamond,
}

/// Colours in the course's canonical order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Green,
    Blue,
    Yellow,
    Orange,
    Purple,
}

impl Shape {
    pub const ALL: [Shape; 6] = [
        Shape::Star,
        Shape::EightStar,
        Shape::Square,
        Shape::Circle,
        Shape::Clover,
        Shape::Diamond,
    ];
}

impl Color {
    pub const ALL: [Color; 6] = [
        Color::Red,
        Color::Green,
        Color::Blue,
        Color::Yellow,
        Color::Orange,
        Color::Purple,
    ];
}

/// A tile. The derived order compares the shape first, then the colour, which is the
/// course's tile order: every star before every 8star, a red star before a green one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Tile {
    pub shape: Shape,
    pub color: Color,
}

/// Copies of each kind of tile in a full set.
pub const COPIES_PER_KIND: usize = 30;

impl Tile {
    pub const fn new(shape: Shape, color: Color) -> Self {
        Tile { shape, color }
    }

    /// The 36 kinds, shape-major and colour-minor (the course's "all combos" order, which
    /// is also the tile order).
    pub fn all_kinds() -> impl Iterator<Item = Tile> {
        Shape::ALL.into_iter().flat_map(|shape| {
            Color::ALL
                .into_iter()
                .map(move |color| Tile { shape, color })
        })
    }

    /// The 1080 tiles of a full set, unshuffled.
    pub fn full_set() -> Vec<Tile> {
        // Every game starts here: room for the whole set at once, each kind's copies
        // written in one fill, not pushed one tile at a time into a growing list.
        let kinds: Vec<Tile> = Tile::all_kinds().collect();
        let mut tiles = vec![kinds[0]; kinds.len() * COPIES_PER_KIND];
        for (copies, &kind) in tiles.chunks_exact_mut(COPIES_PER_KIND).zip(&kinds) {
            copies.fill(kind);
        }
        tiles
    }

    /// Whether two tiles share a shape or a colour.
    pub fn matches(self, other: Tile) -> bool {
        self.shape == other.shape || self.color == other.color
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shape = serde_json::to_value(self.shape).ok();
        let color = serde_json::to_value(self.color).ok();
        let text = |v: Option<serde_json::Value>| {
            v.and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        };
        write!(f, "{} {}", text(color), text(shape))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_order_is_shape_then_colour() {
        let red_star = Tile::new(Shape::Star, Color::Red);
        let purple_star = Tile::new(Shape::Star, Color::Purple);
        let red_8star = Tile::new(Shape::EightStar, Color::Red);
        assert!(red_star < purple_star);
        assert!(purple_star < red_8star);
        assert_eq!(Tile::full_set().len(), 1080);
        assert_eq!(Tile::all_kinds().next(), Some(red_star));
    }

    #[test]
    fn json_shape_matches_the_course() {
        let tile: Tile = serde_json::from_str(r#"{"color":"green","shape":"8star"}"#).unwrap();
        assert_eq!(tile, Tile::new(Shape::EightStar, Color::Green));
        assert!(serde_json::from_str::<Tile>(r#"{"color":"pink","shape":"star"}"#).is_err());
        assert_eq!(tile.to_string(), "green 8star");
    }
}
