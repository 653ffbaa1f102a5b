//! The battle test harness: `[a,d]` lines in, `{"attacker":n,"defender":m}` lines out.
//!
//! Wired into `arbiter harness spacecrack battle` so other implementations can be
//! checked against ours. Input is untrusted: lines are bounded, and every malformed
//! line is an error naming its line number, never a panic.

use std::io::{BufRead, Read, Write};

use serde_json::Value;

use crate::battle::battle;

/// Longest accepted line, in bytes, without its line ending.
pub const MAX_LINE: usize = 64 * 1024;

/// Read `[a,d]` per line (JSON array of two ship sizes, each 1..=4294967295), write
/// `{"attacker":n,"defender":m}` with the sizes left after [`battle`] (0 = destroyed).
/// Blank lines are skipped. The first malformed line stops the run with
/// `Err("line N: <reason>")` (lines count from 1); output for earlier lines is written.
pub fn battle_harness<R: BufRead, W: Write>(mut input: R, mut output: W) -> Result<(), String> {
    let mut line_number = 0usize;
    let mut buffer = Vec::new();
    loop {
        line_number += 1;
        buffer.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut buffer)
            .map_err(|e| format!("line {line_number}: cannot read input: {e}"))?;
        if read == 0 {
            break;
        }
        // At most MAX_LINE + 2 bytes were read, so a line longer than MAX_LINE (even
        // one cut short by the bound) still measures longer here.
        let content = trim_line_ending(&buffer);
        if content.len() > MAX_LINE {
            return Err(format!("line {line_number}: longer than {MAX_LINE} bytes"));
        }
        let text = std::str::from_utf8(content)
            .map_err(|_| format!("line {line_number}: not valid UTF-8"))?;
        if text.trim().is_empty() {
            continue;
        }
        let (a, d) = parse_pair(text).map_err(|reason| format!("line {line_number}: {reason}"))?;
        let (attacker, defender) = battle(a, d);
        writeln!(
            output,
            "{{\"attacker\":{attacker},\"defender\":{defender}}}"
        )
        .map_err(|e| format!("line {line_number}: cannot write output: {e}"))?;
    }
    output
        .flush()
        .map_err(|e| format!("line {line_number}: cannot write output: {e}"))
}

fn trim_line_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// `[a,d]` with two integers from 1 to 2³²−1.
fn parse_pair(text: &str) -> Result<(u32, u32), String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("expected [attacker,defender]: {e}"))?;
    let Value::Array(items) = value else {
        return Err(format!("expected [attacker,defender], got {text}"));
    };
    if items.len() != 2 {
        return Err(format!(
            "expected exactly 2 ship sizes, got {}",
            items.len()
        ));
    }
    let size = |value: &Value, role: &str| -> Result<u32, String> {
        value
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                format!(
                    "{role} size must be an integer from 1 to {}, got {value}",
                    u32::MAX
                )
            })
    };
    Ok((size(&items[0], "attacker")?, size(&items[1], "defender")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> (Result<(), String>, String) {
        let mut out = Vec::new();
        let result = battle_harness(input.as_bytes(), &mut out);
        (result, String::from_utf8(out).unwrap())
    }

    #[test]
    fn answers_every_background_vector() {
        let input = "[7,4]\n[4,7]\n[5,5]\n[6,5]\n[5,6]\n[11,10]\n[3,2]\n";
        let (result, out) = run(input);
        assert_eq!(result, Ok(()));
        assert_eq!(
            out,
            "{\"attacker\":5,\"defender\":0}\n\
             {\"attacker\":0,\"defender\":5}\n\
             {\"attacker\":0,\"defender\":0}\n\
             {\"attacker\":4,\"defender\":0}\n\
             {\"attacker\":0,\"defender\":4}\n\
             {\"attacker\":6,\"defender\":0}\n\
             {\"attacker\":2,\"defender\":0}\n"
        );
    }

    #[test]
    fn skips_blank_lines_and_accepts_spaces_crlf_and_no_final_newline() {
        let (result, out) = run("\n  \r\n[ 7 , 4 ]\r\n\n[4,7]");
        assert_eq!(result, Ok(()));
        assert_eq!(
            out,
            "{\"attacker\":5,\"defender\":0}\n{\"attacker\":0,\"defender\":5}\n"
        );
    }

    #[test]
    fn empty_input_is_fine() {
        assert_eq!(run(""), (Ok(()), String::new()));
    }

    #[test]
    fn malformed_lines_name_the_line() {
        let cases = [
            ("[7,4]\nhello\n", "line 2: "),
            ("[7]\n", "line 1: expected exactly 2"),
            ("[7,4,1]\n", "line 1: expected exactly 2"),
            ("{\"a\":1}\n", "line 1: expected [attacker,defender]"),
            (
                "\n[0,4]\n",
                "line 2: attacker size must be an integer from 1",
            ),
            ("[4,-1]\n", "line 1: defender size"),
            ("[4,2.5]\n", "line 1: defender size"),
            ("[4,4294967296]\n", "line 1: defender size"),
            ("[\"4\",2]\n", "line 1: attacker size"),
            ("[4,2]]\n", "line 1: expected [attacker,defender]"),
        ];
        for (input, expected) in cases {
            let (result, _) = run(input);
            let error = result.unwrap_err();
            assert!(error.starts_with(expected), "{input:?} gave {error:?}");
        }
        let (result, out) = run("[7,4]\n[x]\n[5,5]\n");
        assert!(result.unwrap_err().starts_with("line 2: "));
        assert_eq!(out, "{\"attacker\":5,\"defender\":0}\n");
    }

    #[test]
    fn invalid_utf8_is_an_error() {
        let mut out = Vec::new();
        let result = battle_harness(&b"[1,2]\n\xff\xfe\n"[..], &mut out);
        assert_eq!(result, Err("line 2: not valid UTF-8".to_string()));
    }

    #[test]
    fn line_length_is_bounded() {
        let exactly = format!("[7,4]{}\n", " ".repeat(MAX_LINE - 5));
        assert_eq!(run(&exactly).0, Ok(()));
        let too_long = format!("[7,4]{}\n", " ".repeat(MAX_LINE - 4));
        assert_eq!(
            run(&too_long).0,
            Err(format!("line 1: longer than {MAX_LINE} bytes"))
        );
        let huge_unterminated = "[".repeat(10 * MAX_LINE);
        assert_eq!(
            run(&huge_unterminated).0,
            Err(format!("line 1: longer than {MAX_LINE} bytes"))
        );
        let with_crlf = format!("[7,4]{}\r\n", " ".repeat(MAX_LINE - 5));
        assert_eq!(run(&with_crlf).0, Ok(()));
    }
}
