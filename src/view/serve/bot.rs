//! The bot a client asks `serve` for: its spec checked, its network names
//! turned into the files the server offers ([`Nets`]), and its budget
//! settled within serve's bounds.

use std::collections::BTreeMap;
use std::path::Path;

use super::{HttpReply, MAX_BUDGET_FACTOR, MAX_MOVE_MS, bad};
use crate::bot::spec::{BotSpec, BudgetKind, Catalog, KeyInfo, KeyType};

/// The networks a server offers by name (`pahtum serve --net NAME=FILE`):
/// a client names a network, never a file, so no request can make the
/// server read a file or tell which files exist.
#[derive(Clone, Debug, Default)]
pub struct Nets {
    by_name: BTreeMap<String, NamedNet>,
}

/// One named network: its file and the bot keys that read it.
#[derive(Clone, Debug)]
struct NamedNet {
    path: String,
    /// `(bot, key)` of each file-valued key the file was read by.
    takes: Vec<(&'static str, &'static str)>,
}

/// The bot kinds' file-valued keys: those whose text the bot reads as a
/// file (every [`KeyType::Text`] key), with the words that name a
/// built-in value instead (`builtin`).
fn file_keys(catalog: &Catalog) -> Vec<(&'static str, &'static KeyInfo, Vec<&'static str>)> {
    let mut out = Vec::new();
    for kind in catalog.kinds() {
        for key in kind.keys {
            if let KeyType::Text { accepts, .. } = key.ty {
                let words = accepts.split('|').filter(|w| *w != "FILE").collect();
                out.push((kind.name, key, words));
            }
        }
    }
    out
}

impl Nets {
    /// Offers the network in `file` as `name`: it is read now by every
    /// file-valued bot key, and kept for the keys that take it.
    ///
    /// # Errors
    /// A name that is not letters, digits, `_` or `-`, is a built-in
    /// word (`builtin`) or is given twice, a file name with a `,`, or a
    /// file that no bot key reads (each key's reason).
    pub fn add(&mut self, catalog: &Catalog, name: &str, file: &Path) -> Result<(), String> {
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!("name '{name}' is not letters, digits, '_' or '-'"));
        }
        let keys = file_keys(catalog);
        if keys.iter().any(|(_, _, words)| words.contains(&name)) {
            return Err(format!("name '{name}' is a built-in network's"));
        }
        if self.by_name.contains_key(name) {
            return Err(format!("name '{name}' is given twice"));
        }
        let path = file
            .to_str()
            .filter(|p| !p.contains(','))
            .ok_or_else(|| format!("{}: a file name with ',' or not UTF-8", file.display()))?
            .to_string();
        let mut takes = Vec::new();
        let mut why = Vec::new();
        for (bot, key, _) in &keys {
            let spec = format!("{bot}:{}={path}", key.key);
            match catalog.parse(&spec) {
                Ok(_) => takes.push((*bot, key.key)),
                Err(e) => why.push(format!("{bot}: {e}")),
            }
        }
        if takes.is_empty() {
            return Err(format!(
                "{path} is not a network any bot reads ({})",
                why.join("; ")
            ));
        }
        self.by_name
            .insert(name.to_string(), NamedNet { path, takes });
        Ok(())
    }

    /// The names offered to `bot`'s `key`.
    fn names_for(&self, bot: &str, key: &str) -> Vec<&str> {
        self.by_name
            .iter()
            .filter(|(_, n)| n.takes.contains(&(bot, key)))
            .map(|(name, _)| name.as_str())
            .collect()
    }
}

/// Where a move's budget comes from, as the answers name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BudgetFrom {
    /// The bot spec gives it.
    Bot,
    /// The page's time per move.
    Page,
    /// The bot's defaults (a bot with no time key).
    Default,
    /// The bot does not search.
    None,
}

impl BudgetFrom {
    pub(super) fn name(self) -> &'static str {
        match self {
            BudgetFrom::Bot => "bot",
            BudgetFrom::Page => "page",
            BudgetFrom::Default => "default",
            BudgetFrom::None => "none",
        }
    }
}

