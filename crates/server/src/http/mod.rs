//! The HTTP side of the server: the JSON API, `/metrics`, the WebSocket endpoint of the
//! native protocol, and a small index page.

pub mod api;
pub mod metrics;
pub mod replay_cache;
pub mod serve;
pub mod state;

use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use metrics::Gauges;
use state::AppState;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/metrics", get(metrics))
        .route("/ws", get(crate::transport::ws::upgrade))
        .nest("/api", api::routes())
        .with_state(state)
}

async fn metrics(State(app): State<AppState>) -> impl IntoResponse {
    let hub = &app.hub;
    let text = hub.metrics.render(&Gauges {
        matches_running: hub.matches.count(),
        players_waiting: hub.matchmaking.waiting(),
        tables_open: hub.tables.list().len(),
    });
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
}

async fn index(State(app): State<AppState>) -> Html<String> {
    let rulesets: String = app
        .hub
        .rulesets
        .iter()
        .map(|r| {
            format!(
                "<li>{} ({}) — <a href=\"/api/leaderboard/{id}\">leaderboard</a>, \
                 <a href=\"/api/matches?ruleset={id}\">matches</a></li>",
                r.game.name(),
                r.id(),
                id = r.id()
            )
        })
        .collect();
    Html(format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Arbiter</title></head>\
         <body><h1>Arbiter</h1><p>A referee server for turn-based strategy games. Bots \
         connect with JSON lines over TCP or over WebSocket at <code>/ws</code>; the \
         protocol is in <code>docs/protocol.md</code>.</p><ul>{rulesets}</ul>\
         <p><a href=\"/api/rulesets\">/api/rulesets</a> · <a href=\"/metrics\">/metrics</a></p>\
         </body></html>"
    ))
}
