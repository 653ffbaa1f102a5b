//! The course's referee for one game of the port, as its clients see it (background
//! §6, §11.2), on top of the server's referee, which only asks the seat to move for a
//! decision. The table makes the course's calls when the course's referee makes them:
//! every `setup`, in turn order, before the first `take-turn`; `new-tiles` right after
//! the turn that dealt them; the `win` calls, winners first, when the game ends, before
//! the server's referee sees the end. A call that fails ejects its player, with what
//! happened as the reason.
//!
//! The server's referee owns the game; the table works on the snapshot it is given with
//! each decision, replaying on it what the referee will do (the same rules code) to know
//! the tiles a turn deals and whether it ends the game. Ejections the table decides
//! reach the referee through an [`Ejector`], which returns once the referee has made
//! them, so a later snapshot always has them.
//!
//! The server's referee applies a turn and ends the game with no room for calls in
//! between. So a seat whose exchange or pass ended the game and whose `new-tiles` or
//! `win` call then fails is ejected *instead* of that turn being applied, which ends the
//! game the same way with the same scores for everyone else. A player that places its
//! last tile and then fails its own `win` call cannot be undone so: its placement
//! counts, and the referee ejects it right after applying it
//! (`HouseBot::ejections_after_answer`), so the match records it as misbehaving.

use arbiter_engine::erased::apply_checked;
use arbiter_engine::{Game, Seat};
use arbiter_qgame::{Action, Config, Event, JPub, Qgame, State};
use arbiter_qgame_course::{CoursePlayer, PlayerFailure};

/// The rules of a port match: the decided ones, with dealt tiles handed over in
/// `new-tiles` calls as the course's referee does (a player whose call fails loses them).
pub fn course_rules() -> Config {
    Config {
        course_calls: true,
        ..Config::default()
    }
}

/// Makes the server's referee eject a seat, returning once it has (or once the match
/// is over).
pub trait Ejector: Send {
    fn eject(&mut self, seat: Seat, reason: &str);
}

/// The reason recorded for a failed call: the call, and what went wrong. Only a reply
/// that did not come in time missed the time limit; a closed connection is gone.
pub fn failure_reason(method: &str, failure: &PlayerFailure) -> String {
    match failure {
        PlayerFailure::Timeout(limit) => {
            format!("{method}: missed the per-call time limit ({limit:?})")
        }
        other => format!("{method}: {other}"),
    }
}

pub struct CourseTable {
    /// By seat.
    players: Vec<Box<dyn CoursePlayer>>,
    ejector: Box<dyn Ejector>,
    set_up: bool,
    /// Ejections the table made, in order: a snapshot taken before one lacks it.
    ejections: Vec<(Seat, String)>,
    /// A seat whose `new-tiles` failed after a turn that did not end the game: its turn
    /// is applied first, then it is ejected, before anyone's next call.
    pending: Option<(Seat, String)>,
    /// Seats never to be called again (ejected, or a call failed).
    silent: Vec<bool>,
    /// Seats that had their `win` call.
    told: Vec<bool>,
    /// The win calls have been made.
    over: bool,
    /// Ejections for the referee to make right after applying the answer just given.
    after_answer: Vec<(Seat, String)>,
}

impl CourseTable {
    pub fn new(players: Vec<Box<dyn CoursePlayer>>, ejector: Box<dyn Ejector>) -> CourseTable {
        let seats = players.len();
        CourseTable {
            players,
            ejector,
            set_up: false,
            ejections: Vec::new(),
            pending: None,
            silent: vec![false; seats],
            told: vec![false; seats],
            over: false,
            after_answer: Vec::new(),
        }
    }

