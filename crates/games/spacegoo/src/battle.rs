//! The reference battle, reproduced bit for bit.
//!
//! The seed's Python `battle` mixes ints and floats: a damage term is either the float
//! `attacker * multiplier` or the int minimum `absolute`, whichever `max()` picks, and a
//! defender stays an int until a float is subtracted from it. Below 2^53 the distinction
//! never changes a value, but ships fed through the harness can be any 64-bit integer, so
//! the arithmetic here keeps Python's number model (`PyNum`): exact ints, IEEE doubles,
//! exact int/float comparison, and `int()` truncation only at the very end. The operation
//! order is the reference's: per defender type 0, 1, 2, subtract the damage of attacker
//! types 0, 1, 2 in turn, then clamp at 0; both sides of an exchange are computed from the
//! values before it.
//!
//! [`battle`] takes a shortcut for every battle a game can produce (non-negative counts up
//! to 2^52): the same operations in the same order in plain doubles, which give the same
//! numbers bit for bit there (see `battle_small`); anything else goes through `PyNum`.

use std::cmp::Ordering;

/// Ship types per fleet or planet.
pub const SHIP_TYPES: usize = 3;

/// A Python number as the reference sees it: an exact int or a double.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PyNum {
    Int(i128),
    Float(f64),
}

use PyNum::{Float, Int};

impl PyNum {
    /// `float(x)`: correctly rounded, as CPython converts ints.
    fn to_f64(self) -> f64 {
        match self {
            Int(n) => n as f64,
            Float(x) => x,
        }
    }

    /// Python's `self > other`, exact across int and float.
    fn gt(self, other: PyNum) -> bool {
        match (self, other) {
            (Int(a), Int(b)) => a > b,
            (Float(a), Float(b)) => a > b,
            (Float(x), Int(n)) => float_cmp_int(x, n) == Some(Ordering::Greater),
            (Int(n), Float(x)) => float_cmp_int(x, n) == Some(Ordering::Less),
        }
    }

    fn add(self, other: PyNum) -> PyNum {
        match (self, other) {
            (Int(a), Int(b)) => Int(a.saturating_add(b)),
            _ => Float(self.to_f64() + other.to_f64()),
        }
    }

    fn sub(self, other: PyNum) -> PyNum {
        match (self, other) {
            (Int(a), Int(b)) => Int(a.saturating_sub(b)),
            _ => Float(self.to_f64() - other.to_f64()),
        }
    }

    /// `self * multiplier` with a float multiplier: always a float.
    fn scaled(self, multiplier: f64) -> PyNum {
        Float(self.to_f64() * multiplier)
    }

    /// Python's `int(x)`: truncation toward zero.
    pub(crate) fn truncate(self) -> i128 {
        match self {
            Int(n) => n,
            // `as` saturates and maps NaN to 0; neither occurs for finite ship counts.
            Float(x) => x.trunc() as i128,
        }
    }

    /// The value as a double, for tests that look at fractional remainders.
    #[cfg(test)]
    pub(crate) fn value(self) -> f64 {
        self.to_f64()
    }
}

/// Compare a double with an int exactly, as Python does (no rounding of the int).
fn float_cmp_int(x: f64, n: i128) -> Option<Ordering> {
    if x.is_nan() {
        return None;
    }
    // Beyond ±2^126 every i128 is smaller (or larger) in magnitude.
    const LIMIT: f64 = 8.507_059_173_023_462e37; // 2^126
    if x >= LIMIT {
        return Some(Ordering::Greater);
    }
    if x <= -LIMIT {
        return Some(Ordering::Less);
    }
    let floor = x.floor();
    let whole = floor as i128; // exact: `floor` is integral and within range
    match whole.cmp(&n) {
        Ordering::Equal if x > floor => Some(Ordering::Greater),
        ordering => Some(ordering),
    }
}

/// Python's `max(a, b)`: `a` unless `b` is strictly greater.
fn py_max(a: PyNum, b: PyNum) -> PyNum {
    if b.gt(a) {
        b
    } else {
        a
    }
}

/// Python's `sum(xs)`: a left fold from the int 0.
fn py_sum(values: &[PyNum; SHIP_TYPES]) -> PyNum {
    values.iter().fold(Int(0), |total, &v| total.add(v))
}

/// Damage factors by `(defender type - attacker type) mod 3`: same type, the attacker's
/// favoured matchup (type 0 beats 1, 1 beats 2, 2 beats 0), and the weak one.
const MATCHUPS: [(f64, i128); SHIP_TYPES] = [(0.1, 1), (0.25, 2), (0.01, 1)];

