//! The remote protocol's parts against hand-driven TCP peers: sign-up rules, the proxy
//! player's failure modes, the empty result, and a recorded session of a small game.
//! Waits here are short because these configurations are ours, not the course's.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use arbiter_qgame::{Action, Color, Coord, JPlayer, JPub, Map, Placement, Shape, Tile};
use arbiter_qgame_course::actors::{ActorLevel, ActorSpec};
use arbiter_qgame_course::remote::client::{run_client_with, ClientEnd, ClientKind};
use arbiter_qgame_course::remote::deadline::DeadlineStream;
use arbiter_qgame_course::remote::harness::read_server_config;
use arbiter_qgame_course::remote::signup::{sign_up, SignupRules};
use arbiter_qgame_course::remote::wire::{write_value, JsonReader};
use arbiter_qgame_course::remote::{
    run_clients, run_proxy_referee, serve, ClientConfig, ProxyPlayer, ServerConfig, SessionEnd,
};
use arbiter_qgame_course::{CoursePlayer, PlayerFailure};
use serde_json::{json, Value};

fn loopback() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    let port = listener.local_addr().expect("bound").port();
    (listener, port)
}

/// Connect, in this order, one client per entry and send its bytes (if any). The
/// listener's backlog keeps the order, and sign-up reads names one connection at a
/// time, so no pause is needed to order them. The streams stay open (returned) so the
/// server, not the client, decides what happens to each.
fn clients_in_order(port: u16, sends: &[Option<&str>]) -> Vec<TcpStream> {
    sends
        .iter()
        .map(|bytes| {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
            if let Some(bytes) = bytes {
                stream.write_all(bytes.as_bytes()).expect("sent");
            }
            stream
        })
        .collect()
}

#[test]
fn sign_up_keeps_valid_names_in_order_and_refuses_the_rest() {
    let (listener, port) = loopback();
    let _clients = clients_in_order(
        port,
        &[
            Some("\"first\""),
            Some("\"ouch ouch\""),
            Some("42"),
            // Never sends a name: refused after the name wait.
            None,
            Some("   \"second\"  "),
            Some("\"abcdefghijklmnopqrstu\""),
            Some("\"third\""),
        ],
    );
    let rules = SignupRules {
        tries: 1,
        period: Duration::from_secs(3),
        name_wait: Duration::from_millis(700),
    };
    let started = Instant::now();
    let recruits = sign_up(&listener, &rules, false).expect("sign-up runs");
    let names: Vec<String> = recruits.iter().map(|r| r.name.clone()).collect();
    assert_eq!(names, ["first", "second", "third"]);
    // Fewer than four: sign-up lasts the whole period.
    assert!(started.elapsed() >= rules.period);
}

#[test]
fn four_players_end_sign_up_at_once() {
    let (listener, port) = loopback();
    let _clients = clients_in_order(
        port,
        &[
            Some("\"a\""),
            Some("\"b\""),
            Some("\"c\""),
            Some("\"d\""),
            Some("\"e\""),
        ],
    );
    // A period of an hour: the sign-up returns only because the fourth name ended it.
    let rules = SignupRules {
        tries: 2,
        period: Duration::from_secs(3600),
        name_wait: Duration::from_secs(2),
    };
    let recruits = sign_up(&listener, &rules, false).expect("sign-up runs");
    let names: Vec<String> = recruits.iter().map(|r| r.name.clone()).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    // The fifth was never read: it still waits in the backlog.
    let (mut fifth, _) = listener.accept().expect("the fifth is still queued");
    fifth.set_nonblocking(false).expect("blocking");
    let mut name = [0u8; 3];
    std::io::Read::read_exact(&mut fifth, &mut name).expect("its name is unread");
    assert_eq!(&name, b"\"e\"");
}

