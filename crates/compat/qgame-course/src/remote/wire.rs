//! The course's wire format: a stream of JSON values, nothing else. The reference reads
//! one JSON value at a time from the TCP stream (not lines), so a value may arrive split
//! over many reads, several may arrive in one read, and any amount of whitespace may
//! come first (the reference clients send up to 5,000 spaces before each message).
//!
//! [`JsonReader`] finds where a value ends with a small linear scanner (brackets,
//! strings and escapes) and only then hands the bytes to `serde_json`, so a value
//! trickled in byte by byte costs linear time, and every value is bounded in size.
//! [`JsonReader::next_exact`] keeps a value's integers exactly (`-0` is 0, coordinates
//! may have any number of digits), for the messages that carry coordinates.

use std::io::{self, Read, Write};

use serde_json::Value;

use crate::exact::ExactJson;

/// Largest message (leading whitespace included) a peer may send: a JPub with every
/// tile on the map is about 60 KB, so 1 MiB leaves room while bounding memory.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// Why no value could be read. Each one means the peer failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("no complete JSON value before the deadline")]
    Timeout,
    #[error("the stream ended{0}")]
    Closed(&'static str),
    #[error("a message is longer than {0} bytes")]
    TooLarge(usize),
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("connection error: {0}")]
    Io(String),
}

impl WireError {
    fn from_io(error: &io::Error) -> WireError {
        match error.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => WireError::Timeout,
            io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::UnexpectedEof => WireError::Closed(" (reset)"),
            _ => WireError::Io(error.to_string()),
        }
    }
}

/// Where the scanner is inside the value being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Scan {
    /// Only whitespace so far.
    #[default]
    Before,
    /// Inside an array or object, `depth` levels deep.
    Nested {
        depth: usize,
        in_string: bool,
        escaped: bool,
    },
    /// Inside a top-level string.
    TopString { escaped: bool },
    /// Inside a top-level number or literal (`true`, `false`, `null`).
    Scalar,
}

/// Reads successive JSON values from a byte stream, each at most `limit` bytes.
pub struct JsonReader<R> {
    source: R,
    buffer: Vec<u8>,
    /// Bytes of `buffer` the scanner has looked at.
    scanned: usize,
    /// Where the current value starts in `buffer` (after leading whitespace).
    start: usize,
    scan: Scan,
    limit: usize,
}

impl<R: Read> JsonReader<R> {
    pub fn new(source: R) -> JsonReader<R> {
        JsonReader::with_limit(source, MAX_MESSAGE_BYTES)
    }

    pub fn with_limit(source: R, limit: usize) -> JsonReader<R> {
        JsonReader {
            source,
            buffer: Vec::new(),
            scanned: 0,
            start: 0,
            scan: Scan::Before,
            limit,
        }
    }

    /// Change the size bound for the following values (the one being read keeps
    /// whatever it has buffered).
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    pub fn get_ref(&self) -> &R {
        &self.source
    }

    pub fn get_mut(&mut self) -> &mut R {
        &mut self.source
    }

    /// The next complete JSON value. Bytes after it stay buffered for the next call.
    pub fn next_value(&mut self) -> Result<Value, WireError> {
        self.next_parsed(|bytes| serde_json::from_slice(bytes).map_err(|e| e.to_string()))
    }

    /// The next complete JSON value with its integers exact, as [`JsonReader::next_value`]
    /// reads values otherwise.
    pub fn next_exact(&mut self) -> Result<ExactJson, WireError> {
        self.next_parsed(|bytes| {
            std::str::from_utf8(bytes)
                .map_err(|e| e.to_string())
                .and_then(ExactJson::parse)
        })
    }

    /// The bytes of the next complete value, read by `parse`.
    fn next_parsed<T>(
        &mut self,
        parse: impl Fn(&[u8]) -> Result<T, String>,
    ) -> Result<T, WireError> {
        loop {
            if let Some(end) = self.scan_available()? {
                return self.take_value(end, parse);
            }
            if self.buffer.len() > self.limit {
                return Err(WireError::TooLarge(self.limit));
            }
            let mut chunk = [0u8; 8192];
            let room = (self.limit + 1 - self.buffer.len()).min(chunk.len());
            let count = loop {
                match self.source.read(&mut chunk[..room]) {
                    Ok(count) => break count,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(WireError::from_io(&e)),
                }
            };
            if count == 0 {
                return match self.scan {
                    // A number or literal is complete at the end of the stream.
                    Scan::Scalar => self.take_value(self.buffer.len(), parse),
                    Scan::Before => Err(WireError::Closed("")),
                    _ => Err(WireError::Closed(" in the middle of a JSON value")),
                };
            }
            self.buffer.extend_from_slice(&chunk[..count]);
        }
    }

