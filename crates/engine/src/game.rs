//! The Game trait: a ruleset as pure, deterministic functions over a state.
//!
//! Shaped after OpenSpiel's game/state split and boardgame.io's small definitions: the
//! implementing type is a marker (`struct Qgame;`), the state is plain data, and every
//! function is pure. All randomness comes from a ChaCha generator seeded by the match
//! seed and kept inside the state, so config + seed + accepted actions replay exactly.

use std::fmt::Debug;
use std::ops::RangeInclusive;

use rand::seq::IndexedRandom;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::illegal::Illegal;
use crate::outcome::Outcome;
use crate::rng::GameRng;
use crate::turn::Turn;

/// A seat index, 0-based, in the game's seat order.
pub type Seat = usize;

/// A configuration that cannot start a game, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid configuration: {0}")]
pub struct ConfigError(pub String);

impl ConfigError {
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError(message.into())
    }
}

/// What the referee does when a seat misses its deadline (or stays disconnected past
/// it). Each ruleset decides: the course games eject, T&E commits nothing, Space Crack
/// ends the seat's turn.
#[derive(Debug, Clone, PartialEq)]
pub enum TimeoutPolicy<A> {
    /// Remove the seat with this reason.
    Eject(String),
    /// Apply this action on the seat's behalf.
    Act(A),
}

pub trait Game: Send + Sync + 'static {
    /// Ruleset id used by the registry and on the wire, e.g. `"qgame"`.
    const ID: &'static str;
    /// Human name, e.g. `"Q-Game"`.
    const NAME: &'static str;

    /// Options for one match; `Default` is the decided ruleset.
    type Config: Serialize + DeserializeOwned + Clone + Default + Debug + Send + Sync;
    /// Everything the referee knows, secrets included. Serialized only for digests and
    /// referee-level records, never sent to a seat.
    type State: Serialize + Clone + Debug + Send + Sync;
    type Action: Serialize + DeserializeOwned + Clone + Debug + PartialEq + Send + Sync;
    /// What one seat (or a spectator) may know. Deserializable so that a player that
    /// receives only views (a network client) can read them back and rebuild a state
    /// to think on ([`Game::state_from_view`]).
    type View: Serialize + DeserializeOwned + Debug;
    type Event: Serialize + Clone + PartialEq + Debug + Send + Sync;

    /// How many seats this configuration allows.
    fn seat_counts(config: &Self::Config) -> RangeInclusive<usize>;

    /// How many seats this game has (a rebuilt state does not come with its count).
    fn seat_count(state: &Self::State) -> usize;

    /// A fresh game. Validates the configuration and the seat count.
    fn new(config: &Self::Config, seats: usize, seed: u64) -> Result<Self::State, ConfigError>;

    /// Who owes a decision now.
    fn to_act(state: &Self::State) -> Turn;

    /// Apply one seat's action. On error nothing changed.
    fn apply(
        state: &mut Self::State,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<Vec<Self::Event>, Illegal>;

    /// `apply` for playouts and search, which drop the events: a ruleset may override
    /// it to skip building them, but must refuse exactly what `apply` refuses and
    /// leave the state exactly as `apply` leaves it (the test battery checks both).
    fn apply_quietly(
        state: &mut Self::State,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<(), Illegal> {
        Self::apply(state, seat, action).map(drop)
    }

    /// Who a playout moves next ([`Turn::playout_seat`] of `to_act`). A ruleset may
    /// override it to answer without building the `Turn`, but must return what this
    /// default returns from the same generator state, with the same draws.
    fn playout_seat(state: &Self::State, rng: &mut GameRng) -> Option<Seat> {
        Self::to_act(state).playout_seat(rng)
    }

    /// The legal actions of `seat`, or a representative sample where the space is too
    /// large to list (each ruleset documents which). Empty when the seat cannot act.
    fn legal(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// One of `legal(state, seat)` drawn uniformly with `rng`, for random playouts;
    /// `None` when the list is empty. A ruleset may override it to draw without
    /// building the list. The override must give every listed action the same
    /// probability and read nothing but the state and `rng` (so a seeded playout
    /// replays exactly); it need not make the default's draws. Spacegoo, Q-Game and
    /// Space Crack return exactly what the default returns; T&E draws its turn actions
    /// by rejection from a cheaper superset, and its tests check legality and
    /// uniformity.
    fn random_action(state: &Self::State, seat: Seat, rng: &mut GameRng) -> Option<Self::Action> {
        Self::legal(state, seat).choose(rng).cloned()
    }

    /// Remove a misbehaving seat (timeout, illegal answer, disconnect) under the
    /// ruleset's policy. Ejecting an already ejected seat changes nothing.
    fn eject(state: &mut Self::State, seat: Seat, reason: &str) -> Vec<Self::Event>;

    /// What `seat` may see; `None` is a spectator. The only projection to the outside.
    fn view(state: &Self::State, seat: Option<Seat>) -> Self::View;

    /// [`Game::view`] written straight to JSON text, byte for byte what serialising the
    /// view would write: for a ruleset whose view a server writes on every step and
    /// whose serialisation shows in the server's profile (spacegoo's, a round's every
    /// decision). `None`, the default, lets the engine serialise the view. The test
    /// battery holds the text to the serialised view at every step it replays.
    fn view_text(_state: &Self::State, _seat: Option<Seat>) -> Option<String> {
        None
    }

    /// The part of an event `seat` may see (`None` = spectator), or nothing.
    fn event_for(event: &Self::Event, _seat: Option<Seat>) -> Option<Self::Event> {
        Some(event.clone())
    }

    /// The ruleset's answer to a missed deadline by `seat`. The default ejects.
    fn on_timeout(_state: &Self::State, _seat: Seat) -> TimeoutPolicy<Self::Action> {
        TimeoutPolicy::Eject("missed the deadline".to_string())
    }

    /// The number of the game's current turn, for rulesets where one seat makes several
    /// decisions a turn (Space Crack spends its command points one action at a time).
    /// A referee then gives a seat one deadline for the whole turn, from its start,
    /// instead of a fresh one per action. `None` (the default): every decision is timed
    /// on its own.
    fn turn_number(_state: &Self::State) -> Option<u64> {
        None
    }

    /// A time per turn the configuration itself sets (Space Crack's
    /// `turn_timeout_secs`); where `Some`, it is the match's deadline.
    fn configured_deadline(_config: &Self::Config) -> Option<std::time::Duration> {
        None
    }

    /// The result once the game is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// A state consistent with everything `seat` knows, with every secret it does not
    /// know re-drawn from `rng` (information-set sampling for search).
    fn determinize(state: &Self::State, seat: Seat, rng: &mut GameRng) -> Self::State;

    /// A state consistent with everything in `seat`'s own `view` (as [`Game::view`]
    /// made it for `seat`), every fact the view hides re-drawn from `rng`: what a player
    /// that sees only views (a network client) searches on. Like [`Game::determinize`],
    /// but from the view alone, so nothing a seat may not know can reach it.
    ///
    /// Guarantees: `view(rebuilt, Some(seat))` serializes to the same bytes as `view`,
    /// and when `seat` is to act, `legal(rebuilt, seat)` equals the real state's.
    /// A view no game of `config` could show (another seat's, or inconsistent) is an
    /// error, never a panic.
    fn state_from_view(
        config: &Self::Config,
        view: &Self::View,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Result<Self::State, String>;
}
