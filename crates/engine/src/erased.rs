//! Type erasure: any [`Game`] seen through JSON, so one server hosts every ruleset.

use std::any::Any;
use std::marker::PhantomData;
use std::ops::{Range, RangeInclusive};
use std::sync::Arc;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::digest::{digest_of, hex16};
use crate::game::{ConfigError, Game, Seat, TimeoutPolicy};
use crate::illegal::Illegal;
use crate::outcome::Outcome;
use crate::policy::Policy;
use crate::rng::seeded_rng;
use crate::ruleset::Ruleset;
use crate::turn::Turn;

/// Events of one step, already projected for every audience.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EventBatch {
    /// Index 0 is the spectators' share; index `seat + 1` is that seat's: the events
    /// the audience may see as one JSON array, written once, or `None` if it sees none.
    /// Text, not `Value`s: the referee sends it as it is, and building, cloning and
    /// writing a tree of every event showed in a busy server's profile.
    audiences: Vec<Option<Arc<str>>>,
    /// The digest of the events as the rules produced them, secrets included: for the
    /// record's digest chain only, never sent.
    fingerprint: String,
}

impl EventBatch {
    fn project<G: Game>(events: &[G::Event], seats: usize) -> Self {
        // Each event is written once. The whole array is what the fingerprint hashes,
        // and each audience's text is pieced together from it wherever the audience
        // sees an event as it is: writing the same events again for the digest and for
        // each audience showed in a busy server's profile (docs/benchmarks.md).
        let written = Written::new(events);
        let fingerprint = match written.whole() {
            Some(json) => hex16(&Sha256::digest(json)),
            None => digest_of(events),
        };
        let share_of = |seat: Option<Seat>| -> Vec<Seen<G::Event>> {
            events
                .iter()
                .enumerate()
                .filter_map(|(i, event)| {
                    let seen = G::event_for(event, seat)?;
                    Some(if seen == *event {
                        Seen::AsIs(i)
                    } else {
                        Seen::Changed(seen)
                    })
                })
                .collect()
        };
        // Most events are public: a seat that sees just what spectators see shares
        // their text rather than a copy.
        let public = share_of(None);
        let public_text = written.text_of(&public);
        let mut audiences = Vec::with_capacity(seats + 1);
        audiences.push(public_text.clone());
        for seat in 0..seats {
            let share = share_of(Some(seat));
            audiences.push(if share == public {
                public_text.clone()
            } else {
                written.text_of(&share)
            });
        }
        EventBatch {
            audiences,
            fingerprint,
        }
    }

    /// The events' fingerprint for the record's digest chain
    /// ([`crate::record::DigestChain`]).
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// What `seat` (or a spectator, `None`) may see of these events, as a JSON array;
    /// `None` if nothing.
    pub fn for_audience(&self, seat: Option<Seat>) -> Option<&Arc<str>> {
        let index = seat.map_or(0, |s| s + 1);
        self.audiences.get(index).and_then(Option::as_ref)
    }
}

/// An event as one audience sees it: as it is (by its index in the step), or changed.
#[derive(PartialEq)]
enum Seen<E> {
    AsIs(usize),
    Changed(E),
}

/// A step's events written once, as one JSON array.
struct Written {
    json: Vec<u8>,
    /// Each event's bytes in `json`; `None` for an event that could not be written
    /// (it is left out of every audience's text, as it always was).
    pieces: Vec<Option<Range<usize>>>,
}

impl Written {
    fn new<E: serde::Serialize>(events: &[E]) -> Written {
        let mut json = Vec::with_capacity(2 + 128 * events.len());
        let mut pieces = Vec::with_capacity(events.len());
        json.push(b'[');
        for event in events {
            let before = json.len();
            if before > 1 {
                json.push(b',');
            }
            let start = json.len();
            if serde_json::to_writer(&mut json, event).is_ok() {
                pieces.push(Some(start..json.len()));
            } else {
                json.truncate(before);
                pieces.push(None);
            }
        }
        json.push(b']');
        Written { json, pieces }
    }

    /// The events' JSON, byte for byte what `serde_json` writes for the whole slice,
    /// if every event could be written.
    fn whole(&self) -> Option<&[u8]> {
        self.pieces
            .iter()
            .all(Option::is_some)
            .then_some(&self.json[..])
    }

