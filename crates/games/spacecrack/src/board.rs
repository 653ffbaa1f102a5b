//! The hex board (background §2.2): which sites exist, their ids and neighbours.
//!
//! The prototype's "doubled" coordinates (x, y) — odd x from 1 to W, and a site where
//! the column index q = (x−1)/2 and y have the same parity — are kept for display. The
//! rules work on planet ids and precomputed neighbour lists; axial (q, r) is stored too.
//! The board depends only on `board_size`, so it is built once per size and shared by
//! every game ([`Board::shared`]).

use std::sync::{Arc, OnceLock};

use serde::Serialize;

/// Index of a planet, assigned column by column (q ascending, then y ascending).
pub type PlanetId = usize;

/// The six neighbour steps in doubled coordinates, clockwise from straight up.
pub const DIRECTIONS: [(i32, i32); 6] = [(0, -2), (2, -1), (2, 1), (0, 2), (-2, 1), (-2, -1)];

/// One planet site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Site {
    /// Doubled coordinates, as the prototype displayed them (both start at 1).
    pub x: u32,
    pub y: u32,
    /// Axial coordinates: q = (x−1)/2, r = (y−q)/2.
    pub q: i32,
    pub r: i32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The `board_size` parameter this board was made from.
    pub size: u32,
    /// W = 4·⌊s/4⌋ + 1.
    pub width: u32,
    /// H = 2·⌊s/2⌋ + 1.
    pub height: u32,
    pub sites: Vec<Site>,
    /// Neighbours of each planet, in [`DIRECTIONS`] order, only those on the board.
    pub neighbours: Vec<Vec<PlanetId>>,
    /// Planet id at (x, y), row-major over `(width + 1) × (height + 1)`.
    lookup: Vec<Option<PlanetId>>,
}

/// Whether (x, y) is a planet site on a W×H board.
fn is_site(x: i32, y: i32, width: i32, height: i32) -> bool {
    if x < 1 || x > width || y < 1 || y > height || x % 2 == 0 {
        return false;
    }
    let q = (x - 1) / 2;
    (q + y) % 2 == 0
}

/// Boards of the sizes a config may ask for (5–30) are built once per process: a game
/// shares its board, and a playout's new game was spending about a tenth of its
/// instructions building the same board again.
const SHARED_SIZES: usize = 31;
static SHARED: [OnceLock<Arc<Board>>; SHARED_SIZES] = [const { OnceLock::new() }; SHARED_SIZES];

impl Board {
    /// The board for `size`, shared: built on first use of each size (see `SHARED`).
    pub fn shared(size: u32) -> Arc<Board> {
        match SHARED.get(size as usize) {
            Some(slot) => slot.get_or_init(|| Arc::new(Board::new(size))).clone(),
            None => Arc::new(Board::new(size)),
        }
    }

