//! Reading client lines with bounds: at most `max_line` bytes per line (the reference had
//! none), and a token bucket for the rate of lines, so one connection cannot make the
//! server buffer or work without limit. The connection decides which lines the bucket
//! is charged for: a game command in a game is not, because the game itself limits
//! those (one per round, the next round only after the opponent's answer; a second one
//! disqualifies), and a fast bot legitimately sends hundreds per second.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};
use tokio::time::Instant;

/// What the next read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Incoming {
    /// One line without its `\n` (and without a `\r` before it).
    Line(String),
    /// Bytes that are not UTF-8: the reference's "invalid data".
    NotUtf8,
    /// The line went past the limit before its newline.
    TooLong,
    /// The peer closed its side (a last line without a newline is returned first).
    Closed,
}

/// A token bucket: `per_second` lines a second on average, `burst` at once.
#[derive(Debug)]
pub struct LineRate {
    per_second: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl LineRate {
    pub fn new(per_second: u32, burst: u32) -> Self {
        let burst = f64::from(burst.max(1));
        LineRate {
            per_second: f64::from(per_second.max(1)),
            burst,
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// Take one line's token; false when the bucket is empty.
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.saturating_duration_since(self.last);
        self.last = now;
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A line reader over a buffered stream.
pub struct LineReader<R> {
    inner: R,
    max_line: usize,
    buffer: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max_line: usize) -> Self {
        LineReader {
            inner,
            max_line: max_line.max(1),
            buffer: Vec::new(),
        }
    }

    /// Read and drop what the client still sends until it closes, `max_bytes` have
    /// gone, or `until`. For after the last line was written and the writing side shut
    /// down: a socket closed with unread input is reset, and a reset can destroy the
    /// lines just sent before the client reads them (a flood's own explanation, say).
    pub async fn discard_until_closed(&mut self, max_bytes: usize, until: tokio::time::Instant) {
        let mut dropped = 0;
        while dropped < max_bytes {
            let read = tokio::time::timeout_at(until, self.inner.fill_buf()).await;
            let count = match read {
                Ok(Ok(bytes)) if !bytes.is_empty() => bytes.len(),
                _ => return,
            };
            self.inner.consume(count);
            dropped += count;
        }
    }

    /// The next line. Cancel-safe: bytes already read stay in the reader's buffer.
    pub async fn next(&mut self) -> Incoming {
        loop {
            let available = match self.inner.fill_buf().await {
                Ok(bytes) => bytes,
                Err(_) => return Incoming::Closed,
            };
            if available.is_empty() {
                if self.buffer.is_empty() {
                    return Incoming::Closed;
                }
                let line = std::mem::take(&mut self.buffer);
                return self.finish(line);
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    let fits = self.buffer.len() + end <= self.max_line;
                    if fits {
                        self.buffer.extend_from_slice(&available[..end]);
                    }
                    self.inner.consume(end + 1);
                    if !fits {
                        self.buffer.clear();
                        return Incoming::TooLong;
                    }
                    let line = std::mem::take(&mut self.buffer);
                    return self.finish(line);
                }
                None => {
                    let taken = available.len();
                    if self.buffer.len() + taken > self.max_line {
                        self.inner.consume(taken);
                        self.buffer.clear();
                        return Incoming::TooLong;
                    }
                    self.buffer.extend_from_slice(available);
                    self.inner.consume(taken);
                }
            }
        }
    }

    fn finish(&mut self, mut line: Vec<u8>) -> Incoming {
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        match String::from_utf8(line) {
            Ok(text) => Incoming::Line(text),
            Err(_) => Incoming::NotUtf8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(bytes: &'static [u8], max: usize) -> LineReader<&'static [u8]> {
        LineReader::new(bytes, max)
    }

    #[tokio::test]
    async fn splits_lines_and_strips_carriage_returns() {
        let mut lines = reader(b"nop\r\nsend 1 2 3 4 5\nlast", 64);
        assert_eq!(lines.next().await, Incoming::Line("nop".into()));
        assert_eq!(lines.next().await, Incoming::Line("send 1 2 3 4 5".into()));
        assert_eq!(lines.next().await, Incoming::Line("last".into()));
        assert_eq!(lines.next().await, Incoming::Closed);
    }

    #[tokio::test]
    async fn long_lines_and_bad_utf8_are_reported() {
        let mut lines = reader(b"12345678\n1234\n\xff\xfe\n", 5);
        assert_eq!(lines.next().await, Incoming::TooLong);
        assert_eq!(lines.next().await, Incoming::Line("1234".into()));
        assert_eq!(lines.next().await, Incoming::NotUtf8);
        let mut unterminated = reader(b"123456789", 5);
        assert_eq!(unterminated.next().await, Incoming::TooLong);
    }

    #[test]
    fn a_burst_beyond_the_allowance_is_refused() {
        let mut rate = LineRate::new(1, 3);
        assert!(rate.allow() && rate.allow() && rate.allow());
        assert!(!rate.allow());
    }
}
