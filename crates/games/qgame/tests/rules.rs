//! The background's worked examples and the turn rules, each on a state built here.

use arbiter_engine::Game;
use arbiter_qgame::placement::check_placements;
use arbiter_qgame::scoring::score_placement;
use arbiter_qgame::{
    Action, Color, Config, Coord, JPlayer, JState, Map, Placement, Qgame, QgameError, Shape, State,
    Step, Strategy, Tile, TurnResult,
};

fn t(shape: Shape, color: Color) -> Tile {
    Tile::new(shape, color)
}

fn at(row: i32, column: i32, tile: Tile) -> Placement {
    Placement::new(Coord::new(row, column), tile)
}

fn map_of(cells: &[(i32, i32, Tile)]) -> Map {
    let mut map = Map::default();
    for &(r, c, tile) in cells {
        map.place(Coord::new(r, c), tile);
    }
    map
}

fn state_of(map: Map, hands: Vec<Vec<Tile>>, pile: Vec<Tile>) -> State {
    let players = hands
        .into_iter()
        .map(|tiles| JPlayer {
            score: 0,
            tiles,
            name: None,
        })
        .collect();
    State::from_jstate(&JState { map, pile, players }, &Config::default()).unwrap()
}

#[test]
fn two_tiles_in_a_column_score_eight() {
    // Background §5: a column segment of 2 plus two orthogonal runs of 2, plus 2 tiles.
    let red = Color::Red;
    let placements = [
        at(0, 0, t(Shape::Square, red)),
        at(1, 0, t(Shape::Diamond, red)),
    ];
    let map = map_of(&[
        (0, -1, t(Shape::Star, red)),
        (1, -1, t(Shape::Circle, red)),
        (0, 0, placements[0].tile),
        (1, 0, placements[1].tile),
    ]);
    assert_eq!(score_placement(&map, &placements, 6), 8);
}

#[test]
fn three_stars_completing_a_q_score_twenty_one() {
    // Background §5: 3 tiles + row of 3 + column 0 (6, a Q: +6) + column 1 (3).
    let red = Color::Red;
    let placements = [
        at(4, -1, t(Shape::Star, Color::Orange)),
        at(4, 0, t(Shape::Star, red)),
        at(4, 1, t(Shape::Star, Color::Blue)),
    ];
    let mut cells = vec![
        (-1, 0, t(Shape::EightStar, red)),
        (0, 0, t(Shape::Square, red)),
        (1, 0, t(Shape::Circle, red)),
        (2, 0, t(Shape::Clover, red)),
        (3, 0, t(Shape::Diamond, red)),
        (2, 1, t(Shape::Star, Color::Green)),
        (3, 1, t(Shape::Star, Color::Yellow)),
    ];
    cells.extend(
        placements
            .iter()
            .map(|p| (p.coordinate.row, p.coordinate.column, p.tile)),
    );
    assert_eq!(score_placement(&map_of(&cells), &placements, 6), 21);
    assert_eq!(score_placement(&map_of(&cells), &placements, 8), 23);
}

#[test]
fn a_run_of_seven_is_not_a_q() {
    let colours = Color::ALL;
    let mut cells: Vec<(i32, i32, Tile)> = colours
        .iter()
        .enumerate()
        .map(|(i, c)| (0, i as i32, t(Shape::Star, *c)))
        .collect();
    let placed = at(0, 6, t(Shape::Star, Color::Red));
    cells.push((0, 6, placed.tile));
    // 1 tile + a run of 7, no bonus.
    assert_eq!(score_placement(&map_of(&cells), &[placed], 6), 8);
    // The same six without the seventh: placing the sixth completes a Q.
    let six: Vec<_> = cells[..6].to_vec();
    let sixth = at(0, 5, t(Shape::Star, Color::Purple));
    assert_eq!(score_placement(&map_of(&six), &[sixth], 6), 1 + 6 + 6);
}

