//! The server's modules form layers. No file reaches, through `crate::` or `super::`
//! paths, a file that reaches back to it: a cycle is how a misplaced type shows itself
//! (the server once had seven files in one), so the first test names the files of any
//! cycle. And its folders (the crate root's modules) stand in the order of `LAYERS`,
//! which ARCHITECTURE.md draws: a folder uses only folders of layers below its own.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path such as `["http", "state"]`; the crate root is `[]`.
type Module = Vec<String>;

/// The server's top-level modules, from the top (what starts everything) down to what
/// everything uses. A new folder must be placed here.
const LAYERS: &[&[&str]] = &[
    // Starts and stops the rest.
    &["server"],
    // Doors: clients (TCP, HTTP and WebSocket, the compatibility ports) and other
    // nodes (their asks, and takeovers of a silent node's matches).
    &["transport", "http", "ports", "nodes"],
    // One client's conversation: what it may ask, and of whom.
    &["session"],
    // Tournament directors: they pair and start matches through the hub.
    &["tournaments"],
    // The node's shared state and the calls that change it.
    &["hub"],
    // Queues and tables.
    &["lobby"],
    // The other nodes of a deployment, over NATS.
    &["mesh"],
    // Running matches and their mailboxes.
    &["matches"],
    // Plumbing every layer above uses.
    &["connection", "config", "metrics", "heap", "client"],
    // The wire messages.
    &["protocol"],
];

#[test]
fn the_server_has_no_import_cycle() {
    let edges = file_edges();
    if let Some(cycle) = find_cycle(&edges) {
        let names: Vec<String> = cycle.iter().map(|m| m.join("::")).collect();
        panic!(
            "import cycle among the server's modules: {}",
            names.join(" -> ")
        );
    }
}

#[test]
fn the_servers_folders_use_only_the_layers_below() {
    let layer_of = |folder: &str| LAYERS.iter().position(|layer| layer.contains(&folder));
    let mut wrong = Vec::new();
    for (module, uses) in file_edges() {
        let Some(folder) = module.first() else {
            continue; // lib.rs declares every module
        };
        let Some(layer) = layer_of(folder) else {
            wrong.push(format!("{folder} is in no layer of LAYERS"));
            continue;
        };
        for target in uses {
            let Some(used) = target.first() else { continue };
            if used == folder {
                continue;
            }
            match layer_of(used) {
                Some(below) if below > layer => {}
                _ => wrong.push(format!(
                    "{} uses {} (a layer above it, or beside it)",
                    module.join("::"),
                    target.join("::")
                )),
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "folders out of layer:\n{}",
        wrong.join("\n")
    );
}

/// For every module file, the module files it uses.
fn file_edges() -> BTreeMap<Module, BTreeSet<Module>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = modules(&root);
    assert!(files.len() > 20, "found only {} modules", files.len());
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, path) in &files {
        let text = fs::read_to_string(path).expect("a source file is readable");
        // Unit tests sit at the end of a file in an inline module, where `super` means
        // the file itself; they are not part of the layering.
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        let uses = edges.entry(module.clone()).or_default();
        for target in referenced_paths(text, module, path) {
            if let Some(found) = longest_known(&files, &target) {
                if &found != module && !found.is_empty() {
                    uses.insert(found);
                }
            }
        }
    }
    edges
}

/// Every module file under `src`, by module path.
fn modules(root: &Path) -> BTreeMap<Module, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("src is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let relative = path.strip_prefix(root).expect("under src");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            if parts.first().map(String::as_str) == Some("bin") {
                continue; // binaries are crates of their own
            }
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            found.insert(parts, path);
        }
    }
    found
}

/// The `crate::…` and `super::…` paths a file names (in `use` lines and inline),
/// resolved to absolute module paths. Brace groups are expanded one level deep.
fn referenced_paths(text: &str, module: &Module, path: &Path) -> Vec<Module> {
    // A `mod.rs` is the module itself; `super` in it means its parent.
    let is_mod_file = matches!(
        path.file_stem().and_then(|s| s.to_str()),
        Some("mod" | "lib")
    );
    let parent: Module = if is_mod_file || module.is_empty() {
        module[..module.len().saturating_sub(1)].to_vec()
    } else {
        module[..module.len() - 1].to_vec()
    };
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent.clone())] {
            let mut rest = code;
            while let Some(at) = rest.find(prefix) {
                let before = rest[..at].chars().last();
                rest = &rest[at + prefix.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let (head, group) = split_path(rest);
                let mut target = base.clone();
                target.extend(head.iter().cloned());
                out.push(target.clone());
                for item in group {
                    let mut with = target.clone();
                    with.push(item);
                    out.push(with);
                }
            }
        }
    }
    out
}

/// `a::b::{c, d::e}` → (`[a, b]`, `[c, d]`); `a::b::C` → (`[a, b, C]`, `[]`).
fn split_path(text: &str) -> (Vec<String>, Vec<String>) {
    let mut head = Vec::new();
    let mut rest = text;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            head.push(rest[..end].to_string());
        }
        rest = &rest[end..];
        if let Some(next) = rest.strip_prefix("::") {
            if let Some(group) = next.strip_prefix('{') {
                let close = group.find('}').unwrap_or(group.len());
                let items = group[..close]
                    .split(',')
                    .filter_map(|item| {
                        let name = item.trim().split("::").next()?.trim();
                        (!name.is_empty() && name != "self").then(|| name.to_string())
                    })
                    .collect();
                return (head, items);
            }
            rest = next;
            continue;
        }
        return (head, Vec::new());
    }
}

/// The deepest module file that `target` lies in.
fn longest_known(files: &BTreeMap<Module, PathBuf>, target: &Module) -> Option<Module> {
    (0..=target.len())
        .rev()
        .map(|n| target[..n].to_vec())
        .find(|candidate| files.contains_key(candidate))
}

/// One cycle in the graph, if there is any (depth-first search with colours).
fn find_cycle(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        White,
        Grey,
        Black,
    }
    fn visit(
        node: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        colour: &mut BTreeMap<Module, Colour>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        colour.insert(node.clone(), Colour::Grey);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            match colour.get(next).copied().unwrap_or(Colour::White) {
                Colour::Grey => {
                    let from = stack.iter().position(|m| m == next).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Colour::White => {
                    if let Some(cycle) = visit(next, edges, colour, stack) {
                        return Some(cycle);
                    }
                }
                Colour::Black => {}
            }
        }
        stack.pop();
        colour.insert(node.clone(), Colour::Black);
        None
    }
    let mut colour = BTreeMap::new();
    for node in edges.keys() {
        if colour.get(node).copied().unwrap_or(Colour::White) == Colour::White {
            let mut stack = Vec::new();
            if let Some(cycle) = visit(node, edges, &mut colour, &mut stack) {
                return Some(cycle);
            }
        }
    }
    None
}
