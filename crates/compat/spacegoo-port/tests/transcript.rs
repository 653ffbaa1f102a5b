//! Exact transcripts over a real loopback port: every line each client receives, in
//! order, for a short game and for each way a game ends early, plus the replies before
//! and outside a game. The expected state lines come from the rules crate on the same
//! seed (the port's own rendering is not consulted); every other line is written out.
//!
//! Players: `ann` logs in first, `bob` second; with equal ratings the later arrival is
//! player 1 (the reference's "higher index becomes player 1"), so bob is player 1.

mod client;
mod port;

use std::time::Duration;

use arbiter_spacegoo::{reasons, reference_state_json, Action, Config, State};
use arbiter_spacegoo_port::SpacegooPortOptions;
use client::Client;
use port::{quick_options, Port};

const SEED: u64 = 7;
const NAMES: [&str; 2] = ["bob", "ann"];
const WELCOME: &str = "welcome to rocket-paper-spacegoo. see https://github.com/qr4/rocket-paper-spacegoo for more information on how to play";
const SCORE: &str = "your current score: 1000.00. waiting for game start...";
const RECEIVED: &str = "command received. waiting for other player...";
const CALCULATING: &str = "calculating round";
const WAITING: &str = "waiting for you command";
const AVAILABLE: &str = "This game is now available at http://arbiter.test/matches/1";
const CLOSING: &str = "closing connection. see you next time";

fn options(max_rounds: u32, deadline: Duration) -> SpacegooPortOptions {
    SpacegooPortOptions {
        seed: Some(SEED),
        max_rounds,
        deadline,
        ..quick_options()
    }
}

/// The rules' own game on the test seed, to render the expected state lines.
struct Expected {
    state: State,
}

impl Expected {
    fn new(max_rounds: u32) -> Expected {
        let config = Config {
            max_rounds,
            ..Config::default()
        };
        Expected {
            state: State::new(&config, SEED).expect("a state"),
        }
    }

    /// The state line player `player` (1 or 2) gets now.
    fn line(&self, player: u8) -> String {
        reference_state_json(&self.state, player, NAMES)
    }

    fn submit(&mut self, player: u8, action: Action) {
        self.state
            .submit(usize::from(player - 1), &action)
            .expect("the rules accept it");
    }

    fn disqualify(&mut self, player: u8, reason: &str) {
        self.state.disqualify(usize::from(player - 1), reason);
    }
}

/// A port, and both players logged in and shown their game's start and first state.
struct Game {
    port: Port,
    /// Player 1.
    bob: Client,
    /// Player 2.
    ann: Client,
}

async fn start(max_rounds: u32, deadline: Duration) -> Game {
    start_with(options(max_rounds, deadline)).await
}

async fn start_with(options: SpacegooPortOptions) -> Game {
    let max_rounds = options.max_rounds;
    let port = Port::start(options).await;
    let mut ann = Client::connect(port.address).await;
    ann.login("ann", "ann-pw").await;
    let mut bob = Client::connect(port.address).await;
    bob.login("bob", "bob-pw").await;
    let expected = Expected::new(max_rounds);
    assert_eq!(
        bob.expect_line().await,
        "game 1 starts. other player is ann"
    );
    assert_eq!(bob.expect_line().await, expected.line(1));
    assert_eq!(
        ann.expect_line().await,
        "game 1 starts. other player is bob"
    );
    assert_eq!(ann.expect_line().await, expected.line(2));
    Game { port, bob, ann }
}

/// The lines every game transcript starts with.
fn opening(opponent: &str, first_state: String) -> Vec<String> {
    vec![
        WELCOME.to_string(),
        SCORE.to_string(),
        format!("game 1 starts. other player is {opponent}"),
        first_state,
    ]
}

/// The lines every game transcript ends with.
fn closing(reason: &str, change: &str, final_state: String) -> Vec<String> {
    vec![
        format!("game ended: {reason}, {change} ELO for you. final state follows"),
        final_state,
        AVAILABLE.to_string(),
        CLOSING.to_string(),
    ]
}