#[test]
fn placement_rules_each_refuse_with_their_own_reason() {
    let map = Map::starting_with(t(Shape::Star, Color::Red));
    let hand = vec![t(Shape::Star, Color::Blue), t(Shape::Circle, Color::Red)];
    let blue_star = hand[0];
    assert_eq!(
        check_placements(&map, &hand, &[]),
        Err(QgameError::EmptyPlacement)
    );
    assert_eq!(
        check_placements(&map, &hand, &[at(0, 1, blue_star), at(0, 2, blue_star)]),
        Err(QgameError::TileNotOwned(blue_star)),
        "two blue stars need two in hand"
    );
    assert_eq!(
        check_placements(&map, &hand, &[at(0, 1, blue_star), at(1, 0, hand[1])]),
        Err(QgameError::NotInLine)
    );
    assert_eq!(
        check_placements(&map, &hand, &[at(0, 0, blue_star)]),
        Err(QgameError::Occupied(Coord::ORIGIN))
    );
    assert_eq!(
        check_placements(&map, &hand, &[at(0, 2, blue_star)]),
        Err(QgameError::NotAdjacent(Coord::new(0, 2)))
    );
    let green_square = t(Shape::Square, Color::Green);
    assert!(matches!(
        check_placements(&map, &[green_square], &[at(0, 1, green_square)]),
        Err(QgameError::DoesNotFit { .. })
    ));
    // Each step may build on the previous one, and gaps in the line are allowed.
    let extended =
        check_placements(&map, &hand, &[at(0, 1, blue_star), at(0, -1, hand[1])]).unwrap();
    assert_eq!(extended.len(), 3);
}

#[test]
fn strategies_pick_the_smallest_tile_and_their_own_cell() {
    // A red star at the origin and a red circle below-right make (1,0) doubly
    // constrained: ldasg takes it, dag takes the smallest cell.
    let map = map_of(&[
        (0, 0, t(Shape::Star, Color::Red)),
        (1, 1, t(Shape::Circle, Color::Red)),
    ]);
    let hand = vec![t(Shape::Diamond, Color::Red), t(Shape::Square, Color::Red)];
    assert_eq!(
        Strategy::Dag.step(&map, &hand, 10),
        Step::Place(at(-1, 0, hand[1]))
    );
    assert_eq!(
        Strategy::Ldasg.step(&map, &hand, 10),
        Step::Place(at(0, 1, hand[1]))
    );
    let hopeless = vec![t(Shape::Diamond, Color::Green)];
    assert_eq!(
        Strategy::Dag.step(&map, &hopeless, 1),
        Step::Replace,
        "pile ≥ hand: replace"
    );
    assert_eq!(
        Strategy::Dag.step(&map, &hopeless, 0),
        Step::Pass,
        "hand > pile: pass"
    );
}

#[test]
fn iterated_turns_stop_when_the_line_breaks() {
    let map = Map::starting_with(t(Shape::Star, Color::Red));
    let hand = vec![t(Shape::Star, Color::Blue), t(Shape::Star, Color::Green)];
    let Action::Place(placements) = Strategy::Dag.turn(&map, &hand, 5) else {
        panic!("places")
    };
    assert_eq!(placements.len(), 2);
    assert!(check_placements(&map, &hand, &placements).is_ok());
}

#[test]
fn exchange_returns_the_hand_to_the_end_and_deals_from_the_front() {
    let hand = vec![t(Shape::Star, Color::Green), t(Shape::Star, Color::Blue)];
    let pile = vec![t(Shape::Clover, Color::Red), t(Shape::Square, Color::Red)];
    let mut state = state_of(
        Map::starting_with(t(Shape::Circle, Color::Red)),
        vec![hand.clone(), vec![]],
        pile.clone(),
    );
    let result = state.take_turn(0, &Action::Replace).unwrap();
    assert_eq!(
        result,
        TurnResult::Exchanged {
            dealt: pile.clone()
        }
    );
    assert_eq!(state.players[0].hand, pile);
    assert_eq!(Vec::from(state.pile.clone()), hand);

    let mut small = state_of(
        Map::starting_with(t(Shape::Circle, Color::Red)),
        vec![hand.clone(), vec![]],
        vec![pile[0]],
    );
    assert_eq!(
        small.take_turn(0, &Action::Replace),
        Err(QgameError::PileTooSmall { hand: 2, pile: 1 })
    );
    assert_eq!(
        small.players[0].hand, hand,
        "an illegal action changes nothing"
    );
}