/// A client's bot spec made ready to play: checked, its budget settled
/// and its network names turned into the server's files.
#[derive(Debug)]
pub(super) struct Chosen {
    /// The spec that is built (files in place of network names).
    pub build: BotSpec,
    /// Whether `build` holds a file a client named by its network name.
    pub named_net: bool,
    /// The bot's name in answers and rows (network names, never files).
    pub label: String,
    /// The budget keys and values the move uses, `k=v,...`.
    pub budget: String,
    /// Where that budget comes from.
    pub from: BudgetFrom,
}

/// Checks the client's spec `text` and settles its budget: a budget the
/// spec gives is kept, within serve's bounds; else the page's `ms` goes
/// into the bot's time key; a bot without one searches with its default
/// budget. File-valued keys take only built-in words and `nets`' names;
/// any other value is refused before anything is read.
pub(super) fn choose(
    catalog: &Catalog,
    nets: &Nets,
    text: &str,
    ms: u64,
) -> Result<Chosen, HttpReply> {
    let spec: BotSpec = text.parse().map_err(refuse)?;
    let Some(kind) = catalog.kind(&spec.name) else {
        // Unknown names (and their message) are the catalogue's.
        catalog.parse_unattended(text).map_err(refuse)?;
        return Err(refuse(format!("unknown bot '{}'", spec.name)));
    };
    let (mut screened, files) = screen_files(catalog, nets, kind.name, &spec)?;
    catalog
        .parse_unattended(screened.as_str())
        .map_err(refuse)?;
    let budget_keys: Vec<&KeyInfo> = kind.keys.iter().filter(|k| k.budget.is_some()).collect();
    let time_key = budget_keys
        .iter()
        .find(|k| k.budget == Some(BudgetKind::Time))
        .map(|k| k.key);
    // The budget keys the spec gives, with their values.
    let given: Vec<(&KeyInfo, &str)> = spec
        .params
        .iter()
        .filter_map(|(k, v)| {
            budget_keys
                .iter()
                .find(|b| b.key == k)
                .map(|b| (*b, v.as_str()))
        })
        .collect();
    let (played, from) = if !given.is_empty() {
        check_given(&given)?;
        let mut played = spec.clone();
        if !given.iter().any(|(k, _)| Some(k.key) == time_key) {
            fill_work_defaults(catalog, &budget_keys, &given, &mut screened, &mut played)?;
        }
        (played, BudgetFrom::Bot)
    } else if let Some(t) = time_key {
        (with(&spec, t, ms)?, BudgetFrom::Page)
    } else if !budget_keys.is_empty() {
        (spec.clone(), BudgetFrom::Default)
    } else {
        (spec.clone(), BudgetFrom::None)
    };
    let budget = budget_text(&budget_keys, &played, from);
    let label = played.label();
    let mut build = played;
    for (k, path, _) in &files {
        build = build.with(k, path).map_err(refuse)?;
    }
    if !files.is_empty() && !build.params.iter().any(|(k, _)| k == "label") {
        build = build.with("label", &label).map_err(refuse)?;
    }
    if !files.is_empty() {
        // The screened spec was checked on the built-in networks; a key
        // the named one cannot take (`score=` on a network without a
        // margin head) is the client's to mend. The file was read when
        // the server started and is not read again, so this is the only
        // way the check fails; its message names the network, never the
        // file.
        catalog.parse_unattended(build.as_str()).map_err(|e| {
            let mut m = e.to_string();
            for (_, path, name) in &files {
                m = m.replace(path.as_str(), name);
            }
            refuse(m)
        })?;
    }
    Ok(Chosen {
        build,
        named_net: !files.is_empty(),
        label,
        budget,
        from,
    })
}

/// A refusal of the client's bot, 400 naming the bot field.
fn refuse(m: impl std::fmt::Display) -> HttpReply {
    bad(format!("bot: {m}"))
}

/// `s` with `k=v`, or the refusal.
fn with(s: &BotSpec, k: &str, v: u64) -> Result<BotSpec, HttpReply> {
    s.with(k, &v.to_string()).map_err(refuse)
}

