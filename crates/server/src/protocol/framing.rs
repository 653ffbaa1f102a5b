//! Reading newline-delimited messages with a bound on line length.
//!
//! A hand-written reader rather than `LinesCodec`: the session needs to keep the
//! connection after a line that is not UTF-8 (an error, not a hang-up), to know whether a
//! line has been started (so a client cannot hold half a line open forever), and to drop
//! the connection the moment a line passes the bound without buffering the rest.

use tokio::io::{AsyncRead, AsyncReadExt};

/// Why a line could not be delivered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// The line passed the bound; the connection cannot be resynchronised cheaply.
    #[error("line longer than {limit} bytes")]
    TooLong { limit: usize },
    /// The line is not UTF-8 text; it was dropped and reading goes on.
    #[error("line is not UTF-8 text")]
    NotUtf8,
}

/// Reads lines of at most `max` bytes (without the newline) from `inner`.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// How far `buf` has been searched for a newline.
    scanned: usize,
    max: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            buf: Vec::with_capacity(1024),
            scanned: 0,
            max,
        }
    }

    /// The underlying reader (buffered bytes are dropped).
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// True when bytes of an unterminated line are waiting.
    pub fn has_partial_line(&self) -> bool {
        !self.buf.is_empty()
    }

    /// The next line without its `\n` (and `\r`), `Ok(None)` at the end of the stream.
    /// Cancel-safe: bytes read before a cancellation stay in the buffer.
    pub async fn next_line(&mut self) -> std::io::Result<Option<Result<String, FrameError>>> {
        loop {
            if let Some(offset) = self.buf[self.scanned..].iter().position(|&b| b == b'\n') {
                let end = self.scanned + offset;
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                self.scanned = 0;
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > self.max {
                    return Ok(Some(Err(FrameError::TooLong { limit: self.max })));
                }
                return Ok(Some(
                    String::from_utf8(line).map_err(|_| FrameError::NotUtf8),
                ));
            }
            self.scanned = self.buf.len();
            if self.buf.len() > self.max + 1 {
                self.buf.clear();
                self.scanned = 0;
                return Ok(Some(Err(FrameError::TooLong { limit: self.max })));
            }
            // Never read more than the bound allows past what is buffered.
            let room = (self.max + 2)
                .saturating_sub(self.buf.len())
                .clamp(1, 16 * 1024);
            let mut chunk = (&mut self.inner).take(room as u64);
            let read = chunk.read_buf(&mut self.buf).await?;
            if read == 0 {
                // A final unterminated line at the end of the stream is dropped: the
                // protocol says every message ends with a newline.
                return Ok(None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], max: usize) -> Vec<Result<String, FrameError>> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().await.unwrap() {
            let stop = matches!(line, Err(FrameError::TooLong { .. }));
            out.push(line);
            if stop {
                break;
            }
        }
        out
    }

    #[tokio::test]
    async fn splits_lines_and_strips_carriage_returns() {
        let got = lines(b"{\"a\":1}\r\n\n{\"b\":2}\nunterminated", 64).await;
        assert_eq!(
            got,
            vec![
                Ok("{\"a\":1}".into()),
                Ok(String::new()),
                Ok("{\"b\":2}".into())
            ]
        );
    }

    #[tokio::test]
    async fn bad_utf8_is_an_error_and_reading_goes_on() {
        let got = lines(b"\xff\xfe\x00garbage\nok\n", 64).await;
        assert_eq!(got, vec![Err(FrameError::NotUtf8), Ok("ok".into())]);
    }

    #[tokio::test]
    async fn a_long_line_stops_at_the_bound_without_reading_it_all() {
        let mut input = vec![b'x'; 10 * 1024 * 1024];
        input.push(b'\n');
        let mut reader = LineReader::new(&input[..], 1000);
        assert_eq!(
            reader.next_line().await.unwrap(),
            Some(Err(FrameError::TooLong { limit: 1000 }))
        );
        assert!(
            reader.buf.capacity() < 64 * 1024,
            "{}",
            reader.buf.capacity()
        );
        // Exactly at the bound is fine.
        let exact = format!("{}\n", "y".repeat(1000));
        assert_eq!(
            lines(exact.as_bytes(), 1000).await,
            vec![Ok("y".repeat(1000))]
        );
        let over = format!("{}\n", "y".repeat(1001));
        assert_eq!(
            lines(over.as_bytes(), 1000).await,
            vec![Err(FrameError::TooLong { limit: 1000 })]
        );
    }

    #[tokio::test]
    async fn reports_a_started_line() {
        let (mut client, server) = tokio::io::duplex(64);
        let mut reader = LineReader::new(server, 100);
        tokio::io::AsyncWriteExt::write_all(&mut client, b"{\"type\":")
            .await
            .unwrap();
        let pending =
            tokio::time::timeout(std::time::Duration::from_millis(50), reader.next_line()).await;
        assert!(pending.is_err(), "no line yet");
        assert!(reader.has_partial_line());
        tokio::io::AsyncWriteExt::write_all(&mut client, b"1}\n")
            .await
            .unwrap();
        assert_eq!(
            reader.next_line().await.unwrap(),
            Some(Ok("{\"type\":1}".into()))
        );
        assert!(!reader.has_partial_line());
    }
}
