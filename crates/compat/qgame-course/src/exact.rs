//! JSON with its integers kept exactly as written, for the harness edge.
//!
//! The course's inputs may write coordinates of any size (it accepted rows of 28 digits
//! and columns of 52) and `-0`. serde_json reads integers beyond 64 bits, and `-0`, as
//! floats, and its `arbitrary_precision` feature would change how numbers behave in the
//! whole workspace (features are shared), so the harnesses read their input with this
//! small reader instead. Strings and non-integer numbers are still decoded by
//! serde_json, and the grammar is JSON's, so what is refused stays refused.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Number, Value};

/// An integer of any size.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Int {
    negative: bool,
    /// Decimal digits of the magnitude, least significant first, without leading
    /// zeros; empty for zero (which is never negative).
    digits: Vec<u8>,
}

impl Int {
    pub fn zero() -> Int {
        Int {
            negative: false,
            digits: Vec::new(),
        }
    }

    /// `-?[0-9]+`; `-0` is zero.
    pub fn parse(text: &str) -> Option<Int> {
        let (negative, magnitude) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if magnitude.is_empty() || !magnitude.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = magnitude.bytes().rev().map(|b| b - b'0').collect();
        Some(Int::normal(negative, digits))
    }

    fn normal(negative: bool, mut digits: Vec<u8>) -> Int {
        while digits.last() == Some(&0) {
            digits.pop();
        }
        Int {
            negative: negative && !digits.is_empty(),
            digits,
        }
    }

    pub fn to_i64(&self) -> Option<i64> {
        if self.digits.len() > 19 {
            return None;
        }
        let magnitude = self
            .digits
            .iter()
            .rev()
            .fold(0i128, |acc, d| acc * 10 + i128::from(*d));
        i64::try_from(if self.negative { -magnitude } else { magnitude }).ok()
    }

    /// The number as serde_json would have read it: exact within 64 bits, a float
    /// beyond, `None` where even a float cannot hold it.
    pub fn to_number(&self) -> Option<Number> {
        if let Some(small) = self.to_i64() {
            return Some(Number::from(small));
        }
        if let Ok(unsigned) = self.to_string().parse::<u64>() {
            return Some(Number::from(unsigned));
        }
        self.to_string()
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
    }

    pub fn abs(&self) -> Int {
        Int::normal(false, self.digits.clone())
    }

    pub fn neg(&self) -> Int {
        Int::normal(!self.negative, self.digits.clone())
    }

    pub fn add(&self, other: &Int) -> Int {
        if self.negative == other.negative {
            return Int::normal(self.negative, add_magnitudes(&self.digits, &other.digits));
        }
        match compare_magnitudes(&self.digits, &other.digits) {
            Ordering::Equal => Int::zero(),
            Ordering::Greater => Int::normal(
                self.negative,
                subtract_magnitudes(&self.digits, &other.digits),
            ),
            Ordering::Less => Int::normal(
                other.negative,
                subtract_magnitudes(&other.digits, &self.digits),
            ),
        }
    }

    pub fn sub(&self, other: &Int) -> Int {
        self.add(&other.neg())
    }
}

impl From<i64> for Int {
    fn from(value: i64) -> Int {
        Int::parse(&value.to_string()).unwrap_or_else(Int::zero)
    }
}

fn compare_magnitudes(a: &[u8], b: &[u8]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn add_magnitudes(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut sum = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0;
    for i in 0..a.len().max(b.len()) {
        let digit = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
        sum.push(digit % 10);
        carry = digit / 10;
    }
    if carry > 0 {
        sum.push(carry);
    }
    sum
}

/// `a - b` for `a >= b`.
fn subtract_magnitudes(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut difference = Vec::with_capacity(a.len());
    let mut borrow = 0;
    for (i, &digit) in a.iter().enumerate() {
        let minus = b.get(i).copied().unwrap_or(0) + borrow;
        if digit >= minus {
            difference.push(digit - minus);
            borrow = 0;
        } else {
            difference.push(digit + 10 - minus);
            borrow = 1;
        }
    }
    difference
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => compare_magnitudes(&self.digits, &other.digits),
            (true, true) => compare_magnitudes(&other.digits, &self.digits),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digits.is_empty() {
            return f.write_str("0");
        }
        let text: String = self
            .digits
            .iter()
            .rev()
            .map(|d| char::from(b'0' + d))
            .collect();
        if self.negative {
            write!(f, "-{text}")
        } else {
            f.write_str(&text)
        }
    }
}

