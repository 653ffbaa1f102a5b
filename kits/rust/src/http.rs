//! The HTTP API, for one thing: the outcome of a match that ended while the kit was
//! disconnected (`GET /api/matches/{id}`). A bare HTTP/1.0 GET over `TcpStream`, so
//! the kit needs no HTTP library.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

use crate::messages::Outcome;

/// `GET http://{address}{path}` as JSON.
pub fn get_json(address: &str, path: &str) -> Result<Value, String> {
    let mut stream = TcpStream::connect(address).map_err(|e| format!("{address}: {e}"))?;
    let timeout = Some(Duration::from_secs(10));
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

/// A finished match's outcome from the HTTP API at `address` (`host:port`); `Ok(None)`
/// while it has none.
pub fn match_outcome(address: &str, match_id: i64) -> Result<Option<Outcome>, String> {
    let summary = get_json(address, &format!("/api/matches/{match_id}"))?;
    match summary.get("outcome") {
        None | Some(Value::Null) => Ok(None),
        Some(outcome) => serde_json::from_value(outcome.clone())
            .map(Some)
            .map_err(|e| format!("unreadable outcome: {e}")),
    }
}
