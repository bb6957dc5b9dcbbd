//! One bot key, declared once: its name, the values it takes with its
//! typed default, its help line and its group. The parser (`Params`), the
//! listing of `pahtum bots`, the Python `bots()`, `tune` and the studies
//! that build specs all read the declaration, so a range or a default is
//! written in one place.

/// The values a key takes, with its default of the same type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeyType {
    /// An integer in `lo..=hi`; a `None` default is a key that is off
    /// unless given (listed as `-`).
    Int {
        /// Smallest accepted value.
        lo: u64,
        /// Largest accepted value.
        hi: u64,
        /// The value when the key is absent.
        default: Option<u64>,
    },
    /// A finite number in `lo..=hi`.
    Real {
        /// Smallest accepted value.
        lo: f64,
        /// Largest accepted value.
        hi: f64,
        /// The value when the key is absent.
        default: f64,
    },
    /// `0`, or a number in `lo..=hi` with `lo > 0`: a factor that 0 turns
    /// off and that means nothing close to 0.
    ZeroOrReal {
        /// Smallest accepted value besides 0.
        lo: f64,
        /// Largest accepted value.
        hi: f64,
        /// The value when the key is absent.
        default: f64,
    },
    /// `true` or `false` (also `on`/`off`, `1`/`0`, `yes`/`no`).
    Bool {
        /// The value when the key is absent.
        default: bool,
    },
    /// One of `names`, the spec names of a [`KeyValues`] enum.
    Enum {
        /// Every accepted value, in listing order.
        names: &'static [&'static str],
        /// The value when the key is absent; one of `names`.
        default: &'static str,
    },
    /// Text the bot reads itself (a file name), described by `accepts`.
    Text {
        /// What is accepted, as listed, e.g. `builtin|FILE`.
        accepts: &'static str,
        /// The value when the key is absent.
        default: &'static str,
    },
}

/// The spec names of an enum's values, for [`KeyType::Enum`] keys; the
/// `key_values!` macro derives both lists from one declaration.
pub trait KeyValues: Copy + 'static {
    /// Every value, in the order of [`KeyValues::NAMES`].
    const ALL: &'static [Self];
    /// Every value's spec name.
    const NAMES: &'static [&'static str];

    /// The value's spec name.
    fn name(self) -> &'static str;
}

/// Declares an enum whose variants are the values of a bot key, each with
/// its spec name (`Random = "random"`), and implements [`KeyValues`] and a
/// `const fn name` for it, so that the names are written once.
macro_rules! key_values {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// The value's name in a bot spec.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl $crate::bot::spec::KeyValues for $name {
            const ALL: &'static [Self] = &[$($name::$variant,)+];
            const NAMES: &'static [&'static str] = &[$($text,)+];

            fn name(self) -> &'static str {
                $name::name(self)
            }
        }
    };
}
pub(crate) use key_values;

/// What a budget key bounds. `serve` reads it from the catalogue: a spec
/// that gives any budget key keeps its budget, and the page's time goes
/// into the [`BudgetKind::Time`] key of a spec that gives none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetKind {
    /// Milliseconds of thinking per move.
    Time,
    /// Counted work per move: iterations, playouts, nodes or plies.
    Work,
}

/// One key a bot accepts: what the parser checks and `pahtum bots` lists.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyInfo {
    /// The key, e.g. `iters`.
    pub key: &'static str,
    /// The values it takes and its default.
    pub ty: KeyType,
    /// What it does.
    pub help: &'static str,
    /// A research option (for studies of the bot itself) rather than an
    /// everyday key: `pahtum bots` lists the two groups apart.
    pub research: bool,
    /// Ranges listed bare (`0..=10`), as `mcts` lists its own keys, rather
    /// than with their type (`a number 0..=10`).
    pub bare: bool,
    /// Whether the key bounds a move's search, and how.
    pub budget: Option<BudgetKind>,
    /// The value the key takes when it is not given but other keys that
    /// are given move it off its declared default (`alphabeta:depth=4`
    /// has no node bound; `mcts:minimax=0.2` no mix). Every getter of
    /// [`super::Params`] reads it, and so does a review's full spec, so
    /// the rule is written once and the full spec names the bot the spec
    /// makes. A rule reads only keys that have no rule of their own (a
    /// rule reading its own key, or a cycle of them, would not end).
    pub implied: Option<Implied>,
}

