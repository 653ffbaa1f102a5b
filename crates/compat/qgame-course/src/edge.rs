//! Coordinates at the harness edge. The rules work on `i32` coordinates; the course's
//! inputs may use integers of any size. Positions only matter relative to each other
//! (adjacency, lines, runs, row-column order), so the harness moves the input's
//! coordinates close to zero on the way in and back on the way out, and the rules
//! never see a big integer.
//!
//! Each axis is handled on its own. If all of an axis's input values lie within
//! ±2^30 they are used as they are. Otherwise the distinct values are laid out in
//! order from 0, each gap kept exactly up to a cap and shortened to the cap beyond it.
//! The cap is more than twice the number of tiles the input could ever put down, so
//! tiles that far apart stay apart however the game grows, and every cell an answer
//! can name is nearer to its own input value than to any other, which is how it is
//! mapped back.
//!
//! A remote game's inputs arrive one call at a time ([`GameEdge`]): the first one
//! chooses the scales, and a later value not seen before (a tile put down since) comes
//! in next to the nearest value seen, at the same distance, so that it goes back out
//! as it came in; a value that would not (one lost in a shortened gap) is refused
//! rather than confused with another.

use std::collections::HashSet;

use serde_json::Value;

use crate::exact::{ExactJson, Int};

/// What an input or an answer is, as far as its coordinates go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A JMap.
    Map,
    /// A JPub or a JState: an object whose `map` is a JMap.
    WithMap,
    /// JPlacements.
    Placements,
    /// One 1Placement.
    Placement,
    /// An array of JCoordinates (`xmap`'s answer).
    Coordinates,
    /// Nothing with coordinates.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Row,
    Column,
}

/// Every integer of `value` that is a coordinate when `value` is read as `role`.
fn visit(value: &mut ExactJson, role: Role, f: &mut dyn FnMut(Axis, &mut Int)) {
    match (role, value) {
        (Role::Map, ExactJson::Array(rows)) => {
            for row in rows {
                let ExactJson::Array(items) = row else {
                    continue;
                };
                let mut items = items.iter_mut();
                if let Some(ExactJson::Int(index)) = items.next() {
                    f(Axis::Row, index);
                }
                for cell in items {
                    if let ExactJson::Array(cell) = cell {
                        if let Some(ExactJson::Int(column)) = cell.first_mut() {
                            f(Axis::Column, column);
                        }
                    }
                }
            }
        }
        (Role::WithMap, ExactJson::Object(entries)) => {
            for (key, value) in entries {
                if key == "map" {
                    visit(value, Role::Map, f);
                }
            }
        }
        (Role::Placements, ExactJson::Array(items)) => {
            for item in items {
                visit(item, Role::Placement, f);
            }
        }
        (Role::Placement, ExactJson::Object(entries)) => {
            for (key, value) in entries {
                if key == "coordinate" {
                    visit_coordinate(value, f);
                }
            }
        }
        (Role::Coordinates, ExactJson::Array(items)) => {
            for item in items {
                visit_coordinate(item, f);
            }
        }
        _ => {}
    }
}

fn visit_coordinate(value: &mut ExactJson, f: &mut dyn FnMut(Axis, &mut Int)) {
    if let ExactJson::Object(entries) = value {
        for (key, value) in entries {
            match (key.as_str(), value) {
                ("row", ExactJson::Int(row)) => f(Axis::Row, row),
                ("column", ExactJson::Int(column)) => f(Axis::Column, column),
                _ => {}
            }
        }
    }
}

/// Objects in `value`: a bound on the tiles it holds.
fn objects(value: &ExactJson) -> usize {
    match value {
        ExactJson::Array(items) => items.iter().map(objects).sum(),
        ExactJson::Object(entries) => 1 + entries.iter().map(|(_, v)| objects(v)).sum::<usize>(),
        _ => 0,
    }
}

/// Input values within this bound are used as they are; squeezed axes stay within it.
/// Half the `i32` range, so that a game can grow any map far beyond its input.
const LIMIT: i64 = 1 << 30;

/// How far apart a squeezed axis keeps two neighbouring values whose real gap is larger.
#[derive(Debug, Clone, Copy)]
enum Spacing {
    /// More than twice this many tiles: the most the inputs could ever put down.
    Tiles(usize),
    /// The range shared out among the axis's values: a player's view of a game does not
    /// show the other players' hands, so how many tiles may still come is unknown.
    Widest,
}