    /// The board for `board_size` = `size` (any size ≥ 5 is well formed; configs limit
    /// it to 5–30).
    pub fn new(size: u32) -> Board {
        let width = 4 * (size / 4) + 1;
        let height = 2 * (size / 2) + 1;
        let (w, h) = (width as i32, height as i32);
        let mut sites = Vec::new();
        let mut lookup = vec![None; ((width + 1) * (height + 1)) as usize];
        for x in (1..=w).step_by(2) {
            for y in 1..=h {
                if is_site(x, y, w, h) {
                    lookup[(y * (w + 1) + x) as usize] = Some(sites.len());
                    let q = (x - 1) / 2;
                    sites.push(Site {
                        x: x as u32,
                        y: y as u32,
                        q,
                        r: (y - q) / 2,
                    });
                }
            }
        }
        let neighbours = sites
            .iter()
            .map(|site| {
                DIRECTIONS
                    .iter()
                    .filter_map(|(dx, dy)| {
                        let (x, y) = (site.x as i32 + dx, site.y as i32 + dy);
                        if is_site(x, y, w, h) {
                            lookup[(y * (w + 1) + x) as usize]
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect();
        Board {
            size,
            width,
            height,
            sites,
            neighbours,
            lookup,
        }
    }

    pub fn planet_count(&self) -> usize {
        self.sites.len()
    }

    /// Number of columns, 2·⌊s/4⌋ + 1.
    pub fn columns(&self) -> u32 {
        self.width.div_ceil(2)
    }

    /// The planet at doubled coordinates (x, y), if there is one.
    pub fn at(&self, x: u32, y: u32) -> Option<PlanetId> {
        if x > self.width || y > self.height {
            return None;
        }
        self.lookup
            .get((y * (self.width + 1) + x) as usize)
            .copied()
            .flatten()
    }

    /// Whether two planets are one hex step apart.
    pub fn adjacent(&self, a: PlanetId, b: PlanetId) -> bool {
        self.neighbours.get(a).is_some_and(|n| n.contains(&b))
    }

    /// Planets with all six neighbours on the board (the only ones that can be core).
    pub fn is_inner(&self, planet: PlanetId) -> bool {
        self.neighbours.get(planet).is_some_and(|n| n.len() == 6)
    }

    /// Start planets of seats 0–3: top-left, bottom-right, bottom-left, top-right.
    pub fn start_planets(&self) -> [PlanetId; 4] {
        let (w, h) = (self.width, self.height);
        [(1, 2), (w, h - 1), (1, h - 1), (w, 2)].map(|(x, y)| self.at(x, y).unwrap_or_default())
    }

    /// The site mirrored left–right.
    pub fn mirror_x(&self, planet: PlanetId) -> PlanetId {
        let site = &self.sites[planet];
        self.at(self.width + 1 - site.x, site.y).unwrap_or(planet)
    }

    /// The site mirrored top–bottom.
    pub fn mirror_y(&self, planet: PlanetId) -> PlanetId {
        let site = &self.sites[planet];
        self.at(site.x, self.height + 1 - site.y).unwrap_or(planet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board-size table of background §2.2:
    /// (board_size, W, H, columns, planets, planets with 6 neighbours).
    const TABLE: &[(u32, u32, u32, u32, usize, usize)] = &[
        (5, 5, 5, 3, 7, 1),
        (8, 9, 9, 5, 22, 8),
        (10, 9, 11, 5, 27, 11),
        (12, 13, 13, 7, 45, 23),
        (16, 17, 17, 9, 76, 46),
        (20, 21, 21, 11, 115, 77),
        (30, 29, 31, 15, 232, 176),
    ];

    #[test]
    fn shared_boards_are_built_once_and_equal_fresh_ones() {
        assert!(Arc::ptr_eq(&Board::shared(12), &Board::shared(12)));
        for size in [5, 12, 30, 31, 40] {
            assert_eq!(*Board::shared(size), Board::new(size), "size {size}");
        }
    }

    #[test]
    fn board_size_table() {
        for &(size, w, h, columns, planets, inner) in TABLE {
            let board = Board::new(size);
            assert_eq!((board.width, board.height), (w, h), "size {size}");
            assert_eq!(board.columns(), columns, "size {size}");
            assert_eq!(board.planet_count(), planets, "size {size}");
            let six = (0..board.planet_count())
                .filter(|&p| board.is_inner(p))
                .count();
            assert_eq!(six, inner, "size {size}");
        }
    }

    #[test]
    fn odd_sizes_from_seven_repeat_the_even_size_below() {
        for size in (7..=29).step_by(2) {
            assert_eq!(Board::new(size).sites, Board::new(size - 1).sites);
        }
        // Size 5 is the only allowed odd size with a board of its own (4 is below range).
        assert_ne!(Board::new(5).sites, Board::new(6).sites);
    }

    #[test]
    fn columns_alternate_between_short_and_long() {
        for size in 5..=30 {
            let board = Board::new(size);
            for q in 0..board.columns() as i32 {
                let count = board.sites.iter().filter(|s| s.q == q).count() as u32;
                let expected = if q % 2 == 0 {
                    (board.height - 1) / 2
                } else {
                    board.height.div_ceil(2)
                };
                assert_eq!(count, expected, "size {size} column {q}");
            }
        }
    }

    #[test]
    fn neighbours_are_symmetric_and_edge_planets_have_two_to_five() {
        for size in 5..=30 {
            let board = Board::new(size);
            for p in 0..board.planet_count() {
                let n = &board.neighbours[p];
                assert!((2..=6).contains(&n.len()), "size {size} planet {p}");
                for &m in n {
                    assert!(board.adjacent(m, p));
                    assert_ne!(m, p);
                }
            }
        }
    }

    #[test]
    fn axial_steps_are_the_six_standard_directions() {
        let board = Board::new(12);
        let axial = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
        for (p, site) in board.sites.iter().enumerate() {
            for &m in &board.neighbours[p] {
                let other = &board.sites[m];
                assert!(axial.contains(&(other.q - site.q, other.r - site.r)));
            }
        }
    }

    #[test]
    fn ids_go_by_column_then_row() {
        let board = Board::new(12);
        let order: Vec<(u32, u32)> = board.sites.iter().map(|s| (s.x, s.y)).collect();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(order, sorted);
        assert_eq!(board.at(1, 2), Some(0));
    }

    #[test]
    fn start_corners_exist_and_are_distinct_for_every_size() {
        for size in 5..=30 {
            let board = Board::new(size);
            let (w, h) = (board.width, board.height);
            let corners = [(1, 2), (w, h - 1), (1, h - 1), (w, 2)];
            let starts = board.start_planets();
            for (seat, (x, y)) in corners.iter().enumerate() {
                assert_eq!(board.at(*x, *y), Some(starts[seat]), "size {size}");
            }
            let mut distinct = starts.to_vec();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 4, "size {size}");
        }
    }

    #[test]
    fn layout_is_mirror_symmetric() {
        for size in 5..=30 {
            let board = Board::new(size);
            for p in 0..board.planet_count() {
                let s = &board.sites[p];
                assert!(board.at(board.width + 1 - s.x, s.y).is_some());
                assert!(board.at(s.x, board.height + 1 - s.y).is_some());
                assert_eq!(board.mirror_x(board.mirror_x(p)), p);
                assert_eq!(board.mirror_y(board.mirror_y(p)), p);
            }
        }
    }
}
