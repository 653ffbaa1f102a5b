//! JActor specs (§9) and the in-house players they describe: plain strategy players,
//! players that raise on a method, that loop forever on its Count-th call, or that
//! cheat on every turn.

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
                    .iter()
                    .copied()
                    .find(|&c| !state.map.fits(c, tile))?;
                place_one(cell, tile)
            }),
        })
    }
}

/// Two placements of two hand tiles, each fitting on its own, in neither one row nor
/// one column: the first such pair in hand order. (The background's "searches for a
/// sequence of individually fitting placements"; staff test m8/6 needs more than the
/// first two tiles.)
fn not_a_line(map: &Map, hand: &[Tile]) -> Option<Action> {
    let candidates: Vec<Vec<Coord>> = hand.iter().map(|t| map.candidates(*t)).collect();
    for i in 0..hand.len() {
        for j in (i + 1)..hand.len() {
            for a in &candidates[i] {
                if let Some(b) = candidates[j]
                    .iter()
                    .find(|b| b.row != a.row && b.column != a.column)
                {
                    return Some(Action::Place(vec![
                        Placement::new(*a, hand[i]),
                        Placement::new(*b, hand[j]),
                    ]));
                }
            }
        }
    }
    None
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
