//! The protocol's optional time and search commands, shared by both
//! sides: `time_settings BASE INC` and `time_left COLOUR SECONDS` (in the
//! style of GTP's commands of those names, with a Fischer increment in
//! place of byo-yomi), and `search_info`, whose answer is the last
//! search's figures as `key=value` words.

use std::fmt::Write as _;
use std::time::Duration;

use crate::bot::SearchInfo;
use crate::game::outcome::Move;

/// Seconds as the protocol writes them: up to milliseconds, no trailing
/// zeros (`9.52`, `10`).
pub fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A count of seconds as the protocol reads it: a decimal at least 0.
///
/// # Errors
/// A word that is not one, named.
pub fn parse_seconds(word: &str) -> Result<Duration, String> {
    match word.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=1e9).contains(&s) => {
            Ok(Duration::from_millis((s * 1000.0).round() as u64))
        }
        _ => Err(format!("'{word}' is not a number of seconds")),
    }
}

/// The `search_info` answer for `info`: `nodes=N depth=D`, then `eval=X`
/// (the bot's own scale), `expect=P` (the mover's expected score, 0 to 1)
/// and `pv=SQ,SQ,...` where the bot has them.
pub fn info_words(info: &SearchInfo) -> String {
    let mut text = format!("nodes={} depth={}", info.nodes, info.depth);
    if let Some(e) = info.eval {
        let _ = write!(text, " eval={e:.4}");
    }
    if let Some(p) = info.expect {
        let _ = write!(text, " expect={p:.4}");
    }
    if !info.pv.is_empty() {
        let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
        let _ = write!(text, " pv={}", pv.join(","));
    }
    text
}

/// Reads a `search_info` answer; words it does not know (or cannot read)
/// are kept in `extra`, so that an engine may report more than pahtum
/// records.
pub fn parse_info(text: &str) -> SearchInfo {
    let mut info = SearchInfo::default();
    let mut extra = Vec::new();
    for word in text.split_whitespace() {
        let read = match word.split_once('=') {
            Some(("nodes", v)) => v.parse().map(|n| info.nodes = n).is_ok(),
            Some(("depth", v)) => v.parse().map(|d| info.depth = d).is_ok(),
            Some(("eval", v)) => v
                .parse::<f64>()
                .ok()
                .filter(|e| e.is_finite())
                .map(|e| info.eval = Some(e))
                .is_some(),
            Some(("expect", v)) => v
                .parse::<f64>()
                .ok()
                .filter(|p| (0.0..=1.0).contains(p))
                .map(|p| info.expect = Some(p))
                .is_some(),
            Some(("pv", v)) => v
                .split(',')
                .map(str::parse::<Move>)
                .collect::<Result<Vec<_>, _>>()
                .map(|pv| info.pv = pv)
                .is_ok(),
            _ => false,
        };
        if !read {
            extra.push(word);
        }
    }
    info.extra = extra.join(" ");
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_round_trip() {
        for ms in [0, 1, 10, 100, 999, 1000, 9520, 60_000] {
            let d = Duration::from_millis(ms);
            assert_eq!(parse_seconds(&seconds(d)), Ok(d), "{ms}");
        }
        assert_eq!(seconds(Duration::from_millis(9520)), "9.52");
        assert_eq!(seconds(Duration::from_secs(10)), "10");
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("x").is_err());
        assert!(parse_seconds("inf").is_err());
    }

    #[test]
    fn info_round_trips_and_keeps_unknown_words() {
        let info = SearchInfo {
            nodes: 1234,
            depth: 7,
            eval: Some(0.625),
            expect: Some(0.5),
            pv: vec!["d4".parse().expect("mv"), Move::Swap],
            ..SearchInfo::default()
        };
        let words = info_words(&info);
        assert_eq!(
            words,
            "nodes=1234 depth=7 eval=0.6250 expect=0.5000 pv=d4,swap"
        );
        assert_eq!(parse_info(&words), info);
        let odd = parse_info("nodes=x depth=3 hashfull=12 pv=zz9 expect=1.5");
        assert_eq!(odd.depth, 3);
        assert_eq!(odd.nodes, 0);
        assert_eq!(odd.expect, None);
        assert_eq!(odd.extra, "nodes=x hashfull=12 pv=zz9 expect=1.5");
    }
}
