//! JActor specs (§9) and the in-house players they describe: plain strategy players,
//! players that raise on a method, that loop forever on its Count-th call, or that
//! cheat on every turn.

use std::collections::HashSet;

use serde_json::Value;

use arbiter_qgame::tile::Color;
use arbiter_qgame::{Action, Coord, JPub, Map, Placement, Shape, Strategy, Tile};

use crate::player::{CoursePlayer, PlayerFailure};

/// The four methods of the player interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Setup,
    TakeTurn,
    NewTiles,
    Win,
}

impl Method {
    fn parse(word: &str) -> Option<Method> {
        match word {
            "setup" => Some(Method::Setup),
            "take-turn" => Some(Method::TakeTurn),
            "new-tiles" => Some(Method::NewTiles),
            "win" => Some(Method::Win),
            _ => None,
        }
    }
}

/// The five cheats of milestone 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cheat {
    NonAdjacentCoordinate,
    TileNotOwned,
    NotALine,
    BadAskForTiles,
    NoFit,
}

impl Cheat {
    fn parse(word: &str) -> Option<Cheat> {
        match word {
            "non-adjacent-coordinate" => Some(Cheat::NonAdjacentCoordinate),
            "tile-not-owned" => Some(Cheat::TileNotOwned),
            "not-a-line" => Some(Cheat::NotALine),
            "bad-ask-for-tiles" => Some(Cheat::BadAskForTiles),
            "no-fit" => Some(Cheat::NoFit),
            _ => None,
        }
    }
}

/// How an actor misbehaves, if at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misbehaviour {
    None,
    /// Raises on the first call of the method.
    Raise(Method),
    /// Never answers from the Count-th call of the method on.
    Loop(Method, u32),
    Cheat(Cheat),
}

/// Which JActor variants a harness mode accepts (they grow per milestone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ActorLevel {
    /// m7: `[name, strategy]` and `[name, strategy, JExn]`.
    Exceptions,
    /// m8: adds `[name, strategy, "a cheat", JCheat]`.
    Cheats,
    /// m9: adds `[name, strategy, JExn, Count]`.
    Loops,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorSpec {
    pub name: String,
    pub strategy: Strategy,
    pub misbehaviour: Misbehaviour,
}

