//! A set of board cells as a bitboard, so that whole-board questions (which cells are
//! free, next to a scientist colony, where may a leader go) are a few word operations
//! instead of a loop over every cell.
//!
//! Boards of up to [`INLINE`] × 64 cells (the default board and any custom board up to
//! 16 × 16) keep a fixed number of words inline, so a set is a small value that is cheap
//! to create and copy, and operations on two such sets are straight-line code; larger
//! boards, up to the largest a config may ask for, keep exactly their words on the heap.

/// Words kept inline.
pub(crate) const INLINE: usize = 4;

/// Cells `0..cells` of one board, as bits; bits past the board are always clear.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct CellSet {
    words: Words,
}

#[derive(Clone, PartialEq, Eq)]
enum Words {
    /// Words past the board's cells stay zero.
    Inline([u64; INLINE]),
    Heap(Box<[u64]>),
}

impl CellSet {
    /// The empty set for a board of `cells` cells.
    pub fn empty(cells: usize) -> CellSet {
        let len = cells.div_ceil(64);
        let words = if len <= INLINE {
            Words::Inline([0; INLINE])
        } else {
            Words::Heap(vec![0; len].into_boxed_slice())
        };
        CellSet { words }
    }

    /// Every cell of a board of `cells` cells.
    pub fn full(cells: usize) -> CellSet {
        CellSet::from_fn(cells, |_| true)
    }

    /// The empty set on the same board as `self`.
    pub fn cleared(&self) -> CellSet {
        CellSet::empty(self.words().len() * 64)
    }

    /// The cells for which `keep` holds, among `0..cells`.
    pub fn from_fn(cells: usize, mut keep: impl FnMut(usize) -> bool) -> CellSet {
        let mut set = CellSet::empty(cells);
        for cell in 0..cells {
            if keep(cell) {
                set.insert(cell);
            }
        }
        set
    }

    /// The words of a set kept inline (a board of at most `INLINE` × 64 cells), for
    /// the straight-line paths of whole-board operations.
    pub fn inline(&self) -> Option<&[u64; INLINE]> {
        match &self.words {
            Words::Inline(words) => Some(words),
            Words::Heap(_) => None,
        }
    }

    /// A set kept inline from its words (bits past the board must be clear).
    pub fn from_inline(words: [u64; INLINE]) -> CellSet {
        CellSet {
            words: Words::Inline(words),
        }
    }

    pub fn words(&self) -> &[u64] {
        match &self.words {
            Words::Inline(words) => words,
            Words::Heap(words) => words,
        }
    }

    pub fn words_mut(&mut self) -> &mut [u64] {
        match &mut self.words {
            Words::Inline(words) => words,
            Words::Heap(words) => words,
        }
    }

    pub fn contains(&self, cell: usize) -> bool {
        self.words()
            .get(cell / 64)
            .is_some_and(|w| w & (1 << (cell % 64)) != 0)
    }

    pub fn insert(&mut self, cell: usize) {
        if let Some(w) = self.words_mut().get_mut(cell / 64) {
            *w |= 1 << (cell % 64);
        }
    }

    pub fn remove(&mut self, cell: usize) {
        if let Some(w) = self.words_mut().get_mut(cell / 64) {
            *w &= !(1 << (cell % 64));
        }
    }

    pub fn set(&mut self, cell: usize, member: bool) {
        if member {
            self.insert(cell);
        } else {
            self.remove(cell);
        }
    }