/// A JSON value whose integers are [`Int`]s. Objects keep their keys in order,
/// duplicates included; where one is looked up or converted, the last one counts, as
/// in serde_json's `Value`.
#[derive(Debug, Clone, PartialEq)]
pub enum ExactJson {
    Null,
    Bool(bool),
    Int(Int),
    /// A number with a fraction or an exponent.
    Number(Number),
    String(String),
    Array(Vec<ExactJson>),
    Object(Vec<(String, ExactJson)>),
}

/// serde_json's nesting limit.
const MAX_DEPTH: usize = 128;

impl ExactJson {
    /// Every JSON value in `text`, concatenated with or without whitespace between
    /// them (the same values serde_json's stream reader accepts).
    pub fn parse_stream(text: &str) -> Result<Vec<ExactJson>, String> {
        let mut reader = Reader { text, at: 0 };
        let mut values = Vec::new();
        loop {
            reader.skip_whitespace();
            let Some(first) = reader.peek() else {
                return Ok(values);
            };
            values.push(reader.value(0)?);
            // A number or a literal must end where a token may start.
            if !matches!(first, b'[' | b'{' | b'"')
                && !matches!(
                    reader.peek(),
                    None | Some(
                        b' ' | b'\n'
                            | b'\t'
                            | b'\r'
                            | b'"'
                            | b'['
                            | b']'
                            | b'{'
                            | b'}'
                            | b','
                            | b':'
                    )
                )
            {
                return Err(reader.error("trailing characters"));
            }
        }
    }

    /// The one JSON value of `text` (whitespace around it allowed).
    pub fn parse(text: &str) -> Result<ExactJson, String> {
        let mut values = ExactJson::parse_stream(text)?;
        match (values.pop(), values.is_empty()) {
            (Some(value), true) => Ok(value),
            (None, _) => Err("EOF while parsing a value".into()),
            (Some(_), false) => Err("more than one JSON value".into()),
        }
    }

    /// The last value under `key`, for an object.
    pub fn get(&self, key: &str) -> Option<&ExactJson> {
        match self {
            ExactJson::Object(entries) => {
                entries.iter().rev().find(|(k, _)| k == key).map(|e| &e.1)
            }
            _ => None,
        }
    }

    /// As a serde_json value: integers within 64 bits exactly, larger ones as floats
    /// (as serde_json reads them); an error where not even a float holds one.
    pub fn to_value(&self) -> Result<Value, String> {
        Ok(match self {
            ExactJson::Null => Value::Null,
            ExactJson::Bool(b) => Value::Bool(*b),
            ExactJson::Int(int) => Value::Number(
                int.to_number()
                    .ok_or_else(|| format!("number out of range: {int}"))?,
            ),
            ExactJson::Number(n) => Value::Number(n.clone()),
            ExactJson::String(s) => Value::String(s.clone()),
            ExactJson::Array(items) => Value::Array(
                items
                    .iter()
                    .map(ExactJson::to_value)
                    .collect::<Result<_, _>>()?,
            ),
            ExactJson::Object(entries) => {
                let mut object = serde_json::Map::new();
                for (key, value) in entries {
                    object.insert(key.clone(), value.to_value()?);
                }
                Value::Object(object)
            }
        })
    }