impl Spacing {
    /// The cap for an axis of `distinct` values.
    fn cap(self, distinct: usize) -> i64 {
        let count = |n: usize| i64::try_from(n).unwrap_or(LIMIT);
        match self {
            Spacing::Tiles(tiles) => count(tiles).saturating_mul(2).saturating_add(4).min(LIMIT),
            Spacing::Widest => LIMIT / count(distinct).max(1),
        }
    }
}

/// One axis's way in and out.
#[derive(Debug, Clone, PartialEq, Default)]
enum Scale {
    #[default]
    Same,
    /// The input's distinct values, ascending, with their places near zero.
    Squeezed(Vec<(Int, i64)>),
}

impl Scale {
    fn new(mut values: Vec<Int>, spacing: Spacing) -> Result<Scale, String> {
        values.sort();
        values.dedup();
        let (low, high) = (Int::from(-LIMIT), Int::from(LIMIT));
        if values.iter().all(|v| *v >= low && *v <= high) {
            return Ok(Scale::Same);
        }
        let cap = spacing.cap(values.len());
        let mut places = Vec::with_capacity(values.len());
        let mut place = 0i64;
        let mut previous: Option<&Int> = None;
        for value in &values {
            if let Some(previous) = previous {
                let gap = value.sub(previous).to_i64().unwrap_or(cap);
                place += gap.min(cap);
                if place > LIMIT {
                    return Err("the coordinates are too many and too far apart".into());
                }
            }
            places.push((value.clone(), place));
            previous = Some(value);
        }
        Ok(Scale::Squeezed(places))
    }

    /// An input value's place; another value's is the place of the nearest input value
    /// (the lower one on a tie) plus the distance from it, the mirror of
    /// [`Scale::outward`]. `None` where that place would not go back out as `value`, so
    /// that no two values ever share a place.
    fn inward(&self, value: &Int) -> Option<Int> {
        let Scale::Squeezed(places) = self else {
            return Some(value.clone());
        };
        let above = places.partition_point(|(v, _)| v < value);
        let (nearest, place) = [above.checked_sub(1), Some(above)]
            .into_iter()
            .flatten()
            .filter_map(|i| places.get(i))
            .min_by_key(|(v, _)| value.sub(v).abs())?;
        let place = Int::from(place.checked_add(value.sub(nearest).to_i64()?)?);
        (self.outward(&place) == *value).then_some(place)
    }

    /// The input value this place came from, or the one it is nearest to, plus the
    /// distance from that one's place.
    fn outward(&self, place: &Int) -> Int {
        let (Scale::Squeezed(places), Some(at)) = (self, place.to_i64()) else {
            return place.clone();
        };
        // Places ascend with the values: the nearest is just below or at/above `at`.
        let above = places.partition_point(|(_, p)| *p < at);
        let nearest = [above.checked_sub(1), Some(above)]
            .into_iter()
            .flatten()
            .filter_map(|i| places.get(i))
            .min_by_key(|(_, p)| p.abs_diff(at));
        match nearest {
            Some((value, p)) => value.add(&Int::from(at - p)),
            None => place.clone(),
        }
    }
}

/// The scales chosen for one harness run or one game.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Edge {
    rows: Scale,
    columns: Scale,
}

impl Edge {
    /// No change on either axis (what every input within ±2^30 gets): `-0` still reads
    /// as 0.
    pub fn identity() -> Edge {
        Edge::default()
    }

    /// Choose the scales for the coordinates of `inputs` and read them as serde_json
    /// values, coordinates moved in and every JMap with [`last_cell_wins`].
    pub fn read(inputs: Vec<(ExactJson, Role)>) -> Result<(Edge, Vec<Value>), String> {
        let tiles = inputs.iter().map(|(value, _)| objects(value)).sum();
        Edge::choose(inputs, Spacing::Tiles(tiles))
    }

    /// [`Edge::read`] for a single input.
    pub fn read_one(value: ExactJson, role: Role) -> Result<(Edge, Value), String> {
        let tiles = objects(&value);
        Edge::choose_one(value, role, Spacing::Tiles(tiles))
    }

    fn choose_one(value: ExactJson, role: Role, spacing: Spacing) -> Result<(Edge, Value), String> {
        let (edge, mut values) = Edge::choose(vec![(value, role)], spacing)?;
        let value = values.pop().ok_or("nothing to read")?;
        Ok((edge, value))
    }

