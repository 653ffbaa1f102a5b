//! Sets of tile kinds as 36-bit masks, so "which kinds fit here" is one word that a
//! placement can update and a move generator can test with a bit operation.

use crate::tile::{Color, Shape, Tile};

/// Kinds in a full set: six shapes × six colours.
pub const KIND_COUNT: usize = Shape::ALL.len() * Color::ALL.len();

/// A set of tile kinds. Bit `shape * 6 + colour` stands for one kind, so ascending bits
/// are the tile order (shape-major, colour-minor) and iteration is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct KindSet(u64);

impl KindSet {
    pub const EMPTY: KindSet = KindSet(0);
    pub const ALL: KindSet = KindSet((1 << KIND_COUNT) - 1);

    /// Every kind of this shape.
    pub fn of_shape(shape: Shape) -> KindSet {
        KindSet(0b11_1111 << (shape as u32 * Color::ALL.len() as u32))
    }

    /// Every kind of this colour.
    pub fn of_color(color: Color) -> KindSet {
        const ONE_OF_EACH_SHAPE: u64 = 0b1_000001_000001_000001_000001_000001;
        KindSet(ONE_OF_EACH_SHAPE << color as u32)
    }

    /// Every kind sharing a shape or a colour with `tile` (the one-neighbour rule).
    pub fn matching(tile: Tile) -> KindSet {
        KindSet::of_shape(tile.shape).union(KindSet::of_color(tile.color))
    }

    /// The kinds among `tiles`, duplicates once.
    pub fn of_tiles(tiles: &[Tile]) -> KindSet {
        tiles.iter().fold(KindSet::EMPTY, |set, &tile| {
            set.union(KindSet::single(tile))
        })
    }

    pub fn single(tile: Tile) -> KindSet {
        KindSet(1 << kind_index(tile))
    }

    pub fn contains(self, tile: Tile) -> bool {
        self.0 & (1 << kind_index(tile)) != 0
    }

    pub fn union(self, other: KindSet) -> KindSet {
        KindSet(self.0 | other.0)
    }

    pub fn intersection(self, other: KindSet) -> KindSet {
        KindSet(self.0 & other.0)
    }

    /// The kinds in `self` and not in `other`.
    pub fn difference(self, other: KindSet) -> KindSet {
        KindSet(self.0 & !other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The kinds in tile order.
    pub fn iter(self) -> impl Iterator<Item = Tile> {
        self.indices().map(kind_at)
    }

    /// The kinds' places in the tile order ([`kind_index`]), ascending.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(index)
        })
    }
}

/// The kind's bit: its place in the tile order.
pub fn kind_index(tile: Tile) -> usize {
    tile.shape as usize * Color::ALL.len() + tile.color as usize
}

/// The kind with this place in the tile order (`index` below [`KIND_COUNT`]).
fn kind_at(index: usize) -> Tile {
    Tile::new(
        Shape::ALL[index / Color::ALL.len()],
        Color::ALL[index % Color::ALL.len()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_follow_the_tile_order() {
        let kinds: Vec<Tile> = KindSet::ALL.iter().collect();
        assert_eq!(kinds, Tile::all_kinds().collect::<Vec<_>>());
        for (index, tile) in Tile::all_kinds().enumerate() {
            assert_eq!(kind_index(tile), index);
            assert_eq!(kind_at(index), tile);
        }
    }

    #[test]
    fn shape_and_colour_sets_hold_exactly_their_kinds() {
        for tile in Tile::all_kinds() {
            for other in Tile::all_kinds() {
                assert_eq!(
                    KindSet::of_shape(tile.shape).contains(other),
                    tile.shape == other.shape
                );
                assert_eq!(
                    KindSet::of_color(tile.color).contains(other),
                    tile.color == other.color
                );
                assert_eq!(KindSet::matching(tile).contains(other), tile.matches(other));
            }
        }
        assert_eq!(KindSet::matching(kind_at(0)).len(), 11);
    }
}
