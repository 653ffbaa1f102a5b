//! The client's stand-in for the referee: read a call, run the local player, write the
//! reply; stop after `win`, at the end of the stream, or on bad input.
//!
//! The player runs on its own thread and a second thread reads the connection, both
//! feeding one event queue. So a player stuck in an endless loop (the course's `inf…`
//! players) does not keep its session alive: when the server, having given up on it,
//! closes the connection, the session ends and the stuck thread is left behind.
//!
//! A [`Flaw`] makes the session break the protocol the way the reference's Bonus
//! clients do (chosen by the player's name).
//!
//! The session's coordinates cross one [`GameEdge`]: the calls' JPubs may name them
//! with any number of digits, and the player's answers name them the same way.

use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::{Duration, Instant};

use arbiter_qgame::Action;

use crate::edge::GameEdge;
use crate::exact::ExactJson;
use crate::player::{CoursePlayer, PlayerFailure};
use crate::remote::deadline::DeadlineStream;
use crate::remote::messages::{choice_to_exact, void_reply, Call};
use crate::remote::wire::{write_exact, JsonReader, WireError};

/// How long a client waits for the server's next call (the reference's 1,000 s).
pub const IDLE_LIMIT: Duration = Duration::from_secs(1000);

/// How long a client may take to hand a reply to a server that does not read.
const WRITE_LIMIT: Duration = Duration::from_secs(60);

/// The reference's broken proxy referees, picked by the player's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    /// Answers `setup` with the bare word void (not JSON).
    NonSetup,
    /// Answers `take-turn` with 4,095 spaces and its JSON choice minus the last byte.
    IllTT,
    /// Answers `take-turn` with placements whose first `"coordinate"` key is `"oord"`.
    InvTTBadString,
    /// Answers `new-tiles` with the bare word void.
    NonNewTiles,
    /// Answers `win` with the bare word void.
    NonWin,
}

