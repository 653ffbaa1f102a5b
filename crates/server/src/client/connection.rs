//! A native-protocol client connection over TCP: send JSON messages, receive them one
//! line at a time with the same bound on line length the server applies.

use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use serde_json::{json, Value};
use tokio::io::{AsyncWriteExt, BufWriter};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

use crate::protocol::LineReader;

/// Longest line a client accepts from the server (views of big boards are long).
pub const CLIENT_MAX_LINE: usize = 16 * 1024 * 1024;

pub struct Connection {
    reader: LineReader<OwnedReadHalf>,
    writer: BufWriter<OwnedWriteHalf>,
    /// The server's `welcome`.
    pub welcome: Value,
}

impl Connection {
    /// Connect and read the server's `welcome`.
    pub async fn connect(address: &str) -> anyhow::Result<Connection> {
        let stream = TcpStream::connect(address)
            .await
            .with_context(|| format!("cannot connect to {address}"))?;
        stream.set_nodelay(true)?;
        let (read, write) = stream.into_split();
        let mut connection = Connection {
            reader: LineReader::new(read, CLIENT_MAX_LINE),
            writer: BufWriter::new(write),
            welcome: Value::Null,
        };
        let welcome = tokio::time::timeout(Duration::from_secs(10), connection.recv())
            .await
            .map_err(|_| anyhow!("{address} sent no welcome within 10 s"))??;
        if welcome["type"] != "welcome" {
            bail!("{address} does not speak the Arbiter protocol: {welcome}");
        }
        connection.welcome = welcome;
        Ok(connection)
    }

    pub async fn send(&mut self, message: &Value) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(message)?;
        line.push(b'\n');
        self.writer.write_all(&line).await?;
        self.writer.flush().await?;
        Ok(())
    }

    /// The next message; an error when the server closed the connection.
    pub async fn recv(&mut self) -> anyhow::Result<Value> {
        loop {
            match self.reader.next_line().await? {
                None => bail!("the server closed the connection"),
                Some(Err(error)) => bail!("unreadable line from the server: {error}"),
                Some(Ok(line)) if line.trim().is_empty() => continue,
                Some(Ok(line)) => {
                    return serde_json::from_str(&line).with_context(|| {
                        format!("the server sent a line that is not JSON: {line}")
                    })
                }
            }
        }
    }

    /// Read until a message of type `kind` (returned) or an `error` (an `Err`),
    /// passing every other message to `other`.
    pub async fn expect(
        &mut self,
        kind: &str,
        mut other: impl FnMut(&Value),
    ) -> anyhow::Result<Value> {
        loop {
            let message = self.recv().await?;
            if message["type"] == kind {
                return Ok(message);
            }
            if message["type"] == "error" {
                bail!(
                    "{}: {}",
                    message["code"].as_str().unwrap_or("error"),
                    message["message"].as_str().unwrap_or("")
                );
            }
            other(&message);
        }
    }

    /// Log in with a session token (`registered`/`logged_in` gave it).
    /// Log in with a session token; returns the matches whose seats resume (each
    /// starts with `joined`).
    pub async fn resume(&mut self, session: &str) -> anyhow::Result<Vec<i64>> {
        self.send(&json!({"type": "resume", "session": session}))
            .await?;
        let reply = self.recv().await?;
        match reply["type"].as_str() {
            Some("logged_in") => Ok(resumed(&reply)),
            _ => bail!("resume refused: {reply}"),
        }
    }

    /// Log in, registering the account first if it does not exist (as a bot's: this is
    /// the bot client); returns the matches whose seats resume (each starts with
    /// `joined`).
    pub async fn login_or_register(
        &mut self,
        name: &str,
        password: &str,
    ) -> anyhow::Result<Vec<i64>> {
        self.send(&json!({"type": "login", "name": name, "password": password, "bot": true}))
            .await?;
        let reply = self.recv().await?;
        match (reply["type"].as_str(), reply["code"].as_str()) {
            (Some("logged_in"), _) => Ok(resumed(&reply)),
            (Some("error"), Some("bad_credentials")) => {
                self.send(
                    &json!({"type": "register", "name": name, "password": password, "bot": true}),
                )
                .await?;
                self.expect("registered", |_| {}).await.map(|_| Vec::new())
            }
            _ => bail!("login refused: {reply}"),
        }
    }
}

/// The match ids a `logged_in` message resumes.
fn resumed(logged_in: &Value) -> Vec<i64> {
    logged_in["resumed"]
        .as_array()
        .map(|ids| ids.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}
