//! The HTTP side of the server: the web pages, the JSON API, `/metrics`, and the
//! WebSocket endpoint of the native protocol.

pub mod api;
pub mod markdown;
pub mod pace;
pub mod pages;
pub mod replay_cache;
pub mod serve;
pub mod state;
pub mod tournaments;
pub mod ws;

use crate::metrics::{self, Gauges};
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use state::AppState;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(pages::index))
        .route("/web/{*path}", get(pages::web_file))
        .route("/boards/{file}", get(pages::board))
        .route("/metrics", get(metrics))
        .route("/ws", get(crate::http::ws::upgrade))
        .nest("/api", api::routes().merge(tournaments::routes()))
        .with_state(state)
}

async fn metrics(State(app): State<AppState>) -> impl IntoResponse {
    let hub = &app.hub;
    let text = hub.metrics.render(&Gauges {
        matches_running: hub.matches.count(),
        players_waiting: hub.matchmaking.waiting(),
        tables_open: hub.tables.list().len(),
        tunnels_open: hub.mesh.as_ref().map_or(0, |mesh| mesh.tunnels.len()),
    });
    ([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], text)
}