    /// `seat`'s move in `snapshot` (the referee's state when it asked), with all the
    /// course's calls due before it and, if the move ends the game, after it. An error
    /// when the seat is out (the table has had it ejected, or will have it ejected
    /// instead of this move); the referee then no longer expects the move.
    pub fn decide(&mut self, snapshot: &State, seat: Seat) -> Result<Action, String> {
        if self.over {
            return Err("the game is over".to_string());
        }
        let mut state = snapshot.clone();
        for (ejected, reason) in &self.ejections {
            if state
                .players
                .get(*ejected)
                .is_some_and(|p| p.ejected.is_none())
            {
                Qgame::eject(&mut state, *ejected, reason);
            }
        }
        for (s, player) in state.players.iter().enumerate() {
            if player.ejected.is_some() {
                if let Some(silent) = self.silent.get_mut(s) {
                    *silent = true;
                }
            }
        }
        if let Some((late, reason)) = self.pending.take() {
            self.eject(&mut state, late, reason);
        }
        if !self.set_up {
            self.set_up = true;
            for s in state.queue.clone() {
                let (public, hand) = (self.public(&state, s), state.players[s].hand.clone());
                if let Err(failure) = self.players[s].setup(&public, &hand) {
                    self.eject(&mut state, s, failure_reason("setup", &failure));
                }
            }
        }
        if self.over || state.active() != Some(seat) {
            return Err(format!("seat {seat} is out of the game"));
        }
        let public = self.public(&state, seat);
        let action = match self.players[seat].take_turn(&public) {
            Ok(action) => action,
            Err(failure) => {
                let reason = failure_reason("take-turn", &failure);
                self.eject(&mut state, seat, reason.clone());
                return Err(reason);
            }
        };
        let mut after = state.clone();
        let events = match apply_checked::<Qgame>(&mut after, self.players.len(), seat, &action) {
            Ok(events) => events,
            Err(illegal) => {
                // The referee ejects the seat for it; if that ends the game, the win
                // calls come first.
                self.silent[seat] = true;
                let mut ejected = state.clone();
                Qgame::eject(&mut ejected, seat, &format!("illegal request: {illegal}"));
                if ejected.over {
                    let failed = self.win_calls(&ejected);
                    self.eject_all(failed);
                }
                return Ok(action);
            }
        };
        let dealt = events.iter().find_map(|event| match event {
            Event::Dealt {
                seat: to,
                tiles: Some(tiles),
                ..
            } if *to == seat => Some(tiles.clone()),
            _ => None,
        });
        if let Some(dealt) = dealt {
            if let Err(failure) = self.players[seat].new_tiles(&dealt) {
                let reason = failure_reason("new-tiles", &failure);
                self.silent[seat] = true;
                if after.over {
                    // An exchange that closed a round without placements: ejected
                    // instead, which closes it the same way (see the module's notes).
                    self.eject(&mut state, seat, reason.clone());
                    return Err(reason);
                }
                // The turn counts; the ejection follows before anyone's next call.
                self.pending = Some((seat, reason));
                return Ok(action);
            }
        }
        if after.over {
            let failed = self.win_calls(&after);
            let (own, others): (Vec<_>, Vec<_>) = failed.into_iter().partition(|(s, _)| *s == seat);
            self.eject_all(others);
            if let Some((_, reason)) = own.into_iter().next() {
                // Its pass or exchange ended the game; ejecting it instead ends it the
                // same way. A finishing placement counts, and the ejection follows it.
                if matches!(action, Action::Place(_)) {
                    self.ejections.push((seat, reason.clone()));
                    self.after_answer.push((seat, reason));
                } else {
                    self.ejector.eject(seat, &reason);
                    self.ejections.push((seat, reason.clone()));
                    return Err(reason);
                }
            }
        }
        Ok(action)
    }

    /// The ejections due right after the answer `decide` just gave is applied.
    pub fn take_ejections_after_answer(&mut self) -> Vec<(Seat, String)> {
        std::mem::take(&mut self.after_answer)
    }

    /// After the match: `win` for every player still in it that has not had its call
    /// (the game ended some way the table did not see coming, such as the referee's own
    /// deadline). `winners` are the seats the match's outcome ranks first.
    pub fn finish(&mut self, survivors: &[Seat], winners: &[Seat]) {
        self.over = true;
        for &seat in survivors {
            if self.silent.get(seat) != Some(&false) || self.told[seat] {
                continue;
            }
            self.told[seat] = true;
            if let Err(failure) = self.players[seat].win(winners.contains(&seat)) {
                tracing::info!(name = %self.players[seat].name(), %failure, "a Q-Game client failed its win call after its match");
            }
        }
    }

    /// The player's view for a call: its own entry carries its sign-up name.
    fn public(&self, state: &State, seat: Seat) -> JPub {
        let mut public = state.jpub(seat);
        public.me.name = Some(self.players[seat].name());
        public
    }

