//! Tournaments through a real server: bots that speak the native protocol over
//! loopback TCP join, are paired round after round, play every game as an ordinary
//! match, and the tournament ends with every game stored, replayable and in the
//! standings. Bad requests are refused with a code and change nothing.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::*;
use arbiter_server::client::{play, BotPlan, Connection, Decider, DeciderFactory, Games};
use serde_json::{json, Value};
use tokio::time::Instant;

pub(crate) fn tournament_bot(server: &TestServer, ruleset: &str, name: &str, id: i64) -> BotPlan {
    BotPlan {
        session: None,
        server: server.tcp.clone(),
        ruleset: ruleset.to_string(),
        name: name.to_string(),
        password: password(name),
        games: Games::Tournament(id),
        config: Value::Null,
        seats: None,
        reconnect_for: std::time::Duration::ZERO,
        queue_wait: None,
    }
}

/// `connection` creates a tournament with `settings`: its id.
pub(crate) async fn create(connection: &mut Connection, settings: Value) -> i64 {
    let mut request = settings;
    request["type"] = json!("create_tournament");
    connection.send(&request).await.expect("send");
    let reply = until(connection, 10, |m| {
        m["type"] == "tournament_created" || m["type"] == "error"
    })
    .await;
    assert_eq!(reply["type"], "tournament_created", "{reply}");
    reply["tournament"].as_i64().expect("an id")
}

