//! Typed CSV rows: every CSV file the workbench writes has one row struct
//! (`#[derive(Serialize, Deserialize, Default)]`, defined beside its
//! writer), and its header, lines and reading back all go through the
//! `csv` crate here, so a file's columns are its struct's fields.
//!
//! Floats are written with each column's fixed precision: such fields
//! are serialized through the [`fixed`] helpers, so the bytes stay what
//! the files have always held.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A writer of lines into memory: `\n` ends a record, fields are quoted
/// only when they must be.
fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .buffer_capacity(256)
        .from_writer(Vec::new())
}

/// The bytes a writer holds, as text (CSV of `String` fields is UTF-8).
fn finish(w: csv::Writer<Vec<u8>>) -> String {
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// The column names of a file whose rows are `T`.
pub fn columns<T: Serialize + Default>() -> Vec<String> {
    columns_of(&T::default())
}

/// The column names of a file with rows like `row`: a row type whose
/// optional columns are left out when empty (`skip_serializing_if`) has
/// them only when `row` has them.
pub fn columns_of<T: Serialize>(row: &T) -> Vec<String> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(true)
        .from_writer(Vec::new());
    // Serializing to memory fails only for a type that is not a flat
    // struct, which no row type is; the header is its first line.
    let _ = w.serialize(row);
    first_record(&finish(w))
}

/// The fields of the first line of CSV `text`.
fn first_record(text: &str) -> Vec<String> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    r.records()
        .next()
        .and_then(Result::ok)
        .map(|f| f.iter().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The header line of a file whose rows are `T`, without its newline.
pub fn header<T: Serialize + Default>() -> String {
    columns::<T>().join(",")
}

/// The header line of a file with rows like `row` (see [`columns_of`]),
/// without its newline.
pub fn header_of<T: Serialize>(row: &T) -> String {
    columns_of(row).join(",")
}

/// Appends the line of `row`, newline included, to `out`.
pub fn push<T: Serialize>(out: &mut String, row: &T) {
    let mut w = writer();
    let _ = w.serialize(row);
    out.push_str(&finish(w));
}

/// Appends a line of plain `fields`, newline included, to `out`.
pub fn push_fields<'a>(out: &mut String, fields: impl IntoIterator<Item = &'a str>) {
    let mut w = writer();
    let _ = w.write_record(fields);
    out.push_str(&finish(w));
}

/// The fields of `row` as its line holds them.
pub fn fields<T: Serialize>(row: &T) -> Vec<String> {
    let mut line = String::new();
    push(&mut line, row);
    first_record(&line)
}

/// Appends the line of `row` after leading fields `lead` (columns a file
/// has for each run, like a sweep's parameter keys), newline included.
pub fn push_after<T: Serialize>(out: &mut String, lead: &[String], row: &T) {
    let rest = fields(row);
    push_fields(out, lead.iter().chain(&rest).map(String::as_str));
}

/// A whole file: the header, then a line for each of `rows`.
pub fn text<T: Serialize + Default>(rows: impl IntoIterator<Item = T>) -> String {
    let mut out = header::<T>();
    out.push('\n');
    for r in rows {
        push(&mut out, &r);
    }
    out
}

/// Reads the rows of complete CSV `text` whose first line must be the
/// header of `T`; each row with its line number.
///
/// # Errors
/// `(line number, message)` of the first bad line: a header that is not
/// `T`'s, a row with another number of columns, or a field that does not
/// parse (named by its column).
pub fn parse<T: Serialize + DeserializeOwned + Default>(
    text: &str,
) -> Result<Vec<(usize, T)>, (usize, String)> {
    parse_as(text, &columns::<T>())
}

/// [`parse`] with the header `want` (for a file whose optional columns
/// are on, see [`columns_of`]).
///
/// # Errors
/// As [`parse`].
pub fn parse_as<T: DeserializeOwned>(
    text: &str,
    want: &[String],
) -> Result<Vec<(usize, T)>, (usize, String)> {
    let rows = parse_after(text, &[], want)?;
    Ok(rows.into_iter().map(|(line, _, row)| (line, row)).collect())
}