/// One half-exchange: the defender after `attacker` fired at it (the seed's
/// `battle_round`). Any non-zero attacker stack deals at least `absolute`.
pub(crate) fn battle_round(
    attacker: &[PyNum; SHIP_TYPES],
    defender: &[PyNum; SHIP_TYPES],
) -> [PyNum; SHIP_TYPES] {
    let mut out = *defender;
    for (def_type, slot) in out.iter_mut().enumerate() {
        for (att_type, &stack) in attacker.iter().enumerate() {
            let diff = (def_type as i64 - att_type as i64).rem_euclid(SHIP_TYPES as i64) as usize;
            let (multiplier, absolute) = MATCHUPS[diff];
            let minimum = Int(if stack.gt(Int(0)) { absolute } else { 0 });
            *slot = slot.sub(py_max(stack.scaled(multiplier), minimum));
        }
        *slot = py_max(Int(0), *slot);
    }
    out
}

/// A whole battle before truncation, with the number of simultaneous exchanges.
pub(crate) fn battle_raw(
    s1: [i128; SHIP_TYPES],
    s2: [i128; SHIP_TYPES],
) -> ([PyNum; SHIP_TYPES], [PyNum; SHIP_TYPES], u64) {
    let mut ships1 = s1.map(Int);
    let mut ships2 = s2.map(Int);
    let mut exchanges = 0u64;
    while py_sum(&ships1).gt(Int(0)) && py_sum(&ships2).gt(Int(0)) {
        let new1 = battle_round(&ships2, &ships1);
        ships2 = battle_round(&ships1, &ships2);
        ships1 = new1;
        exchanges += 1;
    }
    (ships1, ships2, exchanges)
}

/// The seed's `battle(s1, s2)` over any 64-bit inputs, with remainders as wide ints
/// (a float remainder just above `i64::MAX` truncates to an int Python prints as is).
pub fn battle_wide(
    s1: [i64; SHIP_TYPES],
    s2: [i64; SHIP_TYPES],
) -> ([i128; SHIP_TYPES], [i128; SHIP_TYPES]) {
    let (r1, r2, _) = battle_raw(s1.map(i128::from), s2.map(i128::from));
    (r1.map(PyNum::truncate), r2.map(PyNum::truncate))
}

/// The seed's `battle(s1, s2)`: both sides' remainders, truncated toward zero.
///
/// For the ship counts a game produces (non-negative, far below 2^53) the remainders never
/// exceed the inputs; out-of-range remainders of extreme harness inputs saturate.
pub fn battle(
    s1: [i64; SHIP_TYPES],
    s2: [i64; SHIP_TYPES],
) -> ([i64; SHIP_TYPES], [i64; SHIP_TYPES]) {
    if let Some(remainders) = battle_small(s1, s2) {
        return remainders;
    }
    let (r1, r2) = battle_wide(s1, s2);
    let narrow = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
    (r1.map(narrow), r2.map(narrow))
}

/// The largest ship count [`battle_small`] takes: every int up to it, and every
/// difference of such ints, is exact in a double.
pub(crate) const SMALL_LIMIT: i64 = 1 << 52;

/// [`battle_wide`] in plain doubles, for inputs in `0..=SMALL_LIMIT` (every battle of a
/// game), else `None`. The same numbers bit for bit, because for such inputs the Python
/// number model only ever meets values a double holds exactly:
/// - an int operand (an input, a minimum of 0, 1 or 2, a clamp's 0) converts to the
///   double of the same value, so a mixed operation is the very same double
///   operation here;
/// - an int-int subtraction (an int defender minus an int minimum) stays between -6
///   and the input, where double subtraction is exact too;
/// - exact int/float comparison is double comparison of exact values;
/// - `sum(ships) > 0` of non-negative values (inputs, then clamped remainders) is "some
///   value is positive" in both models;
/// - `int()` of an int-valued double is the int.
///
/// The operations, and their order, are [`battle_round`]'s. Tested against
/// [`battle_wide`] (`small_battles_match_the_python_number_model`).
#[inline]
pub(crate) fn battle_small(
    s1: [i64; SHIP_TYPES],
    s2: [i64; SHIP_TYPES],
) -> Option<([i64; SHIP_TYPES], [i64; SHIP_TYPES])> {
    let in_range = |n: &i64| (0..=SMALL_LIMIT).contains(n);
    if !(s1.iter().all(in_range) && s2.iter().all(in_range)) {
        return None;
    }
    // SAFETY: SSE2 is part of x86-64 itself; every x86-64 processor has it.
    #[cfg(target_arch = "x86_64")]
    let remainders = unsafe { sse2::exchanges(s1, s2) };
    #[cfg(not(target_arch = "x86_64"))]
    let remainders = exchanges_scalar(s1, s2);
    Some(remainders)
}

