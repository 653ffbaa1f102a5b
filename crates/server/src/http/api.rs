//! The JSON API: rulesets, matches, replays, leaderboards and players.
//!
//! Replays are rebuilt from the stored record (config, seed, log), verifying every
//! log entry's digest on the way, and projected through one audience's view: spectators by
//! default, or one seat's own views for the account that held it (HTTP Basic auth).

use std::collections::HashMap;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use base64::Engine;
use serde::Serialize;
use serde_json::{json, Value};

use arbiter_engine::MatchRecord;
use arbiter_store::{MatchFilter, MatchStatus, MatchSummary, StoreError};

use crate::http::state::AppState;
use crate::protocol::messages::RulesetInfo;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/rulesets", get(rulesets))
        .route("/rulesets/{id}/rules", get(rules_page))
        .route("/matches", get(matches))
        .route("/matches/{id}", get(match_summary))
        .route("/matches/{id}/replay", get(replay))
        .route("/matches/{id}/record", get(record))
        .route("/leaderboard/{ruleset}", get(leaderboard))
        .route("/players/{name}", get(player))
}

/// An API error: a status and `{"error": code, "message": …}`.
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    /// Sent as `Retry-After` (a throttled login).
    retry_after: Option<std::time::Duration>,
}

impl ApiError {
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same, sent with `Retry-After: wait` (rounded up to whole seconds).
    pub(crate) fn retry_after(self, wait: std::time::Duration) -> ApiError {
        ApiError {
            retry_after: Some(wait),
            ..self
        }
    }

    fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        if let StoreError::Throttled { retry_after } = error {
            return ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "login_throttled",
                error.to_string(),
            )
            .retry_after(retry_after);
        }
        if error.is_caller_error() {
            ApiError::bad_request(error.to_string())
        } else if error.is_transient() {
            tracing::warn!(%error, "the store is unavailable while serving HTTP");
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "store_unavailable",
                "the server's database is unavailable just now; try again shortly",
            )
            .retry_after(std::time::Duration::from_secs(5))
        } else {
            tracing::error!(%error, "store failure while serving HTTP");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "the database could not answer",
            )
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(json!({"error": self.code, "message": self.message})),
        )
            .into_response();
        if let Some(wait) = self.retry_after {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Basic realm=\"arbiter\""),
            );
        }
        response
    }
}

type ApiResult<T> = Result<Json<T>, ApiError>;

/// `GET /api/rulesets`
async fn rulesets(State(app): State<AppState>) -> Json<Vec<RulesetInfo>> {
    Json(app.hub.ruleset_infos())
}

/// `GET /api/rulesets/{id}/rules`: the ruleset's rules page, as Markdown and as HTML.
async fn rules_page(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult<Value> {
    let ruleset = app
        .hub
        .ruleset(&id)
        .map_err(|refusal| ApiError::not_found(refusal.message))?;
    Ok(Json(json!({
        "id": ruleset.id(),
        "name": ruleset.game.name(),
        "markdown": ruleset.game.rules_page(),
        "html": super::markdown::to_html(ruleset.game.rules_page()),
    })))
}

/// `GET /api/matches?ruleset=&player=&status=&before=&limit=`, newest first.
async fn matches(
    State(app): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Value> {
    let number = |key: &str| -> Result<Option<i64>, ApiError> {
        query
            .get(key)
            .map(|v| {
                v.parse::<i64>()
                    .map_err(|_| ApiError::bad_request(format!("{key} must be a number")))
            })
            .transpose()
    };
    let status = match query.get("status").map(String::as_str) {
        None => None,
        Some("running") => Some(MatchStatus::Running),
        Some("finished") => Some(MatchStatus::Finished),
        Some("aborted") => Some(MatchStatus::Aborted),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "status {other:?}: use running, finished or aborted"
            )))
        }
    };
    if let Some(ruleset) = query.get("ruleset") {
        if app.hub.ruleset(ruleset).is_err() {
            return Err(ApiError::not_found(format!("no ruleset {ruleset:?}")));
        }
    }
    let filter = MatchFilter {
        ruleset: query.get("ruleset").cloned(),
        player: query.get("player").cloned(),
        status,
        before: number("before")?,
        limit: number("limit")?.map(|n| n.clamp(1, u32::MAX as i64) as u32),
    };
    let list = app.hub.store.list_matches(&filter).await?;
    Ok(Json(json!({ "matches": list })))
}