/// A key's value implied by the other keys of a spec, when not its
/// declared default ([`KeyInfo::implied`]).
#[derive(Clone, Copy)]
pub struct Implied(pub fn(&super::Params) -> Option<&'static str>);

impl std::fmt::Debug for Implied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Implied(..)")
    }
}

/// Two keys are equal whatever rule they imply by: a function's address
/// is no identity (the compiler may merge or duplicate functions).
impl PartialEq for Implied {
    fn eq(&self, _: &Implied) -> bool {
        true
    }
}

impl KeyInfo {
    const fn new(key: &'static str, ty: KeyType, help: &'static str) -> KeyInfo {
        KeyInfo {
            key,
            ty,
            help,
            research: false,
            bare: false,
            budget: None,
            implied: None,
        }
    }

    /// An everyday integer key in `lo..=hi`.
    pub const fn int(
        key: &'static str,
        lo: u64,
        hi: u64,
        default: u64,
        help: &'static str,
    ) -> Self {
        Self::new(
            key,
            KeyType::Int {
                lo,
                hi,
                default: Some(default),
            },
            help,
        )
    }

    /// An everyday integer key in `lo..=hi` that is off unless given.
    pub const fn opt_int(key: &'static str, lo: u64, hi: u64, help: &'static str) -> Self {
        Self::new(
            key,
            KeyType::Int {
                lo,
                hi,
                default: None,
            },
            help,
        )
    }

    /// An everyday number key in `lo..=hi`.
    pub const fn real(
        key: &'static str,
        lo: f64,
        hi: f64,
        default: f64,
        help: &'static str,
    ) -> Self {
        Self::new(key, KeyType::Real { lo, hi, default }, help)
    }

    /// A number key that also takes `0` below its range: a factor that 0
    /// turns off ([`KeyType::ZeroOrReal`]). Other keys are unchanged.
    pub const fn or_zero(self) -> Self {
        match self.ty {
            KeyType::Real { lo, hi, default } => KeyInfo {
                ty: KeyType::ZeroOrReal { lo, hi, default },
                ..self
            },
            _ => self,
        }
    }

    /// An everyday `true|false` key.
    pub const fn flag(key: &'static str, default: bool, help: &'static str) -> Self {
        Self::new(key, KeyType::Bool { default }, help)
    }

    /// An everyday key taking one of `T`'s values.
    pub const fn choice<T: KeyValues>(
        key: &'static str,
        default: &'static str,
        help: &'static str,
    ) -> Self {
        Self::new(
            key,
            KeyType::Enum {
                names: T::NAMES,
                default,
            },
            help,
        )
    }

    /// An everyday key whose text the bot reads itself.
    pub const fn text(
        key: &'static str,
        accepts: &'static str,
        default: &'static str,
        help: &'static str,
    ) -> Self {
        Self::new(key, KeyType::Text { accepts, default }, help)
    }

    /// The key marked as a research option.
    pub const fn research(self) -> Self {
        KeyInfo {
            research: true,
            ..self
        }
    }

    /// The key marked as bounding a move's search by `budget`.
    pub const fn budget(self, budget: BudgetKind) -> Self {
        KeyInfo {
            budget: Some(budget),
            ..self
        }
    }

    /// The key with its range listed bare.
    pub const fn bare(self) -> Self {
        KeyInfo { bare: true, ..self }
    }