/// A small game: A holds two red tiles that go next to the red star and finish the
/// game on A's first turn.
fn small_server_config(wait: u64, tries: u64) -> ServerConfig {
    let tile = |color: &str, shape: &str| json!({"color": color, "shape": shape});
    ServerConfig::from_json(&json!({
        "port": 45678, "server-tries": tries, "server-wait": wait, "wait-for-signup": 1,
        "quiet": true,
        "ref-spec": {
            "state0": {
                "map": [[0, [0, tile("red", "star")]]],
                "tile*": [tile("yellow", "star"), tile("orange", "star")],
                "players": [
                    {"name": "X", "score": 0,
                     "tile*": [tile("red", "circle"), tile("red", "square")]},
                    {"name": "Y", "score": 0,
                     "tile*": [tile("green", "star"), tile("blue", "clover")]}
                ]
            },
            "quiet": true, "config-s": {"qbo": 8, "fbo": 4}, "per-turn": 2,
            "observe": false
        }
    }))
    .expect("a valid configuration")
}

fn client_config(players: Value) -> ClientConfig {
    ClientConfig::from_json(&json!({
        "port": 45678, "host": "127.0.0.1", "wait": 0, "quiet": true, "players": players
    }))
    .expect("a valid client configuration")
}

#[test]
fn too_few_players_give_the_empty_result() {
    let (listener, port) = loopback();
    let config = small_server_config(1, 2);
    let started = Instant::now();
    let server = thread::spawn(move || serve(&config, listener));
    let clients = run_clients(&client_config(json!([["A", "dag"]])), &[], port);
    assert_eq!(server.join().expect("server").to_json(), json!([[], []]));
    // Two periods of one second, then the end.
    assert!(started.elapsed() >= Duration::from_secs(2));
    assert_eq!(clients.len(), 1);
}

#[test]
fn more_players_than_state0_give_the_empty_result() {
    let (listener, port) = loopback();
    let config = small_server_config(1, 1);
    let server = thread::spawn(move || serve(&config, listener));
    run_clients(
        &client_config(json!([["A", "dag"], ["B", "dag"], ["C", "dag"]])),
        &[],
        port,
    );
    assert_eq!(server.join().expect("server").to_json(), json!([[], []]));
}

/// Forward one client's connection to the server, recording each message.
/// `signed` is told once the client's name has gone on to the server.
fn recording_relay(
    listener: TcpListener,
    server_port: u16,
    log: Arc<Mutex<Vec<String>>>,
    signed: std::sync::mpsc::Sender<()>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let (client, _) = listener.accept().expect("the client connects");
        let server = TcpStream::connect(("127.0.0.1", server_port)).expect("server is up");
        let pipe = |from: TcpStream,
                    to: TcpStream,
                    label: &'static str,
                    signed: Option<std::sync::mpsc::Sender<()>>| {
            let log = Arc::clone(&log);
            thread::spawn(move || {
                let mut reader = JsonReader::new(DeadlineStream::new(from));
                while let Ok(value) = reader.next_value() {
                    log.lock().expect("log").push(format!("{label} {value}"));
                    if write_value(&to, &value).is_err() {
                        break;
                    }
                    // The first message up is the name.
                    if let Some(signed) = &signed {
                        let _ = signed.send(());
                    }
                }
                let _ = to.shutdown(std::net::Shutdown::Write);
            })
        };
        let up = pipe(
            client.try_clone().expect("clone"),
            server.try_clone().expect("clone"),
            "client → server:",
            Some(signed),
        );
        let down = pipe(server, client, "server → client:", None);
        up.join().expect("relay");
        down.join().expect("relay");
    })
}

