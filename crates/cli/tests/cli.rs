//! The `arbiter` binary as a user runs it: real processes, real files, real stdin.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn arbiter(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    // The process may exit before reading its input (an unknown mode fails at once),
    // so a broken pipe here is not an error.
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("arbiter finishes")
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("arbiter-cli-test-{}-{name}", std::process::id()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Bad input to a harness: one line on stderr, exit code 2, never a panic trace.
#[test]
fn harness_rejects_bad_input_with_one_line() {
    for (args, input) in [
        (vec!["harness", "qgame", "xmap"], "this is not json"),
        (
            vec!["harness", "qgame", "xmap"],
            r#"[[0,[0,{"color":"red","shape":"star"}]]] {"color":"red"}"#,
        ),
        (
            vec!["harness", "qgame", "xgames"],
            r#"{"map":[],"tile*":[],"players":[]} [["A","dag"]]"#,
        ),
        (vec!["harness", "qgame", "xlegal"], ""),
        (vec!["harness", "qgame", "xnothing"], "1"),
        (vec!["harness", "spacegoo", "battle"], "[[1,2],[3,4,5]]\n"),
        (vec!["harness", "spacecrack", "battle"], "[1,\"x\"]\n"),
    ] {
        let out = arbiter(&args, input);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?} {input:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn harness_answers_a_course_case() {
    let input = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../compat/qgame-course/tests/conformance/staff/m5/0-in.json"),
    )
    .expect("conformance data");
    let expected = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../compat/qgame-course/tests/conformance/staff/m5/0-out.json"),
    )
    .expect("conformance data");
    let out = arbiter(&["harness", "qgame", "xscore"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let actual: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    assert_eq!(
        actual,
        serde_json::from_str::<serde_json::Value>(&expected).unwrap()
    );
}

#[test]
fn battle_harnesses_answer_line_by_line() {
    let out = arbiter(&["harness", "spacecrack", "battle"], "[5,3]\n\n[1,1]\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 2);
    let out = arbiter(&["harness", "spacegoo", "battle"], "[[10,5,3],[4,4,4]]\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("[["));
}

/// `play --record` then `replay --verify` succeeds for every ruleset; the same seed
/// gives the same outcome; a tampered record fails loudly.
#[test]
fn play_record_replay_verify_for_every_ruleset() {
    for (ruleset, seats) in [
        ("qgame", "ldasg,dag,random"),
        ("spacegoo", "greedy,random"),
        ("spacecrack", "greedy,random,random"),
        ("tae", "greedy,random,random"),
    ] {
        let record = temp_file(&format!("{ruleset}.json"));
        let record_arg = record.to_string_lossy().into_owned();
        let out = arbiter(
            &[
                "play",
                ruleset,
                "--seats",
                seats,
                "--seed",
                "7",
                "--json",
                "--record",
                &record_arg,
            ],
            "",
        );
        assert!(out.status.success(), "{ruleset}: {}", text(&out.stderr));
        let outcome: serde_json::Value = serde_json::from_slice(&out.stdout).expect("outcome JSON");
        assert_eq!(
            outcome["ranks"].as_array().map(Vec::len),
            Some(seats.split(',').count())
        );
        let again = arbiter(
            &["play", ruleset, "--seats", seats, "--seed", "7", "--json"],
            "",
        );
        assert_eq!(
            out.stdout, again.stdout,
            "{ruleset}: same seed, same outcome"
        );

        let verified = arbiter(&["replay", &record_arg, "--verify"], "");
        assert!(
            verified.status.success(),
            "{ruleset}: {}",
            text(&verified.stderr)
        );
        assert!(text(&verified.stdout).contains("verified"));

        let mut tampered: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
        tampered["seed"] = serde_json::json!(8);
        std::fs::write(&record, tampered.to_string()).unwrap();
        let refused = arbiter(&["replay", &record_arg, "--verify"], "");
        assert_eq!(
            refused.status.code(),
            Some(2),
            "{ruleset}: a different seed must not verify"
        );
        assert!(
            text(&refused.stderr).contains("arbiter:"),
            "{}",
            text(&refused.stderr)
        );
        let _ = std::fs::remove_file(&record);
    }
}

#[test]
fn unknown_rulesets_players_and_configs_are_explained() {
    let out = arbiter(&["play", "chess", "--seats", "random,random"], "");
    assert!(
        text(&out.stderr).contains("unknown ruleset \"chess\""),
        "{}",
        text(&out.stderr)
    );
    let out = arbiter(&["play", "qgame", "--seats", "random,wizard"], "");
    assert!(
        text(&out.stderr).contains("unknown player \"wizard\""),
        "{}",
        text(&out.stderr)
    );
    let out = arbiter(
        &[
            "play",
            "qgame",
            "--seats",
            "random,random",
            "--config",
            r#"{"qbo": 99}"#,
        ],
        "",
    );
    assert!(
        text(&out.stderr).contains("qbo must be between 0 and 10"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn show_prints_a_tae_board_at_a_step() {
    let record = temp_file("show-tae.json");
    let record_arg = record.to_string_lossy().into_owned();
    let out = arbiter(
        &[
            "play",
            "tae",
            "--seats",
            "greedy,random",
            "--seed",
            "3",
            "--record",
            &record_arg,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = arbiter(&["show", "tae", &record_arg, "--turn", "4"], "");
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    assert!(text(&shown.stdout).contains("after 4 of"));
    assert!(text(&shown.stdout).contains("legend"));
    let beyond = arbiter(&["show", "tae", &record_arg, "--turn", "999999"], "");
    assert_eq!(beyond.status.code(), Some(2));
    let _ = std::fs::remove_file(&record);
}

/// `arbiter replay … --views | head -1`: the reader leaves after one line and the
/// command ends quietly (by SIGPIPE, as `cat` would), never with a panic.
#[test]
fn a_closed_pipe_ends_a_printing_command_quietly() {
    use std::io::BufRead;
    let record = temp_file("pipe.json");
    let made = arbiter(
        &[
            "play",
            "tae",
            "--seats",
            "random,random",
            "--seed",
            "3",
            "--record",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert!(made.status.success(), "{}", text(&made.stderr));
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["replay", record.to_str().unwrap(), "--views"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with('{'), "{first}");
    // The reader is dropped here: the pipe closes with most of the views unwritten.
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.trim().is_empty(),
        "nothing to say about a closed pipe: {stderr}"
    );
    let _ = std::fs::remove_file(record);
}
