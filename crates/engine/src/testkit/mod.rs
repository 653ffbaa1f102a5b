//! Checks every ruleset's tests run: replays reproduce the live game byte for byte,
//! and views reveal nothing a seat may not know. Generic over [`Game`] so each
//! ruleset proves the same properties the same way. [`Battery`] runs them all over
//! random games; the single checks below are there for a ruleset's own scenarios.

pub mod battery;

pub use battery::Battery;

use rand::SeedableRng;

use crate::bot::Bot;
use crate::game::{Game, Seat};
use crate::local::{play_local, LocalOptions};
use crate::record::MatchRecord;
use crate::registry::Registry;
use crate::rng::GameRng;
use crate::ruleset::Ruleset;

/// Every audience's view (spectator first, then each seat), serialized.
pub fn all_views<G: Game>(state: &G::State, seats: usize) -> Vec<String> {
    std::iter::once(None)
        .chain((0..seats).map(Some))
        .map(|audience| serde_json::to_string(&G::view(state, audience)).unwrap_or_default())
        .collect()
}

/// Play a match with `bots`, then replay its record through the registry with
/// verification, and require identical views at every step and the same outcome.
/// Returns the record for further checks.
pub fn assert_replay_identical<G: Ruleset>(
    config: &G::Config,
    bots: &mut [Box<dyn Bot<G>>],
    seed: u64,
    options: LocalOptions,
) -> MatchRecord {
    let seats = bots.len();
    let names = (0..seats).map(|s| format!("seat{s}")).collect();
    let played = play_local::<G>(config, names, bots, seed, options).expect("valid config");
    let record = played.record;

    // The live game, step by step, from the same record's accepted actions.
    let mut live = G::new(config, seats, seed).expect("valid config");
    let mut live_views = vec![all_views::<G>(&live, seats)];
    for entry in &record.log {
        match entry {
            crate::record::LogEntry::Act { seat, action, .. } => {
                let action: G::Action = serde_json::from_value(action.clone()).expect("action");
                G::apply(&mut live, *seat, &action).expect("recorded action is legal");
            }
            crate::record::LogEntry::Eject { seat, reason, .. } => {
                G::eject(&mut live, *seat, reason);
            }
        }
        live_views.push(all_views::<G>(&live, seats));
    }
    assert_eq!(
        serde_json::to_string(&live).ok(),
        serde_json::to_string(&played.state).ok(),
        "re-applying the log reached a different final state"
    );

    let mut registry = Registry::new();
    registry.register::<G>();
    let mut replay_views = Vec::new();
    registry
        .replay_with(&record, true, |_, state| {
            let views = std::iter::once(None)
                .chain((0..seats).map(Some))
                .map(|audience| serde_json::to_string(&state.view(audience)).unwrap_or_default())
                .collect::<Vec<_>>();
            replay_views.push(views);
        })
        .expect("replay verifies");
    assert_eq!(live_views.len(), replay_views.len());
    for (step, (live, replayed)) in live_views.iter().zip(&replay_views).enumerate() {
        assert_eq!(live, replayed, "views differ at step {step}");
    }
    record
}

/// Secrets never reach a view: re-drawing everything `seat` cannot know (with
/// [`Game::determinize`]) must leave that seat's view and the spectator's view
/// unchanged. If a view carried another seat's hand or the deck order, the re-drawn
/// state would show different bytes.
pub fn assert_views_hide_secrets<G: Game>(state: &G::State, seats: usize, rng_seed: u64) {
    let mut rng = GameRng::seed_from_u64(rng_seed);
    for seat in 0..seats {
        let resampled = G::determinize(state, seat, &mut rng);
        let view = |s: &G::State, audience: Option<Seat>| {
            serde_json::to_string(&G::view(s, audience)).ok()
        };
        assert_eq!(
            view(state, Some(seat)),
            view(&resampled, Some(seat)),
            "seat {seat}'s view depends on secrets it may not know"
        );
        assert_eq!(
            view(state, None),
            view(&resampled, None),
            "the spectator view depends on seat secrets"
        );
    }
}

