//! The web pages: the files under `web/` (embedded at build time by `build.rs`), and
//! each ruleset's board renderer at `/boards/<id>.js`, taken from the ruleset itself
//! ([`arbiter_engine::Ruleset::BOARD_JS`]) so the board lives in the ruleset's folder.
//! The pages are one HTML shell with hash routes; everything they show comes from the
//! JSON API and the native protocol over `/ws`.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use super::state::AppState;

mod assets {
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}

/// `GET /`: the shell every page starts from.
pub async fn index() -> Response {
    asset_response("index.html")
}

/// `GET /web/{*path}`: a file of the pages (scripts, styles, vendored libraries).
pub async fn web_file(Path(path): Path<String>) -> Response {
    asset_response(&path)
}

/// `GET /boards/{file}`: `<ruleset>.js`, that ruleset's board renderer.
pub async fn board(State(app): State<AppState>, Path(file): Path<String>) -> Response {
    let Some(ruleset) = file
        .strip_suffix(".js")
        .and_then(|id| app.hub.ruleset(id).ok())
    else {
        return not_found(&format!("no board renderer at /boards/{file}"));
    };
    if let Some(dir) = std::env::var_os(BOARDS_DIR) {
        let path = std::path::Path::new(&dir)
            .join(ruleset.game.id())
            .join("web/board.js");
        return match std::fs::read(&path) {
            Ok(bytes) => with_type("text/javascript; charset=utf-8", bytes),
            Err(_) => not_found(&format!("no board renderer at {}", path.display())),
        };
    }
    match ruleset.game.board_js() {
        Some(source) => with_type("text/javascript; charset=utf-8", source),
        None => not_found(&format!("no board renderer at /boards/{file}")),
    }
}

fn asset_response(path: &str) -> Response {
    if let Some(dir) = std::env::var_os(WEB_DIR) {
        return from_disk(std::path::Path::new(&dir), path);
    }
    match assets::ASSETS.iter().find(|(name, _)| *name == path) {
        Some((name, bytes)) => with_type(content_type(name), *bytes),
        None => not_found(&format!("no page file {path:?}")),
    }
}

/// Set to the `web/` folder, pages are read from it on every request instead of from
/// the copy built into the binary: edit a page, reload the browser.
const WEB_DIR: &str = "ARBITER_WEB_DIR";

/// Set to the games' folder (`crates/games`), each board is read from
/// `<folder>/<ruleset>/web/board.js` on every request: edit a board, reload the page.
const BOARDS_DIR: &str = "ARBITER_BOARDS_DIR";

fn from_disk(dir: &std::path::Path, path: &str) -> Response {
    // Only plain relative names below the folder.
    let safe = !path.is_empty()
        && path
            .split('/')
            .all(|part| !part.is_empty() && part != ".." && part != "." && !part.contains('\\'));
    match safe.then(|| std::fs::read(dir.join(path))) {
        Some(Ok(bytes)) => with_type(content_type(path), bytes),
        _ => not_found(&format!("no page file {path:?} in {WEB_DIR}")),
    }
}

fn with_type(content_type: &'static str, bytes: impl Into<axum::body::Body>) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // Pages change with the binary: always ask, so an upgrade shows at once.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        bytes.into(),
    )
        .into_response()
}

fn not_found(message: &str) -> Response {
    (StatusCode::NOT_FOUND, message.to_string()).into_response()
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_and_its_libraries_are_embedded() {
        for path in [
            "index.html",
            "vendor/preact.module.js",
            "vendor/htm.module.js",
        ] {
            assert!(
                assets::ASSETS.iter().any(|(name, _)| *name == path),
                "{path} is not embedded"
            );
        }
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
    }
}
