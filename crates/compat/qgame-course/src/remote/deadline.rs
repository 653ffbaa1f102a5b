//! A TCP stream whose reads and writes give up at a deadline. The course limits each
//! whole call (send the call, receive the complete reply), not each read, so every
//! read and write gets only the time that is left.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

pub struct DeadlineStream {
    stream: TcpStream,
    deadline: Option<Instant>,
}

impl DeadlineStream {
    pub fn new(stream: TcpStream) -> DeadlineStream {
        DeadlineStream {
            stream,
            deadline: None,
        }
    }

    /// Reads and writes after this fail with `TimedOut` once `deadline` has passed;
    /// `None` waits for ever.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }

    /// Close both directions, so the peer sees the end of the stream at once even if
    /// a clone of the socket is still open somewhere.
    pub fn close(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }

    /// The time left, or `TimedOut` if none is.
    fn remaining(&self) -> io::Result<Option<Duration>> {
        match self.deadline {
            None => Ok(None),
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    Err(io::Error::new(io::ErrorKind::TimedOut, "deadline passed"))
                } else {
                    Ok(Some(left))
                }
            }
        }
    }
}

impl Read for DeadlineStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.remaining()?;
        self.stream.set_read_timeout(left)?;
        self.stream.read(buf)
    }
}

impl Write for DeadlineStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let left = self.remaining()?;
        self.stream.set_write_timeout(left)?;
        self.stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}