impl Flaw {
    pub fn for_name(name: &str) -> Option<Flaw> {
        match name {
            "nonSetup" => Some(Flaw::NonSetup),
            "illTT" => Some(Flaw::IllTT),
            "invTTBadString" => Some(Flaw::InvTTBadString),
            "nonNewTiles" => Some(Flaw::NonNewTiles),
            "nonWin" => Some(Flaw::NonWin),
            _ => None,
        }
    }
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionEnd {
    /// The `win` call was answered.
    Finished { won: bool },
    /// The server closed the connection (for instance after ejecting the player).
    ServerClosed,
    /// The local player raised, so the connection was closed (as the reference does).
    PlayerFailed(PlayerFailure),
    /// The server sent something that is not a call, or a call out of turn.
    BadInput(String),
    /// The connection broke.
    ConnectionError(String),
}

/// What a successful call returned.
enum Answer {
    Done,
    Choice(Action),
}

enum Event {
    FromServer(Result<ExactJson, WireError>),
    FromPlayer(Result<Answer, PlayerFailure>),
}

/// Bytes to send back: a JSON value, or whatever a flaw sends instead.
enum Outgoing {
    Json(ExactJson),
    Raw(Vec<u8>),
}

/// Serve calls from the server on `stream` (already signed up) with `player`.
pub fn run_proxy_referee(
    stream: TcpStream,
    player: Box<dyn CoursePlayer>,
    flaw: Option<Flaw>,
) -> SessionEnd {
    let end = serve(&stream, player, flaw);
    // Ends the reader thread too; a player thread stuck in a loop stays behind.
    let _ = stream.shutdown(Shutdown::Both);
    end
}

fn serve(stream: &TcpStream, player: Box<dyn CoursePlayer>, flaw: Option<Flaw>) -> SessionEnd {
    let (events, inbox) = mpsc::channel::<Event>();
    let reader = match stream.try_clone() {
        Ok(reader) => reader,
        Err(e) => return SessionEnd::ConnectionError(e.to_string()),
    };
    if let Err(e) = spawn_reader(reader, events.clone()) {
        return SessionEnd::ConnectionError(format!("cannot start the reader: {e}"));
    }
    let calls = match spawn_player(player, events) {
        Ok(calls) => calls,
        Err(e) => return SessionEnd::ConnectionError(format!("cannot start the player: {e}")),
    };
    let mut writer = DeadlineStream::new(match stream.try_clone() {
        Ok(writer) => writer,
        Err(e) => return SessionEnd::ConnectionError(e.to_string()),
    });

    let mut pending: Option<Call> = None;
    let mut edge = GameEdge::default();
    for event in inbox {
        match event {
            Event::FromServer(Ok(value)) => {
                if pending.is_some() {
                    return SessionEnd::BadInput(format!("a call before the last reply: {value}"));
                }
                let call = match Call::from_exact(value, &mut edge) {
                    Ok(call) => call,
                    Err(e) => return SessionEnd::BadInput(e),
                };
                if calls.send(call.clone()).is_err() {
                    return SessionEnd::PlayerFailed(PlayerFailure::Gone(
                        "the player's thread has stopped".into(),
                    ));
                }
                pending = Some(call);
            }
            Event::FromServer(Err(WireError::Closed(_))) => return SessionEnd::ServerClosed,
            Event::FromServer(Err(e)) => return SessionEnd::BadInput(e.to_string()),
            Event::FromPlayer(Err(failure)) => return SessionEnd::PlayerFailed(failure),
            Event::FromPlayer(Ok(answer)) => {
                let Some(call) = pending.take() else {
                    continue;
                };
                writer.set_deadline(Some(Instant::now() + WRITE_LIMIT));
                let sent = match reply(&call, answer, flaw, &edge) {
                    Outgoing::Json(value) => write_exact(&mut writer, &value),
                    Outgoing::Raw(bytes) => writer.write_all(&bytes).and_then(|()| writer.flush()),
                };
                if let Err(e) = sent {
                    return SessionEnd::ConnectionError(e.to_string());
                }
                if let Call::Win(won) = call {
                    return SessionEnd::Finished { won };
                }
            }
        }
    }
    SessionEnd::ConnectionError("both the reader and the player stopped".into())
}

/// Read the server's calls on a thread of their own until the stream ends or breaks.
fn spawn_reader(stream: TcpStream, events: Sender<Event>) -> std::io::Result<()> {
    thread::Builder::new()
        .name("qgame-client-reader".into())
        .spawn(move || {
            let mut reader = JsonReader::new(DeadlineStream::new(stream));
            loop {
                reader
                    .get_mut()
                    .set_deadline(Some(Instant::now() + IDLE_LIMIT));
                let value = reader.next_exact();
                let stop = value.is_err();
                if events.send(Event::FromServer(value)).is_err() || stop {
                    return;
                }
            }
        })
        .map(|_| ())
}

/// Run the local player on a thread of its own; returns where to send it calls.
fn spawn_player(
    mut player: Box<dyn CoursePlayer>,
    events: Sender<Event>,
) -> std::io::Result<Sender<Call>> {
    let (calls, inbox) = mpsc::channel::<Call>();
    thread::Builder::new()
        .name(format!("qgame-client-player-{}", player.name()))
        .spawn(move || {
            for call in inbox {
                let answer = match call {
                    Call::Setup(state, hand) => player.setup(&state, &hand).map(|()| Answer::Done),
                    Call::TakeTurn(state) => player.take_turn(&state).map(Answer::Choice),
                    Call::NewTiles(tiles) => player.new_tiles(&tiles).map(|()| Answer::Done),
                    Call::Win(won) => player.win(won).map(|()| Answer::Done),
                };
                if events.send(Event::FromPlayer(answer)).is_err() {
                    return;
                }
            }
        })?;
    Ok(calls)
}

/// The reply to `call`, its coordinates written out through the game's `edge`, broken
/// as `flaw` says.
fn reply(call: &Call, answer: Answer, flaw: Option<Flaw>, edge: &GameEdge) -> Outgoing {
    let bare_void = || Outgoing::Raw(b"void\n".to_vec());
    match (call, answer, flaw) {
        (Call::Setup(..), _, Some(Flaw::NonSetup))
        | (Call::NewTiles(_), _, Some(Flaw::NonNewTiles))
        | (Call::Win(_), _, Some(Flaw::NonWin)) => bare_void(),
        (Call::TakeTurn(_), Answer::Choice(choice), Some(Flaw::IllTT)) => {
            let mut text = choice_to_exact(&choice, edge).to_string();
            text.pop();
            Outgoing::Raw(format!("{}{text}", " ".repeat(4095)).into_bytes())
        }
        (Call::TakeTurn(_), Answer::Choice(choice), Some(Flaw::InvTTBadString)) => {
            let mut value = choice_to_exact(&choice, edge);
            if let ExactJson::Array(placements) = &mut value {
                if let Some(ExactJson::Object(first)) = placements.first_mut() {
                    misspell_coordinate(first);
                }
            }
            Outgoing::Json(value)
        }
        (_, Answer::Choice(choice), _) => Outgoing::Json(choice_to_exact(&choice, edge)),
        (_, Answer::Done, _) => Outgoing::Json(void_reply()),
    }
}

/// `"coordinate"` becomes `"oord"`, moved last (as the reference's invTTBadString does).
fn misspell_coordinate(placement: &mut Vec<(String, ExactJson)>) {
    if let Some(at) = placement.iter().position(|(key, _)| key == "coordinate") {
        let (_, coordinate) = placement.remove(at);
        placement.push(("oord".into(), coordinate));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_qgame::{Color, Coord, Placement, Shape, Tile};

    fn edge() -> GameEdge {
        GameEdge::default()
    }

    fn raw(outgoing: Outgoing) -> String {
        match outgoing {
            Outgoing::Raw(bytes) => String::from_utf8(bytes).unwrap(),
            Outgoing::Json(value) => format!("json {value}"),
        }
    }

    fn place() -> Action {
        Action::Place(vec![Placement::new(
            Coord::new(0, 1),
            Tile::new(Shape::Star, Color::Red),
        )])
    }

    #[test]
    fn flaws_break_only_their_call() {
        let win = Call::Win(true);
        assert_eq!(
            raw(reply(&win, Answer::Done, Some(Flaw::NonWin), &edge())),
            "void\n"
        );
        assert_eq!(
            raw(reply(&win, Answer::Done, Some(Flaw::NonSetup), &edge())),
            "json \"void\""
        );
        assert_eq!(
            raw(reply(
                &Call::NewTiles(vec![]),
                Answer::Done,
                Some(Flaw::NonNewTiles),
                &edge()
            )),
            "void\n"
        );
    }

    #[test]
    fn ill_tt_sends_spaces_and_truncated_json() {
        let turn = Call::Win(false);
        let text = raw(reply(
            &turn,
            Answer::Choice(place()),
            Some(Flaw::IllTT),
            &edge(),
        ));
        // Only take-turn is broken.
        assert!(text.starts_with("json ["));
        let Outgoing::Raw(bytes) = reply(
            &Call::TakeTurn(dummy_jpub()),
            Answer::Choice(place()),
            Some(Flaw::IllTT),
            &edge(),
        ) else {
            panic!("illTT sends raw bytes");
        };
        let full = serde_json::to_string(&place()).unwrap();
        assert_eq!(bytes.len(), 4095 + full.len() - 1);
        assert!(bytes[..4095].iter().all(|b| *b == b' '));
        assert_eq!(&bytes[4095..], &full.as_bytes()[..full.len() - 1]);
    }

    #[test]
    fn inv_tt_bad_string_misspells_the_first_coordinate() {
        let Outgoing::Json(value) = reply(
            &Call::TakeTurn(dummy_jpub()),
            Answer::Choice(place()),
            Some(Flaw::InvTTBadString),
            &edge(),
        ) else {
            panic!("invTTBadString sends JSON");
        };
        assert_eq!(
            value.to_string(),
            r#"[{"1tile":{"shape":"star","color":"red"},"oord":{"row":0,"column":1}}]"#
        );
        let Outgoing::Json(value) = reply(
            &Call::TakeTurn(dummy_jpub()),
            Answer::Choice(Action::Pass),
            Some(Flaw::InvTTBadString),
            &edge(),
        ) else {
            panic!("pass is sent as JSON");
        };
        assert_eq!(value, ExactJson::String("pass".into()));
    }

    fn dummy_jpub() -> arbiter_qgame::JPub {
        arbiter_qgame::JPub {
            map: arbiter_qgame::Map::starting_with(Tile::new(Shape::Star, Color::Red)),
            pile_count: 0,
            me: arbiter_qgame::JPlayer {
                score: 0,
                tiles: vec![],
                name: Some("A".into()),
            },
            other_scores: vec![0],
        }
    }
}