/// Secrets never reach a refusal either: for every seat, each of `actions` (sent by
/// that seat) is accepted or refused alike, and refused with the same words, in the
/// real state and in one where everything the seat cannot know is re-drawn. A reason
/// that named another seat's tile, or a refusal that only a hidden card explains,
/// would differ.
pub fn assert_refusals_hide_secrets<G: Game>(
    state: &G::State,
    seats: usize,
    actions: &[G::Action],
    rng_seed: u64,
) {
    let mut rng = GameRng::seed_from_u64(rng_seed);
    for seat in 0..seats {
        let resampled = G::determinize(state, seat, &mut rng);
        for action in actions {
            let answer = |s: &G::State| {
                crate::erased::apply_checked::<G>(&mut s.clone(), seats, seat, action)
                    .err()
                    .map(|refused| refused.to_string())
            };
            assert_eq!(
                answer(state),
                answer(&resampled),
                "seat {seat}'s answer to {action:?} depends on secrets it may not know"
            );
        }
    }
}

/// Events tell nothing the views do not: when `actor` plays `action`, re-draw
/// everything another seat cannot know (where `action` is still legal there: it may
/// name the actor's hidden tiles) and play it in both states. Wherever that seat, or
/// the spectators, end up with the same view in both, they must have been told the
/// same events. An event that showed the actor's new draw, or the next card of the
/// deck, would differ while the view does not. Where the views differ (the seat drew
/// tiles of its own, which the re-drawn bag changes), the difference is the seat's to
/// see, and the events are not compared.
pub fn assert_events_hide_secrets<G: Game>(
    state: &G::State,
    seats: usize,
    actor: Seat,
    action: &G::Action,
    rng_seed: u64,
) {
    let mut rng = GameRng::seed_from_u64(rng_seed);
    let play = |s: &G::State| -> Option<(G::State, Vec<G::Event>)> {
        let mut after = s.clone();
        let events = crate::erased::apply_checked::<G>(&mut after, seats, actor, action).ok()?;
        Some((after, events))
    };
    let told = |events: &[G::Event], audience: Option<Seat>| -> Vec<String> {
        events
            .iter()
            .filter_map(|event| G::event_for(event, audience))
            .map(|event| serde_json::to_string(&event).unwrap_or_default())
            .collect()
    };
    let view =
        |s: &G::State, audience: Option<Seat>| serde_json::to_string(&G::view(s, audience)).ok();
    let Some((real_after, real_events)) = play(state) else {
        return;
    };
    for observer in (0..seats).filter(|&seat| seat != actor) {
        let resampled = G::determinize(state, observer, &mut rng);
        let Some((redrawn_after, redrawn_events)) = play(&resampled) else {
            continue;
        };
        for audience in [Some(observer), None] {
            if view(&real_after, audience) != view(&redrawn_after, audience) {
                continue;
            }
            assert_eq!(
                told(&real_events, audience),
                told(&redrawn_events, audience),
                "what {audience:?} is told of seat {actor}'s {action:?} depends on secrets \
                 its view does not show"
            );
        }
    }
}

/// A seat's view is enough to think on: for every seat, the state
/// [`Game::state_from_view`] rebuilds from the seat's view *read back from its JSON*
/// shows that seat the same view, byte for byte, has the same seat count, owes a
/// decision exactly when the real state says the seat does, and then offers the same
/// legal actions.
pub fn assert_state_from_view_round_trips<G: Game>(
    config: &G::Config,
    state: &G::State,
    seats: usize,
    rng_seed: u64,
) {
    let mut rng = GameRng::seed_from_u64(rng_seed);
    for seat in 0..seats {
        let sent = serde_json::to_string(&G::view(state, Some(seat))).expect("view serializes");
        let received: G::View = serde_json::from_str(&sent).expect("view reads back");
        let rebuilt = match G::state_from_view(config, &received, seat, &mut rng) {
            Ok(rebuilt) => rebuilt,
            Err(e) => panic!("seat {seat}'s view did not rebuild a state: {e}\nview: {sent}"),
        };
        let seen = serde_json::to_string(&G::view(&rebuilt, Some(seat))).expect("serializes");
        assert_eq!(
            sent, seen,
            "seat {seat}'s view of the rebuilt state differs"
        );
        assert_eq!(G::seat_count(&rebuilt), seats, "rebuilt seat count");
        let owes = G::to_act(state).includes(seat);
        assert_eq!(
            owes,
            G::to_act(&rebuilt).includes(seat),
            "seat {seat} owes a decision in only one of the real and rebuilt states"
        );
        if owes {
            let legal = |s: &G::State| serde_json::to_string(&G::legal(s, seat)).ok();
            assert_eq!(
                legal(state),
                legal(&rebuilt),
                "seat {seat}'s legal actions differ in the rebuilt state"
            );
        }
    }
}