    fn choose(
        mut inputs: Vec<(ExactJson, Role)>,
        spacing: Spacing,
    ) -> Result<(Edge, Vec<Value>), String> {
        let (mut rows, mut columns) = (Vec::new(), Vec::new());
        for (value, role) in &mut inputs {
            visit(value, *role, &mut |axis, int| match axis {
                Axis::Row => rows.push(int.clone()),
                Axis::Column => columns.push(int.clone()),
            });
        }
        let edge = Edge {
            rows: Scale::new(rows, spacing)?,
            columns: Scale::new(columns, spacing)?,
        };
        let values = inputs
            .into_iter()
            .map(|(value, role)| edge.read_more(value, role))
            .collect::<Result<_, _>>()?;
        Ok((edge, values))
    }

    /// A further input read through these scales (a later message of the same game), as
    /// [`Edge::read`] reads its inputs.
    pub fn read_more(&self, mut value: ExactJson, role: Role) -> Result<Value, String> {
        let mut lost = None;
        visit(
            &mut value,
            role,
            &mut |axis, int| match self.scale(axis).inward(int) {
                Some(place) => *int = place,
                None => lost = Some(int.clone()),
            },
        );
        if let Some(lost) = lost {
            return Err(format!(
                "the coordinate {lost} is too far from the game's cells to be told apart"
            ));
        }
        let mut value = value.to_value()?;
        match role {
            Role::Map => last_cell_wins(&mut value),
            Role::WithMap => {
                if let Some(map) = value.get_mut("map") {
                    last_cell_wins(map);
                }
            }
            _ => {}
        }
        Ok(value)
    }

    fn scale(&self, axis: Axis) -> &Scale {
        match axis {
            Axis::Row => &self.rows,
            Axis::Column => &self.columns,
        }
    }

    /// An answer, with its coordinates moved back to the input's integers.
    pub fn write(&self, value: &Value, role: Role) -> ExactJson {
        let mut answer = ExactJson::from_value(value);
        visit(&mut answer, role, &mut |axis, int| {
            *int = self.scale(axis).outward(int);
        });
        answer
    }
}

/// The edge of a game whose inputs arrive one call at a time (a remote player's JPubs):
/// chosen by the first input read and kept, so that a coordinate names the same cell in
/// every call of the game.
#[derive(Debug, Clone, Default)]
pub struct GameEdge {
    edge: Option<Edge>,
}

impl GameEdge {
    /// `value` with its coordinates moved in; the first value read chooses the scales.
    pub fn read(&mut self, value: ExactJson, role: Role) -> Result<Value, String> {
        if let Some(edge) = &self.edge {
            return edge.read_more(value, role);
        }
        let (edge, value) = Edge::choose_one(value, role, Spacing::Widest)?;
        self.edge = Some(edge);
        Ok(value)
    }

    /// An answer in the game's coordinates (as it is, before anything was read).
    pub fn write(&self, value: &Value, role: Role) -> ExactJson {
        match &self.edge {
            Some(edge) => edge.write(value, role),
            None => ExactJson::from_value(value),
        }
    }
}