#[test]
fn placing_the_whole_hand_ends_the_game_at_once_with_the_finish_bonus() {
    let blue_star = t(Shape::Star, Color::Blue);
    let mut state = state_of(
        Map::starting_with(t(Shape::Star, Color::Red)),
        vec![vec![blue_star], vec![blue_star]],
        vec![blue_star; 3],
    );
    let result = state
        .take_turn(0, &Action::Place(vec![at(0, 1, blue_star)]))
        .unwrap();
    // 1 tile + row of 2 + finish bonus 4.
    assert_eq!(
        result,
        TurnResult::Placed {
            placements: vec![at(0, 1, blue_star)],
            points: 7,
            dealt: vec![],
            finished: true
        }
    );
    assert!(state.over);
    assert_eq!(state.pile.len(), 3, "no tiles are dealt after finishing");
    let outcome = Qgame::outcome(&state).unwrap();
    assert_eq!(outcome.ranks, vec![1, 2]);
}

#[test]
fn a_round_without_placement_ends_the_game_and_exchange_counts_as_pass() {
    let tile = t(Shape::Star, Color::Blue);
    let mut state = state_of(
        Map::starting_with(t(Shape::Star, Color::Red)),
        vec![vec![tile], vec![tile]],
        vec![tile; 2],
    );
    state.take_turn(0, &Action::Replace).unwrap();
    assert!(!state.over);
    state.take_turn(1, &Action::Pass).unwrap();
    assert!(state.over, "exchange + pass: nobody placed this round");
}

#[test]
fn a_placement_keeps_the_round_alive_even_if_the_placer_is_ejected() {
    let tile = t(Shape::Star, Color::Blue);
    let hand = vec![tile, tile];
    let mut state = state_of(
        Map::starting_with(t(Shape::Star, Color::Red)),
        vec![hand.clone(), hand.clone(), hand],
        vec![tile; 9],
    );
    state
        .take_turn(0, &Action::Place(vec![at(0, 1, tile)]))
        .unwrap();
    state.eject(0, "new-tiles failed");
    state.take_turn(1, &Action::Pass).unwrap();
    state.take_turn(2, &Action::Pass).unwrap();
    assert!(!state.over, "someone placed this round");
    state.take_turn(1, &Action::Pass).unwrap();
    state.take_turn(2, &Action::Pass).unwrap();
    assert!(state.over);
}

#[test]
fn ejected_hands_go_to_the_end_of_the_pile_and_nobody_left_means_no_winner() {
    let a = t(Shape::Star, Color::Blue);
    let b = t(Shape::Circle, Color::Green);
    let mut state = state_of(
        Map::starting_with(t(Shape::Star, Color::Red)),
        vec![vec![a], vec![b]],
        vec![a],
    );
    state.eject(1, "timeout");
    assert_eq!(Vec::from(state.pile.clone()), vec![a, b]);
    assert!(!state.over, "one player may play on alone");
    state.eject(0, "illegal");
    assert!(state.over);
    assert!(state.winners().is_empty());
    assert_eq!(
        Qgame::outcome(&state).unwrap().winners(),
        Vec::<usize>::new()
    );
}

#[test]
fn fresh_games_deal_six_each_and_start_with_one_tile() {
    let state = Qgame::new(&Config::default(), 3, 42).unwrap();
    assert_eq!(state.map.len(), 1);
    assert!(state.players.iter().all(|p| p.hand.len() == 6));
    assert_eq!(state.pile.len(), 1080 - 1 - 18);
    assert_eq!(
        state,
        Qgame::new(&Config::default(), 3, 42).unwrap(),
        "same seed, same game"
    );
    assert_ne!(
        state.pile,
        Qgame::new(&Config::default(), 3, 43).unwrap().pile
    );
}