#[test]
fn a_recorded_session_of_a_small_game() {
    let (server_listener, server_port) = loopback();
    let (relay_listener, relay_port) = loopback();
    let config = small_server_config(1, 1);
    let server = thread::spawn(move || serve(&config, server_listener));
    let log = Arc::new(Mutex::new(Vec::new()));
    let (signed_tx, signed) = std::sync::mpsc::channel();
    let relay = recording_relay(relay_listener, server_port, Arc::clone(&log), signed_tx);
    // X signs up through the recording relay, then (once its name is on its way) Y
    // directly: the server reads names one connection at a time, in connection order.
    let x =
        thread::spawn(move || run_clients(&client_config(json!([["X", "dag"]])), &[], relay_port));
    signed.recv().expect("X's name went through the relay");
    run_clients(&client_config(json!([["Y", "dag"]])), &[], server_port);
    x.join().expect("client X");
    let result = server.join().expect("server");
    relay.join().expect("relay");
    assert_eq!(result.to_json(), json!([["X"], []]));

    let log = log.lock().expect("log").clone();
    let methods: Vec<String> = log
        .iter()
        .map(|line| {
            let (label, value) = line.split_once(": ").expect("labelled");
            let value: Value = serde_json::from_str(value).expect("JSON");
            match (label, &value) {
                ("server → client", Value::Array(call)) => call[0].as_str().unwrap_or("?"),
                (_, Value::String(word)) if word == "void" => "void",
                (_, Value::String(_)) => "name",
                _ => "choice",
            }
            .to_string()
        })
        .collect();
    assert_eq!(
        methods,
        [
            "name",
            "setup",
            "void",
            "take-turn",
            "choice",
            "win",
            "void"
        ]
    );
    assert_eq!(log[6 - 1], "server → client: [\"win\",[true]]");
    let transcript =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("qgame-remote-transcript.txt");
    std::fs::write(&transcript, log.join("\n") + "\n").expect("transcript written");
}

/// A proxy player whose peer, on the other end of a real socket, behaves as `peer`.
fn proxy_against(
    limit: Duration,
    peer: impl FnOnce(TcpStream) + Send + 'static,
) -> (ProxyPlayer, thread::JoinHandle<()>) {
    let (listener, port) = loopback();
    let peer = thread::spawn(move || {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
        peer(stream);
    });
    let (stream, _) = listener.accept().expect("accepts");
    let connection = JsonReader::new(DeadlineStream::new(stream));
    (ProxyPlayer::new("P".into(), connection, limit, false), peer)
}

fn jpub() -> JPub {
    JPub {
        map: Map::starting_with(Tile::new(Shape::Star, Color::Red)),
        pile_count: 0,
        me: JPlayer {
            score: 0,
            tiles: vec![Tile::new(Shape::Circle, Color::Red)],
            name: Some("P".into()),
        },
        other_scores: vec![0],
    }
}

/// Read the call, then send these chunks with pauses between them (so they arrive as
/// separate packets), then stay connected until the proxy closes its end.
fn answer_with(chunks: &'static [&'static str]) -> impl FnOnce(TcpStream) + Send + 'static {
    move |mut stream| {
        let mut reader = JsonReader::new(DeadlineStream::new(stream.try_clone().expect("clone")));
        let _call = reader.next_value();
        for chunk in chunks {
            let _ = stream.write_all(chunk.as_bytes());
            thread::sleep(Duration::from_millis(20));
        }
        let _ = std::io::Read::read_to_end(&mut stream, &mut Vec::new());
    }
}

#[test]
fn the_proxy_player_reads_replies_split_across_packets() {
    let (mut proxy, peer) = proxy_against(
        Duration::from_secs(2),
        answer_with(&["      ", "\"vo", "id\"", "\n"]),
    );
    assert_eq!(proxy.setup(&jpub(), &[]), Ok(()));
    drop(proxy);
    peer.join().expect("peer");

    let (mut proxy, peer) = proxy_against(
        Duration::from_secs(2),
        answer_with(&[
            "[{\"coordinate\":{\"row\":0,",
            "\"column\":1},\"1tile\":",
            "{\"color\":\"red\",\"shape\":\"circle\"}}]",
        ]),
    );
    assert!(matches!(proxy.take_turn(&jpub()), Ok(Action::Place(p)) if p.len() == 1));
    drop(proxy);
    peer.join().expect("peer");
}