    pub fn from_value(value: &Value) -> ExactJson {
        match value {
            Value::Null => ExactJson::Null,
            Value::Bool(b) => ExactJson::Bool(*b),
            Value::Number(n) => match Int::parse(&n.to_string()) {
                Some(int) if n.is_i64() || n.is_u64() => ExactJson::Int(int),
                _ => ExactJson::Number(n.clone()),
            },
            Value::String(s) => ExactJson::String(s.clone()),
            Value::Array(items) => {
                ExactJson::Array(items.iter().map(ExactJson::from_value).collect())
            }
            Value::Object(object) => ExactJson::Object(
                object
                    .iter()
                    .map(|(k, v)| (k.clone(), ExactJson::from_value(v)))
                    .collect(),
            ),
        }
    }
}

/// Compact, like serde_json's `Value` display.
impl fmt::Display for ExactJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |s: &str| serde_json::to_string(s).map_err(|_| fmt::Error);
        match self {
            ExactJson::Null => f.write_str("null"),
            ExactJson::Bool(b) => write!(f, "{b}"),
            ExactJson::Int(int) => write!(f, "{int}"),
            ExactJson::Number(n) => write!(f, "{n}"),
            ExactJson::String(s) => f.write_str(&text(s)?),
            ExactJson::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            ExactJson::Object(entries) => {
                f.write_str("{")?;
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{value}", text(key)?)?;
                }
                f.write_str("}")
            }
        }
    }
}

