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

/// One axis's way in and out.
#[derive(Debug, Clone)]
enum Scale {
    Same,
    /// The input's distinct values, ascending, with their places near zero.
    Squeezed(Vec<(Int, i64)>),
}

impl Scale {
    fn new(mut values: Vec<Int>, cap: i64) -> Result<Scale, String> {
        values.sort();
        values.dedup();
        let (low, high) = (Int::from(-LIMIT), Int::from(LIMIT));
        if values.iter().all(|v| *v >= low && *v <= high) {
            return Ok(Scale::Same);
        }
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

    fn inward(&self, value: &Int) -> Int {
        match self {
            Scale::Same => value.clone(),
            Scale::Squeezed(places) => match places.binary_search_by(|(v, _)| v.cmp(value)) {
                Ok(i) => Int::from(places[i].1),
                // Every input value has a place; nothing else is brought in.
                Err(_) => value.clone(),
            },
        }
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

/// The scales chosen for one harness run.
#[derive(Debug, Clone)]
pub struct Edge {
    rows: Scale,
    columns: Scale,
}

impl Edge {
    /// Choose the scales for the coordinates of `inputs` and read them as serde_json
    /// values, coordinates moved in and every JMap with [`last_cell_wins`].
    pub fn read(inputs: Vec<(ExactJson, Role)>) -> Result<(Edge, Vec<Value>), String> {
        let mut inputs = inputs;
        let (mut rows, mut columns) = (Vec::new(), Vec::new());
        for (value, role) in &mut inputs {
            visit(value, *role, &mut |axis, int| match axis {
                Axis::Row => rows.push(int.clone()),
                Axis::Column => columns.push(int.clone()),
            });
        }
        let tiles: usize = inputs.iter().map(|(value, _)| objects(value)).sum();
        let cap = i64::try_from(tiles)
            .unwrap_or(LIMIT)
            .saturating_mul(2)
            .saturating_add(4)
            .min(LIMIT);
        let edge = Edge {
            rows: Scale::new(rows, cap)?,
            columns: Scale::new(columns, cap)?,
        };
        let mut values = Vec::with_capacity(inputs.len());
        for (mut value, role) in inputs {
            visit(&mut value, role, &mut |axis, int| {
                *int = edge.scale(axis).inward(int);
            });
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
            values.push(value);
        }
        Ok((edge, values))
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
            10,
        )
        .unwrap();
        let inward = |t: &str| scale.inward(&Int::parse(t).unwrap()).to_i64().unwrap();
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

    #[test]
    fn the_last_cell_of_a_column_wins() {
        let mut map: Value =
            serde_json::from_str(r#"[[0,[1,"a"],[2,"b"],[1,"c"]],[1,[1,"d"]]]"#).unwrap();
        last_cell_wins(&mut map);
        assert_eq!(map.to_string(), r#"[[0,[2,"b"],[1,"c"]],[1,[1,"d"]]]"#);
    }
}
