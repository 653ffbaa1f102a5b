//! The generic MCTS bot on the four real rulesets: it is deterministic when bounded by
//! iterations, it handles the three turn models, and nothing it is not entitled to
//! know reaches its decision.

use std::sync::Arc;

use arbiter_bots::{BotOptions, Mcts, SearchReport};
use arbiter_engine::{seeded_rng, Bot, Game, Seat, Turn};
use arbiter_engine::{Guide, Uninformed};
use arbiter_qgame::Qgame;
use arbiter_spacecrack::SpaceCrack;
use arbiter_spacegoo::Spacegoo;
use arbiter_tae::Tae;
use rand::seq::IndexedRandom;

fn counted(iterations: u64) -> BotOptions {
    BotOptions {
        think_ms: None,
        iterations: Some(iterations),
    }
}

/// Legal moves and random rollouts like [`Uninformed`], but short, so a test search on
/// Q-Game (whose random games run to about a thousand decisions) stays quick.
struct Shallow;

impl<G: Game> Guide<G> for Shallow {
    fn rollout_depth(&self, _state: &G::State) -> usize {
        12
    }
}

fn search<G: Game>(
    state: &G::State,
    seat: Seat,
    seed: u64,
    iterations: u64,
    guide: Arc<dyn Guide<G>>,
) -> SearchReport<G::Action> {
    Mcts::<G>::with_guide(&counted(iterations), seed, guide).search(state, seat)
}

/// Play `moves` uniformly random legal decisions from a fresh game.
fn advance<G: Game>(config: &G::Config, seats: usize, seed: u64, moves: usize) -> G::State {
    let mut state = G::new(config, seats, seed).unwrap();
    let mut rng = seeded_rng(seed);
    for _ in 0..moves {
        let seat = match G::to_act(&state) {
            Turn::One(s) => s,
            Turn::Sealed(s) | Turn::AnyOf(s) if !s.is_empty() => s[0],
            _ => break,
        };
        let action = G::legal(&state, seat).choose(&mut rng).cloned().unwrap();
        G::apply(&mut state, seat, &action).unwrap();
    }
    state
}

fn first_to_act<G: Game>(state: &G::State) -> Seat {
    G::to_act(state).seats()[0]
}

/// Same seed and iteration count, same report, move for move and visit for visit; a
/// different seed searches differently.
fn assert_deterministic<G: Game>(state: &G::State, guide: Arc<dyn Guide<G>>, iterations: u64) {
    let seat = first_to_act::<G>(state);
    let a = search::<G>(state, seat, 7, iterations, guide.clone());
    let b = search::<G>(state, seat, 7, iterations, guide.clone());
    assert_eq!(a.iterations, iterations, "{}", G::ID);
    assert_eq!(a, b, "{}: same seed, different search", G::ID);
    let visits: u32 = a.choices.iter().map(|c| c.visits).sum();
    assert_eq!(
        u64::from(visits),
        iterations,
        "{}: every iteration visits one root move",
        G::ID
    );
    let legal = G::legal(state, seat);
    let best = a.best().unwrap();
    assert!(legal.contains(best), "{}: the choice is legal", G::ID);
    let c = search::<G>(state, seat, 8, iterations, guide);
    assert_ne!(
        a.choices.iter().map(|c| c.visits).collect::<Vec<_>>(),
        c.choices.iter().map(|c| c.visits).collect::<Vec<_>>(),
        "{}: the seed should matter",
        G::ID
    );
}

#[test]
fn iteration_bounded_search_is_deterministic_in_every_ruleset() {
    let qgame = advance::<Qgame>(&Default::default(), 2, 3, 4);
    assert_deterministic::<Qgame>(&qgame, Arc::new(Shallow), 60);
    let spacegoo = advance::<Spacegoo>(&Default::default(), 2, 3, 20);
    assert_deterministic::<Spacegoo>(&spacegoo, Arc::new(Shallow), 150);
    let spacecrack = advance::<SpaceCrack>(&Default::default(), 2, 3, 6);
    assert_deterministic::<SpaceCrack>(&spacecrack, Arc::new(Uninformed), 150);
    let tae = advance::<Tae>(&Default::default(), 2, 3, 10);
    assert_deterministic::<Tae>(&tae, Arc::new(Uninformed), 150);
}

