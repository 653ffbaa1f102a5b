//! A line harness around [`battle_wide`], for differential tests against the reference.
//!
//! Input: one battle per line, `[[a,b,c],[d,e,f]]` (JSON; any spacing; integers in the
//! 64-bit range). Output: one line per battle, `[[x,y,z],[u,v,w]]`, the two truncated
//! remainders. Blank lines are skipped. A malformed line stops the run with
//! `Err("line N: <reason>")` (N counts from 1); lines are bounded at 64 KiB.

use std::io::{BufRead, Write};

use crate::battle::battle_wide;

/// Longest accepted line, without its newline.
pub const MAX_LINE: usize = 64 * 1024;

/// Read up to and including the next `\n`, refusing lines longer than [`MAX_LINE`].
/// `Ok(None)` at end of input.
fn read_bounded_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Result<Option<()>, String> {
    buf.clear();
    loop {
        let available = input.fill_buf().map_err(|e| format!("read error: {e}"))?;
        if available.is_empty() {
            return Ok(if buf.is_empty() { None } else { Some(()) });
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if buf.len() + chunk.len() > MAX_LINE {
            return Err(format!("line longer than {MAX_LINE} bytes"));
        }
        buf.extend_from_slice(chunk);
        let consumed = done.unwrap_or(chunk.len());
        input.consume(consumed);
        if done.is_some() {
            return Ok(Some(()));
        }
    }
}

fn parse(line: &str) -> Result<([i64; 3], [i64; 3]), String> {
    serde_json::from_str::<([i64; 3], [i64; 3])>(line)
        .map_err(|e| format!("expected [[a,b,c],[d,e,f]] with 64-bit integers: {e}"))
}

/// Run battles line by line from `input` to `output`.
pub fn battle_harness<R: BufRead, W: Write>(mut input: R, mut output: W) -> Result<(), String> {
    let mut buf = Vec::new();
    let mut number = 0usize;
    loop {
        number += 1;
        let line = match read_bounded_line(&mut input, &mut buf) {
            Ok(Some(())) => &buf,
            Ok(None) => break,
            Err(reason) => return Err(format!("line {number}: {reason}")),
        };
        let text = std::str::from_utf8(line)
            .map_err(|_| format!("line {number}: not valid UTF-8"))?
            .trim();
        if text.is_empty() {
            continue;
        }
        let (s1, s2) = parse(text).map_err(|reason| format!("line {number}: {reason}"))?;
        let (r1, r2) = battle_wide(s1, s2);
        writeln!(
            output,
            "[[{},{},{}],[{},{},{}]]",
            r1[0], r1[1], r1[2], r2[0], r2[1], r2[2]
        )
        .map_err(|e| format!("line {number}: write error: {e}"))?;
    }
    output
        .flush()
        .map_err(|e| format!("line {number}: write error: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[u8]) -> (Result<(), String>, String) {
        let mut out = Vec::new();
        let result = battle_harness(input, &mut out);
        (result, String::from_utf8_lossy(&out).into_owned())
    }

    #[test]
    fn runs_battles_and_skips_blank_lines() {
        let (result, out) = run(
            b"[[10,0,0],[0,10,0]]\n\n  \r\n[[30, 10, 10], [20, 20, 20]]\r\n[[1,7,12],[7,7,10]]",
        );
        assert_eq!(result, Ok(()));
        assert_eq!(
            out,
            "[[5,0,0],[0,0,0]]\n[[0,0,0],[2,0,6]]\n[[0,0,0],[0,0,0]]\n"
        );
    }

    #[test]
    fn malformed_lines_name_their_number() {
        let (result, out) = run(b"[[1,0,0],[0,0,0]]\n[[1,0],[0,0,0]]\n");
        assert_eq!(out, "[[1,0,0],[0,0,0]]\n");
        let error = result.err().unwrap_or_default();
        assert!(error.starts_with("line 2: "), "{error}");
        for bad in [
            &b"[[1.5,0,0],[0,0,0]]"[..],
            b"[[1,0,0],[0,0,0]] x",
            b"nonsense",
            b"[[99999999999999999999,0,0],[0,0,0]]",
            b"\xff\xfe",
        ] {
            let (result, _) = run(bad);
            assert!(result.err().unwrap_or_default().starts_with("line 1: "));
        }
    }

    #[test]
    fn long_lines_are_refused() {
        let mut input = vec![b' '; MAX_LINE + 1];
        input.push(b'\n');
        let (result, _) = run(&input);
        assert!(result.err().unwrap_or_default().contains("longer than"));
        let mut ok = vec![b' '; MAX_LINE - 20];
        ok.extend_from_slice(b"[[1,0,0],[0,0,0]]\n");
        assert_eq!(run(&ok), (Ok(()), "[[1,0,0],[0,0,0]]\n".to_string()));
    }
}