/// The files that the network names of a client's spec stand for, as
/// `(key, file, name)`.
type NetworkChoices = Vec<(&'static str, String, String)>;

/// Screens the file-valued keys of `spec` (of bot kind `bot_kind`): each
/// is a built-in word or a network `nets` offers to that key, else it is
/// refused. Returns the spec without those keys (for the catalogue to
/// check, which would read them) and the files to put back afterwards.
fn screen_files(
    catalog: &Catalog,
    nets: &Nets,
    bot_kind: &str,
    spec: &BotSpec,
) -> Result<(BotSpec, NetworkChoices), HttpReply> {
    let mut screened = spec.clone();
    let mut files = Vec::new();
    for (bot, key, words) in file_keys(catalog)
        .into_iter()
        .filter(|(b, ..)| *b == bot_kind)
    {
        let Some((_, value)) = spec.params.iter().find(|(k, _)| k == key.key) else {
            continue;
        };
        screened = screened.without(key.key);
        if words.contains(&value.as_str()) {
            continue;
        }
        match nets.by_name.get(value) {
            Some(net) if net.takes.contains(&(bot, key.key)) => {
                files.push((key.key, net.path.clone(), value.clone()));
            }
            _ => {
                let mut offered = words.clone();
                offered.extend(nets.names_for(bot, key.key));
                return Err(refuse(format!(
                    "{}={value}: not a network this server offers to {bot} (offered: {}); \
                     networks are named when the server starts (--net NAME=FILE), never given as files",
                    key.key,
                    offered.join(", ")
                )));
            }
        }
    }
    Ok((screened, files))
}

/// Refuses a budget the spec gives beyond serve's bounds: time 1 to
/// [`MAX_MOVE_MS`], a counted budget 1 to [`MAX_BUDGET_FACTOR`] times its
/// default.
fn check_given(given: &[(&KeyInfo, &str)]) -> Result<(), HttpReply> {
    for &(key, v) in given {
        let k = key.key;
        let n: Option<u64> = v.parse().ok();
        match (key.budget, key.ty) {
            (Some(BudgetKind::Time), _) if !n.is_some_and(|n| (1..=MAX_MOVE_MS).contains(&n)) => {
                return Err(refuse(format!(
                    "{k}={v}: serve thinks 1 to {MAX_MOVE_MS} ms per move"
                )));
            }
            (
                Some(BudgetKind::Work),
                KeyType::Int {
                    hi,
                    default: Some(d),
                    ..
                },
            ) => {
                let most = d.saturating_mul(MAX_BUDGET_FACTOR).min(hi);
                if !n.is_some_and(|n| (1..=most).contains(&n)) {
                    return Err(refuse(format!(
                        "{k}={v}: serve takes 1 to {most} ({MAX_BUDGET_FACTOR} times the default)"
                    )));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Without a time budget, the counted budgets the spec leaves out keep
/// their defaults where the bot takes them together, so that
/// `alphabeta:depth=20` is still bounded by its default `nodes=` (alone,
/// `depth=` would drop it). Fills them into `screened` and `played`.
fn fill_work_defaults(
    catalog: &Catalog,
    budget_keys: &[&KeyInfo],
    given: &[(&KeyInfo, &str)],
    screened: &mut BotSpec,
    played: &mut BotSpec,
) -> Result<(), HttpReply> {
    for key in budget_keys {
        let (
            Some(BudgetKind::Work),
            KeyType::Int {
                default: Some(d), ..
            },
        ) = (key.budget, key.ty)
        else {
            continue;
        };
        if given.iter().any(|(k, _)| k.key == key.key) {
            continue;
        }
        let filled = with(screened, key.key, d)?;
        if catalog.parse_unattended(filled.as_str()).is_ok() {
            *screened = filled;
            *played = with(played, key.key, d)?;
        }
    }
    Ok(())
}

/// The budget keys and values the move uses, `k=v,...`: those `played`
/// gives, and with `from` the bot's defaults, the defaults.
fn budget_text(budget_keys: &[&KeyInfo], played: &BotSpec, from: BudgetFrom) -> String {
    budget_keys
        .iter()
        .filter_map(|k| {
            let v = played
                .params
                .iter()
                .find(|(p, _)| p == k.key)
                .map(|(_, v)| v.clone())
                .or_else(|| match k.ty {
                    KeyType::Int {
                        default: Some(d), ..
                    } if from == BudgetFrom::Default => Some(d.to_string()),
                    _ => None,
                })?;
            Some(format!("{}={v}", k.key))
        })
        .collect::<Vec<_>>()
        .join(",")
}