/// JName: 1 to 20 ASCII letters and digits.
pub fn is_valid_name(name: &str) -> bool {
    (1..=20).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl ActorSpec {
    pub fn parse(value: &Value, level: ActorLevel) -> Result<ActorSpec, String> {
        let spec = ActorSpec::parse_any_name(value, level)?;
        if !is_valid_name(&spec.name) {
            return Err(format!("{:?} is not a valid JName", spec.name));
        }
        Ok(spec)
    }

    /// Like [`ActorSpec::parse`] but any string is a name: the remote clients must be
    /// able to sign up with bad names so that servers can be tested on refusing them.
    pub fn parse_any_name(value: &Value, level: ActorLevel) -> Result<ActorSpec, String> {
        let items = value.as_array().ok_or("a JActor must be an array")?;
        let name = items
            .first()
            .and_then(Value::as_str)
            .ok_or("a JActor starts with a name")?;
        let strategy: Strategy = items
            .get(1)
            .cloned()
            .and_then(|v| serde_json::from_value(v).ok())
            .ok_or("a JActor's second item must be \"dag\" or \"ldasg\"")?;
        let word = |i: usize| items.get(i).and_then(Value::as_str);
        let misbehaviour = match items.len() {
            2 => Misbehaviour::None,
            3 => Misbehaviour::Raise(word(2).and_then(Method::parse).ok_or("unknown JExn")?),
            4 if word(2) == Some("a cheat") && level >= ActorLevel::Cheats => {
                Misbehaviour::Cheat(word(3).and_then(Cheat::parse).ok_or("unknown JCheat")?)
            }
            4 if level >= ActorLevel::Loops => {
                let method = word(2).and_then(Method::parse).ok_or("unknown JExn")?;
                let count = items[3]
                    .as_u64()
                    .filter(|c| (1..=7).contains(c))
                    .ok_or("a loop count must be 1 to 7")?;
                Misbehaviour::Loop(method, count as u32)
            }
            _ => return Err(format!("this JActor form is not allowed here: {value}")),
        };
        Ok(ActorSpec {
            name: name.to_string(),
            strategy,
            misbehaviour,
        })
    }

    pub fn build(&self) -> InHousePlayer {
        InHousePlayer {
            spec: self.clone(),
            calls: [0; 4],
        }
    }
}

/// A local player following its spec.
pub struct InHousePlayer {
    spec: ActorSpec,
    /// Calls of each method since `setup` (setup included).
    calls: [u32; 4],
}

impl InHousePlayer {
    /// Count the call, then misbehave if this is the call to misbehave on.
    fn enter(&mut self, method: Method) -> Result<(), PlayerFailure> {
        if method == Method::Setup {
            self.calls = [0; 4];
        }
        let count = &mut self.calls[method as usize];
        *count += 1;
        match self.spec.misbehaviour {
            Misbehaviour::Raise(m) if m == method && *count == 1 => {
                Err(PlayerFailure::Exception("division by zero".into()))
            }
            Misbehaviour::Loop(m, k) if m == method && *count >= k => loop {
                // An infinite loop that does not burn a core: the caller's time limit
                // is what ends it.
                std::thread::park();
            },
            _ => Ok(()),
        }
    }

    fn cheat(&self, cheat: Cheat, state: &JPub) -> Result<Option<Action>, PlayerFailure> {
        let hand = &state.me.tiles;
        let place_one = |at: Coord, tile: Tile| Some(Action::Place(vec![Placement::new(at, tile)]));
        Ok(match cheat {
            Cheat::NonAdjacentCoordinate => {
                let players = 1 + state.other_scores.len() as i32;
                place_one(
                    Coord::new(players + 1, 0),
                    Tile::new(Shape::Circle, Color::Orange),
                )
            }
            Cheat::TileNotOwned => match Tile::all_kinds().find(|t| !hand.contains(t)) {
                None => None,
                Some(tile) => match state.map.candidates(tile).first() {
                    Some(&at) => place_one(at, tile),
                    None => {
                        return Err(PlayerFailure::Exception(format!(
                            "no place for the {tile} it does not own"
                        )))
                    }
                },
            },
            Cheat::NotALine => not_a_line(&state.map, hand),
            Cheat::BadAskForTiles => (state.pile_count < hand.len()).then_some(Action::Replace),
            Cheat::NoFit => hand.iter().find_map(|&tile| {
                let cell = state
                    .map
                    .free_adjacent()
                    .find(|&c| !state.map.fits(c, tile))?;
                place_one(cell, tile)
            }),
        })
    }
}

/// A placement that turns a corner: hand tiles in some order, each on a free adjacent
/// cell where it fits the map *with the earlier tiles of the same placement already
/// on it*, not all in one row or one column. The reference builds such sequences from
/// the hand in every order and of any length (a corner may need three tiles or more,
/// when a tile fits only beside one placed before it). The first one found, trying
/// hand tiles in hand order and cells in row-column order; `None` if there is none.
fn not_a_line(map: &Map, hand: &[Tile]) -> Option<Action> {
    let mut search = CornerSearch {
        map: map.clone(),
        hand,
        used: vec![false; hand.len()],
        sequence: Vec::new(),
        seen: HashSet::new(),
    };
    search.extend().then_some(Action::Place(search.sequence))
}

/// Depth-first search for [`not_a_line`]. Only sequences still in one line are
/// extended (a corner ends the search), and a set of placements reached before in
/// another order is not explored again: what can follow depends only on the set.
struct CornerSearch<'h> {
    /// The map with `sequence` on it.
    map: Map,
    hand: &'h [Tile],
    used: Vec<bool>,
    sequence: Vec<Placement>,
    seen: HashSet<Vec<(Coord, Tile)>>,
}

impl CornerSearch<'_> {
    /// Whether `sequence` can be extended into a corner; if so, it holds the corner.
    fn extend(&mut self) -> bool {
        for i in 0..self.hand.len() {
            let tile = self.hand[i];
            // Equal tiles are interchangeable: try each kind once per step.
            let tried = (0..i).any(|j| !self.used[j] && self.hand[j] == tile);
            if self.used[i] || tried {
                continue;
            }
            for at in self.map.candidates(tile) {
                self.sequence.push(Placement::new(at, tile));
                if !in_one_line(&self.sequence) {
                    return true;
                }
                let mut set: Vec<(Coord, Tile)> = self
                    .sequence
                    .iter()
                    .map(|p| (p.coordinate, p.tile))
                    .collect();
                set.sort();
                if self.seen.insert(set) {
                    self.used[i] = true;
                    self.map.place(at, tile);
                    let found = self.extend();
                    self.map.remove(at);
                    self.used[i] = false;
                    if found {
                        return true;
                    }
                }
                self.sequence.pop();
            }
        }
        false
    }
}

