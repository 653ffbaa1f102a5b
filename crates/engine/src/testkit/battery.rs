//! The one test battery every ruleset calls, after OpenSpiel's `basic_tests`.
//!
//! A ruleset's tests build a [`Battery`] with the configurations worth covering and
//! call [`Battery::run`]. For every configuration, every allowed seat count (up to
//! [`Battery::max_seats`]) and every seed, the battery plays a game of uniformly random
//! legal moves, now and then ejecting a seat, and checks at every step:
//!
//! - **turns are honest**: a seat owes a decision exactly when it has a legal move;
//! - **refused moves change nothing**: a move by a seat that owes none, by a seat that
//!   does not exist, and stale moves from earlier positions are refused or applied,
//!   never half-applied;
//! - **no view leaks a secret**: re-drawing everything a seat may not know leaves its
//!   view and the spectators' view byte-identical, and the re-draw itself depends only
//!   on what the seat knows;
//! - **a sealed answer shows nothing to the others**: while its round is still open
//!   ([`Turn::sealed_answer_left_open`]), every other audience's view is unchanged;
//! - **the playout shortcuts agree**: [`Game::apply_quietly`] refuses and changes
//!   exactly what [`Game::apply`] does, and [`Game::playout_seat`] picks what the
//!   `Turn` picks, with the same draws;
//! - **a view is enough to think on**: a state rebuilt from a seat's view shows the same
//!   view and offers the same legal moves;
//! - the ruleset's own invariants ([`Battery::invariants`]).
//!
//! And once per game:
//!
//! - **random play ends** within [`Battery::max_decisions`], with one rank per seat;
//! - **determinism per seed**: the same seed and moves give the same states again;
//! - **replay equals the live game**: the game's record replays through a
//!   [`Registry`] with every digest verified, and every audience's view at every step
//!   equals the live one.

use rand::seq::IndexedRandom;
use rand::Rng;

use super::{all_views, assert_state_from_view_round_trips, assert_views_hide_secrets};
use crate::digest::digest_of;
use crate::erased::apply_checked;
use crate::game::{Game, Seat};
use crate::record::{DigestChain, LogEntry, MatchRecord, RECORD_FORMAT};
use crate::registry::Registry;
use crate::rng::{seeded_rng, GameRng};
use crate::ruleset::Ruleset;
use crate::turn::Turn;

/// What to play and how hard to look. Start from [`Battery::new`] and change fields.
pub struct Battery<G: Ruleset> {
    /// The configurations to play; each is played with every seat count it allows
    /// from its minimum up to [`Battery::max_seats`].
    pub configs: Vec<G::Config>,
    /// Games per configuration and seat count (seeds `0..games`).
    pub games: u64,
    /// A game still running after this many decisions fails the battery.
    pub max_decisions: usize,
    /// The largest seat count tried.
    pub max_seats: usize,
    /// Eject a random live seat with probability `1 / n` before a decision (`None`:
    /// never). Ejection is what every timeout, illegal answer and disconnect becomes.
    pub eject_one_in: Option<u32>,
    /// Run the costly per-position checks (no leak, rebuild from views, refused
    /// moves) every this many decisions; 1 checks every position.
    pub check_every: usize,
    /// The ruleset's own invariants, checked after every step (`Err` fails with the
    /// message).
    pub invariants: fn(&G::State) -> Result<(), String>,
}

impl<G: Ruleset> Battery<G> {
    /// The default configuration, 8 games per seat count, up to 4 seats, 10,000
    /// decisions per game, an ejection one decision in 200, every position checked.
    pub fn new() -> Self {
        Battery {
            configs: vec![G::Config::default()],
            games: 8,
            max_decisions: 10_000,
            max_seats: 4,
            eject_one_in: Some(200),
            check_every: 1,
            invariants: |_| Ok(()),
        }
    }