/// A stored match's summary, or 404.
async fn stored_summary(app: &AppState, id: i64) -> Result<MatchSummary, ApiError> {
    app.hub
        .store
        .match_summary(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no match {id}")))
}

/// A stored match's record, or 404.
async fn stored_record(app: &AppState, id: i64) -> Result<MatchRecord, ApiError> {
    app.hub
        .store
        .match_record(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no match {id}")))
}

/// `GET /api/matches/{id}`: the summary, the configuration, and the live status when
/// the match is running here. The seed only once the match has ended: with it and the
/// configuration anyone could rebuild every hidden hand and the draw order.
async fn match_summary(State(app): State<AppState>, Path(id): Path<i64>) -> ApiResult<Value> {
    let summary = stored_summary(&app, id).await?;
    let record = app.hub.store.match_record(id).await?;
    let mut body = serde_json::to_value(&summary).unwrap_or(Value::Null);
    if let (Value::Object(map), Some(record)) = (&mut body, record) {
        map.insert("config".into(), record.config);
        if summary.status != MatchStatus::Running {
            map.insert("seed".into(), json!(record.seed));
        }
        map.insert(
            "outcome".into(),
            serde_json::to_value(&record.outcome).unwrap_or(Value::Null),
        );
        // Each time the match went on after its server went away: at which step, and
        // how long it was down (nothing secret).
        map.insert(
            "resumptions".into(),
            serde_json::to_value(&record.resumptions).unwrap_or(Value::Null),
        );
        if let Some(tournament) = app.hub.store.tournament_of_match(id).await? {
            map.insert("tournament".into(), json!(tournament));
        }
        if let Some(live) = app.hub.matches.get(id) {
            map.insert(
                "live".into(),
                serde_json::to_value(live.handle.status()).unwrap_or(Value::Null),
            );
        }
    }
    Ok(Json(body))
}

/// `GET /api/matches/{id}/record`: the match record (configuration, seed, every log
/// entry with its digest, the outcome) as a file for `arbiter replay --verify`.
/// Refused while the match runs: the seed is a secret until the end.
async fn record(State(app): State<AppState>, Path(id): Path<i64>) -> Result<Response, ApiError> {
    let summary = stored_summary(&app, id).await?;
    if summary.status == MatchStatus::Running {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "match_running",
            format!(
                "match {id} is still running; its record (which holds the seed) is \
                 published when it ends"
            ),
        ));
    }
    let record = stored_record(&app, id).await?;
    let disposition = format!(
        "attachment; filename=\"arbiter-{}-{id}.json\"",
        record.ruleset
    );
    let mut response = Json(record).into_response();
    if let Ok(value) = header::HeaderValue::from_str(&disposition) {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

#[derive(Serialize)]
struct Step {
    /// Log entries applied (0 = the initial state).
    step: usize,
    view: Value,
}

/// `GET /api/matches/{id}/replay[?seat=N]`: the view after every step. Without `seat`,
/// the spectators' views; with it, that seat's own views, for its account only.
async fn replay(
    State(app): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<HashMap<String, String>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let seat = query
        .get("seat")
        .map(|s| {
            s.parse::<usize>()
                .map_err(|_| ApiError::bad_request("seat must be a seat number"))
        })
        .transpose()?;
    let summary = stored_summary(&app, id).await?;
    if let Some(seat) = seat {
        let holder = summary
            .seats
            .get(seat)
            .ok_or_else(|| ApiError::not_found(format!("match {id} has no seat {seat}")))?;
        let account = authenticate(&app, &headers, peer).await?;
        if holder.account_id != Some(account) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "not_your_seat",
                format!("seat {seat} of match {id} is not yours; its views are private"),
            ));
        }
    }
    // An ended match never changes: its replay is built once (after the seat check).
    let ended = summary.status != MatchStatus::Running;
    if ended {
        if let Some(cached) = app.replays.get((id, seat)) {
            app.hub.metrics.replay_served(true);
            return Ok(json_response(cached));
        }
    }
    let record = stored_record(&app, id).await?;
    let registry = app.hub.registry.clone();
    let rebuilt = tokio::task::spawn_blocking(move || {
        let mut steps = Vec::with_capacity(record.log.len() + 1);
        let replayed = registry.replay_with(&record, true, |index, state| {
            steps.push(Step {
                step: index.map_or(0, |i| i + 1),
                view: state.view(seat),
            });
        });
        replayed.map(|_| (record, steps))
    })
    .await
    .map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the replay failed: {e}"),
        )
    })?;
    let (record, steps) = rebuilt.map_err(|error| {
        tracing::error!(match_id = id, %error, "a stored match does not replay");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "replay_diverged",
            error.to_string(),
        )
    })?;
    let body: Arc<str> = Arc::from(
        json!({
            "match": id,
            "ruleset": record.ruleset,
            "status": summary.status,
            "seats": record.seats,
            "audience": seat.map_or(json!("spectator"), |s| json!({"seat": s})),
            "steps": steps,
            "outcome": record.outcome,
        })
        .to_string(),
    );
    if ended {
        app.replays.insert((id, seat), body.clone());
    }
    app.hub.metrics.replay_served(false);
    Ok(json_response(body))
}

