//! `arbiter round-robin` and `arbiter bench`, run as the real binary.

use std::process::{Command, Output};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("the arbiter binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "arbiter failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Bounded by iterations with a fixed seed, a round-robin prints the same table every
/// time, whatever the order the parallel games finish in.
#[test]
fn a_seeded_iteration_bounded_round_robin_gives_the_same_table_twice() {
    let args = [
        "round-robin",
        "spacecrack",
        "--seats",
        "mcts,greedy,random",
        "--games",
        "6",
        "--jobs",
        "2",
        "--iterations",
        "15",
        "--seed",
        "4",
    ];
    let first = stdout(&arbiter(&args));
    let second = stdout(&arbiter(&args));
    assert_eq!(first, second);
    for player in ["mcts", "greedy", "random"] {
        assert!(
            first.lines().any(|l| l.starts_with(player)),
            "no line for {player}:\n{first}"
        );
    }
    assert!(
        first.contains("Weng-Lin"),
        "three seats are rated with Weng-Lin:\n{first}"
    );

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let json: serde_json::Value = serde_json::from_str(&stdout(&arbiter(&json_args))).unwrap();
    let standings = json["report"]["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    let games: u64 = standings.iter().map(|s| s["games"].as_u64().unwrap()).sum();
    assert_eq!(games, 18, "every entry plays every game");
    let results = json["report"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
}

#[test]
fn round_robin_rejects_bad_input_with_a_clear_error() {
    for (args, expect) in [
        (
            vec!["round-robin", "qgame", "--seats", "mcts,nobody"],
            "unknown player",
        ),
        (
            vec!["round-robin", "spacegoo", "--seats", "mcts,greedy,random"],
            "seats",
        ),
        (
            vec!["round-robin", "chess", "--seats", "mcts,greedy"],
            "unknown ruleset",
        ),
        (
            vec![
                "round-robin",
                "tae",
                "--seats",
                "mcts,greedy",
                "--games",
                "0",
            ],
            "--games",
        ),
    ] {
        let output = arbiter(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
    }
}

#[test]
fn bench_measures_every_ruleset() {
    let text = stdout(&arbiter(&["bench", "--seconds", "0.05", "--threads", "2"]));
    for id in ["qgame", "spacecrack", "spacegoo", "tae"] {
        assert!(
            text.lines().any(|l| l.starts_with(id)),
            "no line for {id}:\n{text}"
        );
    }
    let json: serde_json::Value = serde_json::from_str(&stdout(&arbiter(&[
        "bench",
        "spacecrack",
        "--seconds",
        "0.05",
        "--json",
    ])))
    .unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 1);
    for rate in ["single_thread", "all_cores"] {
        assert!(rows[0][rate]["games"].as_u64().unwrap() > 0);
        assert!(rows[0][rate]["decisions_per_second"].as_f64().unwrap() > 0.0);
    }
    // The header says what the columns measured.
    assert!(
        text.starts_with(
            "random playouts, 0.05 s per measurement; (1) on one thread, (all) on 2 threads\n"
        ),
        "{text}"
    );
    // With one thread, the one-thread measurement is both rows, run once.
    let once: serde_json::Value = serde_json::from_str(&stdout(&arbiter(&[
        "bench",
        "spacecrack",
        "--seconds",
        "0.05",
        "--threads",
        "1",
        "--json",
    ])))
    .unwrap();
    let row = &once.as_array().unwrap()[0];
    assert_eq!(row["all_cores"]["threads"], 1);
    assert_eq!(row["all_cores"], row["single_thread"]);
    for seconds in ["-1", "0", "NaN", "inf", "1e300"] {
        let bad = arbiter(&["bench", &format!("--seconds={seconds}")]);
        assert_eq!(bad.status.code(), Some(2), "--seconds {seconds}");
        let message = String::from_utf8_lossy(&bad.stderr);
        assert!(message.contains("--seconds must be"), "{message}");
    }
}

/// `--bot` plays whole games with one built-in bot in every seat and reports the mean
/// rounds per game; the default random playouts keep their output.
#[test]
fn bench_plays_whole_games_of_one_bot_and_reports_rounds() {
    let text = stdout(&arbiter(&[
        "bench",
        "spacegoo",
        "--bot",
        "reference",
        "--seconds",
        "0.05",
        "--threads",
        "2",
    ]));
    assert!(text.contains("rounds/game"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("spacegoo")),
        "no line for spacegoo:\n{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&arbiter(&[
        "bench",
        "spacegoo",
        "--bot",
        "reference",
        "--seconds",
        "0.05",
        "--json",
    ])))
    .unwrap();
    let row = &json.as_array().unwrap()[0];
    assert_eq!(row["bot"], "reference");
    for rate in ["single_thread", "all_cores"] {
        let games = row[rate]["games"].as_u64().unwrap();
        assert!(games > 0);
        // Two sealed commands a round, at most 500 rounds (the default config).
        let rounds = row[rate]["rounds"].as_u64().unwrap();
        assert_eq!(row[rate]["decisions"].as_u64().unwrap(), 2 * rounds);
        let per_game = row[rate]["rounds_per_game"].as_f64().unwrap();
        assert!(per_game > 0.0 && per_game <= 500.0, "{per_game}");
    }

    let random: serde_json::Value = serde_json::from_str(&stdout(&arbiter(&[
        "bench",
        "spacegoo",
        "--seconds",
        "0.05",
        "--json",
    ])))
    .unwrap();
    let row = &random.as_array().unwrap()[0];
    assert!(row.get("bot").is_none());
    assert!(row["single_thread"].get("rounds_per_game").is_none());

    // A seat count the ruleset does not take is refused, not quietly raised.
    let one_seat = arbiter(&["bench", "spacegoo", "--seats", "1", "--seconds", "0.05"]);
    assert_eq!(one_seat.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&one_seat.stderr).contains("got 1"));

    let unknown = arbiter(&["bench", "spacegoo", "--bot", "nobody", "--seconds", "0.05"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown player"));
}