    /// Run every check on every game; panics (failing the test) with the ruleset,
    /// configuration, seat count, seed and step of the first failure.
    pub fn run(&self) {
        for config in &self.configs {
            let counts = G::seat_counts(config);
            let lowest = *counts.start();
            let highest = (*counts.end()).min(self.max_seats.max(lowest));
            for seats in lowest..=highest {
                for seed in 0..self.games {
                    let played = self.play(config, seats, seed);
                    let again = self.play(config, seats, seed);
                    assert_eq!(
                        played.record,
                        again.record,
                        "{}: seed {seed} with {seats} seats played differently twice ({config:?})",
                        G::ID
                    );
                    assert_replay_equals_live::<G>(&played);
                }
            }
        }
    }

    /// One random game with the per-step checks; its record and every audience's views
    /// after the start and after each log entry.
    fn play(&self, config: &G::Config, seats: usize, seed: u64) -> Played {
        let context = |step: usize| format!("{} seed {seed}, {seats} seats, step {step}", G::ID);
        let mut state = G::new(config, seats, seed)
            .unwrap_or_else(|e| panic!("{}: {e} ({config:?})", context(0)));
        let mut rng = seeded_rng(seed ^ 0xBA77_E4E5);
        let mut record = MatchRecord {
            format: RECORD_FORMAT,
            ruleset: G::ID.to_string(),
            config: serde_json::to_value(config).expect("configurations serialize"),
            seats: (0..seats).map(|s| format!("random#{s}")).collect(),
            seed,
            initial_digest: digest_of(&state),
            log: Vec::new(),
            outcome: None,
            stand_ins: Vec::new(),
            resumptions: Vec::new(),
        };
        let mut chain = DigestChain::new(&record.initial_digest);
        let mut views = vec![all_views::<G>(&state, seats)];
        // Moves legal somewhere earlier in this game: the stale moves a confused or
        // lagging client sends.
        let mut seen: Vec<(Seat, G::Action)> = Vec::new();
        for step in 0..self.max_decisions {
            if let Err(broken) = (self.invariants)(&state) {
                panic!("{}: invariant broken: {broken}", context(step));
            }
            let turn = G::to_act(&state);
            if turn.is_over() {
                let outcome = G::outcome(&state)
                    .unwrap_or_else(|| panic!("{}: over without an outcome", context(step)));
                assert_eq!(
                    outcome.ranks.len(),
                    seats,
                    "{}: one rank a seat",
                    context(step)
                );
                record.outcome = Some(outcome);
                return Played { record, views };
            }
            assert_turn_is_honest::<G>(&state, &turn, seats, &context(step));
            if step % self.check_every.max(1) == 0 {
                let salt = seed.wrapping_mul(31).wrapping_add(step as u64);
                assert_views_hide_secrets::<G>(&state, seats, salt);
                assert_determinize_uses_only_what_the_seat_knows::<G>(&state, seats, salt);
                assert_state_from_view_round_trips::<G>(config, &state, seats, salt);
                assert_refused_moves_change_nothing::<G>(
                    &state,
                    seats,
                    &turn,
                    &seen,
                    &context(step),
                );
                assert_playout_shortcuts_agree::<G>(
                    &state,
                    seats,
                    &turn,
                    &seen,
                    &rng,
                    &context(step),
                );
            }
            let live: Vec<Seat> = (0..seats)
                .filter(|&s| !G::legal(&state, s).is_empty())
                .collect();
            let eject = self
                .eject_one_in
                .is_some_and(|n| rng.random_range(0..n.max(1)) == 0);
            // The seat whose sealed answer left its round open, if this step's was one.
            let mut left_open_by = None;
            if eject {
                let seat = *live.choose(&mut rng).expect("someone owes a decision");
                let reason = "ejected by the test battery";
                let events = G::eject(&mut state, seat, reason);
                let entry = LogEntry::Eject {
                    seat,
                    reason: reason.to_string(),
                    digest: String::new(),
                };
                let over = G::to_act(&state).is_over();
                let entry = chain.seal(entry, &digest_of(&events), over, || digest_of(&state));
                record.log.push(entry);
            } else {
                let seat = *turn
                    .seats()
                    .choose(&mut rng)
                    .expect("a seat owes a decision");
                let legal = G::legal(&state, seat);
                let action = legal.choose(&mut rng).expect("honest turn").clone();
                let events = apply_checked::<G>(&mut state, seats, seat, &action).unwrap_or_else(
                    |refused| {
                        panic!(
                            "{}: legal move {action:?} of seat {seat} refused: {refused}",
                            context(step)
                        )
                    },
                );
                let entry = LogEntry::Act {
                    seat,
                    action: serde_json::to_value(&action).expect("actions serialize"),
                    digest: String::new(),
                };
                let after = G::to_act(&state);
                if turn.sealed_answer_left_open(seat, &after) {
                    left_open_by = Some(seat);
                }
                let entry = chain.seal(entry, &digest_of(&events), after.is_over(), || {
                    digest_of(&state)
                });
                record.log.push(entry);
                if seen.len() < 64 {
                    seen.push((seat, action));
                } else {
                    let slot = rng.random_range(0..seen.len());
                    seen[slot] = (seat, action);
                }
            }
            let now = all_views::<G>(&state, seats);
            if let (Some(seat), Some(before)) = (left_open_by, views.last()) {
                assert_sealed_answer_shows_nothing_to_others(before, &now, seat, &context(step));
            }
            views.push(now);
        }
        panic!(
            "{}: random play did not end within {} decisions",
            context(self.max_decisions),
            self.max_decisions
        );
    }
}

