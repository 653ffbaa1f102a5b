//! Grid geometry: the orthogonal neighbours of one cell, and the same question asked of
//! a whole [`CellSet`] at once (shifts masked at the board's edges), which is what
//! makes region upkeep and legal listing cheap.

use smallvec::SmallVec;

use crate::cellset::{word_shifted_down, word_shifted_up, CellSet, INLINE};

/// A `width × height` grid; cell ids are `y * width + x`.
#[derive(Debug, Clone)]
pub(crate) struct Grid {
    pub width: usize,
    pub height: usize,
    /// Every cell.
    all: CellSet,
    /// Cells with `x > 0`: where a step east may land (a step from the last column
    /// would wrap onto the next row's first).
    east_landing: CellSet,
    /// Cells with `x < width - 1`: where a step west may land.
    west_landing: CellSet,
    /// `⌈2³² / width⌉`: `cell * row_factor >> 32` is `cell / width` for every cell,
    /// without a division.
    row_factor: u64,
}

/// [`Grid`]'s edge masks as fixed arrays, when its sets are kept inline (a board of at
/// most `INLINE` × 64 cells): whole-set operations then run on fixed arrays,
/// straight-line code with no bounds checks.
struct InlineEdges<'a> {
    east_landing: &'a [u64; INLINE],
    west_landing: &'a [u64; INLINE],
    all: &'a [u64; INLINE],
}

/// Parts kept on the stack: a cell has at most four neighbours to seed them.
type FewParts = SmallVec<[CellSet; 4]>;

/// The connected parts of a set that hold some seed cells, from [`Grid::parts_around`].
#[derive(Debug)]
pub(crate) struct Parts {
    /// Parts found whole.
    pub complete: FewParts,
    /// Whether one more part (every seeded cell in no complete part) was left growing.
    pub rest: bool,
}

impl Parts {
    /// Which part holds `cell` (a cell of a seeded part): an index into `complete`,
    /// or `complete.len()` for the rest.
    pub fn of(&self, cell: usize) -> usize {
        self.complete
            .iter()
            .position(|part| part.contains(cell))
            .unwrap_or(self.complete.len())
    }

    /// How many parts there are.
    pub fn count(&self) -> usize {
        self.complete.len() + usize::from(self.rest)
    }
}

/// For each ring of eight cells around a cell (bit `i` set: place `i` occupied,
/// clockwise from north, even places orthogonal), whether the occupied orthogonal
/// places lie in at most one run of occupied places around the ring.
const RING_JOINED: [bool; 256] = {
    let mut table = [false; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = ring_joined(mask);
        mask += 1;
    }
    table
};

/// One entry of [`RING_JOINED`]: walk the ring once from an empty place, counting the
/// runs of occupied places that hold an orthogonal one.
const fn ring_joined(mask: usize) -> bool {
    if mask == 0xFF {
        return true;
    }
    let mut gap = 0;
    while mask & (1 << gap) != 0 {
        gap += 1;
    }
    let (mut groups, mut run_has_neighbour) = (0, false);
    let mut step = 1;
    while step <= 8 {
        let i = (gap + step) % 8;
        if mask & (1 << i) != 0 {
            run_has_neighbour |= i % 2 == 0;
        } else {
            if run_has_neighbour {
                groups += 1;
            }
            run_has_neighbour = false;
        }
        step += 1;
    }
    groups <= 1
}

impl Grid {
    pub fn new(width: usize, height: usize) -> Grid {
        let cells = width * height;
        Grid {
            width,
            height,
            all: CellSet::full(cells),
            east_landing: CellSet::from_fn(cells, |c| c % width != 0),
            west_landing: CellSet::from_fn(cells, |c| c % width != width - 1),
            row_factor: (1u64 << 32).div_ceil(width.max(1) as u64),
        }
    }

    pub fn len(&self) -> usize {
        self.width * self.height
    }

    /// The empty set of this grid's cells.
    pub fn no_cells(&self) -> CellSet {
        self.all.cleared()
    }