/// [`battle_small`]'s exchanges one double at a time, as processors other than x86-64
/// run them; x86-64 runs the same operations two lanes at a time (`sse2::exchanges`),
/// and the tests hold the two to the same results.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn exchanges_scalar(
    s1: [i64; SHIP_TYPES],
    s2: [i64; SHIP_TYPES],
) -> ([i64; SHIP_TYPES], [i64; SHIP_TYPES]) {
    let mut ships1 = s1.map(|n| n as f64);
    let mut ships2 = s2.map(|n| n as f64);
    let any_positive = |ships: &[f64; SHIP_TYPES]| ships.iter().any(|&x| x > 0.0);
    while any_positive(&ships1) && any_positive(&ships2) {
        let new1 = battle_round_small(&ships2, &ships1);
        ships2 = battle_round_small(&ships1, &ships2);
        ships1 = new1;
    }
    // `as` truncates toward zero; the values are in 0..=SMALL_LIMIT.
    (ships1.map(|x| x as i64), ships2.map(|x| x as i64))
}

/// [`battle_round`] in doubles (see [`battle_small`]): per defender type, subtract the
/// damage of attacker types 0, 1, 2 in turn, then clamp at 0.
#[inline(always)]
fn battle_round_small(
    attacker: &[f64; SHIP_TYPES],
    defender: &[f64; SHIP_TYPES],
) -> [f64; SHIP_TYPES] {
    let mut out = *defender;
    for (def_type, slot) in out.iter_mut().enumerate() {
        let mut value = *slot;
        for (att_type, &stack) in attacker.iter().enumerate() {
            let (multiplier, absolute) = MATCHUPS[(def_type + SHIP_TYPES - att_type) % SHIP_TYPES];
            let scaled = stack * multiplier;
            let minimum = if stack > 0.0 { absolute as f64 } else { 0.0 };
            // Python's `max(scaled, minimum)`: the first unless the second is greater.
            value -= if minimum > scaled { minimum } else { scaled };
        }
        // `max(0, value)`.
        *slot = if value > 0.0 { value } else { 0.0 };
    }
    out
}

