//! The spacegoo text protocol, as the port reads it: bytes framed into lines, each
//! classified (login, quit, a game command, a reply, a fatal line).

use arbiter_spacegoo::{parse_command, tokenize};
use arbiter_spacegoo_port::lines::{Incoming, LineReader};
use arbiter_spacegoo_port::request::{classify, Request};

/// The line bound in the fuzzed reader: short, so that inputs reach it.
const MAX_LINE: usize = 256;

/// Frame `data` into lines as the port does and classify each; the reader ends within
/// one call per byte, and every answer the port would send is a single line.
pub fn spacegoo_lines(data: &[u8]) {
    crate::block_on(async {
        let mut reader = LineReader::new(data, MAX_LINE);
        for _ in 0..=data.len() + 1 {
            match reader.next().await {
                Incoming::Line(line) => check_line(&line),
                Incoming::NotUtf8 => {}
                Incoming::TooLong | Incoming::Closed => return,
            }
        }
        panic!("the port's line reader did not finish {} bytes", data.len());
    });
}

fn check_line(line: &str) {
    let _ = tokenize(line);
    let _ = parse_command(line);
    match classify(line) {
        Request::Reply(reply) | Request::Fatal(reply) => {
            assert!(!reply.is_empty(), "an empty reply to {line:?}");
            assert!(
                !reply.contains('\n'),
                "a reply of several lines to {line:?}"
            );
        }
        Request::Empty
        | Request::Login { .. }
        | Request::Quit
        | Request::Command(_)
        | Request::BadNumbers => {}
    }
}
