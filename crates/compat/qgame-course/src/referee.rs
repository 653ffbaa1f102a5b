//! The course referee (§6): setup calls, rounds of take-turn / new-tiles, then the win
//! calls, ejecting every player whose call fails, is late, or whose answer is illegal.

use arbiter_qgame::{JState, State, TurnResult};

use crate::player::CoursePlayer;

/// `[[winners sorted by name], [misbehaved in the order they were ejected]]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CourseResult {
    pub winners: Vec<String>,
    pub misbehaved: Vec<String>,
}

impl CourseResult {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!([self.winners, self.misbehaved])
    }
}

/// Run a whole game from `state` with `players` matched to its seats by position.
/// `observe` sees the full state before every turn whose player is called, and the
/// final state; it cannot change the game.
pub fn run_game(
    mut state: State,
    mut players: Vec<Box<dyn CoursePlayer>>,
    mut observe: impl FnMut(&JState),
) -> CourseResult {
    // This is the course's referee: dealt tiles go out in `new-tiles` calls.
    state.course_calls = true;
    for (seat, player) in players.iter().enumerate() {
        if let Some(p) = state.players.get_mut(seat) {
            p.name = player.name();
        }
    }
    let mut misbehaved: Vec<String> = Vec::new();

    for seat in state.queue.clone() {
        let hand = state.players[seat].hand.clone();
        if let Err(failure) = players[seat].setup(&state.jpub(seat), &hand) {
            eject(
                &mut state,
                seat,
                format!("setup: {failure}"),
                &mut misbehaved,
            );
        }
    }

    while let Some(seat) = state.active() {
        observe(&state.jstate());
        let answer = match players[seat].take_turn(&state.jpub(seat)) {
            Ok(answer) => answer,
            Err(failure) => {
                eject(
                    &mut state,
                    seat,
                    format!("take-turn: {failure}"),
                    &mut misbehaved,
                );
                continue;
            }
        };
        let dealt = match state.take_turn(seat, &answer) {
            Err(illegal) => {
                eject(
                    &mut state,
                    seat,
                    format!("illegal request: {illegal}"),
                    &mut misbehaved,
                );
                continue;
            }
            Ok(TurnResult::Passed) | Ok(TurnResult::Placed { finished: true, .. }) => continue,
            Ok(TurnResult::Exchanged { dealt }) | Ok(TurnResult::Placed { dealt, .. }) => dealt,
        };
        if let Err(failure) = players[seat].new_tiles(&dealt) {
            // The tiles it was handing out are lost (`Config::course_calls`).
            eject(
                &mut state,
                seat,
                format!("new-tiles: {failure}"),
                &mut misbehaved,
            );
        }
    }
    observe(&state.jstate());

    // Winners first, then the other survivors, each group in turn order; a failing
    // `win` call moves the player to the misbehaved list (winners are not recomputed).
    let winners = state.winners();
    let mut true_winners: Vec<String> = Vec::new();
    let losers: Vec<usize> = state
        .queue
        .iter()
        .copied()
        .filter(|s| !winners.contains(s))
        .collect();
    for (group, won) in [(winners, true), (losers, false)] {
        for seat in group {
            match players[seat].win(won) {
                Ok(()) if won => true_winners.push(state.players[seat].name.clone()),
                Ok(()) => {}
                Err(_) => misbehaved.push(state.players[seat].name.clone()),
            }
        }
    }
    true_winners.sort();
    CourseResult {
        winners: true_winners,
        misbehaved,
    }
}

/// Eject `seat` and remember its name in ejection order.
fn eject(state: &mut State, seat: usize, reason: String, misbehaved: &mut Vec<String>) {
    if state.eject(seat, &reason) {
        misbehaved.push(state.players[seat].name.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actors::{ActorSpec, Method, Misbehaviour};
    use arbiter_qgame::{Color, Config, JPlayer, Map, Shape, Strategy, Tile};

    fn t(shape: Shape, color: Color) -> Tile {
        Tile::new(shape, color)
    }

    /// A player whose `new-tiles` call fails: the tiles the referee was handing it are
    /// lost (in neither the pile nor any hand), and only the rest of its hand goes to
    /// the end of the pile.
    #[test]
    fn tiles_handed_to_a_player_that_fails_new_tiles_are_lost() {
        let dealt = t(Shape::Square, Color::Green);
        let kept = t(Shape::EightStar, Color::Purple);
        let pile = vec![
            dealt,
            t(Shape::Diamond, Color::Blue),
            t(Shape::Clover, Color::Yellow),
        ];
        let jstate = JState {
            map: Map::starting_with(t(Shape::Star, Color::Red)),
            pile: pile.clone(),
            players: vec![
                JPlayer {
                    score: 0,
                    tiles: vec![t(Shape::Circle, Color::Red), kept],
                    name: Some("A".into()),
                },
                JPlayer {
                    score: 0,
                    tiles: vec![t(Shape::Diamond, Color::Orange)],
                    name: Some("B".into()),
                },
            ],
        };
        let state = State::from_jstate(&jstate, &Config::default()).unwrap();
        let spec = |name: &str, misbehaviour| ActorSpec {
            name: name.into(),
            strategy: Strategy::Dag,
            misbehaviour,
        };
        let players: Vec<Box<dyn CoursePlayer>> = vec![
            Box::new(spec("A", Misbehaviour::Raise(Method::NewTiles)).build()),
            Box::new(spec("B", Misbehaviour::None).build()),
        ];
        let mut observed = Vec::new();
        let result = run_game(state, players, |s| observed.push(s.clone()));
        assert_eq!(result.misbehaved, vec!["A".to_string()]);
        // A placed its red circle and was dealt the green square; the state before B's
        // first turn has the pile without it, A's purple 8star at the end.
        let before_b = &observed[1];
        assert_eq!(before_b.pile, vec![pile[1], pile[2], kept]);
        assert!(before_b.players.iter().all(|p| !p.tiles.contains(&dealt)));
        assert!(before_b.map.iter().all(|(_, tile)| tile != dealt));
    }
}