    /// Scan the unscanned bytes; the end (exclusive) of the value if it is complete.
    fn scan_available(&mut self) -> Result<Option<usize>, WireError> {
        while self.scanned < self.buffer.len() {
            let at = self.scanned;
            let byte = self.buffer[at];
            self.scanned += 1;
            match &mut self.scan {
                Scan::Before => {
                    if byte.is_ascii_whitespace() {
                        continue;
                    }
                    self.start = at;
                    self.scan = match byte {
                        b'[' | b'{' => Scan::Nested {
                            depth: 1,
                            in_string: false,
                            escaped: false,
                        },
                        b'"' => Scan::TopString { escaped: false },
                        b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => Scan::Scalar,
                        other => {
                            return Err(WireError::NotJson(format!(
                                "a JSON value cannot start with {:?}",
                                char::from(other)
                            )))
                        }
                    };
                }
                Scan::Nested {
                    depth,
                    in_string,
                    escaped,
                } => {
                    if *in_string {
                        if *escaped {
                            *escaped = false;
                        } else if byte == b'\\' {
                            *escaped = true;
                        } else if byte == b'"' {
                            *in_string = false;
                        }
                    } else {
                        match byte {
                            b'"' => *in_string = true,
                            b'[' | b'{' => *depth += 1,
                            b']' | b'}' => {
                                *depth -= 1;
                                if *depth == 0 {
                                    return Ok(Some(at + 1));
                                }
                            }
                            _ => {}
                        }
                    }
                }
                Scan::TopString { escaped } => {
                    if *escaped {
                        *escaped = false;
                    } else if byte == b'\\' {
                        *escaped = true;
                    } else if byte == b'"' {
                        return Ok(Some(at + 1));
                    }
                }
                Scan::Scalar => {
                    let ends = byte.is_ascii_whitespace()
                        || matches!(byte, b'[' | b'{' | b'"' | b']' | b'}' | b',' | b':');
                    if ends {
                        self.scanned = at;
                        return Ok(Some(at));
                    }
                    self.check_literal_prefix()?;
                }
            }
        }
        Ok(None)
    }

    /// Fail at once on `void`, `nul!` and the like instead of waiting for more bytes.
    fn check_literal_prefix(&self) -> Result<(), WireError> {
        let text = &self.buffer[self.start..self.scanned];
        let literal: &[u8] = match text.first() {
            Some(b't') => b"true",
            Some(b'f') => b"false",
            Some(b'n') => b"null",
            _ => return Ok(()),
        };
        if text.len() > literal.len() || !literal.starts_with(text) {
            return Err(WireError::NotJson(format!(
                "{:?} is not a JSON value",
                String::from_utf8_lossy(text)
            )));
        }
        Ok(())
    }

    /// Parse `buffer[start..end]` and drop everything up to `end`.
    fn take_value<T>(
        &mut self,
        end: usize,
        parse: impl Fn(&[u8]) -> Result<T, String>,
    ) -> Result<T, WireError> {
        let parsed = parse(&self.buffer[self.start..end]).map_err(WireError::NotJson);
        self.buffer.drain(..end);
        self.scanned = 0;
        self.start = 0;
        self.scan = Scan::Before;
        parsed
    }
}

/// Send one JSON value, followed by a newline (as the reference does).
pub fn write_value(sink: impl Write, value: &Value) -> io::Result<()> {
    write_line(sink, serde_json::to_vec(value).map_err(io::Error::other)?)
}

/// Send one JSON value with its integers as they are, followed by a newline.
pub fn write_exact(sink: impl Write, value: &ExactJson) -> io::Result<()> {
    write_line(sink, value.to_string().into_bytes())
}