struct Reader<'t> {
    text: &'t str,
    /// Byte offset of the next unread byte.
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.at += 1;
        }
    }

    /// `message` with the line and column, as serde_json reports them.
    fn error(&self, message: &str) -> String {
        let before = &self.text.as_bytes()[..self.at.min(self.text.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = before.len()
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
        format!("{message} at line {line} column {column}")
    }

    fn expect(&mut self, byte: u8, message: &str) -> Result<(), String> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    fn value(&mut self, depth: usize) -> Result<ExactJson, String> {
        match self.peek() {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'[') => self.array(depth),
            Some(b'{') => self.object(depth),
            Some(b'"') => self.string().map(ExactJson::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", ExactJson::Bool(true)),
            Some(b'f') => self.literal("false", ExactJson::Bool(false)),
            Some(b'n') => self.literal("null", ExactJson::Null),
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn literal(&mut self, word: &str, value: ExactJson) -> Result<ExactJson, String> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("expected value"))
        }
    }

    fn nested(&self, depth: usize) -> Result<usize, String> {
        if depth >= MAX_DEPTH {
            Err(self.error("recursion limit exceeded"))
        } else {
            Ok(depth + 1)
        }
    }

    fn array(&mut self, depth: usize) -> Result<ExactJson, String> {
        let depth = self.nested(depth)?;
        self.at += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(ExactJson::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.value(depth)?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(ExactJson::Array(items));
                }
                None => return Err(self.error("EOF while parsing a list")),
                Some(_) => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<ExactJson, String> {
        let depth = self.nested(depth)?;
        self.at += 1;
        let mut entries = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(ExactJson::Object(entries));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("key must be a string"));
            }
            let key = self.string()?;
            self.skip_whitespace();
            self.expect(b':', "expected `:`")?;
            self.skip_whitespace();
            entries.push((key, self.value(depth)?));
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(ExactJson::Object(entries));
                }
                None => return Err(self.error("EOF while parsing an object")),
                Some(_) => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    /// A string token, decoded (escapes, control characters, surrogates) by serde_json.
    fn string(&mut self) -> Result<String, String> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let mut at = start + 1;
        loop {
            match bytes.get(at) {
                None => {
                    self.at = at;
                    return Err(self.error("EOF while parsing a string"));
                }
                Some(b'"') => break,
                // The escaped byte cannot end the string; `"` and `\` never occur
                // inside a multi-byte character, so stepping over one byte is safe.
                Some(b'\\') => at += 2,
                Some(_) => at += 1,
            }
        }
        let token = &self.text[start..=at];
        let decoded = serde_json::from_str::<String>(token).map_err(|e| self.error(&e.to_string()));
        self.at = at + 1;
        decoded
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; integers exact, the others
    /// read by serde_json.
    fn number(&mut self) -> Result<ExactJson, String> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("invalid number")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.at += 1;
            self.required_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integer = false;
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.required_digits()?;
        }
        let token = &self.text[start..self.at];
        if integer {
            return Int::parse(token)
                .map(ExactJson::Int)
                .ok_or_else(|| self.error("invalid number"));
        }
        serde_json::from_str::<Number>(token)
            .map(ExactJson::Number)
            .map_err(|_| self.error("number out of range"))
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), String> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.error("invalid number"));
        }
        self.digits();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> Int {
        Int::parse(text).unwrap()
    }

    #[test]
    fn big_integers_add_subtract_and_compare_exactly() {
        let big = int("99999999999999999999999999999999999999999999999999");
        assert_eq!(
            big.add(&Int::from(1)).to_string(),
            "100000000000000000000000000000000000000000000000000"
        );
        assert_eq!(
            Int::from(1).sub(&big).to_string(),
            "-99999999999999999999999999999999999999999999999998"
        );
        assert_eq!(big.sub(&big), Int::zero());
        assert_eq!(big.neg().abs(), big);
        assert_eq!(int("-0"), Int::zero());
        assert_eq!(int("-0").to_string(), "0");
        assert_eq!(int("007").to_i64(), Some(7));
        assert!(int("-5") < int("3"));
        assert!(int("-50") < int("-5"));
        assert!(big > Int::from(i64::MAX));
        assert_eq!(Int::from(i64::MIN).to_i64(), Some(i64::MIN));
        assert_eq!(big.to_i64(), None);
        assert!(Int::parse("1.5").is_none() && Int::parse("-").is_none());
    }

    #[test]
    fn reads_what_serde_json_reads_and_keeps_integers() {
        let text = r#" {"a": [1, -0, 2.5e1, "x\"\u00e9", true, null], "b": {}} "q"7 [] "#;
        let values = ExactJson::parse_stream(text).unwrap();
        assert_eq!(values.len(), 4);
        let serde: Vec<Value> = serde_json::Deserializer::from_str(text)
            .into_iter()
            .collect::<Result<_, _>>()
            .unwrap();
        // The same values, except that -0 is the integer 0.
        let expected = r#"[{"a":[1,0,25.0,"x\"é",true,null],"b":{}},"q",7,[]]"#;
        let ours: Vec<Value> = values.iter().map(|v| v.to_value().unwrap()).collect();
        assert_eq!(Value::Array(ours).to_string(), expected);
        assert_eq!(serde.len(), 4);
        let huge = "[123456789012345678901234567890,-1]";
        assert_eq!(ExactJson::parse_stream(huge).unwrap()[0].to_string(), huge);
    }

    #[test]
    fn parse_reads_exactly_one_value() {
        assert_eq!(
            ExactJson::parse(" [-0] ").unwrap(),
            ExactJson::Array(vec![ExactJson::Int(Int::zero())])
        );
        assert!(ExactJson::parse("").is_err());
        assert!(ExactJson::parse("1 2").is_err());
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for bad in [
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            "1e",
            "-",
            "[1 2]",
            "{1:2}",
            "\"abc",
            "tru",
            "1x",
            "[\"\t\"]",
            "\"\\q\"",
            "1e400",
            "{\"a\" 1}",
            "[",
            "nul",
        ] {
            assert!(
                ExactJson::parse_stream(bad).is_err(),
                "{bad:?} was accepted"
            );
            assert!(
                serde_json::Deserializer::from_str(bad)
                    .into_iter::<Value>()
                    .collect::<Result<Vec<_>, _>>()
                    .is_err(),
                "serde accepts {bad:?}"
            );
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(ExactJson::parse_stream(&deep).is_err());
    }
}