#[test]
fn bad_configs_are_refused_with_the_reason() {
    let err = Qgame::new(&Config::default(), 5, 1).unwrap_err();
    assert!(err.to_string().contains("2 to 4 players"), "{err}");
    let err = Qgame::new(
        &Config {
            qbo: 11,
            ..Config::default()
        },
        2,
        1,
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("qbo must be between 0 and 10"),
        "{err}"
    );
    let unknown: Result<Config, _> = serde_json::from_str(r#"{"qbo": 6, "bonus": 1}"#);
    assert!(unknown.is_err(), "unknown fields are refused");
}

#[test]
fn other_seats_see_how_many_tiles_were_dealt_but_not_which() {
    use arbiter_qgame::Event;
    let tile = t(Shape::Star, Color::Blue);
    let mut state = state_of(
        Map::starting_with(t(Shape::Star, Color::Red)),
        vec![vec![tile, tile], vec![tile]],
        vec![tile; 4],
    );
    let events = Qgame::apply(&mut state, 0, &Action::Place(vec![at(0, 1, tile)])).unwrap();
    let dealt = events
        .iter()
        .find(|e| matches!(e, Event::Dealt { .. }))
        .unwrap();
    assert!(matches!(
        Qgame::event_for(dealt, Some(0)),
        Some(Event::Dealt { tiles: Some(_), .. })
    ));
    assert!(matches!(
        Qgame::event_for(dealt, Some(1)),
        Some(Event::Dealt {
            tiles: None,
            count: 1,
            ..
        })
    ));
    assert!(matches!(
        Qgame::event_for(dealt, None),
        Some(Event::Dealt { tiles: None, .. })
    ));
}

/// `Config::course_calls`: tiles dealt on a turn reach their player in a call after it.
/// A player ejected before the next turn begins never received them: they leave the
/// game, and only the rest of its hand goes to the end of the pile. Without the option,
/// or once the next turn has begun, the whole hand goes back.
#[test]
fn with_course_calls_a_player_ejected_before_the_next_turn_loses_the_tiles_dealt() {
    let red_circle = t(Shape::Circle, Color::Red);
    let kept = t(Shape::EightStar, Color::Purple);
    let dealt = t(Shape::Square, Color::Green);
    let rest = [
        t(Shape::Diamond, Color::Blue),
        t(Shape::Clover, Color::Yellow),
    ];
    let fresh = |course_calls| {
        let mut state = state_of(
            map_of(&[(0, 0, t(Shape::Star, Color::Red))]),
            vec![
                vec![red_circle, kept],
                vec![t(Shape::Diamond, Color::Orange)],
            ],
            [vec![dealt], rest.to_vec()].concat(),
        );
        state.course_calls = course_calls;
        state
            .take_turn(0, &Action::Place(vec![at(0, 1, red_circle)]))
            .unwrap();
        assert_eq!(
            state.players[0].hand,
            [dealt, kept],
            "dealt tiles go in front"
        );
        state
    };

    let mut course = fresh(true);
    assert!(course.eject(0, "new-tiles: is gone"));
    assert_eq!(course.pile, [rest[0], rest[1], kept]);
    assert!(course.players.iter().all(|p| !p.hand.contains(&dealt)));

    let mut native = fresh(false);
    native.eject(0, "gone");
    assert_eq!(native.pile, [rest[0], rest[1], dealt, kept]);

    let mut delivered = fresh(true);
    delivered.take_turn(1, &Action::Pass).unwrap();
    delivered.eject(0, "later");
    assert_eq!(delivered.pile, [rest[0], rest[1], dealt, kept]);

    // The option is a match setting like the bonuses: it reaches the state from the config.
    let config = Config {
        course_calls: true,
        ..Config::default()
    };
    assert!(Qgame::new(&config, 2, 1).unwrap().course_calls);
}