    pub fn count(&self) -> usize {
        self.words().iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The lowest cell.
    pub fn first(&self) -> Option<usize> {
        self.words()
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The `n`-th lowest cell (0-based).
    pub fn nth(&self, mut n: usize) -> Option<usize> {
        for (i, &word) in self.words().iter().enumerate() {
            let ones = word.count_ones() as usize;
            if n < ones {
                return Some(i * 64 + select(word, n as u32) as usize);
            }
            n -= ones;
        }
        None
    }

    /// Call `f` on every cell, ascending (a plain loop: cheaper than [`CellSet::iter`]
    /// where every cell is visited).
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        for (i, &word) in self.words().iter().enumerate() {
            let mut w = word;
            while w != 0 {
                f(i * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }

    /// The cells, ascending.
    pub fn iter(&self) -> Cells<'_> {
        let words = self.words();
        Cells {
            words,
            index: 0,
            word: words.first().copied().unwrap_or(0),
        }
    }

    /// Word by word. Inlined for boards kept inline (a few instructions where a call
    /// cost more than the work), out of line for larger ones.
    #[inline]
    fn zip_with(&self, other: &CellSet, f: impl Fn(u64, u64) -> u64) -> CellSet {
        if let (Words::Inline(a), Words::Inline(b)) = (&self.words, &other.words) {
            return CellSet {
                words: Words::Inline(std::array::from_fn(|i| f(a[i], b[i]))),
            };
        }
        self.zip_with_heap(other, f)
    }

    #[inline(never)]
    fn zip_with_heap(&self, other: &CellSet, f: impl Fn(u64, u64) -> u64) -> CellSet {
        let mut out = self.cleared();
        for ((o, &a), &b) in out
            .words_mut()
            .iter_mut()
            .zip(self.words())
            .zip(other.words())
        {
            *o = f(a, b);
        }
        out
    }

    #[inline]
    pub fn and(&self, other: &CellSet) -> CellSet {
        self.zip_with(other, |a, b| a & b)
    }

    #[inline]
    pub fn or(&self, other: &CellSet) -> CellSet {
        self.zip_with(other, |a, b| a | b)
    }

    pub fn intersects(&self, other: &CellSet) -> bool {
        self.words()
            .iter()
            .zip(other.words())
            .any(|(a, b)| a & b != 0)
    }

    /// The cells of `self` not in `other`.
    #[inline]
    pub fn minus(&self, other: &CellSet) -> CellSet {
        self.zip_with(other, |a, b| a & !b)
    }

    /// A set on the same board whose word `i` is `word(i)`.
    pub fn with_words(&self, mut word: impl FnMut(usize) -> u64) -> CellSet {
        if let Words::Inline(_) = self.words {
            return CellSet {
                words: Words::Inline(std::array::from_fn(word)),
            };
        }
        let mut out = self.cleared();
        for (i, w) in out.words_mut().iter_mut().enumerate() {
            *w = word(i);
        }
        out
    }
}

/// The position of the `n`-th lowest set bit of `word` (which has more than `n`):
/// halves, quarters and eighths narrowed by their counts, then at most seven bits
/// cleared, where clearing up to 63 one by one was a tenth of a random draw.
fn select(mut word: u64, mut n: u32) -> u32 {
    let mut base = 0;
    for width in [32, 16, 8] {
        let low = word & ((1u64 << width) - 1);
        let ones = low.count_ones();
        if n < ones {
            word = low;
        } else {
            n -= ones;
            word >>= width;
            base += width;
        }
    }
    for _ in 0..n {
        word &= word - 1;
    }
    base + word.trailing_zeros()
}

/// Word `i` of `words` with every cell moved `by` ids up (cells past the last word
/// fall off).
pub(crate) fn word_shifted_up(words: &[u64], i: usize, by: usize) -> u64 {
    let (skip, bits) = (by / 64, by % 64);
    let Some(j) = i.checked_sub(skip) else {
        return 0;
    };
    let carry = match j.checked_sub(1) {
        Some(k) if bits != 0 => words[k] >> (64 - bits),
        _ => 0,
    };
    (words[j] << bits) | carry
}

/// Word `i` of `words` with every cell moved `by` ids down (cells below 0 fall off).
pub(crate) fn word_shifted_down(words: &[u64], i: usize, by: usize) -> u64 {
    let (skip, bits) = (by / 64, by % 64);
    let Some(&word) = words.get(i + skip) else {
        return 0;
    };
    let carry = match words.get(i + skip + 1) {
        Some(&next) if bits != 0 => next << (64 - bits),
        _ => 0,
    };
    (word >> bits) | carry
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cells of a [`CellSet`], ascending: the word being read and the bits of it
/// still to give. A plain struct rather than `flat_map` over the words, whose
/// adapters were a twentieth of a random T&E game (every leader loop walks a set).
pub(crate) struct Cells<'a> {
    words: &'a [u64],
    index: usize,
    word: u64,
}

impl Iterator for Cells<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word == 0 {
            self.index += 1;
            self.word = *self.words.get(self.index)?;
        }
        let bit = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(self.index * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_the_nth_set_bit() {
        for word in [
            1u64,
            u64::MAX,
            0x8000_0000_0000_0001,
            0xF0F0_00FF_0000_1234,
            1 << 63,
        ] {
            let positions: Vec<u32> = (0..64).filter(|&b| word & (1 << b) != 0).collect();
            for (n, &position) in positions.iter().enumerate() {
                assert_eq!(select(word, n as u32), position, "{word:#x} bit {n}");
            }
        }
    }

    #[test]
    fn counts_selects_and_iterates_in_order() {
        let cells = [0, 5, 63, 64, 130, 175];
        let mut set = CellSet::empty(176);
        for c in cells {
            set.insert(c);
        }
        assert_eq!(set.iter().collect::<Vec<_>>(), cells);
        assert_eq!(set.count(), cells.len());
        assert_eq!(set.first(), Some(0));
        for (n, &c) in cells.iter().enumerate() {
            assert_eq!(set.nth(n), Some(c));
            assert!(set.contains(c));
        }
        assert_eq!(set.nth(cells.len()), None);
        set.remove(0);
        assert_eq!(set.first(), Some(5));
        assert!(!set.contains(0));
    }

    /// The iterator gives what `for_each` visits, across empty words, on inline and
    /// heap boards, and nothing for empty sets (on an empty board too).
    #[test]
    fn iterates_as_for_each_visits() {
        for (cells, members) in [
            (0, vec![]),
            (176, vec![]),
            (176, vec![175]),
            (256, vec![0, 255]),
            (1_000, vec![3, 64, 65, 700, 999]),
            (4_096, vec![4_095]),
        ] {
            let mut set = CellSet::empty(cells);
            for &c in &members {
                set.insert(c);
            }
            let mut visited = Vec::new();
            set.for_each(|c| visited.push(c));
            assert_eq!(set.iter().collect::<Vec<_>>(), visited, "{cells} cells");
            assert_eq!(visited, members, "{cells} cells");
        }
    }

    #[test]
    fn shifts_carry_across_words() {
        for cells in [200, 1_000] {
            let mut set = CellSet::empty(cells);
            set.insert(63);
            set.insert(150);
            let capacity = cells.div_ceil(64) * 64;
            for by in [1, 16, 63, 64] {
                let up = set.with_words(|i| word_shifted_up(set.words(), i, by));
                let expected: Vec<usize> = [63 + by, 150 + by]
                    .into_iter()
                    .filter(|&c| c < capacity)
                    .collect();
                assert_eq!(up.iter().collect::<Vec<_>>(), expected, "up {by}");
                let down = set.with_words(|i| word_shifted_down(set.words(), i, by));
                let expected: Vec<usize> = [63usize, 150]
                    .into_iter()
                    .filter_map(|c| c.checked_sub(by))
                    .collect();
                assert_eq!(down.iter().collect::<Vec<_>>(), expected, "down {by}");
            }
        }
    }
}