/// A JRow that names a column twice keeps the last cell for it: the reference used at
/// grading time read a row into a table, so the later cell replaced the earlier one.
pub fn last_cell_wins(map: &mut Value) {
    let Some(rows) = map.as_array_mut() else {
        return;
    };
    for row in rows {
        let Some(items) = row.as_array_mut() else {
            continue;
        };
        if items.len() < 3 {
            continue;
        }
        let column = |cell: &Value| {
            cell.as_array()
                .and_then(|cell| cell.first())
                .and_then(Value::as_number)
                .map(|n| n.to_string())
        };
        // From the end: a cell is kept unless a later one names its column. The row
        // index (first item) is never a cell.
        let mut seen = HashSet::new();
        let mut keep: Vec<bool> = items
            .iter()
            .enumerate()
            .rev()
            .map(|(i, cell)| match column(cell) {
                _ if i == 0 => true,
                Some(c) => seen.insert(c),
                None => true,
            })
            .collect();
        keep.reverse();
        let mut index = 0;
        items.retain(|_| {
            index += 1;
            keep[index - 1]
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_coordinates_are_used_as_they_are() {
        let input =
            ExactJson::parse_stream(r#"[[-3,[1073741824,{"shape":"star","color":"red"}]]]"#)
                .unwrap()
                .remove(0);
        let (edge, values) = Edge::read(vec![(input, Role::Map)]).unwrap();
        assert_eq!(values[0][0][0], Value::from(-3));
        assert_eq!(values[0][0][1][0], Value::from(1_073_741_824));
        assert!(matches!(edge.rows, Scale::Same) && matches!(edge.columns, Scale::Same));
    }

    #[test]
    fn big_coordinates_are_squeezed_in_order_and_come_back() {
        let scale = Scale::new(
            ["-100000000000000000000", "5", "6", "100000000000000000000"]
                .iter()
                .map(|t| Int::parse(t).unwrap())
                .collect(),
            Spacing::Tiles(3),
        )
        .unwrap();
        let inward = |t: &str| {
            scale
                .inward(&Int::parse(t).unwrap())
                .unwrap()
                .to_i64()
                .unwrap()
        };
        assert_eq!(inward("-100000000000000000000"), 0);
        assert_eq!(inward("5"), 10);
        assert_eq!(inward("6"), 11);
        assert_eq!(inward("100000000000000000000"), 21);
        let outward = |place: i64| scale.outward(&Int::from(place)).to_string();
        assert_eq!(outward(-1), "-100000000000000000001");
        assert_eq!(outward(2), "-99999999999999999998");
        assert_eq!(outward(9), "4");
        assert_eq!(outward(12), "7");
        assert_eq!(outward(22), "100000000000000000001");
    }

    fn exact(text: &str) -> ExactJson {
        ExactJson::parse(text).unwrap()
    }

    /// A later message of a game: values seen before come in where they did, new ones
    /// next to the nearest one seen, and every one goes back out as it came in.
    #[test]
    fn later_values_come_in_next_to_the_nearest_seen_and_go_back_exactly() {
        let far = format!("1{}", "0".repeat(51));
        let mut game = GameEdge::default();
        let first = game
            .read(
                exact(&format!(r#"[[5,[-{far},"a"],[{far},"b"]]]"#)),
                Role::Map,
            )
            .unwrap();
        // Two values far apart: the range is shared out between them.
        assert_eq!(first, serde_json::json!([[5, [0, "a"], [LIMIT / 2, "b"]]]));
        let (next_to_low, next_to_high) = (
            format!("-{}", "9".repeat(51)),
            format!("1{}1", "0".repeat(50)),
        );
        let later = exact(&format!(
            r#"[[4,[-{far},"a"]],[5,[{next_to_low},"c"],[{next_to_high},"d"]]]"#
        ));
        let read = game.read(later.clone(), Role::Map).unwrap();
        assert_eq!(
            read,
            serde_json::json!([[4, [0, "a"]], [5, [1, "c"], [LIMIT / 2 + 1, "d"]]])
        );
        assert_eq!(game.write(&read, Role::Map), later);
    }

    /// Between two values whose gap was shortened, only the cells near either one can be
    /// told apart from the others; the rest are refused, not confused with them.
    #[test]
    fn a_value_lost_in_a_shortened_gap_is_refused() {
        let mut game = GameEdge::default();
        let far = 1i64 << 40;
        game.read(exact(&format!("[[0,[0,1],[{far},2]]]")), Role::Map)
            .unwrap();
        let near = exact(&format!("[[0,[-3,1],[{},2]]]", far + 3));
        assert_eq!(
            game.read(near, Role::Map).unwrap(),
            serde_json::json!([[0, [-3, 1], [LIMIT / 2 + 3, 2]]])
        );
        for lost in [far / 2, far - LIMIT / 2] {
            let error = game
                .read(exact(&format!("[[0,[{lost},1]]]")), Role::Map)
                .unwrap_err();
            assert!(error.contains(&lost.to_string()), "{error}");
        }
        let huge = format!("1{}", "0".repeat(40));
        assert!(game
            .read(exact(&format!("[[0,[{huge},1]]]")), Role::Map)
            .is_err());
    }

    #[test]
    fn an_identity_edge_reads_minus_zero_as_zero() {
        let read = Edge::identity()
            .read_more(
                exact(r#"[{"coordinate":{"row":-0,"column":7}}]"#),
                Role::Placements,
            )
            .unwrap();
        assert_eq!(
            read,
            serde_json::json!([{"coordinate": {"row": 0, "column": 7}}])
        );
    }

    #[test]
    fn the_last_cell_of_a_column_wins() {
        let mut map: Value =
            serde_json::from_str(r#"[[0,[1,"a"],[2,"b"],[1,"c"]],[1,[1,"d"]]]"#).unwrap();
        last_cell_wins(&mut map);
        assert_eq!(map.to_string(), r#"[[0,[2,"b"],[1,"c"]],[1,[1,"d"]]]"#);
    }
}