#[test]
fn the_proxy_player_turns_every_bad_reply_into_a_failure() {
    let limit = Duration::from_millis(400);
    let timeout = |failure: &PlayerFailure| matches!(failure, PlayerFailure::Timeout(_));
    let gone = |failure: &PlayerFailure| matches!(failure, PlayerFailure::Gone(_));
    let bad = |failure: &PlayerFailure| matches!(failure, PlayerFailure::BadReply(_));
    type Check = fn(&PlayerFailure) -> bool;
    let cases: Vec<(&str, &'static [&'static str], Check)> = vec![
        ("silence", &[], timeout),
        ("truncated", &["    [\"pa"], timeout),
        ("bare word", &["void"], bad),
        ("wrong word", &["\"pass\""], bad),
        ("number", &["17 "], bad),
    ];
    for (what, chunks, check) in cases {
        let (mut proxy, peer) = proxy_against(limit, answer_with(chunks));
        let started = Instant::now();
        let failure = proxy.new_tiles(&[]).expect_err(what);
        assert!(check(&failure), "{what}: {failure:?}");
        // A bad reply fails at once (it is not a timeout, checked above); a silent or
        // unfinished one is given its whole time limit.
        if matches!(failure, PlayerFailure::Timeout(_)) {
            assert!(started.elapsed() >= limit, "{what}");
        }
        drop(proxy);
        peer.join().expect("peer");
    }

    let (mut proxy, peer) = proxy_against(limit, drop);
    let failure = proxy.win(true).expect_err("closed");
    assert!(gone(&failure), "{failure:?}");
    peer.join().expect("peer");

    let (mut proxy, peer) = proxy_against(
        limit,
        answer_with(&["[{\"oord\":{\"row\":0,\"column\":1},\"1tile\":{\"color\":\"red\",\"shape\":\"circle\"}}]"]),
    );
    let failure = proxy.take_turn(&jpub()).expect_err("misspelled key");
    assert!(bad(&failure), "{failure:?}");
    drop(proxy);
    peer.join().expect("peer");

    // More than the 1 MiB bound, sent as fast as the socket takes it.
    let (mut proxy, peer) = proxy_against(Duration::from_secs(5), |mut stream| {
        let mut reader = JsonReader::new(DeadlineStream::new(stream.try_clone().expect("clone")));
        let _call = reader.next_value();
        let _ = stream.write_all(&vec![b' '; 2 << 20]);
    });
    let failure = proxy.setup(&jpub(), &[]).expect_err("too large");
    assert!(bad(&failure), "{failure:?}");
    drop(proxy);
    peer.join().expect("peer");
}

#[test]
fn actor_specs_for_clients_may_carry_bad_names() {
    let spec = ActorSpec::parse_any_name(&json!(["ouch ouch", "dag"]), ActorLevel::Loops)
        .expect("any name");
    assert_eq!(spec.name, "ouch ouch");
    assert!(ActorSpec::parse(&json!(["ouch ouch", "dag"]), ActorLevel::Loops).is_err());
}

/// The reference clients try to connect 10 times, 1 s apart: a failed try is followed
/// by a pause of a second, the first success ends the tries, and the tenth failure
/// gives up (no pause after it).
#[test]
fn connecting_is_tried_ten_times_a_second_apart() {
    use arbiter_qgame_course::remote::client::connect_with_retries;
    use arbiter_qgame_course::remote::client::{CONNECT_PAUSE, CONNECT_TRIES};
    assert_eq!((CONNECT_TRIES, CONNECT_PAUSE), (10, Duration::from_secs(1)));

    // Refused twice, then the server listens.
    let mut attempts = 0;
    let mut pauses = Vec::new();
    let connected = connect_with_retries(
        CONNECT_TRIES,
        CONNECT_PAUSE,
        || {
            attempts += 1;
            if attempts <= 2 {
                Err("refused")
            } else {
                Ok(attempts)
            }
        },
        |pause| pauses.push(pause),
    );
    assert_eq!(connected, Ok(3));
    assert_eq!(pauses, [Duration::from_secs(1); 2]);

    // Never listening: ten tries, nine pauses, then the last failure.
    let mut attempts = 0;
    let mut pauses = 0;
    let connected: Result<(), String> = connect_with_retries(
        CONNECT_TRIES,
        CONNECT_PAUSE,
        || {
            attempts += 1;
            Err(format!("refused #{attempts}"))
        },
        |_| pauses += 1,
    );
    assert_eq!(connected, Err("refused #10".to_string()));
    assert_eq!((attempts, pauses), (10, 9));
}

