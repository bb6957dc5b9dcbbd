//! Parameter grids for sweeps: `--param KEY=V1,V2,...` or
//! `--param KEY=LO..HI:STEP`, expanded into one bot spec per combination.

use crate::bot::{BotSpec, Catalog};

/// Why a grid was refused; the message names the `--param` and the value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GridError(pub String);

/// At most this many values in one range, so a typo cannot start a
/// million-combination sweep.
pub const MAX_VALUES: usize = 1000;

/// One swept key and its values, as text (the spec's syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The bot key, e.g. `c`.
    pub key: String,
    /// Its values in sweep order.
    pub values: Vec<String>,
}

impl Axis {
    /// Whether every value is a number (the plot then uses a numeric axis).
    pub fn is_numeric(&self) -> bool {
        self.values.iter().all(|v| v.parse::<f64>().is_ok())
    }
}

/// Parses one `--param` argument.
///
/// # Errors
/// No `=`, an empty key or list, an empty value, or a bad range.
pub fn parse_axis(arg: &str) -> Result<Axis, GridError> {
    let bad = |m: &str| GridError(format!("--param {arg}: {m}"));
    let (key, list) = arg
        .split_once('=')
        .ok_or_else(|| bad("expected KEY=V1,V2,... or KEY=LO..HI:STEP"))?;
    let key = crate::bot::spec::canonical_key(key.trim());
    if key.is_empty() {
        return Err(bad("the key is empty"));
    }
    if key == "label" {
        return Err(bad(
            "label cannot be swept (each combination is labelled by its values)",
        ));
    }
    let list = list.trim();
    if list.is_empty() {
        return Err(bad("the list of values is empty"));
    }
    let values = if list.contains("..") {
        parse_range(list).map_err(|m| bad(&m))?
    } else {
        let v: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
        if v.iter().any(String::is_empty) {
            return Err(bad("a value in the list is empty"));
        }
        v
    };
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            return Err(bad(&format!("value {v} is listed twice")));
        }
    }
    Ok(Axis {
        key: key.to_string(),
        values,
    })
}

/// Decimal places written in `s` (`0.25` -> 2, `3` -> 0).
fn decimals(s: &str) -> usize {
    s.split_once('.').map_or(0, |(_, f)| f.len())
}

/// `LO..HI:STEP` -> the values `LO, LO+STEP, ...` up to `HI` (inclusive
/// within rounding), written with the decimals of `LO` and `STEP`.
fn parse_range(text: &str) -> Result<Vec<String>, String> {
    let form = "a range is LO..HI:STEP, e.g. 0.2..2.0:0.2";
    let (lo_s, rest) = text.split_once("..").ok_or(form)?;
    let (hi_s, step_s) = rest
        .split_once(':')
        .ok_or_else(|| format!("missing :STEP ({form})"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("'{s}' is not a number ({form})"))
    };
    let (lo, hi, step) = (num(lo_s)?, num(hi_s)?, num(step_s)?);
    if step <= 0.0 {
        return Err(format!("STEP {step} must be positive"));
    }
    if hi < lo {
        return Err(format!("HI {hi} is below LO {lo}"));
    }
    // The tolerance keeps 0.2..2.0:0.2 from losing 2.0 to rounding.
    let count = ((hi - lo) / step + 1e-9).floor() as usize + 1;
    if count > MAX_VALUES {
        return Err(format!("{count} values; at most {MAX_VALUES} per range"));
    }
    let places = decimals(lo_s.trim()).max(decimals(step_s.trim()));
    Ok((0..count)
        .map(|i| format!("{:.*}", places, lo + step * i as f64))
        .collect())
}

/// One combination: a value per axis, and the bot spec that plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combo {
    /// The value of each axis, in axis order.
    pub values: Vec<String>,
    /// The base spec with these values set, labelled by them.
    pub spec: BotSpec,
}

