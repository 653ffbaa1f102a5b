//! One TCP connection: JSON objects out and in, one per line.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::messages::{ClientMessage, ServerMessage};

/// A connection to the server's native TCP port.
pub struct Connection {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
    /// The start of a line whose end has not arrived yet (kept across timeouts).
    partial: Vec<u8>,
    /// The server said `server_restarting`: how long it asked to wait.
    restarting: Option<Duration>,
}

impl Connection {
    /// Connect to `address` (`host:port`), waiting at most 10 s.
    pub fn open(address: &str) -> Result<Connection> {
        let mut last = Error::ConnectionLost(format!("{address}: no address"));
        for addr in address.to_socket_addrs()? {
            match TcpStream::connect_timeout(&addr, Duration::from_secs(10)) {
                Ok(stream) => {
                    stream.set_nodelay(true)?;
                    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
                    return Ok(Connection {
                        reader: BufReader::new(stream.try_clone()?),
                        writer: stream,
                        partial: Vec::new(),
                        restarting: None,
                    });
                }
                Err(e) => last = Error::ConnectionLost(format!("{address}: {e}")),
            }
        }
        Err(last)
    }

    /// Send one message as one line.
    pub fn send(&mut self, message: &ClientMessage) -> Result<()> {
        let mut line = serde_json::to_vec(message).expect("a request always serializes");
        line.push(b'\n');
        self.writer.write_all(&line)?;
        Ok(())
    }

    /// The next line (without its `\n`), or `None` if none came within `timeout`
    /// (`None`: wait as long as it takes). Empty lines are skipped.
    pub fn recv_line(&mut self, timeout: Option<Duration>) -> Result<Option<String>> {
        let end = timeout.map(|t| Instant::now() + t);
        loop {
            let left = match end {
                Some(end) => {
                    let left = end.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(None);
                    }
                    Some(left)
                }
                None => None,
            };
            self.reader.get_ref().set_read_timeout(left)?;
            // On a timeout, what arrived stays in `partial` for the next call.
            match self.reader.read_until(b'\n', &mut self.partial) {
                Ok(0) => {
                    return Err(Error::ConnectionLost(
                        "the server closed the connection".into(),
                    ))
                }
                Ok(_) if self.partial.ends_with(b"\n") => {
                    let bytes = std::mem::take(&mut self.partial);
                    let line = String::from_utf8_lossy(&bytes).trim().to_string();
                    if !line.is_empty() {
                        return Ok(Some(line));
                    }
                }
                Ok(_) => {
                    return Err(Error::ConnectionLost(
                        "the server closed the connection mid-line".into(),
                    ))
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// The next message read as a [`ServerMessage`] (with its line, for logs). The
    /// server's `server_restarting` is [`Error::ServerRestarting`]: the connection is
    /// over (the server closes it next).
    pub fn recv(&mut self, timeout: Option<Duration>) -> Result<Option<(ServerMessage, String)>> {
        if let Some(wait) = self.restarting {
            return Err(restarting(wait));
        }
        let Some(line) = self.recv_line(timeout)? else {
            return Ok(None);
        };
        match serde_json::from_str(&line) {
            Ok(ServerMessage::ServerRestarting { retry_after_ms }) => {
                let wait = Duration::from_millis(retry_after_ms);
                self.restarting = Some(wait);
                self.shutdown();
                Err(restarting(wait))
            }
            Ok(message) => Ok(Some((message, line))),
            // A known type with fields this kit cannot read: not worth dying for.
            Err(_) if serde_json::from_str::<serde_json::Value>(&line).is_ok() => {
                Ok(Some((ServerMessage::Other, line)))
            }
            Err(e) => Err(Error::ConnectionLost(format!(
                "the server sent bad JSON: {e}"
            ))),
        }
    }

    /// What the server sent before the connection failed and was not read yet (an
    /// outcome, say), within about a second; and how long the server asked to wait
    /// before connecting again, if it said `server_restarting`.
    pub fn drain(&mut self) -> (Vec<(ServerMessage, String)>, Option<Duration>) {
        let mut messages = Vec::new();
        let end = Instant::now() + Duration::from_secs(1);
        while Instant::now() < end {
            match self.recv(Some(Duration::from_millis(50))) {
                Ok(Some(message)) => messages.push(message),
                Ok(None) | Err(_) => break,
            }
        }
        (messages, self.restarting)
    }

    /// How long the server asked to wait before connecting again, if it said
    /// `server_restarting`.
    pub fn retry_after(&self) -> Option<Duration> {
        self.restarting
    }

    /// Cut the connection both ways (the next read fails); used to test reconnecting.
    pub fn shutdown(&self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

fn restarting(wait: Duration) -> Error {
    Error::ServerRestarting {
        retry_after_ms: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
    }
}