/// A client started before its server listens still signs up: here the server starts
/// listening only once the client's first try has failed and it pauses.
#[test]
fn a_client_started_before_the_server_signs_up_once_it_listens() {
    use std::io::Read;

    // A port nobody listens on (yet).
    let port = {
        let (listener, port) = loopback();
        drop(listener);
        port
    };
    let (listening_tx, listening) = std::sync::mpsc::channel::<TcpListener>();
    let server = thread::spawn(move || {
        let listener = listening.recv().expect("the client paused");
        let (mut stream, _) = listener.accept().expect("the client connects");
        // Read the name, then hang up: the session ends there.
        let mut name = Vec::new();
        let mut byte = [0u8; 1];
        while name.iter().filter(|b| **b == b'"').count() < 2 {
            match stream.read(&mut byte) {
                Ok(1) => name.push(byte[0]),
                _ => break,
            }
        }
        String::from_utf8(name).unwrap_or_default()
    });
    let spec = ActorSpec::parse(&json!(["early", "dag"]), ActorLevel::Loops).expect("a JActor");
    let mut attempts = 0;
    let mut pauses = Vec::new();
    let report = run_client_with(
        &ClientKind::Player(spec),
        || {
            attempts += 1;
            TcpStream::connect(("127.0.0.1", port))
        },
        |pause| {
            if pauses.is_empty() {
                let listener = TcpListener::bind(("127.0.0.1", port)).expect("the port again");
                listening_tx.send(listener).expect("the server waits");
            }
            pauses.push(pause);
        },
    );
    assert_eq!(attempts, 2, "{report:?}");
    assert_eq!(pauses, [Duration::from_secs(1)]);
    assert_eq!(server.join().expect("server thread"), "\"early\"");
    assert_eq!(report.end, ClientEnd::Session(SessionEnd::ServerClosed));
}

// Coordinates as the course writes them: `-0` is 0, and a row or column may have any
// number of digits (the course's tests had rows of 28 and columns of 52). They are read
// exactly and go back out exactly as they came in.

const ROW: &str = "1234567890123456789012345678";
const COLUMN: &str = "-1234567890123456789012345678901234567890123456789012";
const RED_STAR: &str = r#"{"color":"red","shape":"star"}"#;

/// The small game's configuration as text, its one map tile at (`row`, `column`).
fn small_server_config_text(row: &str, column: &str) -> String {
    let tile = |color: &str, shape: &str| format!(r#"{{"color":"{color}","shape":"{shape}"}}"#);
    format!(
        r#"{{"port": 45678, "server-tries": 1, "server-wait": 1, "wait-for-signup": 1,
            "quiet": true,
            "ref-spec": {{
              "state0": {{
                "map": [[{row}, [{column}, {RED_STAR}]]],
                "tile*": [{}, {}],
                "players": [
                  {{"name": "X", "score": 0, "tile*": [{}, {}]}},
                  {{"name": "Y", "score": 0, "tile*": [{}, {}]}}]
              }},
              "quiet": true, "config-s": {{"qbo": 8, "fbo": 4}}, "per-turn": 2,
              "observe": false}}}}"#,
        tile("yellow", "star"),
        tile("orange", "star"),
        tile("red", "circle"),
        tile("red", "square"),
        tile("green", "star"),
        tile("blue", "clover"),
    )
}

