//! The one projection to the outside, and the reference's JSON state line.
//!
//! Spacegoo has no secrets but one: a command sealed this round. Views are built from the
//! public board only, so nothing of another seat's pending command can show; a seat's
//! own view echoes its own command back as `your_command`.
//!
//! [`reference_state_json`] renders the exact line the reference server sent each round
//! (`simplejson.dumps` defaults: `", "` and `": "` separators, non-ASCII escaped, keys
//! in the reference's order); [`reference_log_json`] renders its replay-log variant.

use std::fmt::Write;

use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::actions::Action;
use crate::battle::SHIP_TYPES;
use crate::map::Planet;
use crate::state::{player_id, State, SEATS};
use crate::world::Fleet;

/// A fleet as listed in a state (the reference's key order, with `alive`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FleetView {
    pub id: u64,
    pub owner_id: u8,
    pub ships: [i64; SHIP_TYPES],
    pub origin: usize,
    pub target: usize,
    pub eta: u32,
    /// Always true for a listed fleet; kept because the reference sends it.
    pub alive: bool,
}

impl From<&Fleet> for FleetView {
    fn from(fleet: &Fleet) -> Self {
        FleetView {
            id: fleet.id,
            owner_id: fleet.owner_id,
            ships: fleet.ships,
            origin: fleet.origin,
            target: fleet.target,
            eta: fleet.eta,
            alive: true,
        }
    }
}

/// What a seat (or a spectator) sees: the reference state's fields in its order, plus
/// the end reason, the disqualifications and the next fleet id (announced in public, and
/// needed to rebuild the board from a view), and the viewer's own sealed command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub planets: Vec<Planet>,
    pub fleets: Vec<FleetView>,
    pub round: u32,
    pub max_rounds: u32,
    /// The viewer's player id (1 or 2); absent for spectators.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_id: Option<u8>,
    pub game_over: bool,
    /// Winning player id; `null` while running and for draws.
    pub winner: Option<u8>,
    /// Why the game ended, in the reference's words; `null` while running.
    pub end_reason: Option<String>,
    /// Why each seat was disqualified, if it was (by seat).
    pub disqualified: [Option<String>; SEATS],
    /// The id the next fleet will get (ids count every fleet ever launched).
    pub next_fleet_id: u64,
    /// The command the viewer sealed this round, if any (own seat only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub your_command: Option<Action>,
}

pub fn view(state: &State, seat: Option<Seat>) -> View {
    parts(state, seat).into_view()
}

/// [`view`] as JSON text, written from the state's own planets and fleets (not copied
/// into a `View` first).
pub fn view_text(state: &State, seat: Option<Seat>) -> String {
    parts(state, seat).into_json()
}

/// What `seat` (or a spectator) sees of `state`, borrowed: the one place a view's
/// fields are taken from a state.
fn parts(
    state: &State,
    seat: Option<Seat>,
) -> Parts<'_, impl ExactSizeIterator<Item = FleetView> + '_> {
    let world = state.world();
    let seat = seat.filter(|&s| s < crate::state::SEATS);
    Parts {
        planets: &world.planets,
        fleets: world.fleets.iter().map(FleetView::from),
        round: world.round,
        max_rounds: world.max_rounds,
        player_id: seat.map(player_id),
        game_over: state.game_over(),
        winner: state.winner(),
        end_reason: state.end().map(|end| end.reason.as_str()),
        disqualified: [0, 1].map(|s| state.disqualification(s).map(|dq| dq.reason.as_str())),
        next_fleet_id: world.next_fleet_id,
        your_command: seat.and_then(|s| state.pending_command(s)),
    }
}

/// A view's fields, borrowed from a state or from a [`View`]: written as JSON text by
/// one writer whichever they come from.
struct Parts<'a, F> {
    planets: &'a [Planet],
    fleets: F,
    round: u32,
    max_rounds: u32,
    player_id: Option<u8>,
    game_over: bool,
    winner: Option<u8>,
    end_reason: Option<&'a str>,
    disqualified: [Option<&'a str>; SEATS],
    next_fleet_id: u64,
    your_command: Option<&'a Action>,
}