    pub fn all_cells(&self) -> &CellSet {
        &self.all
    }

    /// `(x, y)` of a cell. A multiplication stands in for `cell / width`: a division
    /// costs more than what the callers do with the answer.
    pub fn coords(&self, cell: usize) -> (usize, usize) {
        let y = self.row(cell);
        (cell - y * self.width, y)
    }

    /// The row (`y`) of a cell, by the same multiplication.
    pub fn row(&self, cell: usize) -> usize {
        ((cell as u64 * self.row_factor) >> 32) as usize
    }

    /// The orthogonal neighbours of `cell` (W/E/S/N, no wrap), as a fixed array.
    pub fn neighbors(&self, cell: usize) -> Neighbors {
        let (x, y) = self.coords(cell);
        let mut out = Neighbors {
            cells: [0; 4],
            len: 0,
        };
        let candidates = [
            (x > 0, cell.wrapping_sub(1)),
            (x + 1 < self.width, cell + 1),
            (y > 0, cell.wrapping_sub(self.width)),
            (y + 1 < self.height, cell + self.width),
        ];
        for (on_board, neighbour) in candidates {
            // Written unconditionally (`len` is below 4 before every write), so that
            // only the length depends on the edges.
            out.cells[out.len & 3] = neighbour;
            out.len += usize::from(on_board);
        }
        out
    }

    /// Word `i` of the cells whose neighbour on each side (west, east, south, north)
    /// is in `words`; one pass over the words, no intermediate sets.
    fn sides_at(&self, edges: &Edges, words: &[u64], i: usize) -> [u64; 4] {
        [
            word_shifted_up(words, i, 1) & edges.east_landing[i],
            word_shifted_down(words, i, 1) & edges.west_landing[i],
            word_shifted_up(words, i, self.width) & edges.all[i],
            word_shifted_down(words, i, self.width),
        ]
    }

