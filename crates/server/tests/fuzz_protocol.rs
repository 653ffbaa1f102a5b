//! The protocol's parsers on arbitrary input: reading lines from any bytes in any
//! chunking, and reading any line as a request, never panic and always explain.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use arbiter_server::protocol::{ClientMessage, FrameError, LineReader};
use proptest::prelude::*;
use tokio::io::{AsyncRead, ReadBuf};

/// Hands out `data` in the given chunk sizes, as a network would.
struct Chunked {
    data: Vec<u8>,
    sizes: Vec<usize>,
    position: usize,
    turn: usize,
}

impl AsyncRead for Chunked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let size = self.sizes[self.turn % self.sizes.len()].max(1);
        self.turn += 1;
        let end = (self.position + size)
            .min(self.data.len())
            .min(self.position + buf.remaining());
        let start = self.position;
        buf.put_slice(&self.data[start..end]);
        self.position = end;
        Poll::Ready(Ok(()))
    }
}

/// What the reader must produce: complete lines, `\r` stripped, until one is too long.
fn expected(data: &[u8], max: usize) -> Vec<Result<String, FrameError>> {
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(end) = rest.iter().position(|&b| b == b'\n') {
        let mut line = rest[..end].to_vec();
        rest = &rest[end + 1..];
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > max {
            out.push(Err(FrameError::TooLong { limit: max }));
            return out;
        }
        out.push(String::from_utf8(line).map_err(|_| FrameError::NotUtf8));
    }
    // An unterminated tail longer than the bound is refused too.
    if rest.len() > max + 1 {
        out.push(Err(FrameError::TooLong { limit: max }));
    }
    out
}

fn read_all(data: Vec<u8>, sizes: Vec<usize>, max: usize) -> Vec<Result<String, FrameError>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let mut reader = LineReader::new(
            Chunked {
                data,
                sizes,
                position: 0,
                turn: 0,
            },
            max,
        );
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().await.expect("no I/O error") {
            let stop = matches!(line, Err(FrameError::TooLong { .. }));
            out.push(line);
            if stop {
                break;
            }
        }
        out
    })
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => any::<u8>(),
            2 => Just(b'\n'),
            1 => Just(b'\r'),
            2 => prop::sample::select(b"{}[]\":, abc".to_vec()),
        ],
        0..400,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lines_come_out_the_same_in_any_chunking(
        data in bytes(),
        sizes in prop::collection::vec(1usize..40, 1..8),
        max in 1usize..64,
    ) {
        let got = read_all(data.clone(), sizes, max);
        prop_assert_eq!(got, expected(&data, max));
    }

    #[test]
    fn any_line_parses_or_is_explained(line in ".{0,200}") {
        if let Err(error) = ClientMessage::parse(&line) {
            prop_assert!(!error.code.is_empty());
            prop_assert!(!error.message.is_empty());
        }
    }

    #[test]
    fn json_objects_with_a_known_type_parse_or_are_explained(
        kind in prop::sample::select(arbiter_server::protocol::messages::CLIENT_TYPES.to_vec()),
        fields in prop::collection::btree_map(
            prop::sample::select(vec!["name", "password", "ruleset", "config", "seats",
                                      "table", "seat", "bot", "fill", "match", "action",
                                      "tournament", "format", "rounds", "starts_at"]),
            prop_oneof![
                Just(serde_json::Value::Null),
                any::<i64>().prop_map(serde_json::Value::from),
                ".{0,12}".prop_map(serde_json::Value::from),
                Just(serde_json::json!({"a": [1, 2]})),
            ],
            0..6,
        ),
    ) {
        let mut object = serde_json::Map::new();
        object.insert("type".into(), kind.into());
        for (key, value) in fields {
            object.insert(key.to_string(), value);
        }
        let line = serde_json::Value::Object(object).to_string();
        match ClientMessage::parse(&line) {
            Ok(_) => {}
            Err(error) => {
                prop_assert_eq!(error.code, "bad_message");
                prop_assert!(error.message.contains(kind), "{}", error.message);
            }
        }
    }
}