/// Reads a file whose lines are leading columns `lead` (per run, like a
/// tune's keys), then a row `T` with columns `tail`: each row with its
/// line number and leading fields.
///
/// # Errors
/// As [`parse`].
#[allow(clippy::type_complexity)]
pub fn parse_after<T: DeserializeOwned>(
    text: &str,
    lead: &[String],
    tail: &[String],
) -> Result<Vec<(usize, Vec<String>, T)>, (usize, String)> {
    let want: Vec<&str> = lead.iter().chain(tail).map(String::as_str).collect();
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let header = csv::StringRecord::from(tail.iter().map(String::as_str).collect::<Vec<_>>());
    let mut seen_header = false;
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| (error_line(&e), e.to_string()))?;
        let line = rec.position().map_or(0, |p| p.line() as usize);
        if !seen_header {
            if rec.iter().ne(want.iter().copied()) {
                return Err((
                    line,
                    format!("unexpected header (expected {})", want.join(",")),
                ));
            }
            seen_header = true;
            continue;
        }
        if rec.len() != want.len() {
            return Err((
                line,
                format!("{} columns, expected {}", rec.len(), want.len()),
            ));
        }
        let fields: Vec<String> = rec.iter().map(str::to_string).collect();
        let (front, back) = fields.split_at(lead.len());
        let row = csv::StringRecord::from(back.to_vec())
            .deserialize::<T>(Some(&header))
            .map_err(|e| match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    let at = err.field().map(|i| i as usize);
                    let column = at
                        .and_then(|i| tail.get(i))
                        .map_or(String::new(), |c| format!("column {c}: "));
                    let field = at.and_then(|i| back.get(i)).map_or("", String::as_str);
                    (line, format!("{column}'{field}': {}", err.kind()))
                }
                _ => (line, e.to_string()),
            })?;
        rows.push((line, front.to_vec(), row));
    }
    if !seen_header {
        return Err((1, format!("no header (expected {})", want.join(","))));
    }
    Ok(rows)
}

/// The complete lines of `text`: a last line without its newline is a
/// torn write of a killed run, left out.
pub fn complete(text: &str) -> &str {
    &text[..text.rfind('\n').map_or(0, |i| i + 1)]
}

/// The line a reading error names (1 when the error has no position).
fn error_line(e: &csv::Error) -> usize {
    e.position().map_or(1, |p| p.line() as usize)
}

/// Serializers of floats with a fixed number of decimals, for
/// `#[serde(serialize_with = "...")]`: the precision is part of each
/// file's format.
pub mod fixed {
    use serde::Serializer;

    /// `v` with `decimals` decimals, never `-0.0000`: a value that rounds
    /// to zero is written as zero whatever its sign, so that an even
    /// evaluation flipped to the other side (`-0.0`) or a tiny negative
    /// mean reads as the zero it is.
    pub fn text(v: f64, decimals: usize) -> String {
        let s = format!("{v:.decimals$}");
        match s.strip_prefix('-') {
            Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
            _ => s,
        }
    }

    macro_rules! decimals {
        ($($name:ident => $n:literal),*) => {$(
            #[doc = concat!("A float with ", stringify!($n), " decimals ([`text`]).")]
            ///
            /// # Errors
            /// The serializer's.
            pub fn $name<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&text(*v, $n))
            }
        )*};
    }
    decimals!(d0 => 0, d1 => 1, d2 => 2, d3 => 3, d4 => 4, d6 => 6);

    /// A float as `{}` writes it (`-42`, `-10.5`), for values that are
    /// whole or half points.
    ///
    /// # Errors
    /// The serializer's.
    pub fn plain<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// An optional [`plain`] float, empty when absent.
    ///
    /// # Errors
    /// The serializer's.
    pub fn opt_plain<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_str(""),
        }
    }

    /// An optional float with 4 decimals, empty when absent.
    ///
    /// # Errors
    /// The serializer's.
    pub fn opt_d4<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_str(&text(*v, 4)),
            None => s.serialize_str(""),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;

    #[test]
    fn no_value_is_written_as_negative_zero() {
        assert_eq!(fixed::text(-0.0, 4), "0.0000");
        assert_eq!(fixed::text(-0.00004, 4), "0.0000");
        assert_eq!(fixed::text(-0.00005001, 4), "-0.0001");
        assert_eq!(fixed::text(-1.5, 1), "-1.5");
        assert_eq!(fixed::text(-0.0, 0), "0");
        assert_eq!(fixed::text(-0.04, 1), "0.0");
        assert_eq!(fixed::text(2.0, 4), "2.0000");
    }

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Row {
        name: String,
        n: u32,
        #[serde(serialize_with = "fixed::d4")]
        share: f64,
    }

    #[test]
    fn rows_round_trip_with_their_header_and_precision() {
        let rows = [
            Row {
                name: "a b".into(),
                n: 3,
                share: 0.5,
            },
            Row {
                name: String::new(),
                n: 0,
                share: 1.0 / 3.0,
            },
        ];
        let t = text(rows.iter().map(|r| Row {
            name: r.name.clone(),
            ..*r
        }));
        assert_eq!(t, "name,n,share\na b,3,0.5000\n,0,0.3333\n");
        let back = parse::<Row>(&t).expect("parse");
        assert_eq!(
            back[0],
            (
                2,
                Row {
                    name: "a b".into(),
                    n: 3,
                    share: 0.5
                }
            )
        );
        assert_eq!(back[1].0, 3);
    }

    #[test]
    fn bad_lines_are_named() {
        let e = parse::<Row>("name,n,share\nx,1,0\ny,z,0\n").expect_err("bad");
        assert_eq!(e.0, 3);
        assert!(e.1.starts_with("column n: 'z'"), "{}", e.1);
        let e = parse::<Row>("name,n\n").expect_err("header");
        assert_eq!(e.0, 1);
        let e = parse::<Row>("name,n,share\nx,1\n").expect_err("short");
        assert_eq!(e, (2, "2 columns, expected 3".into()));
    }
}
