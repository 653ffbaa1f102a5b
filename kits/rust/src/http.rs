//! The HTTP API, for one thing: the outcome of a match that ended while the kit was
//! disconnected (`GET /api/matches/{id}`). A bare HTTP/1.0 GET over `TcpStream`, so
//! the kit needs no HTTP library.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use serde_json::Value;

use crate::messages::Outcome;

/// `GET http://{address}{path}` as JSON (10 s to connect, 10 s for each read or write).
pub fn get_json(address: &str, path: &str) -> Result<Value, String> {
    let timeout = Some(Duration::from_secs(10));
    let addr = address
        .to_socket_addrs()
        .map_err(|e| format!("{address}: {e}"))?
        .next()
        .ok_or(format!("{address}: no address"))?;
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10))
        .map_err(|e| format!("{address}: {e}"))?;
    stream
        .set_read_timeout(timeout)
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(timeout)
        .map_err(|e| e.to_string())?;
    let request =
        format!("GET {path} HTTP/1.0\r\nHost: {address}\r\nAccept: application/json\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut response = Vec::new();
    stream
        .read_to_end(&mut response)
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&response);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("not an HTTP response")?;
    let status = head.split_whitespace().nth(1).unwrap_or("?");
    if status != "200" {
        return Err(format!("HTTP {status}: {body}"));
    }
    serde_json::from_str(body).map_err(|e| format!("not JSON: {e}"))
}

/// A match as the HTTP API at `address` (`host:port`) tells it.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchSummary {
    /// `running`, `finished` or `aborted`.
    pub status: String,
    /// Its outcome, once it has one.
    pub outcome: Option<Outcome>,
}

/// `GET /api/matches/{match_id}`: the match's status and outcome.
pub fn match_summary(address: &str, match_id: i64) -> Result<MatchSummary, String> {
    let summary = get_json(address, &format!("/api/matches/{match_id}"))?;
    let status = summary
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let outcome = match summary.get("outcome") {
        None | Some(Value::Null) => None,
        Some(outcome) => Some(
            serde_json::from_value(outcome.clone())
                .map_err(|e| format!("unreadable outcome: {e}"))?,
        ),
    };
    Ok(MatchSummary { status, outcome })
}

/// A finished match's outcome from the HTTP API at `address` (`host:port`); `Ok(None)`
/// while it has none.
pub fn match_outcome(address: &str, match_id: i64) -> Result<Option<Outcome>, String> {
    match_summary(address, match_id).map(|summary| summary.outcome)
}
