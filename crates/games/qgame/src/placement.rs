//! Placement requests (§3.2): ownership, the line rule, and each step adjacent and
//! fitting on the map as extended by the steps before it.

use serde::{Deserialize, Serialize};

use crate::coord::Coord;
use crate::error::QgameError;
use crate::kinds::{kind_index, KIND_COUNT};
use crate::map::{fitting_kinds_with, Axis, Map};
use crate::tile::Tile;

/// 1Placement: one tile at one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub coordinate: Coord,
    #[serde(rename = "1tile")]
    pub tile: Tile,
}

impl Placement {
    pub fn new(coordinate: Coord, tile: Tile) -> Self {
        Placement { coordinate, tile }
    }
}

/// The axis a legal placement lies on: a row when all cells share a row (a single tile
/// counts as a row placement), otherwise the common column.
pub fn placement_axis(placements: &[Placement]) -> Axis {
    match placements.first() {
        Some(first)
            if placements
                .iter()
                .all(|p| p.coordinate.row == first.coordinate.row) =>
        {
            Axis::Row
        }
        _ => Axis::Column,
    }
}

/// Check a request against the map and the hand without copying the map: each step
/// is judged on the map plus the steps before it.
pub fn validate_placements(
    map: &Map,
    hand: &[Tile],
    placements: &[Placement],
) -> Result<(), QgameError> {
    let first = placements.first().ok_or(QgameError::EmptyPlacement)?;
    let mut unused = [0usize; KIND_COUNT];
    for &tile in hand {
        unused[kind_index(tile)] += 1;
    }
    for placement in placements {
        let copies = &mut unused[kind_index(placement.tile)];
        *copies = copies
            .checked_sub(1)
            .ok_or(QgameError::TileNotOwned(placement.tile))?;
    }
    let same_row = placements
        .iter()
        .all(|p| p.coordinate.row == first.coordinate.row);
    let same_column = placements
        .iter()
        .all(|p| p.coordinate.column == first.coordinate.column);
    if !same_row && !same_column {
        return Err(QgameError::NotInLine);
    }
    for (step, &Placement { coordinate, tile }) in placements.iter().enumerate() {
        let earlier = &placements[..step];
        let get = |at: Coord| {
            map.get(at)
                .or_else(|| earlier.iter().find(|p| p.coordinate == at).map(|p| p.tile))
        };
        let on_frontier = earlier
            .is_empty()
            .then(|| map.frontier().fitting_at(coordinate))
            .flatten();
        let fitting = match on_frontier {
            // On the map alone, the frontier knows what fits at each free adjacent cell.
            Some(fitting) => fitting,
            None => {
                if get(coordinate).is_some() {
                    return Err(QgameError::Occupied(coordinate));
                }
                if coordinate.neighbours().iter().all(|n| get(*n).is_none()) {
                    return Err(QgameError::NotAdjacent(coordinate));
                }
                fitting_kinds_with(get, coordinate)
            }
        };
        if !fitting.contains(tile) {
            return Err(QgameError::DoesNotFit {
                tile,
                at: coordinate,
            });
        }
    }
    Ok(())
}

/// Check a request against the map and the hand; on success return the extended map.
pub fn check_placements(
    map: &Map,
    hand: &[Tile],
    placements: &[Placement],
) -> Result<Map, QgameError> {
    let mut extended = map.clone();
    place_checked(&mut extended, hand, placements)?;
    Ok(extended)
}

/// Check a request against the map and the hand and, if it is legal, put it on the map
/// (a turn changes the map in place: copying it per turn would cost more than the rest
/// of the turn). On error the map is unchanged.
pub fn place_checked(
    map: &mut Map,
    hand: &[Tile],
    placements: &[Placement],
) -> Result<(), QgameError> {
    validate_placements(map, hand, placements)?;
    for placement in placements {
        map.place(placement.coordinate, placement.tile);
    }
    Ok(())
}