/// Two real T&E positions that seat 0 cannot tell apart (the same view), differing
/// in seat 1's hand, discards and resources and in the bag's order. Given either, the
/// bot's whole root report is identical, although the two positions play out
/// differently: nothing of the hidden half reaches the search.
#[test]
fn tae_search_is_blind_to_what_its_seat_cannot_know() {
    let mut found = 0;
    for seed in 0..40u64 {
        let real = advance::<Tae>(&Default::default(), 2, seed, 30);
        if first_to_act::<Tae>(&real) != 0 || real.players()[1].resources.to_array() == [0; 4] {
            continue;
        }
        let other = Tae::determinize(&real, 0, &mut seeded_rng(seed + 1000));
        assert_eq!(
            serde_json::to_string(&Tae::view(&real, Some(0))).unwrap(),
            serde_json::to_string(&Tae::view(&other, Some(0))).unwrap(),
            "the two positions look the same to seat 0"
        );
        assert_ne!(real.players()[1].resources, other.players()[1].resources);
        if real.players()[1].hand == other.players()[1].hand {
            continue;
        }
        // The hidden difference matters to the game: the same random continuation
        // from each position does not end the same way.
        let playout = |start: &<Tae as Game>::State| {
            let mut state = start.clone();
            let mut rng = seeded_rng(5);
            let mut moves = 0;
            while let Some(&seat) = Tae::to_act(&state).seats().first() {
                let action = Tae::legal(&state, seat).choose(&mut rng).cloned().unwrap();
                Tae::apply(&mut state, seat, &action).unwrap();
                moves += 1;
            }
            (Tae::outcome(&state), moves)
        };
        if playout(&real) == playout(&other) {
            continue;
        }
        let on_real = search::<Tae>(&real, 0, 11, 300, Arc::new(Uninformed));
        let on_other = search::<Tae>(&other, 0, 11, 300, Arc::new(Uninformed));
        assert_eq!(
            on_real, on_other,
            "seed {seed}: the search saw a hidden fact"
        );
        let mut bot = Mcts::<Tae>::new(&counted(300), 11);
        let mut twin = Mcts::<Tae>::new(&counted(300), 11);
        assert_eq!(bot.decide(&real, 0), twin.decide(&other, 0));
        found += 1;
        if found == 3 {
            return;
        }
    }
    panic!("only {found} suitable positions in 40 seeds");
}

/// Simultaneous turns: seat 0 has already sealed its command when seat 1 decides.
/// Whatever seat 0 sealed (everything from its home, or nothing), seat 1's search is
/// the same; its own sealed move is a tree edge and seat 0's is sampled.
#[test]
fn spacegoo_search_is_blind_to_the_other_sealed_command() {
    let start = advance::<Spacegoo>(&Default::default(), 2, 9, 16);
    assert_eq!(Spacegoo::to_act(&start), Turn::Sealed(vec![0, 1]));
    let sends = Spacegoo::legal(&start, 0);
    let mut all_out = start.clone();
    Spacegoo::apply(&mut all_out, 0, sends.last().unwrap()).unwrap();
    let mut waiting = start.clone();
    Spacegoo::apply(&mut waiting, 0, &sends[0]).unwrap();
    assert_eq!(Spacegoo::to_act(&all_out), Turn::Sealed(vec![1]));
    let a = search::<Spacegoo>(&all_out, 1, 3, 200, Arc::new(Shallow));
    let b = search::<Spacegoo>(&waiting, 1, 3, 200, Arc::new(Shallow));
    assert_eq!(a, b);
    assert!(Spacegoo::legal(&all_out, 1).contains(a.best().unwrap()));
    // Seat 0 has nothing to decide any more.
    assert!(search::<Spacegoo>(&all_out, 0, 3, 10, Arc::new(Shallow))
        .choices
        .is_empty());
}

/// Concurrent turns: in Space Crack both seats may act; the bot moves for its own
/// seat and plays a whole game to the end without an illegal move. (Whole games of
/// every ruleset, with their guides, are in `arbiter-rulesets`.)
#[test]
fn plays_a_whole_concurrent_game() {
    fn play<G: Game>(seats: usize, guide: Arc<dyn Guide<G>>, iterations: u64)
    where
        G::Action: Default,
    {
        let mut state = G::new(&Default::default(), seats, 4).unwrap();
        let mut bots: Vec<Mcts<G>> = (0..seats)
            .map(|s| Mcts::with_guide(&counted(iterations), s as u64, guide.clone()))
            .collect();
        let mut rng = seeded_rng(1);
        let mut decisions = 0;
        while let Some(seat) = G::to_act(&state).seats().first().copied() {
            let seen = G::determinize(&state, seat, &mut rng);
            let action = bots[seat].decide(&seen, seat);
            G::apply(&mut state, seat, &action)
                .unwrap_or_else(|e| panic!("{}: illegal {action:?}: {e}", G::ID));
            decisions += 1;
            assert!(decisions < 5_000, "{} does not end", G::ID);
        }
        assert!(G::outcome(&state).is_some());
    }
    play::<SpaceCrack>(2, Arc::new(Uninformed), 20);
}