async fn finish(mut game: Game) -> (Vec<String>, Vec<String>) {
    game.bob.rest().await;
    game.ann.rest().await;
    let lines = (game.bob.received.clone(), game.ann.received.clone());
    game.port.stop().await;
    lines
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_game_to_the_round_limit() {
    let mut game = start(2, Duration::from_secs(3)).await;
    let mut expected = Expected::new(2);
    let first = (expected.line(1), expected.line(2));

    // Round 0: bob sends a fleet, then ann passes.
    game.bob.send("send 1 2 5 0 0").await;
    assert_eq!(game.bob.expect_line().await, RECEIVED);
    game.ann.send("nop").await;
    expected.submit(1, Action::send(1, 2, [5, 0, 0]));
    expected.submit(2, Action::Nop);
    let second = (expected.line(1), expected.line(2));
    assert_eq!(game.ann.expect_line().await, RECEIVED);
    // Round 1: ann first this time, in capitals (tokens are lowercased).
    for client in [&mut game.ann, &mut game.bob] {
        assert_eq!(client.expect_line().await, CALCULATING);
        assert!(client.expect_line().await.starts_with('{'));
        assert_eq!(client.expect_line().await, WAITING);
    }
    game.ann.send("NOP").await;
    assert_eq!(game.ann.expect_line().await, RECEIVED);
    game.bob.send("nop").await;
    expected.submit(2, Action::Nop);
    expected.submit(1, Action::Nop);
    let last = (expected.line(1), expected.line(2));

    game.bob.rest().await;
    game.ann.rest().await;
    // Kept for docs/protocol.md.
    let record = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("spacegoo-transcript.txt");
    std::fs::write(&record, game.bob.log.join("\n") + "\n").expect("write the transcript");
    let (bob, ann) = finish(game).await;
    let mut bob_expected = opening("ann", first.0);
    bob_expected.extend([
        RECEIVED.into(),
        CALCULATING.into(),
        second.0,
        WAITING.into(),
    ]);
    bob_expected.extend([RECEIVED.into(), CALCULATING.into()]);
    bob_expected.extend(closing("game is a draw", "0.00", last.0.clone()));
    assert_eq!(bob, bob_expected);
    let mut ann_expected = opening("bob", first.1);
    ann_expected.extend([
        RECEIVED.into(),
        CALCULATING.into(),
        second.1,
        WAITING.into(),
    ]);
    ann_expected.extend([RECEIVED.into(), CALCULATING.into()]);
    // Player 2 reads player 1's change negated: `-0.00` after a draw between equals.
    ann_expected.extend(closing("game is a draw", "-0.00", last.1.clone()));
    assert_eq!(ann, ann_expected);
    // The fleet bob sent is in the second state, and the last state is the draw.
    assert!(bob[6].contains("\"fleets\": [{\"id\": 0, \"owner_id\": 1, \"ships\": [5, 0, 0], \"origin\": 1, \"target\": 2"));
    assert!(last.0.contains(
        "\"round\": 2, \"max_rounds\": 2, \"player_id\": 1, \"game_over\": true, \"winner\": null"
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_negative_send_disqualifies() {
    let mut game = start(500, Duration::from_secs(3)).await;
    let mut expected = Expected::new(500);
    let first = (expected.line(1), expected.line(2));
    game.bob.send("send 1 0 -1 0 0").await;
    expected.submit(1, Action::send(1, 0, [-1, 0, 0]));
    let reason = "player 1 disqualified: sent negative amount of ships";
    let (bob, ann) = finish(game).await;
    let mut bob_expected = opening("ann", first.0);
    bob_expected.extend(closing(reason, "-5.00", expected.line(1)));
    assert_eq!(bob, bob_expected);
    let mut ann_expected = opening("bob", first.1);
    ann_expected.extend(closing(reason, "5.00", expected.line(2)));
    assert_eq!(ann, ann_expected);
    assert!(expected
        .line(2)
        .contains("\"game_over\": true, \"winner\": 2"));
}

/// A negative planet id is the round's command with no effect (the reference ignored
/// it in its engine): the round goes on as if the player had passed, and a second
/// command in that round still disqualifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_negative_planet_id_uses_the_round_s_command_and_does_nothing() {
    let mut game = start(500, Duration::from_secs(3)).await;
    let mut expected = Expected::new(500);
    game.bob.send("send -1 2 5 0 0").await;
    assert_eq!(game.bob.expect_line().await, RECEIVED);
    game.ann.send("send 2 -1 5 0 0").await;
    assert_eq!(game.ann.expect_line().await, RECEIVED);
    expected.submit(1, Action::Nop);
    expected.submit(2, Action::Nop);
    for (client, player) in [(&mut game.bob, 1), (&mut game.ann, 2)] {
        assert_eq!(client.expect_line().await, CALCULATING);
        assert_eq!(client.expect_line().await, expected.line(player));
        assert_eq!(client.expect_line().await, WAITING);
    }
    assert!(expected.line(1).contains("\"fleets\": [], \"round\": 1, "));
    // Round 1: the same send again, then a second command, which disqualifies.
    game.bob.send("send -1 2 5 0 0").await;
    assert_eq!(game.bob.expect_line().await, RECEIVED);
    game.bob.send("nop").await;
    expected.submit(1, Action::Nop);
    expected.disqualify(1, reasons::MORE_THAN_ONE_COMMAND);
    let reason = "player 1 disqualified: sent more than one command";
    let (bob, ann) = finish(game).await;
    assert_eq!(
        bob[bob.len() - 4..],
        closing(reason, "-5.00", expected.line(1))
    );
    assert_eq!(
        ann[ann.len() - 4..],
        closing(reason, "5.00", expected.line(2))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_command_in_a_round_disqualifies() {
    let mut game = start(500, Duration::from_secs(3)).await;
    let mut expected = Expected::new(500);
    let first = (expected.line(1), expected.line(2));
    game.bob.send("send 1 2 3 3 3").await;
    assert_eq!(game.bob.expect_line().await, RECEIVED);
    game.bob.send("nop").await;
    expected.submit(1, Action::send(1, 2, [3, 3, 3]));
    expected.disqualify(1, reasons::MORE_THAN_ONE_COMMAND);
    let reason = "player 1 disqualified: sent more than one command";
    let (bob, ann) = finish(game).await;
    let mut bob_expected = opening("ann", first.0);
    bob_expected.push(RECEIVED.into());
    bob_expected.extend(closing(reason, "-5.00", expected.line(1)));
    assert_eq!(bob, bob_expected);
    let mut ann_expected = opening("bob", first.1);
    ann_expected.extend(closing(reason, "5.00", expected.line(2)));
    assert_eq!(ann, ann_expected);
    // The first command still counted: its fleet is in the final state.
    assert!(expected
        .line(1)
        .contains("\"ships\": [3, 3, 3], \"origin\": 1, \"target\": 2"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_client_is_disqualified_at_the_deadline() {
    let mut game = start(500, Duration::from_millis(300)).await;
    let mut expected = Expected::new(500);
    let first = (expected.line(1), expected.line(2));
    game.ann.send("nop").await;
    expected.submit(2, Action::Nop);
    expected.disqualify(1, reasons::NO_COMMAND);
    let reason = "player 1 disqualified: no command sent";
    let (bob, ann) = finish(game).await;
    let mut bob_expected = opening("ann", first.0);
    bob_expected.extend(closing(reason, "-5.00", expected.line(1)));
    assert_eq!(bob, bob_expected);
    let mut ann_expected = opening("bob", first.1);
    ann_expected.push(RECEIVED.into());
    ann_expected.extend(closing(reason, "5.00", expected.line(2)));
    assert_eq!(ann, ann_expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_silent_clients_draw() {
    let game = start(500, Duration::from_millis(300)).await;
    let mut expected = Expected::new(500);
    let first = (expected.line(1), expected.line(2));
    expected.disqualify(1, reasons::NO_COMMAND);
    expected.disqualify(2, reasons::NO_COMMAND);
    let reason = "both players failed to send a command";
    let (bob, ann) = finish(game).await;
    let mut bob_expected = opening("ann", first.0);
    bob_expected.extend(closing(reason, "0.00", expected.line(1)));
    assert_eq!(bob, bob_expected);
    let mut ann_expected = opening("bob", first.1);
    ann_expected.extend(closing(reason, "-0.00", expected.line(2)));
    assert_eq!(ann, ann_expected);
    assert!(expected
        .line(1)
        .contains("\"game_over\": true, \"winner\": null"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_byte_is_a_lost_connection() {
    let mut game = start(500, Duration::from_secs(3)).await;
    let mut expected = Expected::new(500);
    let first = (expected.line(1), expected.line(2));
    game.bob.send("send 1 2 3.5 0 0").await;
    expected.disqualify(1, reasons::CONNECTION_LOST);
    let reason = "player 1 disqualified: connection lost";
    let (bob, ann) = finish(game).await;
    let mut bob_expected = opening("ann", first.0);
    bob_expected.push("Invalid data received. Valid bytes: [a-z 0-9A-Z_\\-]".into());
    bob_expected.extend(closing(reason, "-5.00", expected.line(1)));
    assert_eq!(bob, bob_expected);
    let mut ann_expected = opening("bob", first.1);
    ann_expected.extend(closing(reason, "5.00", expected.line(2)));
    assert_eq!(ann, ann_expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_loses_and_late_commands_are_told_the_game_is_over() {
    // The reference's one-second linger, so the late command surely falls inside it.
    let mut game = start_with(SpacegooPortOptions {
        close_delay: Duration::from_secs(1),
        ..options(500, Duration::from_secs(3))
    })
    .await;
    let mut expected = Expected::new(500);
    let first = expected.line(2);
    drop(game.bob);
    expected.disqualify(1, reasons::CONNECTION_LOST);
    let reason = "player 1 disqualified: connection lost";
    for line in closing(reason, "5.00", expected.line(2))
        .into_iter()
        .take(3)
    {
        assert_eq!(game.ann.expect_line().await, line);
    }
    // During the linger before closing, a command is answered, not applied.
    game.ann.send("nop").await;
    assert_eq!(
        game.ann.expect_line().await,
        "game is over. please disconnect"
    );
    assert_eq!(game.ann.rest().await, [CLOSING]);
    let mut ann_expected = opening("bob", first);
    ann_expected.extend(closing(reason, "5.00", expected.line(2)));
    ann_expected.insert(
        ann_expected.len() - 1,
        "game is over. please disconnect".into(),
    );
    assert_eq!(game.ann.received, ann_expected);
    game.port.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_before_login_and_in_the_lobby() {
    let port = Port::start(SpacegooPortOptions {
        close_delay: Duration::from_millis(50),
        ..quick_options()
    })
    .await;
    let mut client = Client::connect(port.address).await;
    let exchanges: &[(&str, &[&str])] = &[
        ("nop", &["login first"]),
        ("send 1 2 x 0 0", &["login first"]),
        ("fly 1 2", &["unknown command: 'fly'"]),
        ("send 1", &["invalid arguments: Connection.handle_cmd_send() missing 4 required positional arguments: 'target_id', 'a', 'b', and 'c'"]),
        ("nop now", &["invalid arguments: Connection.handle_cmd_nop() takes 1 positional argument but 2 were given"]),
        ("login ann", &["invalid arguments: Connection.handle_cmd_login() missing 1 required positional argument: 'password'"]),
        // The reference's stray empty token between two quoted tokens: three arguments.
        ("login \"Ann\" \"pw\"", &["invalid arguments: Connection.handle_cmd_login() takes 3 positional arguments but 4 were given"]),
        ("", &[]),
        ("LOGIN Ann pw", &[SCORE]),
        ("nop", &["not in a game. please wait"]),
        ("send 1 2 x 0 0", &["not in a game. please wait"]),
        ("login ann pw", &["already logged in", CLOSING]),
    ];
    assert_eq!(client.expect_line().await, WELCOME);
    for (sent, replies) in exchanges {
        client.send(sent).await;
        for reply in *replies {
            assert_eq!(&client.expect_line().await, reply, "after {sent:?}");
        }
    }
    assert_eq!(client.line().await, None);
    // The unquoted name was lowercased: the account is `ann`.
    assert!(port
        .store
        .account_by_name("ann")
        .await
        .expect("store")
        .is_some());

    // Wrong password; a second connection for a logged-in account.
    let mut wrong = Client::connect(port.address).await;
    wrong.expect_line().await;
    wrong.send("login ann nope").await;
    assert_eq!(wrong.rest().await, ["invalid login", CLOSING]);
    let mut first = Client::connect(port.address).await;
    first.login("ann", "pw").await;
    let mut second = Client::connect(port.address).await;
    second.expect_line().await;
    second.send("login ann pw").await;
    assert_eq!(second.rest().await, ["you are already logged in", CLOSING]);
    // Quitting says goodbye.
    first.send("quit").await;
    assert_eq!(first.rest().await, [CLOSING]);
    port.stop().await;
}

/// Guessing a password: wrong guesses get `invalid login` until the store's throttle
/// steps in; from then on every attempt, the right password too, gets the throttle's
/// line (ours: the reference had no throttle) and the connection closes, as after
/// `invalid login`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_a_password_is_throttled() {
    use arbiter_spacegoo_port::replies::LOGIN_THROTTLED;
    let port = Port::start(quick_options()).await;
    let mut ann = Client::connect(port.address).await;
    ann.login("ann", "pw").await;
    ann.send("quit").await;
    assert_eq!(ann.rest().await, [CLOSING]);

    let attempt = |password: &'static str| async move {
        let mut client = Client::connect(port.address).await;
        assert_eq!(client.expect_line().await, WELCOME);
        client.send(&format!("login ann {password}")).await;
        client.rest().await
    };
    let mut wrong_guesses = 0;
    loop {
        let rest = attempt("guess").await;
        if rest == [LOGIN_THROTTLED, CLOSING] {
            break;
        }
        assert_eq!(rest, ["invalid login", CLOSING], "guess {wrong_guesses}");
        wrong_guesses += 1;
        assert!(wrong_guesses < 20, "never throttled");
    }
    assert!(
        wrong_guesses >= 5,
        "the first guesses are free: {wrong_guesses}"
    );
    assert_eq!(
        attempt("pw").await,
        [LOGIN_THROTTLED, CLOSING],
        "the right one waits too"
    );
    port.stop().await;
}

/// A class whose bots all sign up from one address: registering a new name is not a
/// failed login, so forty new accounts in a row are all created (the address's free
/// failures are thirty).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_signing_up_from_one_address_is_not_throttled() {
    let port = Port::start(quick_options()).await;
    for i in 0..40 {
        let mut bot = Client::connect(port.address).await;
        bot.login(&format!("bot{i}"), "pw").await;
        bot.send("quit").await;
        assert_eq!(bot.rest().await, [CLOSING], "bot {i}");
    }
    port.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_input_gets_a_reply_and_the_connection_closes() {
    let port = Port::start(SpacegooPortOptions {
        auto_create_accounts: false,
        max_line: 64,
        lines_per_second: 2,
        line_burst: 3,
        ..quick_options()
    })
    .await;
    // What a client that sends lines faster than 2 a second (burst 3) reads.
    let flooded = vec![
        "unknown command: 'x'",
        "unknown command: 'x'",
        "unknown command: 'x'",
        "too many lines: at most 2 per second",
        CLOSING,
    ];
    let cases: Vec<(Vec<u8>, Vec<&str>)> = vec![
        (
            b"login \"carol secret\n".to_vec(),
            vec!["Unfinished quote", CLOSING],
        ),
        (
            b"nop 3.5\n".to_vec(),
            vec![
                "Invalid data received. Valid bytes: [a-z 0-9A-Z_\\-]",
                CLOSING,
            ],
        ),
        (
            b"n\xffp\n".to_vec(),
            vec![
                "Invalid data received. Valid bytes: [a-z 0-9A-Z_\\-]",
                CLOSING,
            ],
        ),
        (
            [b'a'; 100].to_vec(),
            vec!["line too long: at most 64 bytes per line", CLOSING],
        ),
        (b"x\nx\nx\nx\n".to_vec(), flooded.clone()),
        // Far more than the port reads before it gives up: the last lines still
        // arrive (the unread rest is dropped, not answered with a reset).
        ("x\n".repeat(50_000).into_bytes(), flooded.clone()),
        // Account creation is off here: an unknown name cannot log in.
        (
            b"login carol secret\n".to_vec(),
            vec!["invalid login", CLOSING],
        ),
    ];
    for (bytes, replies) in cases {
        let mut client = Client::connect(port.address).await;
        assert_eq!(client.expect_line().await, WELCOME);
        client.send_bytes(&bytes).await;
        assert_eq!(
            client.rest().await,
            replies,
            "after {:?}",
            String::from_utf8_lossy(&bytes)
        );
    }
    assert!(port
        .store
        .account_by_name("carol")
        .await
        .expect("store")
        .is_none());
    port.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_says_so_and_aborts_the_running_game() {
    let mut game = start(500, Duration::from_secs(3)).await;
    game.port.halt().await;
    for client in [&mut game.bob, &mut game.ann] {
        assert_eq!(
            client.rest().await,
            ["the server is shutting down", CLOSING]
        );
    }
    let summary = game
        .port
        .store
        .match_summary(1)
        .await
        .expect("store")
        .expect("the match");
    assert_eq!(summary.status, arbiter_store::MatchStatus::Aborted);
    assert_eq!(summary.summary.as_deref(), Some("the server shut down"));
    game.port.stop().await;
}