/// The exchanges with SSE2 (every x86-64 processor has it): a side's three counts are
/// two registers, types 0 and 1 in `low`, type 2 and a lane that stays 0 in `high`.
/// Every lane gets [`battle_round_small`]'s operations in its order: for attacker types
/// 0, 1, 2 in turn, subtract `max(stack × multiplier, minimum)`, then clamp at 0.
/// `_mm_max_pd(a, b)` is `a > b ? a : b`, Python's `max(b, a)` exactly.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128d, _mm_and_pd, _mm_cmpgt_pd, _mm_cvtsd_f64, _mm_max_pd, _mm_movemask_pd, _mm_mul_pd,
        _mm_setr_pd, _mm_setzero_pd, _mm_sub_pd, _mm_unpackhi_pd, _mm_unpacklo_pd,
    };

    use super::{MATCHUPS, SHIP_TYPES};

    /// One side: types 0 and 1, then type 2 and a zero.
    #[derive(Clone, Copy)]
    struct Side {
        low: __m128d,
        high: __m128d,
    }

    impl Side {
        #[target_feature(enable = "sse2")]
        fn of(ships: [i64; SHIP_TYPES]) -> Side {
            Side {
                low: _mm_setr_pd(ships[0] as f64, ships[1] as f64),
                high: _mm_setr_pd(ships[2] as f64, 0.0),
            }
        }

        #[target_feature(enable = "sse2")]
        fn any_positive(self) -> bool {
            let zero = _mm_setzero_pd();
            (_mm_movemask_pd(_mm_cmpgt_pd(self.low, zero))
                | _mm_movemask_pd(_mm_cmpgt_pd(self.high, zero)))
                != 0
        }

        /// Truncated toward zero, as `int()` does; the values are in 0..=2^52.
        #[target_feature(enable = "sse2")]
        fn counts(self) -> [i64; SHIP_TYPES] {
            [
                _mm_cvtsd_f64(self.low) as i64,
                _mm_cvtsd_f64(_mm_unpackhi_pd(self.low, self.low)) as i64,
                _mm_cvtsd_f64(self.high) as i64,
            ]
        }
    }

    /// What attacker type `attacker` does to each defender lane: multipliers and
    /// minimums, `MATCHUPS[(defender - attacker) mod 3]`; the zero lane takes none.
    struct Damage {
        multiplier: Side,
        minimum: Side,
    }

    #[target_feature(enable = "sse2")]
    fn damage(attacker: usize) -> Damage {
        let of = |defender: usize| MATCHUPS[(defender + SHIP_TYPES - attacker) % SHIP_TYPES];
        let (m0, a0) = of(0);
        let (m1, a1) = of(1);
        let (m2, a2) = of(2);
        Damage {
            multiplier: Side {
                low: _mm_setr_pd(m0, m1),
                high: _mm_setr_pd(m2, 0.0),
            },
            minimum: Side {
                low: _mm_setr_pd(a0 as f64, a1 as f64),
                high: _mm_setr_pd(a2 as f64, 0.0),
            },
        }
    }

    /// The defender after `attacker` fired at it.
    #[target_feature(enable = "sse2")]
    fn fire(damages: &[Damage; SHIP_TYPES], attacker: Side, defender: Side) -> Side {
        let zero = _mm_setzero_pd();
        // Each attacker stack in both lanes.
        let stacks = [
            _mm_unpacklo_pd(attacker.low, attacker.low),
            _mm_unpackhi_pd(attacker.low, attacker.low),
            _mm_unpacklo_pd(attacker.high, attacker.high),
        ];
        let mut out = defender;
        for (stack, damage) in stacks.into_iter().zip(damages) {
            // The minimum counts only if the stack is not empty.
            let present = _mm_cmpgt_pd(stack, zero);
            let low = _mm_max_pd(
                _mm_and_pd(present, damage.minimum.low),
                _mm_mul_pd(stack, damage.multiplier.low),
            );
            let high = _mm_max_pd(
                _mm_and_pd(present, damage.minimum.high),
                _mm_mul_pd(stack, damage.multiplier.high),
            );
            out.low = _mm_sub_pd(out.low, low);
            out.high = _mm_sub_pd(out.high, high);
        }
        Side {
            low: _mm_max_pd(out.low, zero),
            high: _mm_max_pd(out.high, zero),
        }
    }

    #[target_feature(enable = "sse2")]
    pub(super) fn exchanges(
        s1: [i64; SHIP_TYPES],
        s2: [i64; SHIP_TYPES],
    ) -> ([i64; SHIP_TYPES], [i64; SHIP_TYPES]) {
        let damages = [damage(0), damage(1), damage(2)];
        let (mut ships1, mut ships2) = (Side::of(s1), Side::of(s2));
        while ships1.any_positive() && ships2.any_positive() {
            let new1 = fire(&damages, ships2, ships1);
            ships2 = fire(&damages, ships1, ships2);
            ships1 = new1;
        }
        (ships1.counts(), ships2.counts())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Background §11.1: (s1, s2, result s1, result s2, exchanges if given).
    type Vector = ([i64; 3], [i64; 3], [i64; 3], [i64; 3], Option<u64>);
    const VECTORS: [Vector; 23] = [
        ([1, 0, 0], [0, 0, 0], [1, 0, 0], [0, 0, 0], Some(0)),
        ([0, 0, 0], [5, 5, 5], [0, 0, 0], [5, 5, 5], Some(0)),
        ([10, 0, 0], [10, 0, 0], [0, 0, 0], [0, 0, 0], Some(10)),
        ([10, 0, 0], [0, 10, 0], [5, 0, 0], [0, 0, 0], Some(5)),
        ([10, 0, 0], [0, 0, 10], [0, 0, 0], [0, 0, 5], Some(5)),
        ([20, 20, 20], [20, 20, 20], [0, 0, 0], [0, 0, 0], Some(4)),
        ([30, 10, 10], [20, 20, 20], [0, 0, 0], [2, 0, 6], Some(7)),
        ([100, 0, 0], [0, 100, 0], [95, 0, 0], [0, 0, 0], Some(5)),
        ([100, 0, 0], [0, 0, 100], [0, 0, 0], [0, 0, 95], Some(5)),
        ([5, 5, 5], [10, 0, 0], [2, 0, 2], [0, 0, 0], Some(3)),
        ([1, 1, 1], [1, 1, 1], [0, 0, 0], [0, 0, 0], Some(1)),
        ([3, 0, 0], [2, 0, 0], [1, 0, 0], [0, 0, 0], Some(2)),
        ([50, 50, 50], [60, 40, 40], [9, 0, 16], [0, 0, 0], Some(6)),
        ([200, 0, 0], [0, 0, 30], [122, 0, 0], [0, 0, 0], Some(20)),
        ([0, 0, 15], [10, 20, 0], [0, 0, 0], [2, 17, 0], Some(3)),
        ([7, 3, 0], [0, 4, 9], [0, 0, 0], [0, 0, 2], Some(3)),
        (
            [1000, 500, 200],
            [300, 900, 400],
            [699, 166, 0],
            [0, 0, 0],
            Some(5),
        ),
        ([12, 0, 0], [0, 1, 0], [11, 0, 0], [0, 0, 0], Some(1)),
        ([2, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0], Some(1)),
        ([1, 7, 12], [7, 7, 10], [0, 0, 0], [0, 0, 0], None),
        ([10, 11, 4], [7, 11, 5], [0, 0, 0], [0, 0, 0], None),
        ([11, 11, 4], [11, 2, 7], [0, 0, 0], [0, 0, 0], None),
        ([10, 1, 6], [1, 10, 7], [0, 0, 0], [0, 0, 0], None),
    ];

    #[test]
    fn all_23_reference_vectors() {
        for (index, (s1, s2, r1, r2, exchanges)) in VECTORS.iter().enumerate() {
            let vector = index + 1;
            assert_eq!(battle(*s1, *s2), (*r1, *r2), "vector {vector}");
            let (_, _, ex) = battle_raw(s1.map(i128::from), s2.map(i128::from));
            if let Some(expected) = exchanges {
                assert_eq!(ex, *expected, "exchanges of vector {vector}");
            }
        }
    }

    fn raw(s1: [i64; 3], s2: [i64; 3]) -> ([f64; 3], [f64; 3]) {
        let (a, b, _) = battle_raw(s1.map(i128::from), s2.map(i128::from));
        (a.map(PyNum::value), b.map(PyNum::value))
    }

    fn close(actual: [f64; 3], expected: [f64; 3]) {
        for k in 0..3 {
            assert!(
                (actual[k] - expected[k]).abs() < 5e-5,
                "{actual:?} is not {expected:?}"
            );
        }
    }

    #[test]
    fn float_remainders_before_truncation() {
        close(raw([30, 10, 10], [20, 20, 20]).1, [2.6325, 0.0, 6.5]);
        close(raw([50, 50, 50], [60, 40, 40]).0, [9.3549, 0.0, 16.1625]);
        close(raw([200, 0, 0], [0, 0, 30]).0, [122.8414, 0.0, 0.0]);
        close(
            raw([1000, 500, 200], [300, 900, 400]).0,
            [699.8384, 166.9428, 0.0],
        );
        close(raw([1, 7, 12], [7, 7, 10]).1, [0.0, 0.0, 0.8]);
        close(raw([10, 11, 4], [7, 11, 5]).1, [0.0, 0.4, 0.0]);
        close(raw([11, 11, 4], [11, 2, 7]).0, [0.9, 0.0, 0.0]);
        close(raw([10, 1, 6], [1, 10, 7]).1, [0.0, 0.5, 0.0]);
        close(raw([10, 0, 0], [0, 10, 0]).0, [5.0, 0.0, 0.0]);
    }

    #[test]
    fn half_round_vectors() {
        let round = |att: [i128; 3], def: [i128; 3]| {
            battle_round(&att.map(Int), &def.map(Int)).map(PyNum::value)
        };
        assert_eq!(round([10, 0, 0], [0, 10, 0]), [0.0, 7.5, 0.0]);
        assert_eq!(round([10, 0, 0], [0, 0, 10]), [0.0, 0.0, 9.0]);
        assert_eq!(round([10, 0, 0], [10, 0, 0]), [9.0, 0.0, 0.0]);
        assert_eq!(round([100, 0, 0], [100, 100, 100]), [90.0, 75.0, 99.0]);
        assert_eq!(round([1, 1, 1], [50, 50, 50]), [46.0, 46.0, 46.0]);
        assert_eq!(round([40, 8, 3], [50, 50, 50]), [43.0, 38.0, 46.0]);
    }

    #[test]
    fn int_minimums_keep_ints_exact() {
        // [1,1,1] deals only int minimums, so the defender stays an exact int (Python
        // prints 46, not 46.0).
        let out = battle_round(&[Int(1), Int(1), Int(1)], &[Int(50), Int(50), Int(50)]);
        assert_eq!(out, [Int(46), Int(46), Int(46)]);
    }

    #[test]
    fn exact_comparison_of_large_ints_and_floats() {
        let big = (1i128 << 53) + 1;
        // float(2^53 + 1) rounds to 2^53, but Python compares exactly.
        assert!(Int(big).gt(Float(9_007_199_254_740_992.0)));
        assert!(!Float(9_007_199_254_740_992.0).gt(Int(big)));
        assert!(Float(0.5).gt(Int(0)));
        assert!(!Float(-0.0).gt(Int(0)));
        assert!(Int(1).gt(Float(0.1)));
    }

    /// `battle_wide`, narrowed as `battle` narrows it.
    fn python_model(s1: [i64; 3], s2: [i64; 3]) -> ([i64; 3], [i64; 3]) {
        let (r1, r2) = battle_wide(s1, s2);
        let narrow = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
        (r1.map(narrow), r2.map(narrow))
    }

    #[test]
    fn the_vectors_take_the_double_path_and_the_python_model_agrees() {
        for (s1, s2, r1, r2, _) in VECTORS {
            assert_eq!(battle_small(s1, s2), Some((r1, r2)));
            assert_eq!(exchanges_scalar(s1, s2), (r1, r2));
            assert_eq!(python_model(s1, s2), (r1, r2));
        }
    }

    #[test]
    fn only_non_negative_counts_up_to_the_limit_take_the_double_path() {
        assert!(battle_small([SMALL_LIMIT, 0, 0], [0, SMALL_LIMIT, 0]).is_some());
        assert!(battle_small([SMALL_LIMIT + 1, 0, 0], [1, 0, 0]).is_none());
        assert!(battle_small([1, 0, 0], [0, 0, -1]).is_none());
        assert!(battle_small([i64::MAX, 0, 0], [1, 1, 1]).is_none());
        // Below the limit the two models agree at its very edge too.
        for s1 in [[SMALL_LIMIT, SMALL_LIMIT, SMALL_LIMIT], [SMALL_LIMIT, 0, 1]] {
            for s2 in [
                [SMALL_LIMIT - 1, 3, SMALL_LIMIT],
                [0, 0, SMALL_LIMIT],
                [1, 1, 1],
            ] {
                assert_eq!(battle_small(s1, s2), Some(python_model(s1, s2)));
            }
        }
    }

    /// Ship counts of every size a double path may see: small (fractions and int
    /// minimums decide), medium, and up to the limit.
    fn counts() -> impl proptest::strategy::Strategy<Value = [i64; 3]> {
        use proptest::prelude::*;
        let count = prop_oneof![
            4 => 0i64..30,
            3 => 0i64..5_000,
            1 => 0i64..=SMALL_LIMIT,
            1 => (SMALL_LIMIT - 100)..=SMALL_LIMIT,
        ];
        prop::array::uniform3(count)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// The double path gives the Python number model's remainders, bit for bit.
        #[test]
        fn small_battles_match_the_python_number_model(s1 in counts(), s2 in counts()) {
            proptest::prop_assert_eq!(battle_small(s1, s2), Some(python_model(s1, s2)));
            proptest::prop_assert_eq!(battle(s1, s2), python_model(s1, s2));
            // The one-double-at-a-time exchanges too, where the vector ones run.
            proptest::prop_assert_eq!(exchanges_scalar(s1, s2), python_model(s1, s2));
        }

        /// Outside the double path's range `battle` is the Python number model as before.
        #[test]
        fn large_and_negative_battles_keep_the_python_number_model(
            s1 in proptest::prelude::any::<[i64; 3]>(),
            s2 in proptest::prelude::any::<[i64; 3]>(),
        ) {
            proptest::prop_assert_eq!(battle(s1, s2), python_model(s1, s2));
        }
    }

    #[test]
    fn extreme_inputs_terminate() {
        let max = i64::MAX;
        let (a, b) = battle_wide([max, max, max], [max, max, max]);
        assert!(a.iter().chain(b.iter()).all(|&v| v >= 0));
        let (a, b) = battle_wide([max, 0, 0], [0, 0, 1]);
        assert_eq!(b, [0, 0, 0]);
        assert!(a[0] > 0);
        // Negative inputs whose sum is not positive skip the fight, as in Python.
        assert_eq!(battle([5, -10, 0], [3, 0, 0]), ([5, -10, 0], [3, 0, 0]));
    }
}