/// Run the server on `config_text` (read as `xserver` reads its input) with the dag
/// clients X and Y, signed up in that order; the result.
fn play_small_game(config_text: &str) -> Value {
    let config = read_server_config(config_text.as_bytes()).expect("the configuration is read");
    let (listener, port) = loopback();
    let server = thread::spawn(move || serve(&config, listener));
    // Connected here, in order: the server reads names in connection order.
    let clients: Vec<_> = ["X", "Y"]
        .into_iter()
        .map(|name| {
            let stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
            let spec = ActorSpec::parse(&json!([name, "dag"]), ActorLevel::Loops).expect("JActor");
            thread::spawn(move || {
                let mut stream = Some(stream);
                run_client_with(
                    &ClientKind::Player(spec),
                    || {
                        stream
                            .take()
                            .ok_or_else(|| std::io::Error::other("connected once"))
                    },
                    |_| {},
                )
            })
        })
        .collect();
    let result = server.join().expect("server").to_json();
    for client in clients {
        let report = client.join().expect("client");
        assert!(
            matches!(report.end, ClientEnd::Session(SessionEnd::Finished { .. })),
            "{report:?}"
        );
    }
    result
}

#[test]
fn xserver_accepts_minus_zero_in_state0_and_plays() {
    assert_eq!(
        play_small_game(&small_server_config_text("-0", "-0")),
        json!([["X"], []])
    );
}

/// The server sends state0's huge coordinates to the clients, which answer in them, and
/// the server reads the answers back: X places both its tiles and wins.
#[test]
fn xserver_plays_a_state0_with_huge_coordinates_in_their_own_digits() {
    assert_eq!(
        play_small_game(&small_server_config_text(ROW, COLUMN)),
        json!([["X"], []])
    );
}

/// A peer that reads one call, hands its text to `calls`, answers `reply`, then waits
/// for the proxy to close the connection.
fn replying(
    reply: &'static str,
    calls: std::sync::mpsc::Sender<String>,
) -> impl FnOnce(TcpStream) + Send + 'static {
    move |mut stream| {
        let mut reader = JsonReader::new(DeadlineStream::new(stream.try_clone().expect("clone")));
        let call = reader.next_exact().expect("a call");
        calls.send(call.to_string()).expect("the test listens");
        stream.write_all(reply.as_bytes()).expect("sent");
        let _ = std::io::Read::read_to_end(&mut stream, &mut Vec::new());
    }
}

#[test]
fn the_proxy_player_reads_minus_zero_in_a_choice_as_zero() {
    let (calls, _sent) = std::sync::mpsc::channel();
    let (mut proxy, peer) = proxy_against(
        Duration::from_secs(2),
        replying(
            r#"[{"coordinate":{"row":-0,"column":1},"1tile":{"color":"red","shape":"circle"}}]"#,
            calls,
        ),
    );
    assert_eq!(
        proxy.take_turn(&jpub()),
        Ok(Action::Place(vec![Placement::new(
            Coord::new(0, 1),
            Tile::new(Shape::Circle, Color::Red)
        )]))
    );
    drop(proxy);
    peer.join().expect("peer");
}