fn write_line(mut sink: impl Write, mut bytes: Vec<u8>) -> io::Result<()> {
    bytes.push(b'\n');
    sink.write_all(&bytes)?;
    sink.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::VecDeque;

    /// Hands out the given chunks one per `read`, like a socket that receives them in
    /// separate segments.
    struct Chunks(VecDeque<Vec<u8>>);

    impl Read for Chunks {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let Some(mut chunk) = self.0.pop_front() else {
                return Ok(0);
            };
            let count = chunk.len().min(out.len());
            out[..count].copy_from_slice(&chunk[..count]);
            if count < chunk.len() {
                chunk.drain(..count);
                self.0.push_front(chunk);
            }
            Ok(count)
        }
    }

    fn reader(chunks: &[&str]) -> JsonReader<Chunks> {
        JsonReader::new(Chunks(
            chunks.iter().map(|c| c.as_bytes().to_vec()).collect(),
        ))
    }

    #[test]
    fn a_value_split_over_many_reads() {
        let text = r#"["take-turn",[{"map":[[0,[0,{"color":"red","shape":"star"}]]],"tile*":3}]]"#;
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let chunks: Vec<&str> = bytes.iter().map(String::as_str).collect();
        let mut r = reader(&chunks);
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_eq!(r.next_value(), Ok(expected));
        assert_eq!(r.next_value(), Err(WireError::Closed("")));
    }

    #[test]
    fn several_values_in_one_read_and_leading_spaces() {
        let spaces = " ".repeat(5000);
        let text = format!("{spaces}\"void\"\n[\"win\",[true]]  \"pass\" 12 ");
        let mut r = reader(&[&text]);
        assert_eq!(r.next_value(), Ok(json!("void")));
        assert_eq!(r.next_value(), Ok(json!(["win", [true]])));
        assert_eq!(r.next_value(), Ok(json!("pass")));
        assert_eq!(r.next_value(), Ok(json!(12)));
    }

    #[test]
    fn strings_with_brackets_and_escaped_quotes() {
        let mut r = reader(&[r#"["a]\"", "#, r#""}{\\"]"x\"y""#]);
        assert_eq!(r.next_value(), Ok(json!(["a]\"", "}{\\"])));
        assert_eq!(r.next_value(), Ok(json!("x\"y")));
    }

    #[test]
    fn a_bare_word_fails_without_waiting_for_more() {
        // The reference's nonSetup client: the word void, unquoted, and nothing after.
        let mut r = reader(&["void"]);
        assert!(matches!(r.next_value(), Err(WireError::NotJson(_))));
        let mut r = reader(&["tru", "x"]);
        assert!(matches!(r.next_value(), Err(WireError::NotJson(_))));
        let mut r = reader(&["nu", "ll"]);
        assert_eq!(r.next_value(), Ok(Value::Null));
    }

    #[test]
    fn a_number_split_across_reads_is_read_whole() {
        let mut r = reader(&["1", "23", " "]);
        assert_eq!(r.next_value(), Ok(json!(123)));
    }

    #[test]
    fn truncated_json_then_end_of_stream() {
        // The reference's illTT client: 4095 spaces and a value missing its last byte.
        let text = format!("{}[{{\"coordinate\":1}}", " ".repeat(4095));
        let mut r = reader(&[&text]);
        assert_eq!(
            r.next_value(),
            Err(WireError::Closed(" in the middle of a JSON value"))
        );
    }

    #[test]
    fn mismatched_brackets_are_not_json() {
        let mut r = reader(&["[1,2}"]);
        assert!(matches!(r.next_value(), Err(WireError::NotJson(_))));
    }

    #[test]
    fn oversized_messages_are_refused() {
        let mut r =
            JsonReader::with_limit(Chunks(vec![b" ".repeat(100), b"\"x\"".to_vec()].into()), 64);
        assert_eq!(r.next_value(), Err(WireError::TooLarge(64)));
        let long = format!("[{}]", "1,".repeat(100) + "1");
        let mut r = JsonReader::with_limit(Chunks(vec![long.into_bytes()].into()), 64);
        assert_eq!(r.next_value(), Err(WireError::TooLarge(64)));
    }

    /// `-0` and integers of any size, split over reads, read exactly; what the exact
    /// reader refuses is refused as the other reader refuses it.
    #[test]
    fn exact_values_are_read_whole_and_exactly() {
        let column = "-1234567890123456789012345678901234567890123456789012";
        let text = format!("  [-0,{column}] 7 [1,2}}");
        let chunks: Vec<String> = text.chars().map(String::from).collect();
        let chunks: Vec<&str> = chunks.iter().map(String::as_str).collect();
        let mut r = reader(&chunks);
        assert_eq!(r.next_exact().unwrap().to_string(), format!("[0,{column}]"));
        assert_eq!(r.next_exact().unwrap().to_string(), "7");
        assert!(matches!(r.next_exact(), Err(WireError::NotJson(_))));
        assert_eq!(r.next_exact(), Err(WireError::Closed("")));
        let mut r = reader(&["void"]);
        assert!(matches!(r.next_exact(), Err(WireError::NotJson(_))));
        let mut r = reader(&["1x "]);
        assert!(matches!(r.next_exact(), Err(WireError::NotJson(_))));
    }

    #[test]
    fn write_exact_keeps_the_digits() {
        let mut out = Vec::new();
        let value = ExactJson::parse("[-0,123456789012345678901234567890]").unwrap();
        write_exact(&mut out, &value).unwrap();
        assert_eq!(out, b"[0,123456789012345678901234567890]\n");
    }

    #[test]
    fn write_value_appends_a_newline() {
        let mut out = Vec::new();
        write_value(&mut out, &json!(["win", [false]])).unwrap();
        assert_eq!(out, b"[\"win\",[false]]\n");
    }
}