impl<F: ExactSizeIterator<Item = FleetView>> Parts<'_, F> {
    fn into_view(self) -> View {
        View {
            planets: self.planets.to_vec(),
            fleets: self.fleets.collect(),
            round: self.round,
            max_rounds: self.max_rounds,
            player_id: self.player_id,
            game_over: self.game_over,
            winner: self.winner,
            end_reason: self.end_reason.map(str::to_string),
            disqualified: self.disqualified.map(|reason| reason.map(str::to_string)),
            next_fleet_id: self.next_fleet_id,
            your_command: self.your_command.cloned(),
        }
    }

    /// These fields as JSON text, byte for byte what serde_json writes for the `View`
    /// they make (the engine's test battery holds the two together at every step it
    /// replays, and a test here on hand-made views): a server writes a view for each
    /// seat on every round, and serde's writer took more than twice as long (2.0
    /// against 0.8 µs).
    fn into_json(mut self) -> String {
        // The planets and fleets, most of the text and all of it numbers and keys, are
        // written by index into room made for the longest they could be: this thread's
        // scratch room, zeroed once. A fresh zeroed room for each view, about six times
        // the view's length, cost a third of writing the view, and the view's text kept
        // all of it as spare capacity for as long as it was held.
        let room =
            Board::LISTS + Board::PLANET * self.planets.len() + Board::FLEET * self.fleets.len();
        let lists = BOARD_ROOM.with_borrow_mut(|scratch| {
            if scratch.len() < room {
                scratch.resize(room, 0);
            }
            let lists = self.write_lists(&mut Board {
                bytes: &mut scratch[..room],
                len: 0,
            });
            if scratch.len() > BOARD_ROOM_KEPT {
                *scratch = Vec::new();
            }
            lists
        });
        let mut out = Tail(lists);
        out.raw(r#"],"round":"#);
        out.int(self.round);
        out.raw(r#","max_rounds":"#);
        out.int(self.max_rounds);
        if let Some(player_id) = self.player_id {
            out.raw(r#","player_id":"#);
            out.int(player_id);
        }
        out.raw(if self.game_over {
            r#","game_over":true"#
        } else {
            r#","game_over":false"#
        });
        match self.winner {
            Some(winner) => {
                out.raw(r#","winner":"#);
                out.int(winner);
            }
            None => out.raw(r#","winner":null"#),
        }
        // The rare fields (strings to escape, a sealed command) go through serde_json.
        out.raw(r#","end_reason":"#);
        match &self.end_reason {
            None => out.raw("null"),
            reason => out.serialised(reason),
        }
        out.raw(r#","disqualified":"#);
        match &self.disqualified {
            [None, None] => out.raw("[null,null]"),
            disqualified => out.serialised(disqualified),
        }
        out.raw(r#","next_fleet_id":"#);
        out.int(self.next_fleet_id);
        if let Some(command) = &self.your_command {
            out.raw(r#","your_command":"#);
            out.serialised(command);
        }
        out.raw("}");
        // ASCII and serde_json's own text: checked once, for the whole view.
        String::from_utf8(out.0).unwrap_or_default()
    }

    /// The planets and the fleets, written into `board`; returned as the start of the
    /// view's text, with room for the rest of it.
    fn write_lists(&mut self, board: &mut Board) -> Vec<u8> {
        board.key(r#"{"planets":["#);
        for (i, planet) in self.planets.iter().enumerate() {
            board.key(if i > 0 { r#",{"id":"# } else { r#"{"id":"# });
            board.uint(planet.id as u64);
            board.key(r#","x":"#);
            board.int(planet.x);
            board.key(r#","y":"#);
            board.int(planet.y);
            board.key(r#","owner_id":"#);
            board.uint(planet.owner_id.into());
            board.counts(r#","ships":"#, &planet.ships);
            board.counts(r#","production":"#, &planet.production);
            board.key("}");
        }
        board.key(r#"],"fleets":["#);
        for (i, fleet) in self.fleets.by_ref().enumerate() {
            board.key(if i > 0 { r#",{"id":"# } else { r#"{"id":"# });
            board.uint(fleet.id);
            board.key(r#","owner_id":"#);
            board.uint(fleet.owner_id.into());
            board.counts(r#","ships":"#, &fleet.ships);
            board.key(r#","origin":"#);
            board.uint(fleet.origin as u64);
            board.key(r#","target":"#);
            board.uint(fleet.target as u64);
            board.key(r#","eta":"#);
            board.uint(fleet.eta.into());
            board.key(if fleet.alive {
                r#","alive":true}"#
            } else {
                r#","alive":false}"#
            });
        }
        let written = &board.bytes[..board.len];
        let mut lists = Vec::with_capacity(written.len() + TAIL_ROOM);
        lists.extend_from_slice(written);
        lists
    }
}

impl View {
    /// This view as JSON text, byte for byte what serde_json writes for it (the
    /// engine's test battery holds the two together at every step it replays, and a
    /// test here on hand-made views).
    pub fn to_json(&self) -> String {
        Parts {
            planets: &self.planets,
            fleets: self.fleets.iter().cloned(),
            round: self.round,
            max_rounds: self.max_rounds,
            player_id: self.player_id,
            game_over: self.game_over,
            winner: self.winner,
            end_reason: self.end_reason.as_deref(),
            disqualified: [
                self.disqualified[0].as_deref(),
                self.disqualified[1].as_deref(),
            ],
            next_fleet_id: self.next_fleet_id,
            your_command: self.your_command.as_ref(),
        }
        .into_json()
    }
}

/// The planets and fleets of a view's JSON, written by index into bytes already there.
/// They are most of a view and a view is written for every seat every round: pushing
/// each of their four hundred small pieces (a key, a number) onto a growing string
/// cost a capacity check and a call to copy each, about 80 instructions a number.
struct Board<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

thread_local! {
    /// The room [`View::to_json`] writes planets and fleets into, kept by each thread.
    static BOARD_ROOM: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A scratch room larger than this (a map of some three hundred planets and fleets) is
/// let go after use rather than kept by the thread.
const BOARD_ROOM_KEPT: usize = 64 * 1024;

/// Room for what follows the fleets (round, winner, end reason, a sealed command) in
/// the common case; more is grown as needed.
const TAIL_ROOM: usize = 256;

impl Board<'_> {
    /// `{"planets":[` and `],"fleets":[`.
    const LISTS: usize = 24;
    /// The longest a planet can be, its separating comma included: its keys and
    /// punctuation (61 bytes), nine 64-bit integers of at most 20 characters each
    /// (`u64::MAX`, `i64::MIN`) and the owner's `u8`.
    const PLANET: usize = 61 + 9 * 20 + 3;
    /// The longest a fleet can be: its keys and punctuation (74 bytes), six 64-bit
    /// integers, the owner's `u8` and the `u32` eta.
    const FLEET: usize = 74 + 6 * 20 + 3 + 10;

    /// Punctuation and a key, at their fixed length.
    #[inline(always)]
    fn key(&mut self, text: &'static str) {
        let end = self.len + text.len();
        self.bytes[self.len..end].copy_from_slice(text.as_bytes());
        self.len = end;
    }

    /// Digits written straight into place, two at a time from the last.
    #[inline(always)]
    fn uint(&mut self, mut value: u64) {
        const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
            2021222324252627282930313233343536373839\
            4041424344454647484950515253545556575859\
            6061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899";
        let digits = value.checked_ilog10().unwrap_or(0) as usize + 1;
        let mut at = self.len + digits;
        self.len = at;
        while value >= 100 {
            let pair = (value % 100) as usize * 2;
            value /= 100;
            at -= 2;
            self.bytes[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
        }
        if value >= 10 {
            let pair = value as usize * 2;
            self.bytes[at - 2..at].copy_from_slice(&PAIRS[pair..pair + 2]);
        } else {
            self.bytes[at - 1] = b'0' + value as u8;
        }
    }

    #[inline(always)]
    fn int(&mut self, value: i64) {
        if value < 0 {
            self.key("-");
        }
        self.uint(value.unsigned_abs());
    }

    /// `key` and three counts as a JSON array.
    #[inline(always)]
    fn counts(&mut self, key: &'static str, values: &[i64; SHIP_TYPES]) {
        self.key(key);
        for (i, &value) in values.iter().enumerate() {
            self.key(if i == 0 { "[" } else { "," });
            self.int(value);
        }
        self.key("]");
    }
}

/// The rest of a view, a few pieces pushed on the end.
struct Tail(Vec<u8>);

impl Tail {
    fn raw(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    fn int(&mut self, value: impl itoa::Integer) {
        self.raw(itoa::Buffer::new().format(value));
    }

    /// `value` as serde_json writes it.
    fn serialised(&mut self, value: &impl Serialize) {
        let before = self.0.len();
        if serde_json::to_writer(&mut self.0, value).is_err() {
            self.0.truncate(before);
            self.raw("null");
        }
    }
}

/// The reference's per-player state line (without the trailing newline): keys
/// `planets, fleets, round, max_rounds, player_id, game_over, winner, players`, each
/// player `{id, name, itsme}`. `player_id` is 1 or 2; `names` are the players' names in
/// player order (the rules know seats, not accounts, so the referee supplies them).
pub fn reference_state_json(state: &State, player_id: u8, names: [&str; 2]) -> String {
    render(state, Some(player_id), names)
}

/// The reference's replay-log line: as [`reference_state_json`] without `player_id`
/// and without `itsme`.
pub fn reference_log_json(state: &State, names: [&str; 2]) -> String {
    render(state, None, names)
}

fn ints(out: &mut String, values: &[i64; SHIP_TYPES]) {
    let _ = write!(out, "[{}, {}, {}]", values[0], values[1], values[2]);
}

fn render(state: &State, viewer: Option<u8>, names: [&str; 2]) -> String {
    let world = state.world();
    let mut out = String::with_capacity(256 + 128 * world.planets.len());
    out.push_str("{\"planets\": [");
    for (i, p) in world.planets.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(
            out,
            "{{\"id\": {}, \"x\": {}, \"y\": {}, \"owner_id\": {}, \"ships\": ",
            p.id, p.x, p.y, p.owner_id
        );
        ints(&mut out, &p.ships);
        out.push_str(", \"production\": ");
        ints(&mut out, &p.production);
        out.push('}');
    }
    out.push_str("], \"fleets\": [");
    for (i, f) in world.fleets.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(
            out,
            "{{\"id\": {}, \"owner_id\": {}, \"ships\": ",
            f.id, f.owner_id
        );
        ints(&mut out, &f.ships);
        let _ = write!(
            out,
            ", \"origin\": {}, \"target\": {}, \"eta\": {}, \"alive\": true}}",
            f.origin, f.target, f.eta
        );
    }
    let _ = write!(
        out,
        "], \"round\": {}, \"max_rounds\": {}",
        world.round, world.max_rounds
    );
    if let Some(id) = viewer {
        let _ = write!(out, ", \"player_id\": {id}");
    }
    let _ = write!(
        out,
        ", \"game_over\": {}, \"winner\": ",
        if state.game_over() { "true" } else { "false" }
    );
    match state.winner() {
        Some(winner) => {
            let _ = write!(out, "{winner}");
        }
        None => out.push_str("null"),
    }
    out.push_str(", \"players\": [");
    for (i, name) in names.iter().enumerate() {
        let id = i as u8 + 1;
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{{\"id\": {id}, \"name\": ");
        python_json_string(&mut out, name);
        if let Some(viewer) = viewer {
            let _ = write!(
                out,
                ", \"itsme\": {}",
                if viewer == id { "true" } else { "false" }
            );
        }
        out.push('}');
    }
    out.push_str("]}");
    out
}

/// A JSON string as Python's json/simplejson write it with `ensure_ascii=True`.
fn python_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::config::Config;
    use crate::map::Planet;

    fn small_state() -> State {
        let planets = vec![
            Planet::new(0, 0, 0, 0, [2, 2, 2]),
            Planet::new(1, -17, 0, 1, [3, 0, 5]),
            Planet::new(2, 17, 0, 2, [3, 0, 5]),
        ];
        State::with_planets(&Config::default(), planets)
    }

    #[test]
    fn reference_state_line_has_the_reference_key_order() {
        let mut state = small_state();
        state.world.send_fleet(1, 1, 0, [3, 1, 1]).ok();
        let line = reference_state_json(&state, 1, ["qr4", "bot"]);
        let expected = concat!(
            r#"{"planets": [{"id": 0, "x": 0, "y": 0, "owner_id": 0, "ships": [30, 30, 30], "production": [2, 2, 2]}, "#,
            r#"{"id": 1, "x": -17, "y": 0, "owner_id": 1, "ships": [37, 9, 59], "production": [3, 0, 5]}, "#,
            r#"{"id": 2, "x": 17, "y": 0, "owner_id": 2, "ships": [40, 10, 60], "production": [3, 0, 5]}], "#,
            r#""fleets": [{"id": 0, "owner_id": 1, "ships": [3, 1, 1], "origin": 1, "target": 0, "eta": 17, "alive": true}], "#,
            r#""round": 0, "max_rounds": 500, "player_id": 1, "game_over": false, "winner": null, "#,
            r#""players": [{"id": 1, "name": "qr4", "itsme": true}, {"id": 2, "name": "bot", "itsme": false}]}"#
        );
        assert_eq!(line, expected);
        let value: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        assert_eq!(value["players"][1]["itsme"], serde_json::Value::Bool(false));
    }

    #[test]
    fn log_line_drops_player_id_and_itsme() {
        let state = small_state();
        let line = reference_log_json(&state, ["a", "b"]);
        assert!(line.ends_with(
            r#""round": 0, "max_rounds": 500, "game_over": false, "winner": null, "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}"#
        ));
        assert!(!line.contains("player_id") && !line.contains("itsme"));
    }

    #[test]
    fn names_are_escaped_like_python() {
        let mut out = String::new();
        python_json_string(&mut out, "a\"b\\c\nd\u{1}é😀");
        assert_eq!(out, r#""a\"b\\c\nd\u0001\u00e9\ud83d\ude00""#);
    }

    #[test]
    fn view_serializes_in_reference_order() {
        let state = small_state();
        let text = serde_json::to_string(&view(&state, Some(1))).unwrap_or_default();
        assert!(text.starts_with(r#"{"planets":[{"id":0,"x":0,"y":0,"owner_id":0,"ships":[30,30,30],"production":[2,2,2]}"#));
        assert!(text.ends_with(
            r#""fleets":[],"round":0,"max_rounds":500,"player_id":2,"game_over":false,"winner":null,"end_reason":null,"disqualified":[null,null],"next_fleet_id":0}"#
        ));
        let spectator = serde_json::to_string(&view(&state, None)).unwrap_or_default();
        assert!(!spectator.contains("player_id"));
    }

    fn any_text() -> impl Strategy<Value = Option<String>> {
        proptest::option::of(
            proptest::string::string_regex("[a-z \"\\\\\n\u{1}é😀]{0,12}").unwrap(),
        )
    }

    fn any_counts() -> impl Strategy<Value = [i64; SHIP_TYPES]> {
        proptest::array::uniform3(any::<i64>())
    }

    prop_compose! {
        fn any_view()(
            planets in proptest::collection::vec(
                (any::<usize>(), any::<i64>(), any::<i64>(), any::<u8>(), any_counts(), any_counts()),
                0..5,
            ),
            fleets in proptest::collection::vec(
                (any::<u64>(), any::<u8>(), any_counts(), any::<usize>(), any::<usize>(), any::<u32>(), any::<bool>()),
                0..5,
            ),
            (round, max_rounds, player_id, game_over, winner) in
                (any::<u32>(), any::<u32>(), any::<Option<u8>>(), any::<bool>(), any::<Option<u8>>()),
            (end_reason, first_dq, second_dq) in (any_text(), any_text(), any_text()),
            next_fleet_id in any::<u64>(),
            your_command in proptest::option::of(prop_oneof![
                Just(Action::Nop),
                (any::<i64>(), any::<i64>(), any_counts())
                    .prop_map(|(origin, target, ships)| Action::Send(crate::actions::SendOrder { origin, target, ships })),
            ]),
        ) -> View {
            View {
                planets: planets
                    .into_iter()
                    .map(|(id, x, y, owner_id, ships, production)| Planet { id, x, y, owner_id, ships, production })
                    .collect(),
                fleets: fleets
                    .into_iter()
                    .map(|(id, owner_id, ships, origin, target, eta, alive)| FleetView { id, owner_id, ships, origin, target, eta, alive })
                    .collect(),
                round,
                max_rounds,
                player_id,
                game_over,
                winner,
                end_reason,
                disqualified: [first_dq, second_dq],
                next_fleet_id,
                your_command,
            }
        }
    }

    /// The longest planets and fleets fill the room made for them exactly, and the text
    /// is still serde_json's; so does a view with neither.
    #[test]
    fn the_longest_records_fit() {
        let extreme = [i64::MIN; SHIP_TYPES];
        let longest = View {
            planets: vec![
                Planet {
                    id: usize::MAX,
                    x: i64::MIN,
                    y: i64::MIN,
                    owner_id: u8::MAX,
                    ships: extreme,
                    production: extreme
                };
                2
            ],
            fleets: vec![
                FleetView {
                    id: u64::MAX,
                    owner_id: u8::MAX,
                    ships: extreme,
                    origin: usize::MAX,
                    target: usize::MAX,
                    eta: u32::MAX,
                    alive: false
                };
                2
            ],
            round: 0,
            max_rounds: 0,
            player_id: None,
            game_over: false,
            winner: None,
            end_reason: None,
            disqualified: [None, None],
            next_fleet_id: 0,
            your_command: None,
        };
        let text = longest.to_json();
        assert_eq!(text, serde_json::to_string(&longest).unwrap());
        let planet = serde_json::to_string(&longest.planets[0]).unwrap();
        let fleet = serde_json::to_string(&longest.fleets[0]).unwrap();
        assert_eq!(planet.len() + 1, Board::PLANET, "{planet}");
        assert_eq!(fleet.len() + 1, Board::FLEET, "{fleet}");
        let empty = View {
            planets: Vec::new(),
            fleets: Vec::new(),
            ..longest
        };
        assert_eq!(empty.to_json(), serde_json::to_string(&empty).unwrap());
    }

    proptest! {
        /// The hand-written text is serde_json's, whatever the view holds.
        #[test]
        fn the_written_view_is_serde_jsons(view in any_view()) {
            prop_assert_eq!(view.to_json(), serde_json::to_string(&view).unwrap_or_default());
        }
    }
}