impl<G: Ruleset> Default for Battery<G> {
    fn default() -> Self {
        Battery::new()
    }
}

/// A finished random game: its record and every audience's views along the way.
struct Played {
    record: MatchRecord,
    views: Vec<Vec<String>>,
}

/// `Turn::Sealed`'s promise: a sealed answer that leaves its round open shows nothing
/// to any other audience (`before` and `now` are every audience's views, the
/// spectators' first). A referee relies on it to skip writing their views.
fn assert_sealed_answer_shows_nothing_to_others(
    before: &[String],
    now: &[String],
    seat: Seat,
    context: &str,
) {
    for (audience, (before, now)) in before.iter().zip(now).enumerate() {
        if audience != seat + 1 {
            assert_eq!(
                before, now,
                "{context}: seat {seat}'s sealed answer, its round still open, changed audience {audience}'s view (0 = spectators)"
            );
        }
    }
}

/// A seat owes a decision exactly when it has a legal move, and someone owes one.
fn assert_turn_is_honest<G: Game>(state: &G::State, turn: &Turn, seats: usize, context: &str) {
    assert!(
        !turn.seats().is_empty(),
        "{context}: not over, yet nobody owes a decision"
    );
    for seat in 0..seats {
        let owes = turn.includes(seat);
        let has_moves = !G::legal(state, seat).is_empty();
        assert_eq!(
            owes, has_moves,
            "{context}: seat {seat} owes a decision: {owes}, has legal moves: {has_moves}"
        );
    }
}

/// Re-drawing what `seat` may not know depends only on what it knows: determinizing
/// the real state and an already re-drawn one with the same generator gives the same
/// sample. (A sample that differed would carry a secret of the real state.)
pub fn assert_determinize_uses_only_what_the_seat_knows<G: Game>(
    state: &G::State,
    seats: usize,
    salt: u64,
) {
    for seat in 0..seats {
        let other = G::determinize(state, seat, &mut seeded_rng(salt));
        let a = G::determinize(state, seat, &mut seeded_rng(salt ^ 1));
        let b = G::determinize(&other, seat, &mut seeded_rng(salt ^ 1));
        assert_eq!(
            digest_of(&a),
            digest_of(&b),
            "determinize for seat {seat} depends on secrets it does not know"
        );
    }
}

