//! No secret reaches a seat's view, the spectators' view, a refusal or an event, checked
//! over many random states of every ruleset (issue 15). The test battery checks views
//! at every step of a few games; this walks far more states, with stale moves from
//! earlier in each game as the refused actions a lagging client sends, and the move
//! actually played as the events every other seat is told.
//!
//! `ARBITER_NO_LEAK_STATES` sets the states per ruleset (default 1,500, for every test
//! run); the figures in docs/reliability.md come from
//! `ARBITER_NO_LEAK_STATES=100000 cargo test --release -p arbiter-rulesets --test no_leak_at_scale`.

use rand::seq::IndexedRandom;
use rand::Rng;

use arbiter_engine::testkit::{
    assert_events_hide_secrets, assert_refusals_hide_secrets, assert_views_hide_secrets,
};
use arbiter_engine::{seeded_rng, Game, Seat};

/// States checked per ruleset.
fn states_wanted() -> usize {
    std::env::var("ARBITER_NO_LEAK_STATES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_500)
}

/// Stale moves kept per game (a reservoir: every earlier move is as likely to stay).
const STALE: usize = 12;

/// Random games of `G` from fresh seeds, 2 to 4 seats, checking every state until
/// `wanted` states are checked; returns the games played.
fn walk<G: Game>(wanted: usize) -> u64 {
    let config = G::Config::default();
    let seat_counts = G::seat_counts(&config);
    let (mut checked, mut games) = (0usize, 0u64);
    while checked < wanted {
        let seats = (*seat_counts.start()).max(2) + (games as usize % 3);
        let seats = seats.min(*seat_counts.end());
        let seed = 0x05EC_2E75 + games;
        games += 1;
        let mut state = G::new(&config, seats, seed).expect("the default config is valid");
        let mut rng = seeded_rng(seed);
        let mut stale: Vec<G::Action> = Vec::new();
        let mut moves = 0usize;
        while checked < wanted {
            assert_views_hide_secrets::<G>(&state, seats, seed ^ checked as u64);
            assert_refusals_hide_secrets::<G>(&state, seats, &stale, seed ^ !(checked as u64));
            checked += 1;
            let turn = G::to_act(&state);
            let Some(&seat) = turn.seats().choose(&mut rng) else {
                break;
            };
            let seat: Seat = seat;
            let Some(action) = G::legal(&state, seat).choose(&mut rng).cloned() else {
                break;
            };
            assert_events_hide_secrets::<G>(&state, seats, seat, &action, seed ^ moves as u64);
            G::apply(&mut state, seat, &action).expect("a listed move is legal");
            moves += 1;
            if stale.len() < STALE {
                stale.push(action);
            } else {
                let slot = rng.random_range(0..moves);
                if slot < STALE {
                    stale[slot] = action;
                }
            }
        }
    }
    games
}

macro_rules! no_leak_test {
    ($name:ident, $game:ty) => {
        #[test]
        fn $name() {
            let wanted = states_wanted();
            let games = walk::<$game>(wanted);
            println!("{}: {wanted} states in {games} games", <$game as Game>::ID);
        }
    };
}

no_leak_test!(nim_hides_its_secrets_everywhere, arbiter_nim::Nim);
no_leak_test!(qgame_hides_its_secrets_everywhere, arbiter_qgame::Qgame);
no_leak_test!(
    spacecrack_hides_its_secrets_everywhere,
    arbiter_spacecrack::SpaceCrack
);
no_leak_test!(
    spacegoo_hides_its_secrets_everywhere,
    arbiter_spacegoo::Spacegoo
);
no_leak_test!(tae_hides_its_secrets_everywhere, arbiter_tae::Tae);