    /// An audience's share as one JSON array, or `None` if it sees nothing.
    fn text_of<E: serde::Serialize>(&self, share: &[Seen<E>]) -> Option<Arc<str>> {
        if share.is_empty() {
            return None;
        }
        let everything = share.len() == self.pieces.len()
            && share.iter().all(|seen| matches!(seen, Seen::AsIs(_)));
        if let (true, Some(json)) = (everything, self.whole()) {
            return std::str::from_utf8(json).ok().map(Arc::from);
        }
        let mut text = Vec::with_capacity(self.json.len());
        for seen in share {
            let before = text.len();
            text.push(if before == 0 { b'[' } else { b',' });
            let written = match seen {
                Seen::AsIs(i) => match self.pieces.get(*i).cloned().flatten() {
                    Some(piece) => {
                        text.extend_from_slice(&self.json[piece]);
                        true
                    }
                    None => false,
                },
                Seen::Changed(event) => serde_json::to_writer(&mut text, event).is_ok(),
            };
            if !written {
                text.truncate(before);
            }
        }
        if text.is_empty() {
            return None;
        }
        text.push(b']');
        String::from_utf8(text).ok().map(Arc::from)
    }
}

/// A ruleset without its types: configs, actions and views are JSON.
pub trait DynGame: Send + Sync {
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    /// How a referee treats this ruleset's seats ([`Ruleset::POLICY`]).
    fn policy(&self) -> Policy;
    /// The rules page, Markdown ([`Ruleset::RULES_PAGE`]).
    fn rules_page(&self) -> &'static str;
    /// The web board renderer, an ES module ([`Ruleset::BOARD_JS`]).
    fn board_js(&self) -> Option<&'static str>;
    /// `state` (one of this ruleset's) as text, if the ruleset draws one
    /// ([`Ruleset::text_board`]).
    fn text_board(&self, state: &dyn DynState) -> Option<String>;
    fn default_config(&self) -> Value;
    /// Read a config (missing fields take defaults) and write it back in full.
    fn normalize_config(&self, config: &Value) -> Result<Value, ConfigError>;
    fn seat_counts(&self, config: &Value) -> Result<RangeInclusive<usize>, ConfigError>;
    /// The deadline `config` sets for the match, if any ([`Game::configured_deadline`]).
    fn configured_deadline(&self, config: &Value) -> Option<std::time::Duration>;
    fn new_state(
        &self,
        config: &Value,
        seats: usize,
        seed: u64,
    ) -> Result<Box<dyn DynState>, ConfigError>;
    /// A state rebuilt from `seat`'s view (JSON, as [`DynState::view`] gave it), every
    /// hidden fact re-drawn from `seed`: see [`Game::state_from_view`].
    fn state_from_view(
        &self,
        config: &Value,
        view: &Value,
        seat: Seat,
        seed: u64,
    ) -> Result<Box<dyn DynState>, String>;
}

/// A live game without its types.
pub trait DynState: Send + Sync {
    fn ruleset(&self) -> &'static str;
    fn seat_count(&self) -> usize;
    fn to_act(&self) -> Turn;
    /// The current turn's number where one deadline covers a turn ([`Game::turn_number`]).
    fn turn_number(&self) -> Option<u64>;
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<EventBatch, Illegal>;
    fn eject(&mut self, seat: Seat, reason: &str) -> EventBatch;
    fn view(&self, seat: Option<Seat>) -> Value;
    /// [`DynState::view`] written straight to JSON text (the same text the `Value`
    /// would print, one JSON document): what a server sends on every step, without
    /// building a tree, and embedded in a message as it is.
    fn view_json(&self, seat: Option<Seat>) -> String;
    fn legal(&self, seat: Seat) -> Vec<Value>;
    fn outcome(&self) -> Option<Outcome>;
    /// What to do about `seat` missing its deadline (the action as JSON).
    fn on_timeout(&self, seat: Seat) -> TimeoutPolicy<Value>;
    /// Fingerprint of the full state (secrets included) for replay verification.
    fn digest(&self) -> String;
    fn clone_box(&self) -> Box<dyn DynState>;
    /// For code that knows the concrete ruleset (bots) to get the typed state back.
    fn as_any(&self) -> &dyn Any;
}

/// Apply with the engine's own guards: the seat exists, owes a decision now, and the
/// game is not over. Rulesets may rely on these checks having been made.
pub fn apply_checked<G: Game>(
    state: &mut G::State,
    seats: usize,
    seat: Seat,
    action: &G::Action,
) -> Result<Vec<G::Event>, Illegal> {
    if seat >= seats {
        return Err(Illegal::no_such_seat(seat));
    }
    let turn = G::to_act(state);
    if turn.is_over() {
        return Err(Illegal::game_over());
    }
    if !turn.includes(seat) {
        return Err(Illegal::not_your_turn(seat));
    }
    G::apply(state, seat, action)
}

/// The adapter from a typed [`Ruleset`] to [`DynGame`].
pub struct Erased<G: Ruleset>(PhantomData<G>);

impl<G: Ruleset> Default for Erased<G> {
    fn default() -> Self {
        Erased(PhantomData)
    }
}

