//! Every key of every built-in bot against its declaration: the listed
//! default parses and reads back as the listed text, every listed value
//! and bound is accepted, and one value just outside each bound is
//! refused with a message that names the key.

use pahtum::bot::{KeyInfo, KeyType, Params};
use pahtum::{BotSpec, Catalog, builtin_catalog};

/// The key's value in `spec`, read by the getter of its type and written
/// as `pahtum bots` writes a default.
fn read_back(k: &KeyInfo, spec: &BotSpec) -> String {
    let p = Params::new(spec);
    let text = match k.ty {
        KeyType::Int { .. } => p
            .opt_int(k)
            .map(|v| v.map_or("-".into(), |v| v.to_string())),
        KeyType::Real { .. } | KeyType::ZeroOrReal { .. } => p.real(k).map(|v| v.to_string()),
        KeyType::Bool { .. } => p.flag(k).map(|v| v.to_string()),
        KeyType::Enum { names, .. } => Ok(p.raw(k.key).map_or(String::new(), |v| {
            assert!(names.contains(&v), "{}: {v}", k.key);
            v.to_string()
        })),
        KeyType::Text { .. } => p.text(k).map(str::to_string),
    };
    text.unwrap_or_else(|e| panic!("{}: {e}", k.key))
}

fn accepted(c: &Catalog, bot: &str, key: &str, value: &str) -> BotSpec {
    let spec = format!("{bot}:{key}={value}");
    c.parse(&spec)
        .unwrap_or_else(|e| panic!("{spec} refused: {e}"))
}

fn refused(c: &Catalog, bot: &str, key: &str, value: &str) {
    let spec = format!("{bot}:{key}={value}");
    let e = c.parse(&spec).expect_err(&spec);
    assert!(
        e.0.contains(&format!("{key}={value}")) && e.0.contains(&format!("({key} takes")),
        "{spec}: {e}"
    );
}

/// A number a little beyond `bound`: below it for `outward = -1`, above
/// for `+1`.
fn beyond(bound: f64, outward: f64) -> String {
    (bound + outward * 1e-6 * bound.abs().max(1.0)).to_string()
}

#[test]
fn every_key_round_trips_and_keeps_to_its_range() {
    let c = builtin_catalog();
    let mut checked = 0;
    for kind in c.kinds() {
        for k in kind.keys {
            let (bot, key) = (kind.name, k.key);
            let listed = k.default_text();
            if listed != "-" {
                let spec = accepted(&c, bot, key, &listed);
                assert_eq!(read_back(k, &spec), listed, "{bot} {key}");
            }
            match k.ty {
                KeyType::Int { lo, hi, default } => {
                    assert!(
                        default.is_none_or(|d| (lo..=hi).contains(&d)),
                        "{bot} {key}"
                    );
                    for v in [lo, hi] {
                        let spec = accepted(&c, bot, key, &v.to_string());
                        assert_eq!(read_back(k, &spec), v.to_string(), "{bot} {key}");
                    }
                    if lo > 0 {
                        refused(&c, bot, key, &(lo - 1).to_string());
                    }
                    refused(&c, bot, key, &(hi as u128 + 1).to_string());
                    refused(&c, bot, key, &format!("{lo}.5"));
                }
                KeyType::Real { lo, hi, default } => {
                    assert!((lo..=hi).contains(&default), "{bot} {key}");
                    for v in [lo, hi] {
                        let spec = accepted(&c, bot, key, &v.to_string());
                        assert_eq!(read_back(k, &spec), v.to_string(), "{bot} {key}");
                    }
                    refused(&c, bot, key, &beyond(lo, -1.0));
                    refused(&c, bot, key, &beyond(hi, 1.0));
                }
                KeyType::ZeroOrReal { lo, hi, default } => {
                    assert!(
                        default == 0.0 || (lo..=hi).contains(&default),
                        "{bot} {key}"
                    );
                    for v in [0.0, lo, hi] {
                        let spec = accepted(&c, bot, key, &v.to_string());
                        assert_eq!(read_back(k, &spec), v.to_string(), "{bot} {key}");
                    }
                    refused(&c, bot, key, &beyond(0.0, -1.0));
                    refused(&c, bot, key, &beyond(lo, -1.0));
                    refused(&c, bot, key, &beyond(hi, 1.0));
                }
                KeyType::Bool { .. } => {
                    for v in ["true", "false"] {
                        assert_eq!(read_back(k, &accepted(&c, bot, key, v)), v);
                    }
                    refused(&c, bot, key, "maybe");
                }
                KeyType::Enum { names, default } => {
                    assert!(names.contains(&default), "{bot} {key}");
                    for v in names {
                        assert_eq!(read_back(k, &accepted(&c, bot, key, v)), *v);
                    }
                    refused(&c, bot, key, "nosuch");
                }
                KeyType::Text { .. } => {}
            }
            checked += 1;
        }
    }
    // Every bot's keys were seen (a listing that lost a bot would pass).
    let listed: usize = c.kinds().iter().map(|k| k.keys.len()).sum();
    assert_eq!(checked, listed);
    assert!(listed > 40, "{listed}");
}

#[test]
fn the_listing_prints_each_declaration() {
    let text = builtin_catalog().listing();
    for kind in builtin_catalog().kinds() {
        let block = text
            .split(&format!("\n{}  ", kind.name))
            .nth(1)
            .and_then(|b| b.split("\n\n").next())
            .unwrap_or_else(|| panic!("{} listed", kind.name));
        for k in kind.keys {
            let line = block
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{}=", k.key)))
                .unwrap_or_else(|| panic!("{} {}", kind.name, k.key));
            assert!(
                line.contains(&format!("{}={} ", k.key, k.default_text()))
                    && line.ends_with(&format!("{}: {}", k.accepts(), k.help)),
                "{line}"
            );
        }
    }
}
