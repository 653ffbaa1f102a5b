//! The native protocol (TCP lines and WebSocket text): bytes framed into lines, each
//! line read as a request.

use arbiter_server::protocol::{ClientMessage, FrameError, LineReader};

/// The line bound in the fuzzed reader: short, so that inputs reach it.
const MAX_LINE: usize = 256;

/// Frame `data` into lines and parse each; also parse the whole input as one line, as
/// a WebSocket text frame is. Every refusal names a code and explains itself, and the
/// reader ends within one call per byte.
pub fn native_lines(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_message(text);
    }
    crate::block_on(async {
        let mut reader = LineReader::new(data, MAX_LINE);
        for _ in 0..=data.len() + 1 {
            match reader.next_line().await {
                Ok(Some(Ok(line))) => {
                    assert!(line.len() <= MAX_LINE, "a line past the bound came through");
                    check_message(&line);
                }
                Ok(Some(Err(FrameError::NotUtf8))) => {}
                // The connection is closed after a line past the bound.
                Ok(Some(Err(FrameError::TooLong { .. }))) | Ok(None) | Err(_) => return,
            }
        }
        panic!("the line reader did not finish {} bytes", data.len());
    });
}

fn check_message(line: &str) {
    if let Err(refused) = ClientMessage::parse(line) {
        assert!(!refused.code.is_empty(), "a refusal without a code");
        assert!(!refused.message.is_empty(), "a refusal without a message");
    }
}