fn parse_config<G: Game>(config: &Value) -> Result<G::Config, ConfigError> {
    let config = match config {
        Value::Null => Value::Object(Default::default()),
        Value::Object(_) => config.clone(),
        // serde reads a struct from an array too, field by field in declaration order
        // (`[1]` set Q-Game's first field): a layout no one means, so it is refused.
        other => {
            let kind = match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "a boolean",
            };
            return Err(ConfigError::new(format!(
                "a configuration is a JSON object of the ruleset's fields (or null for its defaults), not {kind}"
            )));
        }
    };
    serde_json::from_value(config).map_err(|e| ConfigError::new(e.to_string()))
}

impl<G: Ruleset> DynGame for Erased<G> {
    fn id(&self) -> &'static str {
        G::ID
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn policy(&self) -> Policy {
        G::POLICY
    }
    fn rules_page(&self) -> &'static str {
        G::RULES_PAGE
    }
    fn board_js(&self) -> Option<&'static str> {
        G::BOARD_JS
    }
    fn text_board(&self, state: &dyn DynState) -> Option<String> {
        let typed = state.as_any().downcast_ref::<ErasedState<G>>()?;
        G::text_board(&typed.state)
    }
    fn default_config(&self) -> Value {
        serde_json::to_value(G::Config::default()).unwrap_or(Value::Null)
    }
    fn normalize_config(&self, config: &Value) -> Result<Value, ConfigError> {
        let typed = parse_config::<G>(config)?;
        serde_json::to_value(typed).map_err(|e| ConfigError::new(e.to_string()))
    }
    fn seat_counts(&self, config: &Value) -> Result<RangeInclusive<usize>, ConfigError> {
        Ok(G::seat_counts(&parse_config::<G>(config)?))
    }
    fn configured_deadline(&self, config: &Value) -> Option<std::time::Duration> {
        G::configured_deadline(&parse_config::<G>(config).ok()?)
    }
    fn new_state(
        &self,
        config: &Value,
        seats: usize,
        seed: u64,
    ) -> Result<Box<dyn DynState>, ConfigError> {
        let typed = parse_config::<G>(config)?;
        let state = G::new(&typed, seats, seed)?;
        Ok(Box::new(ErasedState::<G> { state, seats }))
    }
    fn state_from_view(
        &self,
        config: &Value,
        view: &Value,
        seat: Seat,
        seed: u64,
    ) -> Result<Box<dyn DynState>, String> {
        let config = parse_config::<G>(config).map_err(|e| e.to_string())?;
        let view: G::View = serde_json::from_value(view.clone())
            .map_err(|e| format!("not a {} view: {e}", G::ID))?;
        let state = G::state_from_view(&config, &view, seat, &mut seeded_rng(seed))?;
        let seats = G::seat_count(&state);
        Ok(Box::new(ErasedState::<G> { state, seats }))
    }
}

/// A typed state behind [`DynState`].
pub struct ErasedState<G: Game> {
    pub state: G::State,
    pub seats: usize,
}

impl<G: Game> Clone for ErasedState<G> {
    fn clone(&self) -> Self {
        ErasedState {
            state: self.state.clone(),
            seats: self.seats,
        }
    }
}

