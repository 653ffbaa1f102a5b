//! Every place that means "every ruleset" covers every registered one.
//!
//! Tests in Rust loop over `arbiter_rulesets::all()` and the page test asks the server
//! for its list, so those follow the registry by themselves. What cannot (a table in a
//! document, a test macro instantiated per game type, a bot in each starter kit) is
//! checked here against the registry: a new ruleset's two registration lines make this
//! test fail until it is in each of them.

use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repository().join(path))
        .unwrap_or_else(|error| panic!("reading {path}: {error}"))
}

/// The part of `text` from the first line starting with `from` to the next blank line.
fn table_after<'a>(text: &'a str, from: &str, path: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("{path}: no table starting {from:?}"));
    let rest = &text[start..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

/// One row per ruleset, its id first in backticks.
fn has_row(table: &str, id: &str) -> bool {
    table
        .lines()
        .any(|line| line.starts_with(&format!("| `{id}` |")))
}

#[test]
fn every_ruleset_is_in_every_hand_kept_list() {
    let ids: Vec<&str> = arbiter_rulesets::all().iter().map(|r| r.id()).collect();
    assert!(ids.contains(&"nim"), "the toy ruleset is registered");
    let mut missing = Vec::new();

    let readme = read("README.md");
    let shipped = table_after(&readme, "| id | game |", "README.md");
    let bots = read("docs/bots.md");
    let actions = table_after(&bots, "| ruleset | action kinds |", "docs/bots.md");
    let deadlines = table_after(&bots, "| ruleset | a missed deadline |", "docs/bots.md");
    let reliability = read("docs/reliability.md");
    let no_leak = read("crates/rulesets/tests/no_leak_at_scale.rs");
    for id in &ids {
        let mut need = |covered: bool, place: &str| {
            if !covered {
                missing.push(format!("{id}: {place}"));
            }
        };
        need(has_row(shipped, id), "README.md, the table of rulesets");
        need(
            has_row(actions, id),
            "docs/bots.md, the table of action kinds",
        );
        need(
            has_row(deadlines, id),
            "docs/bots.md, the table of missed deadlines",
        );
        for door in ["**TCP**", "**WebSocket**"] {
            let after_door = reliability.find(door).map_or("", |at| &reliability[at..]);
            let table = table_after(after_door, "| bad client", "docs/reliability.md");
            need(
                table
                    .lines()
                    .next()
                    .is_some_and(|header| header.split('|').any(|cell| cell.trim() == *id)),
                &format!("docs/reliability.md, the misbehaviour table {door}"),
            );
        }
        need(
            no_leak.contains(&format!("{id}_hides_its_secrets_everywhere")),
            "crates/rulesets/tests/no_leak_at_scale.rs",
        );
        for kit_bot in [
            format!("kits/python/bots/{id}.py"),
            format!("kits/javascript/bots/{id}.js"),
            format!("kits/rust/src/bots/{id}.rs"),
        ] {
            need(repository().join(&kit_bot).is_file(), &kit_bot);
        }
    }
    assert!(
        missing.is_empty(),
        "lists that miss a ruleset:\n{}",
        missing.join("\n")
    );
}