/// Play a whole tournament of `entrants` random bots; its final document.
/// Accounts are named after `prefix`.
async fn whole_tournament(
    server: &TestServer,
    prefix: &str,
    ruleset: &str,
    entrants: usize,
    settings: Value,
) -> Value {
    let mut creator = registered(&server.tcp, &format!("{prefix}-host")).await;
    let id = create(&mut creator, settings).await;
    let mut bots = Vec::new();
    for n in 0..entrants {
        let plan = tournament_bot(server, ruleset, &format!("{prefix}-bot{n}"), id);
        let players = random_players(ruleset);
        bots.push(tokio::spawn(async move { play(&plan, players).await }));
    }
    let mut played = 0;
    for bot in bots {
        let report = tokio::time::timeout(Duration::from_secs(300), bot)
            .await
            .expect("the tournament ended in time")
            .expect("the bot task")
            .expect("the bot played the tournament");
        assert!(report.aborted.is_empty(), "aborted: {:?}", report.aborted);
        played += report.games.len();
    }
    let (status, document) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(status, 200, "{document}");
    assert_eq!(document["status"], "finished", "{document}");
    let seats_played: usize = document["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| g["forfeit"] == false)
        .map(|g| g["players"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(played, seats_played, "each bot saw each of its games end");
    document
}

/// Every game of `document` is finished, played by a stored match that replays.
pub(crate) async fn every_game_stored_and_replayable(server: &TestServer, document: &Value) {
    for game in document["games"].as_array().expect("games") {
        assert_eq!(game["status"], "finished", "{game}");
        let id = game["match"].as_i64().expect("a match");
        let (status, summary) = http_get(&server.http, &format!("/api/matches/{id}"), None).await;
        assert_eq!(status, 200, "{summary}");
        assert_eq!(summary["status"], "finished", "{summary}");
        assert_eq!(summary["tournament"], document["tournament"], "{summary}");
        let names: Vec<&str> = summary["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["name"].as_str().unwrap_or(""))
            .collect();
        let players: Vec<&str> = game["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| p.as_str().unwrap_or(""))
            .collect();
        assert_eq!(
            names, players,
            "the match seats the game's players in order"
        );
        let ranks: Vec<u64> = summary["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["rank"].as_u64().expect("a rank"))
            .collect();
        let recorded: Vec<u64> = game["ranks"]
            .as_array()
            .expect("ranks")
            .iter()
            .map(|r| r.as_u64().expect("a rank"))
            .collect();
        assert_eq!(ranks, recorded, "the game's ranks are its match's");
        let (status, replay) =
            http_get(&server.http, &format!("/api/matches/{id}/replay"), None).await;
        assert_eq!(status, 200, "match {id}'s replay: {replay}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_64_bots_plays_to_the_end_and_every_game_is_stored() {
    // The test reads every game's match and replay over HTTP: hundreds of requests.
    let server = start(|config| config.limits.http_burst = 10_000).await;
    let rounds = 6;
    let document = whole_tournament(
        &server,
        "swiss",
        "nim",
        64,
        json!({"ruleset": "nim", "format": "swiss", "rounds": rounds, "start_when": 64,
               "max_entrants": 64, "name": "Sixty-four", "entry": "bots"}),
    )
    .await;
    assert_eq!(document["round"], rounds);
    // The bot client registers its accounts as bots', so a bots-only Swiss takes them.
    assert_eq!(document["entry"], "bots");
    let games = document["games"].as_array().expect("games");
    assert_eq!(games.len(), 32 * rounds as usize, "32 games a round");
    // No pair meets twice (64 entrants, 6 rounds: always avoidable), and everyone plays
    // every round.
    let mut met = HashSet::new();
    let mut per_round: HashMap<u64, HashSet<String>> = HashMap::new();
    for game in games {
        let players = players_of(game);
        let mut pair = players.clone();
        pair.sort();
        assert!(met.insert(pair.clone()), "{pair:?} met twice");
        let round = game["round"].as_u64().expect("round");
        for player in players {
            assert!(
                per_round.entry(round).or_default().insert(player),
                "twice in round {round}"
            );
        }
    }
    assert!(per_round.values().all(|players| players.len() == 64));
    // The standings: everyone, points adding up to one a game, ranks in order.
    let standings = document["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 64);
    assert!(standings.iter().all(|s| s["bot"] == true), "{standings:?}");
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap_or(0.0))
        .sum();
    assert_eq!(total, (32 * rounds) as f64);
    let ranks: Vec<u64> = standings
        .iter()
        .map(|s| s["rank"].as_u64().unwrap_or(0))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    assert_eq!(
        document["tiebreaks"],
        json!(["buchholz", "sonneborn_berger", "wins"])
    );
    every_game_stored_and_replayable(&server, &document).await;

    // The results download as CSV: a header and a line an entrant.
    let (status, csv) = http_get(
        &server.http,
        &format!("/api/tournaments/{}/results.csv", document["tournament"]),
        None,
    )
    .await;
    assert_eq!(status, 200);
    let csv = csv.as_str().expect("CSV text");
    assert!(
        csv.starts_with("rank,name,points,played,wins,draws,losses,byes,forfeits,buchholz"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 65);
    let header: Vec<&str> = csv.lines().next().unwrap_or("").split(',').collect();
    assert_eq!(header.last(), Some(&"bot"), "{csv}");
    let distinct: HashSet<&str> = header.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        header.len(),
        "every column its own name: {header:?}"
    );
    // Every entrant is a bot (the tournament takes only bots).
    assert!(
        csv.lines().skip(1).all(|line| line.ends_with(",true")),
        "{csv}"
    );
    server.stop().await;
}

/// `connection` sends `request`; the refusal's code.
async fn refused(connection: &mut Connection, request: Value) -> String {
    connection.send(&request).await.expect("send");
    let answers = [
        "error",
        "tournament_created",
        "tournament_joined",
        "tournament_withdrawn",
    ];
    let reply = until(connection, 10, |m| answers.iter().any(|a| m["type"] == *a)).await;
    assert_eq!(reply["type"], "error", "{request} was not refused: {reply}");
    assert!(!reply["message"].as_str().unwrap_or("").is_empty());
    reply["code"].as_str().unwrap_or("").to_string()
}

fn rfc3339_in(seconds: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_secs() as i64;
    let at = std::time::UNIX_EPOCH + Duration::from_secs((now + seconds).max(0) as u64);
    humantime::format_rfc3339_seconds(at).to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_tournament_requests_are_refused_and_change_nothing() {
    let server = start(|_| {}).await;
    let mut guest = Connection::connect(&server.tcp).await.expect("connect");
    let swiss = json!({"type": "create_tournament", "ruleset": "nim", "format": "swiss",
                       "rounds": 3, "start_when": 3, "max_entrants": 3});
    assert_eq!(refused(&mut guest, swiss.clone()).await, "not_logged_in");
    assert_eq!(
        refused(
            &mut guest,
            json!({"type": "join_tournament", "tournament": 1})
        )
        .await,
        "not_logged_in"
    );

    let mut ann = registered(&server.tcp, "t-ann").await;
    let mut bob = registered(&server.tcp, "t-bob").await;
    let mut cid = registered(&server.tcp, "t-cid").await;
    let mut dan = registered(&server.tcp, "t-dan").await;
    let with = |changes: Value| {
        let mut request = swiss.clone();
        for (key, value) in changes.as_object().expect("an object") {
            request[key] = value.clone();
        }
        request
    };
    for (request, code) in [
        (with(json!({"ruleset": "chess"})), "unknown_ruleset"),
        (with(json!({"format": "knockout"})), "unknown_format"),
        (
            with(json!({"starts_at": rfc3339_in(-60), "start_when": null})),
            "bad_tournament",
        ),
        (with(json!({"starts_at": "tomorrow"})), "bad_tournament"),
        (with(json!({"start_when": null})), "bad_tournament"),
        (with(json!({"max_entrants": 1_000_000})), "bad_tournament"),
        (with(json!({"rounds": 0})), "bad_tournament"),
        (with(json!({"rounds": 500})), "bad_tournament"),
        (
            with(json!({"format": "round_robin", "rounds": null, "max_entrants": 100})),
            "bad_tournament",
        ),
        (
            with(json!({"format": "arena", "rounds": null, "duration_ms": 10})),
            "bad_tournament",
        ),
        (with(json!({"start_when": 50})), "bad_tournament"),
        (with(json!({"name": "x".repeat(500)})), "bad_tournament"),
        (with(json!({"deadline_ms": 1})), "bad_clock"),
        (with(json!({"config": [1]})), "bad_config"),
        (with(json!({"entry": "robots"})), "bad_entry"),
    ] {
        assert_eq!(refused(&mut ann, request.clone()).await, code, "{request}");
    }
    let (_, list) = http_get(&server.http, "/api/tournaments", None).await;
    assert_eq!(
        list["tournaments"],
        json!([]),
        "no refused request made a tournament"
    );

    // A tournament for three that starts when full; ann joins, and joins again.
    let id = create(&mut ann, swiss.clone()).await;
    let join = json!({"type": "join_tournament", "tournament": id});
    ann.send(&join).await.expect("send");
    until(&mut ann, 5, |m| m["type"] == "tournament_joined").await;
    assert_eq!(refused(&mut ann, join.clone()).await, "already_entered");
    // Bob cannot withdraw anyone but himself, and he is not in it.
    let withdraw = json!({"type": "withdraw_tournament", "tournament": id});
    assert_eq!(refused(&mut bob, withdraw.clone()).await, "not_entered");
    assert_eq!(
        refused(
            &mut bob,
            json!({"type": "join_tournament", "tournament": id + 100})
        )
        .await,
        "no_such_tournament"
    );
    let (_, document) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(
        (document["status"].clone(), document["entrants"].clone()),
        (json!("open"), json!(1))
    );
    assert_eq!(document["standings"].as_array().map(Vec::len), Some(1));

    // A tournament whose start comes with too few entrants is cancelled; joining it
    // then is refused.
    let lonely = create(
        &mut bob,
        json!({"ruleset": "nim", "format": "swiss", "rounds": 1, "starts_at": rfc3339_in(2)}),
    )
    .await;
    // Bob watches it: the state comes when it changes, and `tournament_ended` at the end.
    bob.send(&json!({"type": "watch_tournament", "tournament": lonely}))
        .await
        .expect("send");
    until(&mut bob, 30, |m| {
        m["type"] == "tournament_ended" && m["tournament"] == lonely
    })
    .await;
    let (_, cancelled) = http_get(&server.http, &format!("/api/tournaments/{lonely}"), None).await;
    assert_eq!(cancelled["status"], "cancelled", "nobody came: {cancelled}");
    assert_eq!(
        refused(
            &mut cid,
            json!({"type": "join_tournament", "tournament": lonely})
        )
        .await,
        "tournament_over"
    );

    // Full: ann, bob and cid fill it (and it starts); dan is refused.
    for connection in [&mut bob, &mut cid] {
        connection.send(&join).await.expect("send");
        until(connection, 5, |m| m["type"] == "tournament_joined").await;
    }
    let code = refused(&mut dan, join.clone()).await;
    assert!(
        code == "tournament_full" || code == "tournament_started",
        "{code}"
    );
    server.stop().await;
}

/// Two-seat games give out one point each (a win, or two halves): the standings' points
/// add up to the number of games.
fn assert_a_point_a_game(document: &Value, games: usize) {
    let total: f64 = document["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|s| s["points"].as_f64().unwrap_or(0.0))
        .sum();
    assert_eq!(total, games as f64, "a point a game");
}

/// The account names seated in one game of a tournament document.
fn players_of(game: &Value) -> Vec<String> {
    game["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p.as_str().unwrap_or("").to_string())
        .collect()
}

/// An arena's games, in order: nobody played the same opponent twice in a row.
fn assert_no_immediate_rematch(games: &[Value]) {
    let mut last: HashMap<String, String> = HashMap::new();
    for game in games {
        let players = players_of(game);
        let [a, b] = [&players[0], &players[1]];
        assert_ne!(last.get(a), Some(b), "{a} played {b} twice in a row");
        assert_ne!(last.get(b), Some(a), "{b} played {a} twice in a row");
        last.insert(a.clone(), b.clone());
        last.insert(b.clone(), a.clone());
    }
}

/// An arena of eight bots (one of them joining late) for a few seconds: whoever
/// finishes a game is paired again with someone free, never with the opponent they
/// just played; no game starts after the arena's end; every game is stored and
/// replays; the standings count every game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_pairs_whoever_is_free_until_its_time_is_up() {
    let server = start(|config| {
        config.limits.http_burst = 10_000;
        config.limits.shortest_arena = Duration::from_secs(1);
    })
    .await;
    let mut creator = registered(&server.tcp, "arena-host").await;
    let length_ms = 4_000;
    let id = create(
        &mut creator,
        json!({"ruleset": "nim", "format": "arena", "duration_ms": length_ms, "start_when": 7,
               "max_entrants": 8, "rated": false}),
    )
    .await;
    let mut bots = Vec::new();
    for n in 0..8 {
        let plan = tournament_bot(&server, "nim", &format!("arena-bot{n}"), id);
        let players = random_players("nim");
        if n == 7 {
            // The late one: joins once the arena runs.
            // It watches the arena and enters once the state says it runs.
            let mut watcher = Connection::connect(&server.tcp).await.expect("connect");
            watcher
                .send(&json!({"type": "watch_tournament", "tournament": id}))
                .await
                .expect("send");
            bots.push(tokio::spawn(async move {
                until(&mut watcher, 60, |m| {
                    m["type"] == "tournament" && m["status"] == "running"
                })
                .await;
                play(&plan, players).await
            }));
        } else {
            bots.push(tokio::spawn(async move { play(&plan, players).await }));
        }
    }
    for bot in bots {
        let report = tokio::time::timeout(Duration::from_secs(120), bot)
            .await
            .expect("the arena ended in time")
            .expect("the bot task")
            .expect("the bot played the arena");
        assert!(
            report.games.len() >= 2,
            "a bot played {} games",
            report.games.len()
        );
    }
    let (_, document) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(document["status"], "finished", "{document}");
    let games = document["games"].as_array().expect("games");
    assert!(
        games.len() > 8,
        "an arena of a few seconds plays many games: {}",
        games.len()
    );
    assert_no_immediate_rematch(games);
    // No game was paired after the end: its match starts within moments of its
    // pairing, so none was created later than that past the end.
    let ends_at =
        humantime::parse_rfc3339(document["ends_at"].as_str().expect("ends_at")).expect("RFC 3339");
    let moments = Duration::from_secs(2);
    for game in games {
        let (_, summary) = http_get(
            &server.http,
            &format!("/api/matches/{}", game["match"]),
            None,
        )
        .await;
        let created = humantime::parse_rfc3339(summary["created_at"].as_str().expect("created_at"))
            .expect("RFC 3339");
        assert!(
            created <= ends_at + moments,
            "a game started after the end: {summary}"
        );
    }
    let late = document["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .find(|s| s["name"] == "arena-bot7")
        .expect("the late entrant is in the standings");
    assert!(late["played"].as_u64().unwrap_or(0) >= 2, "{late}");
    assert_a_point_a_game(&document, games.len());
    assert_eq!(document["tiebreaks"], json!(["buchholz", "games_played"]));
    every_game_stored_and_replayable(&server, &document).await;
    server.stop().await;
}

/// Pools for three seats: a Swiss of seven Space Crack bots in tables of three (or
/// two), points by placement, every table stored and replayable; then a round-robin
/// pool of four, where every table of three is played once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pools_of_three_play_swiss_rounds_and_a_round_robin() {
    let server = start(|config| config.limits.http_burst = 10_000).await;
    let document = whole_tournament(
        &server,
        "pools",
        "spacecrack",
        7,
        json!({"ruleset": "spacecrack", "format": "swiss", "seats": 3, "rounds": 2,
               "start_when": 7, "max_entrants": 7}),
    )
    .await;
    let games = document["games"].as_array().expect("games");
    for round in 1..=2 {
        let tables: Vec<usize> = games
            .iter()
            .filter(|g| g["round"] == round)
            .map(|g| g["players"].as_array().map_or(0, Vec::len))
            .collect();
        let byes = document["byes"]
            .as_array()
            .map_or(0, |b| b.iter().filter(|b| b["round"] == round).count());
        assert_eq!(
            tables.iter().sum::<usize>() + byes,
            7,
            "round {round}: {tables:?}"
        );
        assert!(tables.iter().all(|&n| (2..=3).contains(&n)), "{tables:?}");
    }
    assert_eq!(document["tiebreaks"], json!(["placements", "buchholz"]));
    every_game_stored_and_replayable(&server, &document).await;

    let document = whole_tournament(
        &server,
        "rr",
        "spacecrack",
        4,
        json!({"ruleset": "spacecrack", "format": "round_robin", "seats": 3, "start_when": 4,
               "max_entrants": 4, "name": "Four of us"}),
    )
    .await;
    let mut tables: Vec<Vec<String>> = document["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let mut names: Vec<String> = g["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|p| p.as_str().unwrap_or("").to_string())
                .collect();
            names.sort();
            names
        })
        .collect();
    tables.sort();
    let before = tables.len();
    tables.dedup();
    assert_eq!(
        (before, tables.len()),
        (4, 4),
        "C(4, 3) tables, each once: {tables:?}"
    );
    every_game_stored_and_replayable(&server, &document).await;
    server.stop().await;
}

/// An arena of two: they just played each other, and nobody else can become free, so
/// they are paired again rather than left waiting until the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_two_pairs_them_again() {
    let server = start(|config| config.limits.shortest_arena = Duration::from_secs(1)).await;
    let mut creator = registered(&server.tcp, "duo-host").await;
    let id = create(
        &mut creator,
        json!({"ruleset": "nim", "format": "arena", "duration_ms": 1_500, "start_when": 2,
               "rated": false}),
    )
    .await;
    let mut bots = Vec::new();
    for n in 0..2 {
        let plan = tournament_bot(&server, "nim", &format!("duo{n}"), id);
        let players = random_players("nim");
        bots.push(tokio::spawn(async move { play(&plan, players).await }));
    }
    for bot in bots {
        let report = tokio::time::timeout(Duration::from_secs(60), bot)
            .await
            .expect("the arena ended in time")
            .expect("the bot task")
            .expect("the bot played");
        assert!(
            report.games.len() >= 2,
            "only {} game(s)",
            report.games.len()
        );
    }
    server.stop().await;
}

/// A house tournament of the configuration recurs: one occurrence is open for entries
/// at a time, made by the house and starting on a multiple of its period; once it has
/// started (here it is cancelled, as nobody came), the next one opens.
/// `connection` joins tournament `id`.
async fn joins(connection: &mut Connection, id: i64) {
    connection
        .send(&json!({"type": "join_tournament", "tournament": id}))
        .await
        .expect("send");
    until(connection, 5, |m| m["type"] == "tournament_joined").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_entry_rule_admits_people_bots_or_both() {
    let server = start(|_| {}).await;
    let mut ann = registered(&server.tcp, "e-ann").await;
    let mut robo = registered_as(&server.tcp, "e-robo", true).await;
    let settings = |entry: &str| {
        json!({"ruleset": "nim", "format": "swiss", "rounds": 1, "start_when": 4,
               "entry": entry})
    };
    let document = |id: i64| {
        let http = server.http.clone();
        async move {
            let (status, document) = http_get(&http, &format!("/api/tournaments/{id}"), None).await;
            assert_eq!(status, 200, "{document}");
            document
        }
    };

    // Bots only refuses the person, people only the bot, changing nothing; the other
    // kind enters, a bot marked so in the standings.
    for (entry, refusal, bot) in [
        ("bots", "entry_bots_only", true),
        ("people", "entry_people_only", false),
    ] {
        let (admitted, other) = if bot {
            (&mut robo, &mut ann)
        } else {
            (&mut ann, &mut robo)
        };
        let id = create(admitted, settings(entry)).await;
        let join = json!({"type": "join_tournament", "tournament": id});
        assert_eq!(refused(other, join).await, refusal);
        let before = document(id).await;
        assert_eq!(before["entry"], entry);
        assert_eq!(before["entrants"], 0, "{before}");
        assert_eq!(before["standings"], json!([]), "{before}");
        joins(admitted, id).await;
        let after = document(id).await;
        assert_eq!(after["entrants"], 1, "{after}");
        let line = &after["standings"][0];
        assert_eq!(line["name"], if bot { "e-robo" } else { "e-ann" });
        assert_eq!(line.get("bot").is_some(), bot, "{line}");
    }

    // Both (the default): either kind enters; the list says who may enter each.
    let mut both_settings = settings("both");
    both_settings
        .as_object_mut()
        .expect("an object")
        .remove("entry");
    let both = create(&mut ann, both_settings).await;
    joins(&mut ann, both).await;
    joins(&mut robo, both).await;
    assert_eq!(document(both).await["entrants"], 2);
    let (_, list) = http_get(&server.http, "/api/tournaments", None).await;
    let rules: Vec<&str> = list["tournaments"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|t| t["entry"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(rules, ["both", "people", "bots"]);

    // An account made a person's (as every account was before kinds) becomes a bot's
    // when its bot logs in saying so, as the kits do, and may then enter bots only.
    let bots_only = create(&mut robo, settings("bots")).await;
    let mut old = Connection::connect(&server.tcp).await.expect("connect");
    let login = |bot: bool| json!({"type": "login", "name": "e-ann", "password": password("e-ann"), "bot": bot});
    old.send(&login(true)).await.expect("send");
    old.expect("logged_in", |_| {}).await.expect("logged in");
    joins(&mut old, bots_only).await;
    assert_eq!(document(bots_only).await["standings"][0]["bot"], true);
    // And back: a person's again, refused by a bots-only tournament.
    let mut again = Connection::connect(&server.tcp).await.expect("connect");
    again.send(&login(false)).await.expect("send");
    again.expect("logged_in", |_| {}).await.expect("logged in");
    let other = create(&mut robo, settings("bots")).await;
    let join = json!({"type": "join_tournament", "tournament": other});
    assert_eq!(refused(&mut again, join).await, "entry_bots_only");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_tournament_opens_again_after_each_start() {
    let every = Duration::from_secs(2);
    let server = start(|config| {
        config
            .house_tournaments
            .push(arbiter_server::tournaments::house::HouseTournament {
                every,
                settings: serde_json::from_value(json!({
                    "name": "Every two seconds", "ruleset": "nim", "format": "arena",
                    "duration_ms": 60000, "start_when": 64, "entry": "people",
                }))
                .expect("settings"),
            });
    })
    .await;
    let mut seen: Vec<Value> = Vec::new();
    let give_up = tokio::time::Instant::now() + Duration::from_secs(60);
    while seen.len() < 2 {
        assert!(
            tokio::time::Instant::now() < give_up,
            "two occurrences in a minute: {seen:?}"
        );
        let (status, listed) = http_get(&server.http, "/api/tournaments", None).await;
        assert_eq!(status, 200, "{listed}");
        for tournament in listed["tournaments"].as_array().expect("a list") {
            if tournament["name"] == "Every two seconds"
                && !seen.iter().any(|t| t["id"] == tournament["id"])
            {
                seen.push(tournament.clone());
            }
        }
        // The house's scheduler runs on its own: look again shortly.
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for tournament in &seen {
        assert!(
            tournament["created_by"].is_null(),
            "made by the house: {tournament}"
        );
        assert_eq!(tournament["entry"], "people", "as the host set it");
        let starts = tournament["starts_at"].as_str().expect("a start time");
        let at = humantime::parse_rfc3339(starts)
            .expect("an RFC 3339 time")
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_millis();
        assert_eq!(at % 2000, 0, "starts on a multiple of the period: {starts}");
    }
    assert_ne!(seen[0]["starts_at"], seen[1]["starts_at"], "{seen:?}");
    server.stop().await;
}

/// A random player that takes one to three seconds over each decision on Tokio's
/// clock (varied by a little generator of its own).
struct Paced {
    player: Box<dyn Decider>,
    state: u64,
}

impl Decider for Paced {
    fn decide(&mut self, view: &Value, seat: usize) -> Result<Value, String> {
        self.player.decide(view, seat)
    }

    fn thinks(&self) -> bool {
        self.player.thinks()
    }

    fn pause(&mut self) -> Duration {
        self.state = self
            .state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        Duration::from_millis(1_000 + (self.state >> 33) % 2_000)
    }
}

/// Paced random players of `ruleset`. The factory is called as each `match_started`
/// arrives: the moment (on Tokio's clock) goes to `starts`.
fn paced_players(ruleset: &str, starts: Arc<Mutex<Vec<Instant>>>) -> DeciderFactory {
    let mut random = random_players(ruleset);
    Box::new(move |config: &Value, seed: u64| {
        starts.lock().expect("not poisoned").push(Instant::now());
        Ok(Box::new(Paced {
            player: random(config, seed)?,
            state: seed,
        }) as Box<dyn Decider>)
    })
}

/// Paces a paused clock. Tokio moves a paused clock on to the next timer whenever the
/// runtime has nothing to run, and that includes the moments it only waits for the
/// database: for SQLx's SQLite connection thread or for PostgreSQL, which it cannot
/// see. With only the server's timers, far apart, a query of a millisecond let the clock
/// run on for seconds, and SQLx's wait for a pooled connection (30 s; PostgreSQL's 5 s)
/// ran out within real milliseconds: the store could not even open. Here a timer is due
/// every millisecond, each followed by a hand-off to the blocking pool, during which
/// Tokio holds the clock. A millisecond on Tokio's clock then costs tens of real
/// microseconds: while the runtime waits for the database, the clock runs some fifty
/// times faster than real time, far from any timeout. (With the timer alone it ran some
/// 300 times faster: still enough for connecting to PostgreSQL to time out.)
fn metronome() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        loop {
            tokio::time::sleep(Duration::from_millis(1)).await;
            let _ = tokio::task::spawn_blocking(|| {}).await;
        }
    })
}

/// Issue 62: an arena of ten minutes, end to end through the server, on paused time.
/// Bots think one to three seconds a move on Tokio's clock, far less than the time per
/// move, so whichever game waits on a bot, that bot's timer is due before the deadline.
/// Whoever is free is paired again, never with the opponent they just played; the
/// arena pairs until its end and no game starts after it; no move is made by a deadline
/// or a stand-in; every game is stored and replays; the standings count every game.
#[tokio::test]
async fn a_ten_minute_arena_on_virtual_time() {
    let real = std::time::Instant::now();
    let length = Duration::from_secs(600);
    // Time per move: far beyond a bot's thinking, and beyond what waiting for the
    // database costs on the paced clock.
    let per_move = Duration::from_secs(300);
    // The server starts on real time: opening the store (a scratch PostgreSQL database,
    // its migrations, the pools' first connections) takes real seconds on a loaded
    // machine, which the paced clock would turn into a pool timeout (seen in CI). Only
    // the arena runs on Tokio's paused clock.
    let server = start(|config| {
        // The test reads every game's match, record and replay over HTTP.
        config.limits.http_burst = 10_000;
        // A seat without its player gets a stand-in after this grace: the same.
        config.stand_in_grace = Some(per_move);
    })
    .await;
    tokio::time::pause();
    let began = Instant::now();
    let metronome = metronome();
    let mut creator = registered(&server.tcp, "vt-host").await;
    let entrants = 8;
    let id = create(
        &mut creator,
        json!({"ruleset": "nim", "format": "arena", "duration_ms": length.as_millis() as u64,
               "start_when": entrants, "max_entrants": entrants, "rated": false,
               "deadline_ms": per_move.as_millis() as u64}),
    )
    .await;
    // A watcher notes when (on Tokio's clock) it saw the arena run, and its end.
    let mut watcher = Connection::connect(&server.tcp).await.expect("connect");
    watcher
        .send(&json!({"type": "watch_tournament", "tournament": id}))
        .await
        .expect("send");
    let watching = tokio::spawn(async move {
        let mut running = None;
        loop {
            let message = watcher.recv().await.expect("a message");
            if message["tournament"] != id {
                continue;
            }
            if message["type"] == "tournament" && message["status"] == "running" {
                running.get_or_insert_with(Instant::now);
            } else if message["type"] == "tournament_ended" {
                return (running, Instant::now());
            }
        }
    });
    let starts = Arc::new(Mutex::new(Vec::new()));
    let mut bots = Vec::new();
    for n in 0..entrants {
        let plan = tournament_bot(&server, "nim", &format!("vt-bot{n}"), id);
        let players = paced_players("nim", starts.clone());
        bots.push(tokio::spawn(async move { play(&plan, players).await }));
    }
    // Bounds on Tokio's clock: a hang fails at once (the clock jumps to the bound).
    let bound = Duration::from_secs(3600);
    // Each match's decisions, as its two bots counted them.
    let mut decisions: HashMap<i64, u64> = HashMap::new();
    for bot in bots {
        let report = tokio::time::timeout(bound, bot)
            .await
            .expect("the arena ended in time")
            .expect("the bot task")
            .expect("the bot played the arena");
        assert!(report.aborted.is_empty(), "aborted: {:?}", report.aborted);
        assert_eq!(report.rejected, 0, "an action was refused");
        assert!(
            report.games.len() >= 10,
            "a bot played only {} games",
            report.games.len()
        );
        for game in &report.games {
            assert_eq!(game.ejected, None, "match {}", game.match_id);
            *decisions.entry(game.match_id).or_default() += game.decisions;
        }
    }
    let (running, ended) = tokio::time::timeout(bound, watching)
        .await
        .expect("the watcher heard the end")
        .expect("the watcher task");
    let elapsed = began.elapsed();
    let running = running.expect("the watcher saw the arena run");
    // The arena is over and timed: what follows only reads the store, hundreds of
    // requests, on real time. On the paced clock a PostgreSQL connection's 5 s wait
    // is some 100 ms of real time, which a loaded machine can exceed (seen in CI: a
    // replay answered 503 `store_unavailable`).
    metronome.abort();
    tokio::time::resume();
    let (_, document) = http_get(&server.http, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(document["status"], "finished", "{document}");
    let games = document["games"].as_array().expect("games");
    let starts = starts.lock().expect("not poisoned").clone();
    let first = *starts.iter().min().expect("a game started");
    let last = *starts.iter().max().expect("a game started");
    eprintln!(
        "a ten-minute arena: {} games in {elapsed:.1?} on Tokio's clock, {:.1?} of real \
         time; seen running at {:.1?}, first game at {:.1?}, last at {:.1?}, ended at {:.1?}",
        games.len(),
        real.elapsed(),
        running - began,
        first - began,
        last - began,
        ended - began,
    );
    // Four games at a time, a game of nim a few moves of one to three seconds each: about
    // two hundred games in ten minutes. A quarter of that pace is plenty.
    assert!(games.len() > 50, "only {} games", games.len());
    assert_eq!(decisions.len(), games.len(), "each game its own match");
    assert!(
        games.iter().all(|g| g["forfeit"] == false),
        "no forfeits: {document}"
    );
    assert_no_immediate_rematch(games);
    // The arena's end is ten minutes after its director began it, before the first game
    // started: no game started later than that (give or take the moments from pairing
    // to `match_started`), and the pairing went on until near the end.
    let moments = Duration::from_secs(30);
    assert!(
        last <= first + length + moments,
        "a game started {:?} after the first",
        last - first
    );
    assert!(
        last >= first + length - Duration::from_secs(60),
        "the pairing stopped {:?} after the first game",
        last - first
    );
    assert!(ended + moments >= first + length, "it ended early");
    assert!(elapsed >= length);
    assert_a_point_a_game(&document, games.len());
    every_game_stored_and_replayable(&server, &document).await;
    // Every move was a bot's: none made by a deadline or a stand-in.
    for game in games {
        let id = game["match"].as_i64().expect("a match");
        let (status, record) =
            http_get(&server.http, &format!("/api/matches/{id}/record"), None).await;
        assert_eq!(status, 200, "{record}");
        let entries = record["log"].as_array().map_or(0, Vec::len) as u64;
        assert_eq!(Some(&entries), decisions.get(&id), "match {id}: {record}");
        let stand_ins = record["stand_ins"].as_array().map_or(0, Vec::len);
        assert_eq!(stand_ins, 0, "match {id}: {record}");
    }
    server.stop().await;
}