    /// The key with a value `rule` implies from the other keys when it
    /// is not given ([`KeyInfo::implied`]).
    pub const fn implied_by(self, rule: fn(&super::Params) -> Option<&'static str>) -> Self {
        KeyInfo {
            implied: Some(Implied(rule)),
            ..self
        }
    }

    /// The value the key takes in `p` when not given: the one the other
    /// keys imply, else `None` (its declared default).
    pub fn implied_in(&self, p: &super::Params) -> Option<&'static str> {
        self.implied.and_then(|rule| (rule.0)(p))
    }

    /// The default as `pahtum bots` lists it (`-`: none).
    pub fn default_text(&self) -> String {
        match self.ty {
            KeyType::Int { default: None, .. } => "-".to_string(),
            KeyType::Int {
                default: Some(d), ..
            } => d.to_string(),
            KeyType::Real { default, .. } | KeyType::ZeroOrReal { default, .. } => {
                default.to_string()
            }
            KeyType::Bool { default } => default.to_string(),
            KeyType::Enum { default, .. } | KeyType::Text { default, .. } => default.to_string(),
        }
    }

    /// The accepted values as `pahtum bots` lists them.
    pub fn accepts(&self) -> String {
        let (int, real) = if self.bare {
            ("", "")
        } else {
            ("an integer ", "a number ")
        };
        match self.ty {
            KeyType::Int { lo, hi, .. } => format!("{int}{lo}..={hi}"),
            KeyType::Real { lo, hi, .. } => format!("{real}{lo}..={hi}"),
            KeyType::ZeroOrReal { lo, hi, .. } => format!("0|{real}{lo}..={hi}"),
            KeyType::Bool { .. } => "true|false".to_string(),
            KeyType::Enum { names, .. } => names.join("|"),
            KeyType::Text { accepts, .. } => accepts.to_string(),
        }
    }

    /// Whether the key takes integers only (`tune` rounds its values).
    pub fn is_integer(&self) -> bool {
        matches!(self.ty, KeyType::Int { .. })
    }

    /// The smallest and largest number the key takes, for a numeric key.
    pub fn range(&self) -> Option<(f64, f64)> {
        match self.ty {
            KeyType::Int { lo, hi, .. } => Some((lo as f64, hi as f64)),
            KeyType::Real { lo, hi, .. } => Some((lo, hi)),
            KeyType::ZeroOrReal { hi, .. } => Some((0.0, hi)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    key_values! {
        /// A test enum.
        enum Colour {
            /// First.
            Red = "red",
            /// Second.
            Blue = "blue",
        }
    }

    #[test]
    fn lists_defaults_and_ranges_from_the_typed_values() {
        let c = KeyInfo::real("c", 0.0, 10.0, 0.205444, "h");
        assert_eq!(
            (c.default_text(), c.accepts()),
            ("0.205444".into(), "a number 0..=10".into())
        );
        assert_eq!(c.bare().accepts(), "0..=10");
        let n = KeyInfo::opt_int("ms", 1, 86_400_000, "h").research();
        assert_eq!(
            (n.default_text(), n.accepts()),
            ("-".into(), "an integer 1..=86400000".into())
        );
        assert!(n.research && n.is_integer() && !c.is_integer());
        let w = KeyInfo::real("widen", 1.1, 100.0, 2.0, "h")
            .or_zero()
            .bare();
        assert_eq!(
            (w.default_text(), w.accepts()),
            ("2".into(), "0|1.1..=100".into())
        );
        assert_eq!(w.range(), Some((0.0, 100.0)));
        let e = KeyInfo::choice::<Colour>("colour", Colour::Blue.name(), "h");
        assert_eq!(
            (e.default_text(), e.accepts()),
            ("blue".into(), "red|blue".into())
        );
        assert_eq!(e.range(), None);
        assert_eq!(<Colour as KeyValues>::ALL, &[Colour::Red, Colour::Blue]);
    }
}
