//! Every key of every built-in bot walked against the bot's parser: the
//! listed default parses, `KEY=DEFAULT` gives the same settings as the
//! bare name (so the value `pahtum bots` lists is the one the parser
//! uses) unless another key's implied rule reads it, and another accepted value gives other settings (so the key
//! reaches the settings, and the comparison means something).

use super::{Catalog, KeyInfo, KeyType, Params, SpecError};
use crate::bot::alphabeta::AlphaBetaConfig;
use crate::bot::flatmc::FlatMcConfig;
use crate::bot::mcts::config::MctsConfig;
use crate::bot::{builtin_catalog, greedy, learned, zero};

/// The settings `p` gives the built-in bot `name`, as text: the `Debug`
/// of what its constructor reads from the spec, every field named.
fn settings(name: &str, p: &Params) -> Result<String, SpecError> {
    Ok(match name {
        "random" | "human" => String::new(),
        "greedy" => format!("{:?}", p.real(&greedy::BLOCK)?),
        "heuristic" => format!("{:?}", super::weights_from_params(p)?),
        "learned" => format!("{:?}", learned::net_param(p)?.map(std::ptr::from_ref)),
        "flatmc" => format!("{:?}", FlatMcConfig::from_params(p)?),
        "mcts" => format!("{:?}", MctsConfig::from_params(p)?),
        "alphabeta" => format!("{:?}", AlphaBetaConfig::from_params(p)?),
        "zero" => {
            let c = zero::config_from(p)?;
            // The network by address (its weights are not settings).
            format!(
                "{:p} {} {:?} {:?} {} {} {:?} {} {:?} {}",
                c.net,
                c.score,
                c.budget,
                c.settings,
                c.threads,
                c.reuse,
                c.alloc,
                c.explore,
                c.root,
                c.m
            )
        }
        other => panic!("no settings reader for bot '{other}': add one to key_walk.rs"),
    })
}

/// The settings of the spec `text`, which the catalogue must accept.
fn settings_of(c: &Catalog, name: &str, text: &str) -> String {
    let spec = c
        .parse(text)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"));
    settings(name, &Params::new(&spec)).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// An accepted value of `k` other than its default, as spec text; `None`
/// for a text key (another value would name a file).
fn other_value(k: &KeyInfo) -> Option<String> {
    let listed = k.default_text();
    let differs = |v: String| (v != listed).then_some(v);
    match k.ty {
        // A key off unless given may take its lowest value as off too
        // (`alphabeta:ms=0`): its highest is surely another setting.
        KeyType::Int {
            hi, default: None, ..
        } => differs(hi.to_string()),
        KeyType::Int { lo, hi, .. } => differs(lo.to_string()).or(differs(hi.to_string())),
        KeyType::Real { lo, hi, .. } => differs(lo.to_string()).or(differs(hi.to_string())),
        KeyType::ZeroOrReal { lo, hi, .. } => differs("0".into())
            .or(differs(lo.to_string()))
            .or(differs(hi.to_string())),
        KeyType::Bool { default } => Some((!default).to_string()),
        KeyType::Enum { names, default } => {
            names.iter().find(|n| **n != default).map(|n| n.to_string())
        }
        KeyType::Text { .. } => None,
    }
}

#[test]
fn every_listed_default_is_the_parsers_and_every_key_reaches_the_settings() {
    let c = builtin_catalog();
    let mut walked = 0;
    let mut changed_others = 0;
    for kind in c.kinds() {
        let bare = settings_of(&c, kind.name, kind.name);
        for k in kind.keys {
            let (bot, key) = (kind.name, k.key);
            let listed = k.default_text();
            if listed != "-" {
                let text = format!("{bot}:{key}={listed}");
                let given = settings_of(&c, bot, &text);
                // Giving a key its default may still change another key's
                // value, by that key's implied rule (alphabeta's `nodes=`
                // beside `depth=`); the settings differ exactly then, so
                // every such change is one a rule declares, which a
                // review's full spec writes out.
                let (bare_spec, given_spec) =
                    (c.parse(kind.name).unwrap(), c.parse(&text).unwrap());
                let (bare_p, given_p) = (Params::new(&bare_spec), Params::new(&given_spec));
                let changes_others = kind
                    .keys
                    .iter()
                    .any(|j| j.key != key && j.implied_in(&given_p) != j.implied_in(&bare_p));
                assert_eq!(
                    given != bare,
                    changes_others,
                    "{bot}:{key}={listed} against {bot}:\n{given}\n{bare}"
                );
                changed_others += usize::from(changes_others);
            }
            if let Some(v) = other_value(k) {
                let other = settings_of(&c, bot, &format!("{bot}:{key}={v}"));
                assert_ne!(other, bare, "{bot}:{key}={v} is not read");
            }
            walked += 1;
        }
    }
    assert!(
        changed_others > 0,
        "no key's default changes another's: the check above is idle"
    );
    let declared: usize = c.kinds().iter().map(|k| k.keys.len()).sum();
    assert_eq!(walked, declared);
    assert!(declared > 40, "{declared}");
}
