//! The tournaments' HTTP API: the list, one tournament's whole state (every round's
//! games, standings with tie-breaks), and its results to download as JSON or CSV.

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use super::api::ApiError;
use super::state::AppState;
use crate::tournaments::requests::LIST_LIMIT;
use crate::tournaments::state::{Games, Snapshot, TournamentDocument};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tournaments", get(list))
        .route("/tournaments/{id}", get(one))
        .route("/tournaments/{id}/results.json", get(results_json))
        .route("/tournaments/{id}/results.csv", get(results_csv))
}

/// `GET /api/tournaments`: open and running tournaments, then the latest finished.
async fn list(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    let tournaments = app.hub.store.list_tournaments(LIST_LIMIT).await?;
    Ok(Json(json!({ "tournaments": tournaments })))
}

async fn snapshot(app: &AppState, id: &str) -> Result<Snapshot, ApiError> {
    let id: i64 = id.parse().map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "a tournament id is a number",
        )
    })?;
    Snapshot::load(&app.hub.store, id).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no tournament {id}"),
        )
    })
}

/// `GET /api/tournaments/{id}`: settings, standings and every game.
async fn one(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TournamentDocument>, ApiError> {
    Ok(Json(snapshot(&app, &id).await?.document(Games::All)))
}

/// The same document, as a file to save.
async fn results_json(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let snapshot = snapshot(&app, &id).await?;
    let body = serde_json::to_string_pretty(&snapshot.document(Games::All)).unwrap_or_default();
    Ok(download(
        "application/json",
        format!("tournament-{}.json", snapshot.tournament.id),
        body,
    ))
}

/// The standings as CSV, a file to save.
async fn results_csv(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let snapshot = snapshot(&app, &id).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        format!("tournament-{}-standings.csv", snapshot.tournament.id),
        snapshot.standings_csv(),
    ))
}

fn download(content_type: &'static str, file: String, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        body,
    )
        .into_response()
}