/// With state0's edge, the proxy names state0's digits in its calls and reads a reply
/// one column on from them as one column on inside the game.
#[test]
fn the_proxy_player_speaks_in_state0s_coordinates() {
    let config = read_server_config(small_server_config_text(ROW, COLUMN).as_bytes())
        .expect("the configuration is read");
    let state = config.referee.initial_state().expect("a state");
    let (calls, sent) = std::sync::mpsc::channel();
    let (proxy, peer) = proxy_against(
        Duration::from_secs(2),
        replying(
            r#"[{"coordinate":{"row":1234567890123456789012345678,"column":-1234567890123456789012345678901234567890123456789011},"1tile":{"color":"red","shape":"circle"}}]"#,
            calls,
        ),
    );
    let mut proxy = proxy.with_edge(config.referee.edge.clone());
    let answer = proxy.take_turn(&state.jpub(0));
    let call = sent.recv().expect("the call");
    assert!(
        call.starts_with(&format!(r#"["take-turn",[{{"map":[[{ROW},[{COLUMN},"#)),
        "{call}"
    );
    let (star, _) = state.jpub(0).map.iter().next().expect("one tile");
    assert_eq!(
        answer,
        Ok(Action::Place(vec![Placement::new(
            Coord::new(star.row, star.column + 1),
            Tile::new(Shape::Circle, Color::Red)
        )]))
    );
    drop(proxy);
    peer.join().expect("peer");
}

/// Play the server's side of one client session by hand: send each call as text and
/// collect the client's replies exactly as it wrote them.
fn client_replies(calls: &[String]) -> (Vec<String>, SessionEnd) {
    let (listener, port) = loopback();
    let spec = ActorSpec::parse(&json!(["A", "dag"]), ActorLevel::Loops).expect("JActor");
    let client = thread::spawn(move || {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
        run_proxy_referee(stream, Box::new(spec.build()), None)
    });
    let (mut stream, _) = listener.accept().expect("the client connects");
    let mut reader = JsonReader::new(DeadlineStream::new(stream.try_clone().expect("clone")));
    let replies = calls
        .iter()
        .map(|call| {
            stream.write_all(call.as_bytes()).expect("call sent");
            reader.next_exact().expect("a reply").to_string()
        })
        .collect();
    (replies, client.join().expect("client"))
}

/// A JPub for the client: `map`, and a hand of one red `shape`.
fn jpub_text(map: &str, shape: &str) -> String {
    format!(
        r#"{{"map":{map},"tile*":3,"players":[{{"score":0,"tile*":[{{"color":"red","shape":"{shape}"}}]}},0]}}"#
    )
}

fn placement_text(row: &str, column: &str, shape: &str) -> String {
    format!(
        r#"[{{"coordinate":{{"row":{row},"column":{column}}},"1tile":{{"shape":"{shape}","color":"red"}}}}]"#
    )
}

#[test]
fn a_client_reads_minus_zero_in_a_jpub_as_zero() {
    let map = format!("[[-0,[-0,{RED_STAR}]]]");
    let (replies, end) = client_replies(&[
        format!(r#"["setup",[{},[]]]"#, jpub_text(&map, "circle")),
        format!(r#"["take-turn",[{}]]"#, jpub_text(&map, "circle")),
        r#"["win",[true]]"#.to_string(),
    ]);
    assert_eq!(
        replies,
        [
            "\"void\"".to_string(),
            placement_text("-1", "0", "circle"),
            "\"void\"".to_string()
        ]
    );
    assert_eq!(end, SessionEnd::Finished { won: true });
}

/// The dag player puts its tile above the smallest free cell: the row one less than the
/// map's 28-digit row, in the map's 52-digit column, both written out in full. On the
/// next turn the map has grown (a row and a column the client has not seen before), and
/// the answer is still in the server's terms.
#[test]
fn a_client_answers_a_map_of_huge_coordinates_in_the_same_digits() {
    let row_above = "1234567890123456789012345677";
    let two_rows_above = "1234567890123456789012345676";
    let next_column = "-1234567890123456789012345678901234567890123456789011";
    let first = format!("[[{ROW},[{COLUMN},{RED_STAR}]]]");
    let grown = format!(
        r#"[[{row_above},[{COLUMN},{{"color":"red","shape":"circle"}}]],[{ROW},[{COLUMN},{RED_STAR}],[{next_column},{{"color":"blue","shape":"star"}}]]]"#
    );
    let (replies, end) = client_replies(&[
        format!(r#"["setup",[{},[]]]"#, jpub_text(&first, "circle")),
        format!(r#"["take-turn",[{}]]"#, jpub_text(&first, "circle")),
        r#"["new-tiles",[[{"color":"red","shape":"square"}]]]"#.to_string(),
        format!(r#"["take-turn",[{}]]"#, jpub_text(&grown, "square")),
        r#"["win",[false]]"#.to_string(),
    ]);
    assert_eq!(
        replies,
        [
            "\"void\"".to_string(),
            placement_text(row_above, COLUMN, "circle"),
            "\"void\"".to_string(),
            placement_text(two_rows_above, COLUMN, "square"),
            "\"void\"".to_string()
        ]
    );
    assert_eq!(end, SessionEnd::Finished { won: false });
}