/// Every combination of `axes` applied to `base`, the first axis varying
/// slowest; each spec is checked by `catalog` (known keys, values in
/// range).
///
/// # Errors
/// No axes, a key given twice or unknown to the bot, a value the bot
/// refuses, or more than [`MAX_VALUES`] combinations.
pub fn expand(base: &BotSpec, axes: &[Axis], catalog: &Catalog) -> Result<Vec<Combo>, GridError> {
    if axes.is_empty() {
        return Err(GridError("--param: give at least one KEY=V1,V2,...".into()));
    }
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.key == a.key) {
            return Err(GridError(format!("--param: key '{}' swept twice", a.key)));
        }
        if let Some(kind) = catalog.kind(&base.name)
            && !kind.keys.iter().any(|k| k.key == a.key)
        {
            let keys: Vec<&str> = kind.keys.iter().map(|k| k.key).collect();
            return Err(GridError(format!(
                "--param {}: bot '{}' has no key '{}' (keys: {})",
                a.key,
                base.name,
                a.key,
                if keys.is_empty() {
                    "none".to_string()
                } else {
                    keys.join(", ")
                }
            )));
        }
    }
    let total: usize = axes.iter().map(|a| a.values.len()).product();
    if total > MAX_VALUES {
        return Err(GridError(format!(
            "--param: {total} combinations; at most {MAX_VALUES}"
        )));
    }
    // The user's label if given, else the bot's name: the spec text would
    // bring commas, which neither a spec value nor a CSV field can hold.
    let base_label = base
        .params
        .iter()
        .find(|(k, _)| k == "label")
        .map_or(base.name.clone(), |(_, v)| v.clone());
    let mut out = Vec::with_capacity(total);
    for n in 0..total {
        // Mixed-radix digits of n, the last axis varying fastest.
        let mut rest = n;
        let mut values = vec![String::new(); axes.len()];
        for (i, a) in axes.iter().enumerate().rev() {
            values[i] = a.values[rest % a.values.len()].clone();
            rest /= a.values.len();
        }
        let label = format!(
            "{base_label} {}",
            axes.iter()
                .zip(&values)
                .map(|(a, v)| format!("{}={v}", a.key))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let mut spec = base.without("label");
        for (a, v) in axes.iter().zip(&values) {
            spec = spec
                .with(&a.key, v)
                .map_err(|e| GridError(format!("--param: {e}")))?;
        }
        let spec = spec
            .with("label", &label)
            .and_then(|s| catalog.parse(s.as_str()))
            .map_err(|e| GridError(format!("--param: {e}")))?;
        out.push(Combo { values, spec });
    }
    Ok(out)
}

/// `spec` with its `label` set to `label` (replacing one given).
///
/// # Errors
/// A label the spec syntax cannot hold (a comma).
pub fn relabel(spec: &BotSpec, label: &str, catalog: &Catalog) -> Result<BotSpec, GridError> {
    spec.without("label")
        .with("label", label)
        .and_then(|s| catalog.parse(s.as_str()))
        .map_err(|e| GridError(e.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin_catalog;

    #[test]
    fn lists_and_ranges() {
        let a = parse_axis("c=0.2..1.0:0.2").expect("range");
        assert_eq!(a.values, ["0.2", "0.4", "0.6", "0.8", "1.0"]);
        assert!(a.is_numeric());
        let a = parse_axis("c=0.2..2.0:0.2").expect("range");
        assert_eq!(a.values.len(), 10);
        assert_eq!(a.values.last().map(String::as_str), Some("2.0"));
        let a = parse_axis("iters=100..400:100").expect("range");
        assert_eq!(a.values, ["100", "200", "300", "400"]);
        let a = parse_axis("rollout=random, greedy").expect("list");
        assert_eq!(a.values, ["random", "greedy"]);
        assert!(!a.is_numeric());
        for bad in [
            "c",
            "=1,2",
            "c=",
            "c=1,,2",
            "c=1..0:0.1",
            "c=0..1:0",
            "c=0..1",
            "c=a..1:1",
            "c=0..1e9:1",
            "c=1,1",
            "label=x",
        ] {
            assert!(parse_axis(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn combinations_in_order_with_labels() {
        let catalog = builtin_catalog();
        let base = catalog.parse("random").expect("spec");
        // random has no keys: any swept key is unknown.
        let e = expand(&base, &[parse_axis("c=1,2").expect("axis")], &catalog)
            .expect_err("unknown key");
        assert!(e.0.contains("has no key 'c'"), "{e}");
        assert!(expand(&base, &[], &catalog).is_err());

        let base = catalog.parse("flatmc:playouts=50,c=0.7").expect("spec");
        let axes = [
            parse_axis("c=0.5,1.0").expect("axis"),
            parse_axis("rollout=random,heuristic").expect("axis"),
        ];
        let combos = expand(&base, &axes, &catalog).expect("grid");
        assert_eq!(combos.len(), 4);
        assert_eq!(combos[1].values, ["0.5", "heuristic"]);
        assert_eq!(
            combos[1].spec.as_str(),
            "flatmc:playouts=50,c=0.5,rollout=heuristic,label=flatmc c=0.5 rollout=heuristic"
        );
        // Out-of-range values are refused by the bot's own checks.
        let e = expand(&base, &[parse_axis("c=-1").expect("axis")], &catalog).expect_err("range");
        assert!(e.0.contains("c=-1"), "{e}");
        let r = relabel(&base, "B", &catalog).expect("relabel");
        assert_eq!(r.as_str(), "flatmc:playouts=50,c=0.7,label=B");
        let r = relabel(&r, "C", &catalog).expect("relabel");
        assert_eq!(r.label(), "C");
        let plain = catalog.parse("random").expect("spec");
        assert_eq!(
            relabel(&plain, "x", &catalog).map(|s| s.label()),
            Ok("x".into())
        );
    }
}