    /// Eject `seat` from the referee's game and from `state`; if that ends the game,
    /// the win calls come first (and their failures are ejected before it).
    fn eject(&mut self, state: &mut State, seat: Seat, reason: String) {
        self.silent[seat] = true;
        let mut after = state.clone();
        Qgame::eject(&mut after, seat, &reason);
        if after.over && !self.over {
            let failed = self.win_calls(&after);
            self.eject_all(failed);
        }
        self.ejector.eject(seat, &reason);
        self.ejections.push((seat, reason));
        *state = after;
    }

    fn eject_all(&mut self, failed: Vec<(Seat, String)>) {
        for (seat, reason) in failed {
            self.ejector.eject(seat, &reason);
            self.ejections.push((seat, reason));
        }
    }

    /// The game ends in `end`: `win(true)` to the winners, then `win(false)` to the
    /// others, each group in turn order. Returns the seats whose call failed, in that
    /// order, with why (the course counts them as misbehaving; winners are not
    /// recomputed).
    fn win_calls(&mut self, end: &State) -> Vec<(Seat, String)> {
        self.over = true;
        let winners = end.winners();
        let losers: Vec<Seat> = end
            .queue
            .iter()
            .copied()
            .filter(|s| !winners.contains(s))
            .collect();
        let mut failed = Vec::new();
        for (group, won) in [(winners, true), (losers, false)] {
            for seat in group {
                if self.silent[seat] || self.told[seat] {
                    continue;
                }
                self.told[seat] = true;
                if let Err(failure) = self.players[seat].win(won) {
                    self.silent[seat] = true;
                    failed.push((seat, failure_reason("win", &failure)));
                }
            }
        }
        failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    use arbiter_qgame::{Color, Coord, JPlayer, JState, Map, Placement, Shape, Tile};

    /// Calls and ejections, in the order they happened, as `name call` lines.
    type Log = Arc<Mutex<Vec<String>>>;

    /// A course player written from the interface: logs each call, answers `take-turn`
    /// with `turn`, and fails the call named `fails`.
    struct Scripted {
        name: &'static str,
        log: Log,
        turn: fn(&JPub) -> Action,
        fails: Option<&'static str>,
        /// The other players' scores in each `take-turn` view.
        seen: Arc<Mutex<Vec<Vec<u32>>>>,
    }

    impl Scripted {
        fn call(&self, call: String) -> Result<(), PlayerFailure> {
            let method = call.split(' ').next().unwrap_or_default().to_string();
            self.log
                .lock()
                .unwrap()
                .push(format!("{} {call}", self.name));
            if self.fails == Some(method.as_str()) {
                return Err(PlayerFailure::Gone("the stream ended".into()));
            }
            Ok(())
        }
    }

    impl CoursePlayer for Scripted {
        fn name(&self) -> String {
            self.name.to_string()
        }
        fn setup(&mut self, _: &JPub, hand: &[Tile]) -> Result<(), PlayerFailure> {
            self.call(format!("setup {}", hand.len()))
        }
        fn take_turn(&mut self, state: &JPub) -> Result<Action, PlayerFailure> {
            self.seen.lock().unwrap().push(state.other_scores.clone());
            self.call("take-turn".into())?;
            Ok((self.turn)(state))
        }
        fn new_tiles(&mut self, tiles: &[Tile]) -> Result<(), PlayerFailure> {
            self.call(format!("new-tiles {}", tiles.len()))
        }
        fn win(&mut self, won: bool) -> Result<(), PlayerFailure> {
            self.call(format!("win {won}"))
        }
    }

    /// Logs the ejection; the referee's own state is the test's to update.
    struct LogEjector(Log);

    impl Ejector for LogEjector {
        fn eject(&mut self, seat: Seat, reason: &str) {
            self.0
                .lock()
                .unwrap()
                .push(format!("eject {seat}: {reason}"));
        }
    }

    fn pass(_: &JPub) -> Action {
        Action::Pass
    }

    fn replace(_: &JPub) -> Action {
        Action::Replace
    }

    /// Places the first tile of the hand right of the origin (the tests' hands fit).
    fn place_first(state: &JPub) -> Action {
        Action::Place(vec![Placement::new(Coord::new(0, 1), state.me.tiles[0])])
    }

    fn tile(shape: Shape, color: Color) -> Tile {
        Tile::new(shape, color)
    }

    /// A game from a JState: a red star at the origin, a pile of 20, and one hand per
    /// entry of `hands`.
    fn game(hands: &[Vec<Tile>]) -> State {
        let jstate = JState {
            map: Map::starting_with(tile(Shape::Star, Color::Red)),
            pile: Tile::all_kinds().take(20).collect(),
            players: hands
                .iter()
                .map(|hand| JPlayer {
                    score: 0,
                    tiles: hand.clone(),
                    name: None,
                })
                .collect(),
        };
        State::from_jstate(&jstate, &course_rules()).expect("a valid state")
    }

    fn six() -> Vec<Tile> {
        vec![tile(Shape::Square, Color::Blue); 6]
    }

    struct Setting {
        log: Log,
        seen: Arc<Mutex<Vec<Vec<u32>>>>,
        table: CourseTable,
    }

    /// A player of a test table: its name, its turns, and the call it fails.
    type Seated = (&'static str, fn(&JPub) -> Action, Option<&'static str>);

    fn table(players: &[Seated]) -> Setting {
        let log = Log::default();
        let seen = Arc::default();
        let course: Vec<Box<dyn CoursePlayer>> = players
            .iter()
            .map(|&(name, turn, fails)| {
                Box::new(Scripted {
                    name,
                    log: log.clone(),
                    turn,
                    fails,
                    seen: Arc::clone(&seen),
                }) as Box<dyn CoursePlayer>
            })
            .collect();
        Setting {
            table: CourseTable::new(course, Box::new(LogEjector(log.clone()))),
            log,
            seen,
        }
    }

    /// What the server's referee does with the answer: apply it, or eject the seat.
    fn referee(state: &mut State, seat: Seat, answer: &Result<Action, String>) {
        if let Ok(action) = answer {
            apply_checked::<Qgame>(state, state.players.len(), seat, action).expect("legal");
        }
    }

    fn lines(log: &Log) -> Vec<String> {
        log.lock().unwrap().clone()
    }

    /// The course referee sets up every player before the first turn. Here the first
    /// player finishes on its first turn, so the second never gets a turn: it still
    /// has its `setup` before its `win`.
    #[test]
    fn every_player_is_set_up_before_the_first_turn() {
        let mut setting = table(&[("ann", place_first, None), ("bob", pass, None)]);
        let state = game(&[vec![tile(Shape::Circle, Color::Red)], six()]);
        let answer = setting.table.decide(&state, 0);
        assert!(matches!(answer, Ok(Action::Place(_))), "{answer:?}");
        assert_eq!(
            lines(&setting.log),
            [
                "ann setup 1",
                "bob setup 6",
                "ann take-turn",
                "ann win true",
                "bob win false"
            ]
        );
    }

    /// `new-tiles` follows the turn that dealt them at once, even when that player has
    /// no turn after it (its exchange, then a pass, end the game).
    #[test]
    fn new_tiles_come_right_after_the_turn_that_dealt_them() {
        let mut setting = table(&[("ann", replace, None), ("bob", pass, None)]);
        let mut state = game(&[six(), six()]);
        for seat in [0, 1] {
            let answer = setting.table.decide(&state, seat);
            referee(&mut state, seat, &answer);
        }
        assert!(state.over);
        assert_eq!(
            lines(&setting.log),
            [
                "ann setup 6",
                "bob setup 6",
                "ann take-turn",
                "ann new-tiles 6",
                "bob take-turn",
                "ann win true",
                "bob win true"
            ]
        );
    }

    /// A failed `new-tiles` ejects the player after its turn counted and before the
    /// next player's turn, which sees the game without it.
    #[test]
    fn a_failed_new_tiles_ejects_before_the_next_turn() {
        let mut setting = table(&[
            ("ann", place_first, Some("new-tiles")),
            ("bob", pass, None),
            ("cy", pass, None),
        ]);
        let mut state = game(&[vec![tile(Shape::Circle, Color::Red); 6], six(), six()]);
        let answer = setting.table.decide(&state, 0);
        assert!(
            matches!(answer, Ok(Action::Place(_))),
            "the turn counts: {answer:?}"
        );
        referee(&mut state, 0, &answer);
        let answer = setting.table.decide(&state, 1);
        assert_eq!(answer, Ok(Action::Pass));
        let log = lines(&setting.log);
        assert_eq!(
            log[3..],
            [
                "ann take-turn",
                "ann new-tiles 1",
                "eject 0: new-tiles: is gone: the stream ended",
                "bob take-turn"
            ]
        );
        // Bob sees only cy's score: ann is out.
        assert_eq!(setting.seen.lock().unwrap()[1], [0]);
        // The referee's game, with that ejection: the tile ann was dealt and never
        // received is in neither the pile nor any hand; the rest of its hand is piled.
        let dealt = state.players[0].hand[0];
        let copies = |state: &State| {
            let hands = state.players.iter().flat_map(|p| &p.hand);
            hands.chain(&state.pile).filter(|&&t| t == dealt).count()
        };
        let (pile_before, copies_before) = (state.pile.len(), copies(&state));
        Qgame::eject(&mut state, 0, "new-tiles");
        assert_eq!(state.pile.len(), pile_before + 5, "its five red circles");
        assert_eq!(copies(&state), copies_before - 1, "the dealt tile is gone");
    }

    /// A winner whose `win` call fails is ejected (misbehaving) before the game's end
    /// reaches the referee; when the failing player's own pass ended the game, it is
    /// ejected instead of that pass, which ends the game the same way.
    #[test]
    fn a_failed_win_call_ejects_the_player() {
        for failing in [0, 1] {
            let fails = |seat| (seat == failing).then_some("win");
            let mut setting = table(&[("ann", pass, fails(0)), ("bob", pass, fails(1))]);
            let mut state = game(&[six(), six()]);
            let first = setting.table.decide(&state, 0);
            referee(&mut state, 0, &first);
            let last = setting.table.decide(&state, 1);
            let log = lines(&setting.log);
            assert_eq!(
                log[4..],
                [
                    "ann win true".to_string(),
                    "bob win true".to_string(),
                    format!("eject {failing}: win: is gone: the stream ended")
                ]
            );
            if failing == 0 {
                assert_eq!(last, Ok(Action::Pass));
            } else {
                assert!(last.is_err(), "bob is ejected instead: {last:?}");
                let mut instead = state.clone();
                Qgame::eject(&mut instead, 1, "win");
                assert!(instead.over, "which ends the game as the pass would");
            }
        }
    }

    /// A player whose last tile finishes the game and whose own `win` call then fails:
    /// the placement counts (it is the answer), and the table asks the referee to eject
    /// it right after applying it, so the course's misbehaving player is recorded as
    /// ejected rather than as the winner.
    #[test]
    fn a_finisher_failing_its_win_call_is_ejected_after_its_placement() {
        let mut setting = table(&[("ann", place_first, Some("win")), ("bob", pass, None)]);
        let state = game(&[vec![tile(Shape::Circle, Color::Red)], six()]);
        let answer = setting.table.decide(&state, 0);
        assert!(matches!(answer, Ok(Action::Place(_))), "{answer:?}");
        assert_eq!(
            setting.table.take_ejections_after_answer(),
            [(0, "win: is gone: the stream ended".to_string())]
        );
        assert!(setting.table.take_ejections_after_answer().is_empty());
        assert_eq!(lines(&setting.log)[3..], ["ann win true", "bob win false"]);
    }

    /// Setup failures eject at once, in turn order; a later player's view has them.
    #[test]
    fn a_failed_setup_ejects_at_once() {
        let mut setting = table(&[
            ("ann", pass, None),
            ("bob", pass, Some("setup")),
            ("cy", pass, None),
        ]);
        let state = game(&[six(), six(), six()]);
        assert_eq!(setting.table.decide(&state, 0), Ok(Action::Pass));
        assert_eq!(
            lines(&setting.log)[..4],
            [
                "ann setup 6",
                "bob setup 6",
                "eject 1: setup: is gone: the stream ended",
                "cy setup 6"
            ]
        );
        assert_eq!(setting.seen.lock().unwrap()[0], [0], "ann sees only cy");
    }

    #[test]
    fn reasons_say_what_happened() {
        let closed = PlayerFailure::Gone("the stream ended".into());
        assert_eq!(
            failure_reason("take-turn", &closed),
            "take-turn: is gone: the stream ended"
        );
        let late = PlayerFailure::Timeout(std::time::Duration::from_secs(6));
        assert_eq!(
            failure_reason("new-tiles", &late),
            "new-tiles: missed the per-call time limit (6s)"
        );
    }
}