    /// The edge masks as fixed arrays, if this grid's sets are kept inline.
    fn inline_edges(&self) -> Option<InlineEdges<'_>> {
        Some(InlineEdges {
            east_landing: self.east_landing.inline()?,
            west_landing: self.west_landing.inline()?,
            all: self.all.inline()?,
        })
    }

    /// [`Grid::sides_at`] for every word of an inline set at once.
    #[inline(always)]
    fn sides_inline(&self, edges: &InlineEdges, words: &[u64; INLINE]) -> [[u64; INLINE]; 4] {
        let width = self.width;
        [
            std::array::from_fn(|i| word_shifted_up(words, i, 1) & edges.east_landing[i]),
            std::array::from_fn(|i| word_shifted_down(words, i, 1) & edges.west_landing[i]),
            std::array::from_fn(|i| word_shifted_up(words, i, width) & edges.all[i]),
            std::array::from_fn(|i| word_shifted_down(words, i, width)),
        ]
    }

    /// The edge masks' words, looked up once per whole-set operation.
    fn edges(&self) -> Edges<'_> {
        Edges {
            east_landing: self.east_landing.words(),
            west_landing: self.west_landing.words(),
            all: self.all.words(),
        }
    }

    /// The cells with at least one orthogonal neighbour in `set`.
    pub fn next_to(&self, set: &CellSet) -> CellSet {
        if let (Some(edges), Some(words)) = (self.inline_edges(), set.inline()) {
            let [w, e, s, n] = self.sides_inline(&edges, words);
            return CellSet::from_inline(std::array::from_fn(|i| w[i] | e[i] | s[i] | n[i]));
        }
        let words = set.words();
        let edges = self.edges();
        set.with_words(|i| {
            self.sides_at(&edges, words, i)
                .into_iter()
                .fold(0, |a, b| a | b)
        })
    }

    /// The cells with at least two, and at least three, orthogonal neighbours in `set`.
    pub fn crowded(&self, set: &CellSet) -> (CellSet, CellSet) {
        if let (Some(edges), Some(words)) = (self.inline_edges(), set.inline()) {
            // A bit-sliced count of the four sides, saturating at three.
            let (mut ones, mut twos, mut threes) = ([0u64; INLINE], [0u64; INLINE], [0u64; INLINE]);
            for side in self.sides_inline(&edges, words) {
                for i in 0..INLINE {
                    threes[i] |= twos[i] & side[i];
                    twos[i] |= ones[i] & side[i];
                    ones[i] |= side[i];
                }
            }
            return (CellSet::from_inline(twos), CellSet::from_inline(threes));
        }
        let words = set.words();
        let edges = self.edges();
        let (mut two, mut three) = (set.cleared(), set.cleared());
        for (i, (two, three)) in two
            .words_mut()
            .iter_mut()
            .zip(three.words_mut())
            .enumerate()
        {
            // A bit-sliced count of the four sides, saturating at three.
            let (mut ones, mut twos, mut threes) = (0u64, 0u64, 0u64);
            for bit in self.sides_at(&edges, words, i) {
                threes |= twos & bit;
                twos |= ones & bit;
                ones |= bit;
            }
            (*two, *three) = (twos, threes);
        }
        (two, three)
    }

    /// Whether the cells of `set` orthogonally next to `cell` are joined to each other
    /// within the eight cells around it, so taking `cell` out of `set` cannot split
    /// them apart (`false` says only that no such short way around exists).
    pub fn joined_around(&self, set: &CellSet, cell: usize) -> bool {
        let (x, y) = self.coords(cell);
        let width = self.width;
        let (west, east) = (x > 0, x + 1 < width);
        let (south, north) = (y > 0, y + 1 < self.height);
        let (up, down) = (cell.wrapping_add(width), cell.wrapping_sub(width));
        let inside = |on_board: bool, at: usize| on_board && set.contains(at);
        // The ring around the cell, from north clockwise; even places are the cell's
        // own neighbours.
        let ring = [
            inside(north, up),
            inside(north && east, up.wrapping_add(1)),
            inside(east, cell.wrapping_add(1)),
            inside(south && east, down.wrapping_add(1)),
            inside(south, down),
            inside(south && west, down.wrapping_sub(1)),
            inside(west, cell.wrapping_sub(1)),
            inside(north && west, up.wrapping_sub(1)),
        ];
        let mask = ring.iter().enumerate().fold(0usize, |mask, (i, &inside)| {
            mask | (usize::from(inside) << i)
        });
        RING_JOINED[mask]
    }

    /// The connected part of `within` that contains `start` (empty if `start` is not
    /// in `within`).
    pub fn component(&self, within: &CellSet, start: usize) -> CellSet {
        let mut part = self.no_cells();
        if !within.contains(start) {
            return part;
        }
        part.insert(start);
        loop {
            let next = self.grown(within, &part);
            if next == part {
                return part;
            }
            part = next;
        }
    }

    /// Whether `cells` (all in `within`) lie in one connected part of `within`. Grows
    /// from the first until it holds them all, so cells joined by a short way answer
    /// quickly. The tests' plain answer to hold `joined_around` to (the rules ask
    /// [`Grid::parts_around`], which also gives the parts).
    #[cfg(test)]
    pub fn joins(&self, within: &CellSet, cells: &[usize]) -> bool {
        let Some((&first, rest)) = cells.split_first() else {
            return true;
        };
        let mut part = self.no_cells();
        part.insert(first);
        loop {
            if rest.iter().all(|&c| part.contains(c)) {
                return true;
            }
            let next = self.grown(within, &part);
            if next == part {
                return false;
            }
            part = next;
        }
    }

    /// The connected parts of `within` holding the `seeds`, grown side by side so that
    /// the work is bounded by the smaller parts: a part that stops growing is
    /// complete, parts that meet are one, and once a single part is still growing it
    /// is left as the rest without filling it.
    pub fn parts_around(&self, within: &CellSet, seeds: &[usize]) -> Parts {
        let mut growing = FewParts::new();
        for &seed in seeds.iter().filter(|&&seed| within.contains(seed)) {
            let mut part = self.no_cells();
            part.insert(seed);
            growing.push(part);
        }
        let mut complete = FewParts::new();
        loop {
            // Parts that met are one part.
            let mut i = 0;
            while i < growing.len() {
                match (i + 1..growing.len()).find(|&j| growing[i].intersects(&growing[j])) {
                    Some(j) => {
                        let met = growing.swap_remove(j);
                        growing[i] = growing[i].or(&met);
                    }
                    None => i += 1,
                }
            }
            if growing.len() <= 1 {
                return Parts {
                    complete,
                    rest: !growing.is_empty(),
                };
            }
            // Grown in place: a part that stopped growing moves to `complete` (the
            // parts' order does not matter, only which cells share one).
            let mut i = 0;
            while i < growing.len() {
                let next = self.grown(within, &growing[i]);
                if next == growing[i] {
                    complete.push(growing.swap_remove(i));
                } else {
                    growing[i] = next;
                    i += 1;
                }
            }
        }
    }

    /// `part` and the cells of `within` next to it.
    fn grown(&self, within: &CellSet, part: &CellSet) -> CellSet {
        if let (Some(edges), Some(words), Some(within)) =
            (self.inline_edges(), part.inline(), within.inline())
        {
            let [w, e, s, n] = self.sides_inline(&edges, words);
            return CellSet::from_inline(std::array::from_fn(|i| {
                ((w[i] | e[i] | s[i] | n[i]) & within[i]) | words[i]
            }));
        }
        let around = self.next_to(part);
        let (around, within, part_words) = (around.words(), within.words(), part.words());
        part.with_words(|i| (around[i] & within[i]) | part_words[i])
    }
}