/// A ready-made JSON body.
fn json_response(body: Arc<str>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// The account named by an `Authorization` header: `Basic` with the right password,
/// or `Bearer` with a live session token.
async fn authenticate(
    app: &AppState,
    headers: &HeaderMap,
    peer: SocketAddr,
) -> Result<i64, ApiError> {
    let unauthorized = |message: &str| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            message.to_string(),
        )
    };
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            unauthorized("a seat's views need its account's HTTP Basic credentials or session")
        })?;
    // A page signed in with a session token (the protocol's `resume`) sends it as Bearer.
    if let Some(token) = value.strip_prefix("Bearer ") {
        return match app.hub.store.resume_session(token.trim()).await {
            Ok(account) => Ok(account.id),
            Err(StoreError::UnknownSession) => Err(unauthorized(
                "this session is unknown or has expired; log in again",
            )),
            Err(error) => Err(error.into()),
        };
    }
    let encoded = value
        .strip_prefix("Basic ")
        .ok_or_else(|| unauthorized("only Basic or Bearer (session) authorization is supported"))?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or_else(|| unauthorized("the Basic credentials are not base64 text"))?;
    let (name, password) = decoded
        .split_once(':')
        .ok_or_else(|| unauthorized("Basic credentials are name:password"))?;
    match app
        .hub
        .store
        .login_from(name, password, Some(peer.ip()))
        .await
    {
        Ok(account) => Ok(account.id),
        Err(StoreError::BadCredentials) => Err(unauthorized("unknown name or wrong password")),
        Err(error) => Err(error.into()),
    }
}

/// `GET /api/leaderboard/{ruleset}?limit=`
async fn leaderboard(
    State(app): State<AppState>,
    Path(ruleset): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Value> {
    if app.hub.ruleset(&ruleset).is_err() {
        return Err(ApiError::not_found(format!("no ruleset {ruleset:?}")));
    }
    let limit = match query.get("limit") {
        Some(n) => n
            .parse::<u32>()
            .map_err(|_| ApiError::bad_request("limit must be a number"))?,
        None => 50,
    };
    let entries = app.hub.store.leaderboard(&ruleset, limit).await?;
    Ok(Json(json!({ "ruleset": ruleset, "entries": entries })))
}

/// `GET /api/players/{name}`: the account, its ratings with their recent history, its
/// record and latest matches.
async fn player(State(app): State<AppState>, Path(name): Path<String>) -> ApiResult<Value> {
    let profile = app
        .hub
        .store
        .player_profile(&name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))?;
    let mut history = serde_json::Map::new();
    for rating in &profile.ratings {
        let points = app
            .hub
            .store
            .rating_history(profile.account.id, &rating.ruleset, 100)
            .await?;
        history.insert(
            rating.ruleset.clone(),
            serde_json::to_value(points).unwrap_or(Value::Null),
        );
    }
    let mut body = serde_json::to_value(&profile).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut body {
        map.insert("rating_history".into(), Value::Object(history));
    }
    Ok(Json(body))
}