/// A refused move leaves the state as it was (shakmaty's rule): any move by a seat
/// that owes none, and stale moves from earlier positions are either
/// applied whole or refused with the state untouched.
fn assert_refused_moves_change_nothing<G: Game>(
    state: &G::State,
    seats: usize,
    turn: &Turn,
    stale: &[(Seat, G::Action)],
    context: &str,
) {
    let before = digest_of(state);
    let mut scratch = state.clone();
    for (seat, action) in stale {
        // The move as its seat sent it, and the same move from every other seat.
        for by in std::iter::once(*seat).chain(0..seats) {
            match apply_checked::<G>(&mut scratch, seats, by, action) {
                Ok(_) => scratch = state.clone(),
                Err(refused) => assert_eq!(
                    digest_of(&scratch),
                    before,
                    "{context}: {action:?} by seat {by} was refused ({refused}) but changed the state"
                ),
            }
            if !turn.includes(by) {
                let mut probe = state.clone();
                assert!(
                    apply_checked::<G>(&mut probe, seats, by, action).is_err(),
                    "{context}: seat {by} owes no decision, yet {action:?} was accepted"
                );
            }
        }
    }
    let mut probe = state.clone();
    assert!(
        apply_checked::<G>(
            &mut probe,
            seats,
            seats,
            &stale_or_any::<G>(stale, state, turn)
        )
        .is_err(),
        "{context}: a seat that does not exist was allowed to move"
    );
}

/// The shortcuts playouts take give what the full calls give: `playout_seat` the seat
/// `to_act`'s turn picks (from the same generator, leaving it in the same state), and
/// `apply_quietly` the same acceptance and the same state as `apply`, for a few moves
/// legal now and a few stale ones, from every seat.
fn assert_playout_shortcuts_agree<G: Game>(
    state: &G::State,
    seats: usize,
    turn: &Turn,
    stale: &[(Seat, G::Action)],
    rng: &GameRng,
    context: &str,
) {
    let (mut ours, mut theirs) = (rng.clone(), rng.clone());
    assert_eq!(
        G::playout_seat(state, &mut ours),
        turn.playout_seat(&mut theirs),
        "{context}: playout_seat"
    );
    assert!(ours == theirs, "{context}: playout_seat drew differently");
    let legal_now = turn
        .seats()
        .iter()
        .flat_map(|&seat| G::legal(state, seat).into_iter().take(4));
    let moves: Vec<G::Action> = legal_now
        .chain(stale.iter().take(4).map(|(_, action)| action.clone()))
        .collect();
    for action in &moves {
        for by in 0..seats {
            let (mut loud, mut quiet) = (state.clone(), state.clone());
            let loud_ok = G::apply(&mut loud, by, action).is_ok();
            let quiet_ok = G::apply_quietly(&mut quiet, by, action).is_ok();
            assert_eq!(
                loud_ok, quiet_ok,
                "{context}: apply and apply_quietly disagree on {action:?} by seat {by}"
            );
            assert_eq!(
                digest_of(&loud),
                digest_of(&quiet),
                "{context}: apply_quietly left another state after {action:?} by seat {by}"
            );
        }
    }
}

/// Some action to try from a seat that does not exist.
fn stale_or_any<G: Game>(stale: &[(Seat, G::Action)], state: &G::State, turn: &Turn) -> G::Action {
    match stale.first() {
        Some((_, action)) => action.clone(),
        None => {
            let seat = turn.seats()[0];
            G::legal(state, seat)[0].clone()
        }
    }
}

/// The record replays through a [`Registry`] with every digest and the outcome
/// verified, and every audience sees at every step what it saw live.
fn assert_replay_equals_live<G: Ruleset>(played: &Played) {
    let mut registry = Registry::new();
    registry.register::<G>();
    let seats = played.record.seats.len();
    let mut step = 0;
    let replayed = registry
        .replay_with(&played.record, true, |_, state| {
            let views: Vec<String> = std::iter::once(None)
                .chain((0..seats).map(Some))
                .map(|audience| {
                    let text = serde_json::to_string(&state.view(audience)).unwrap_or_default();
                    // What a server sends is written straight from the typed view; it
                    // must be the text of the view as a tree.
                    assert_eq!(
                        state.view_json(audience),
                        text,
                        "{}: seed {}: view_json differs from the view at step {step}",
                        G::ID,
                        played.record.seed
                    );
                    text
                })
                .collect();
            assert_eq!(
                views,
                played.views[step],
                "{}: seed {}: the replay's views differ from the live game's at step {step}",
                G::ID,
                played.record.seed
            );
            step += 1;
        })
        .unwrap_or_else(|e| panic!("{}: seed {}: replay failed: {e}", G::ID, played.record.seed));
    assert_eq!(step, played.views.len(), "the replay stopped early");
    assert_eq!(replayed.outcome(), played.record.outcome);
}