fn in_one_line(placements: &[Placement]) -> bool {
    let Some(first) = placements.first() else {
        return true;
    };
    placements
        .iter()
        .all(|p| p.coordinate.row == first.coordinate.row)
        || placements
            .iter()
            .all(|p| p.coordinate.column == first.coordinate.column)
}

impl CoursePlayer for InHousePlayer {
    fn name(&self) -> String {
        self.spec.name.clone()
    }

    fn setup(&mut self, _state: &JPub, _hand: &[Tile]) -> Result<(), PlayerFailure> {
        self.enter(Method::Setup)
    }

    fn take_turn(&mut self, state: &JPub) -> Result<Action, PlayerFailure> {
        self.enter(Method::TakeTurn)?;
        if let Misbehaviour::Cheat(cheat) = self.spec.misbehaviour {
            if let Some(action) = self.cheat(cheat, state)? {
                return Ok(action);
            }
        }
        Ok(self
            .spec
            .strategy
            .turn(&state.map, &state.me.tiles, state.pile_count))
    }

    fn new_tiles(&mut self, _tiles: &[Tile]) -> Result<(), PlayerFailure> {
        self.enter(Method::NewTiles)
    }

    fn win(&mut self, _won: bool) -> Result<(), PlayerFailure> {
        self.enter(Method::Win)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_qgame::{Config, JPlayer, JState, QgameError, State};

    fn t(shape: Shape, color: Color) -> Tile {
        Tile::new(shape, color)
    }

    fn red_star_map() -> Map {
        Map::starting_with(t(Shape::Star, Color::Red))
    }

    /// The cheater's take-turn answer on `map` with `hand`, and what the rules say to it.
    fn cheat_turn(map: Map, hand: Vec<Tile>) -> (Action, Result<(), QgameError>) {
        let spec = ActorSpec {
            name: "chnotal".into(),
            strategy: Strategy::Dag,
            misbehaviour: Misbehaviour::Cheat(Cheat::NotALine),
        };
        let jstate = JState {
            map,
            pile: vec![t(Shape::Clover, Color::Yellow); 10],
            players: vec![JPlayer {
                score: 0,
                tiles: hand,
                name: Some("chnotal".into()),
            }],
        };
        let mut state = State::from_jstate(&jstate, &Config::default()).unwrap();
        let mut player = spec.build();
        player
            .setup(&state.jpub(0), &jstate.players[0].tiles)
            .unwrap();
        let action = player.take_turn(&state.jpub(0)).unwrap();
        let verdict = state.take_turn(0, &action).map(|_| ());
        (action, verdict)
    }

    /// Neither the blue circle nor the blue square fits the lone red star, so no pair
    /// of tiles fits the map as it is; but the red circle beside the star, the blue
    /// circle under the red circle and the blue square beside the blue circle is a
    /// sequence in which every tile fits the map with the earlier ones on it, and it
    /// turns a corner.
    #[test]
    fn not_a_line_builds_on_its_own_earlier_tiles_and_may_take_three() {
        let hand = vec![
            t(Shape::Circle, Color::Red),
            t(Shape::Circle, Color::Blue),
            t(Shape::Square, Color::Blue),
        ];
        let (action, verdict) = cheat_turn(red_star_map(), hand);
        let Action::Place(placements) = &action else {
            panic!("the cheater played {action:?}");
        };
        assert!(placements.len() >= 3, "{placements:?}");
        assert_eq!(verdict, Err(QgameError::NotInLine));
    }

    /// With only the red and the blue circle, every sequence stays in one line (the
    /// blue circle can only go next to the red one): the cheat is impossible and the
    /// player plays its strategy, legally.
    #[test]
    fn not_a_line_plays_normally_when_every_sequence_is_a_line() {
        let hand = vec![t(Shape::Circle, Color::Red), t(Shape::Circle, Color::Blue)];
        let (action, verdict) = cheat_turn(red_star_map(), hand);
        assert!(matches!(action, Action::Place(_)), "{action:?}");
        assert_eq!(verdict, Ok(()));
    }
}
