//! Sign-up (background §11.1): accept connections in waiting periods; each must send
//! its name, one JSON string obeying the JName rules, within `wait-for-signup`
//! seconds, or it is closed and forgotten. Four players end sign-up at once; at the
//! end of a period two or more do; after the last period with fewer, nobody plays.
//!
//! Names are read one connection at a time, as the reference does, so the sign-up
//! order is the order in which connections arrive.

use std::io;
use std::net::TcpListener;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use arbiter_qgame::state::{MAX_PLAYERS, MIN_PLAYERS};

use crate::actors::is_valid_name;
use crate::remote::deadline::DeadlineStream;
use crate::remote::wire::{JsonReader, MAX_MESSAGE_BYTES};

/// A name message is tiny; the bound still allows the reference clients' 5,000
/// leading spaces many times over.
const MAX_NAME_MESSAGE_BYTES: usize = 64 * 1024;

/// How often to look for a new connection: std has no accept with a timeout, and
/// 10 ms is far below every waiting time of the protocol.
const ACCEPT_POLL: Duration = Duration::from_millis(10);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignupRules {
    pub tries: u32,
    pub period: Duration,
    pub name_wait: Duration,
}

/// A signed-up client: its name and its connection (which may already hold bytes the
/// client sent after its name).
pub struct Recruit {
    pub name: String,
    pub connection: JsonReader<DeadlineStream>,
}

/// Collect players on `listener` in sign-up order, or none if too few came.
pub fn sign_up(
    listener: &TcpListener,
    rules: &SignupRules,
    verbose: bool,
) -> io::Result<Vec<Recruit>> {
    listener.set_nonblocking(true)?;
    let mut recruits: Vec<Recruit> = Vec::new();
    for _ in 0..rules.tries {
        let period_end = Instant::now() + rules.period;
        loop {
            if recruits.len() == MAX_PLAYERS {
                return Ok(recruits);
            }
            let now = Instant::now();
            if now >= period_end {
                break;
            }
            match listener.accept() {
                Ok((stream, peer)) => {
                    let named = stream
                        .set_nonblocking(false)
                        .map_err(|e| e.to_string())
                        .and_then(|()| read_name(DeadlineStream::new(stream), rules.name_wait));
                    match named {
                        Ok(recruit) => {
                            if verbose {
                                eprintln!("signed up {} from {peer}", recruit.name);
                            }
                            recruits.push(recruit);
                        }
                        Err(why) if verbose => eprintln!("improper sign-up from {peer}: {why}"),
                        Err(_) => {}
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    thread::sleep(ACCEPT_POLL.min(period_end - now));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // A connection that failed before we took it (reset, too many files):
                // the others may still come.
                Err(e) => {
                    if verbose {
                        eprintln!("sign-up: accept failed: {e}");
                    }
                    thread::sleep(ACCEPT_POLL.min(period_end - now));
                }
            }
        }
        if recruits.len() >= MIN_PLAYERS {
            return Ok(recruits);
        }
    }
    Ok(Vec::new())
}

/// The first message must be a valid name and arrive in time. (Also used by the
/// server's long-running Q-Game port, which keeps its own waiting periods.)
pub fn read_name(mut stream: DeadlineStream, wait: Duration) -> Result<Recruit, String> {
    stream.set_deadline(Some(Instant::now() + wait));
    let mut connection = JsonReader::with_limit(stream, MAX_NAME_MESSAGE_BYTES);
    let outcome = match connection.next_value() {
        Ok(Value::String(name)) if is_valid_name(&name) => Ok(name),
        Ok(Value::String(name)) => Err(format!("{name:?} is not a valid name")),
        Ok(other) => Err(format!("not a string: {other}")),
        Err(e) => Err(e.to_string()),
    };
    match outcome {
        Ok(name) => {
            connection.get_mut().set_deadline(None);
            connection.set_limit(MAX_MESSAGE_BYTES);
            Ok(Recruit { name, connection })
        }
        Err(why) => {
            connection.get_ref().close();
            Err(why)
        }
    }
}