/// The words of a grid's edge masks (see [`Grid`]).
struct Edges<'a> {
    east_landing: &'a [u64],
    west_landing: &'a [u64],
    all: &'a [u64],
}

/// Up to four neighbouring cells without allocating.
#[derive(Debug, Clone, Copy)]
pub struct Neighbors {
    cells: [usize; 4],
    len: usize,
}

impl Neighbors {
    pub fn as_slice(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

impl IntoIterator for Neighbors {
    type Item = usize;
    type IntoIter = std::iter::Take<std::array::IntoIter<usize, 4>>;
    fn into_iter(self) -> Self::IntoIter {
        self.cells.into_iter().take(self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The division-free coordinates and neighbours are those of the division.
    #[test]
    fn neighbors_match_the_coordinates() {
        for (width, height) in [(16, 11), (7, 5), (64, 64), (3, 64), (1, 9), (64, 1)] {
            let grid = Grid::new(width, height);
            for cell in 0..width * height {
                let (x, y) = (cell % width, cell / width);
                assert_eq!(grid.coords(cell), (x, y));
                let mut expected = Vec::new();
                if x > 0 {
                    expected.push(cell - 1);
                }
                if x + 1 < width {
                    expected.push(cell + 1);
                }
                if y > 0 {
                    expected.push(cell - width);
                }
                if y + 1 < height {
                    expected.push(cell + width);
                }
                assert_eq!(
                    grid.neighbors(cell).as_slice(),
                    expected,
                    "{width} × {height}: {cell}"
                );
            }
        }
    }

    /// The whole-set answers agree with asking every cell's neighbours one by one.
    #[test]
    fn set_answers_match_cell_by_cell() {
        for (width, height) in [(16, 11), (7, 5), (64, 3), (3, 64), (1, 9)] {
            let grid = Grid::new(width, height);
            let cells = width * height;
            let set = CellSet::from_fn(cells, |c| (c * 7 + c / 3) % 5 < 2);
            let count = |c: usize| {
                grid.neighbors(c)
                    .into_iter()
                    .filter(|&n| set.contains(n))
                    .count()
            };
            let (two, three) = grid.crowded(&set);
            for c in 0..cells {
                assert_eq!(grid.next_to(&set).contains(c), count(c) >= 1, "{c}");
                assert_eq!(two.contains(c), count(c) >= 2, "{c}");
                assert_eq!(three.contains(c), count(c) >= 3, "{c}");
            }
            assert!(grid.next_to(&set).minus(grid.all_cells()).first().is_none());
        }
    }

    /// `joined_around` never calls joined what a flood fill does not join, and it
    /// does see the plain ways around (a full ring, a leaf).
    #[test]
    fn joined_around_is_a_safe_shortcut() {
        for (width, height) in [(5, 4), (1, 6), (6, 1), (16, 11), (64, 3)] {
            let grid = Grid::new(width, height);
            let cells = width * height;
            for pattern in 0u64..64 {
                let set = CellSet::from_fn(cells, |c| {
                    (pattern.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (c % 59)) & 3 != 0
                });
                for cell in 0..cells {
                    let neighbours: Vec<usize> = grid
                        .neighbors(cell)
                        .into_iter()
                        .filter(|&n| set.contains(n))
                        .collect();
                    if grid.joined_around(&set, cell) {
                        let mut without = set.clone();
                        without.remove(cell);
                        assert!(
                            grid.joins(&without, &neighbours),
                            "{width} × {height}, {pattern}: {cell}"
                        );
                    }
                    if neighbours.len() <= 1 {
                        assert!(grid.joined_around(&set, cell));
                    }
                }
            }
        }
        let grid = Grid::new(3, 3);
        assert!(grid.joined_around(&grid.all_cells().clone(), 4));
    }

    #[test]
    fn joins_tells_connected_cells_apart() {
        // 4 × 3, rows bottom first: X X . X / . X . X / X X X X
        let grid = Grid::new(4, 3);
        let set = CellSet::from_fn(12, |c| [0, 1, 3, 5, 7, 8, 9, 10, 11].contains(&c));
        assert!(grid.joins(&set, &[0, 3, 8]));
        let mut cut = set.clone();
        cut.remove(9);
        assert!(!grid.joins(&cut, &[0, 8]));
        assert!(grid.joins(&cut, &[0, 5]));
        assert!(grid.joins(&cut, &[3]));
    }

    /// Growing side by side groups the seeds exactly as their components do.
    #[test]
    fn parts_around_group_seeds_like_components() {
        let grid = Grid::new(9, 7);
        for pattern in 0u64..300 {
            let set = CellSet::from_fn(63, |c| {
                (pattern.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (c % 61)) & 3 != 0
            });
            let seeds: Vec<usize> = set.iter().step_by(5).take(4).collect();
            let parts = grid.parts_around(&set, &seeds);
            for &a in &seeds {
                let component = grid.component(&set, a);
                for &b in &seeds {
                    assert_eq!(
                        parts.of(a) == parts.of(b),
                        component.contains(b),
                        "pattern {pattern}: seeds {a} and {b}"
                    );
                }
                if parts.of(a) < parts.complete.len() {
                    assert_eq!(parts.complete[parts.of(a)], component);
                }
            }
            let distinct: std::collections::BTreeSet<usize> =
                seeds.iter().map(|&s| parts.of(s)).collect();
            assert_eq!(distinct.len(), parts.count(), "pattern {pattern}");
        }
    }

    #[test]
    fn component_follows_orthogonal_steps_only() {
        // 4 × 3, rows bottom first: X X . X / . X . X / X . . X
        let grid = Grid::new(4, 3);
        let set = CellSet::from_fn(12, |c| [0, 1, 3, 5, 7, 8, 11].contains(&c));
        let part: Vec<usize> = grid.component(&set, 0).iter().collect();
        assert_eq!(part, vec![0, 1, 5]);
        let part: Vec<usize> = grid.component(&set, 3).iter().collect();
        assert_eq!(part, vec![3, 7, 11]);
        assert!(grid.component(&set, 2).first().is_none());
    }
}