impl<G: Game> DynState for ErasedState<G> {
    fn ruleset(&self) -> &'static str {
        G::ID
    }
    fn seat_count(&self) -> usize {
        self.seats
    }
    fn to_act(&self) -> Turn {
        G::to_act(&self.state)
    }
    fn turn_number(&self) -> Option<u64> {
        G::turn_number(&self.state)
    }
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<EventBatch, Illegal> {
        let action: G::Action =
            serde_json::from_value(action.clone()).map_err(Illegal::malformed)?;
        let events = apply_checked::<G>(&mut self.state, self.seats, seat, &action)?;
        Ok(EventBatch::project::<G>(&events, self.seats))
    }
    fn eject(&mut self, seat: Seat, reason: &str) -> EventBatch {
        if seat >= self.seats {
            return EventBatch::default();
        }
        let events = G::eject(&mut self.state, seat, reason);
        EventBatch::project::<G>(&events, self.seats)
    }
    fn view(&self, seat: Option<Seat>) -> Value {
        let seat = seat.filter(|&s| s < self.seats);
        serde_json::to_value(G::view(&self.state, seat)).unwrap_or(Value::Null)
    }
    fn view_json(&self, seat: Option<Seat>) -> String {
        let seat = seat.filter(|&s| s < self.seats);
        G::view_text(&self.state, seat).unwrap_or_else(|| {
            serde_json::to_string(&G::view(&self.state, seat)).unwrap_or_else(|_| "null".into())
        })
    }
    fn legal(&self, seat: Seat) -> Vec<Value> {
        if seat >= self.seats {
            return Vec::new();
        }
        G::legal(&self.state, seat)
            .iter()
            .filter_map(|action| serde_json::to_value(action).ok())
            .collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        G::outcome(&self.state)
    }
    fn on_timeout(&self, seat: Seat) -> TimeoutPolicy<Value> {
        match G::on_timeout(&self.state, seat) {
            TimeoutPolicy::Eject(reason) => TimeoutPolicy::Eject(reason),
            TimeoutPolicy::Act(action) => match serde_json::to_value(action) {
                Ok(value) => TimeoutPolicy::Act(value),
                Err(e) => TimeoutPolicy::Eject(format!("missed the deadline ({e})")),
            },
        }
    }
    fn digest(&self) -> String {
        digest_of(&self.state)
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;

    /// A game whose only use is its events: an even event is public, an odd one is
    /// seen by its own seat (the event modulo the seats) and nobody else; one of 1,000
    /// or more is seen whole by its own seat and as 1000 by everyone else.
    struct Whispers;

    impl Game for Whispers {
        const ID: &'static str = "whispers";
        const NAME: &'static str = "Whispers";
        type Config = ();
        type State = ();
        type Action = ();
        type View = ();
        type Event = u32;

        fn seat_counts(_: &()) -> RangeInclusive<usize> {
            2..=2
        }
        fn seat_count(_: &()) -> usize {
            2
        }
        fn new(_: &(), _: usize, _: u64) -> Result<(), ConfigError> {
            Ok(())
        }
        fn to_act(_: &()) -> Turn {
            Turn::Over
        }
        fn apply(_: &mut (), _: Seat, _: &()) -> Result<Vec<u32>, Illegal> {
            Ok(Vec::new())
        }
        fn legal(_: &(), _: Seat) -> Vec<()> {
            Vec::new()
        }
        fn eject(_: &mut (), _: Seat, _: &str) -> Vec<u32> {
            Vec::new()
        }
        fn view(_: &(), _: Option<Seat>) {}
        fn event_for(event: &u32, seat: Option<Seat>) -> Option<u32> {
            // A number of 1,000 or more is dealt: its seat sees it, the others see
            // that something was dealt (1000).
            if *event >= 1000 {
                let own = seat == Some(*event as usize % 2);
                return Some(if own { *event } else { 1000 });
            }
            let public = event.is_multiple_of(2);
            (public || seat == Some(*event as usize % 2)).then_some(*event)
        }
        fn outcome(_: &()) -> Option<Outcome> {
            None
        }
        fn determinize(_: &(), _: Seat, _: &mut GameRng) {}
        fn state_from_view(_: &(), _: &(), _: Seat, _: &mut GameRng) -> Result<(), String> {
            Ok(())
        }
    }

    /// Each audience gets exactly its share; a seat that sees what spectators see
    /// shares their text instead of a copy written again.
    #[test]
    fn each_audience_gets_its_share_and_equal_shares_are_written_once() {
        let public = EventBatch::project::<Whispers>(&[2, 4], 2);
        let spectators = public.for_audience(None).expect("public events");
        assert_eq!(&**spectators, "[2,4]");
        for seat in 0..2 {
            let seen = public.for_audience(Some(seat)).expect("public events");
            assert!(Arc::ptr_eq(seen, spectators), "seat {seat} shares the text");
        }

        let whispered = EventBatch::project::<Whispers>(&[2, 3], 2);
        assert_eq!(whispered.for_audience(None).map(|t| &**t), Some("[2]"));
        assert_eq!(whispered.for_audience(Some(0)).map(|t| &**t), Some("[2]"));
        assert_eq!(whispered.for_audience(Some(1)).map(|t| &**t), Some("[2,3]"));

        let secret = EventBatch::project::<Whispers>(&[1], 2);
        assert_eq!(secret.for_audience(None), None);
        assert_eq!(secret.for_audience(Some(0)), None);
        assert_eq!(secret.for_audience(Some(1)).map(|t| &**t), Some("[1]"));

        let dealt = EventBatch::project::<Whispers>(&[2, 1001, 3], 2);
        assert_eq!(dealt.for_audience(None).map(|t| &**t), Some("[2,1000]"));
        assert_eq!(dealt.for_audience(Some(0)).map(|t| &**t), Some("[2,1000]"));
        assert_eq!(
            dealt.for_audience(Some(1)).map(|t| &**t),
            Some("[2,1001,3]")
        );
    }

    /// However a batch's fingerprint is found (the spectators' text hashed, the events
    /// written again, the one for no events), it is the digest of the events.
    #[test]
    fn the_fingerprint_is_the_digest_of_the_events_however_it_is_found() {
        let steps: [&[u32]; 6] = [&[], &[2, 4], &[2, 3], &[1], &[2, 1001, 3], &[]];
        for events in steps {
            let batch = EventBatch::project::<Whispers>(events, 2);
            assert_eq!(batch.fingerprint(), digest_of(events), "events {events:?}");
        }
    }
}
