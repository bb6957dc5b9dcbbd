//! Bot specs (`NAME[:KEY=VALUE,...]`): the syntax alone and the checks of
//! the built-in catalogue. Any text is accepted or refused with an error,
//! a spec's text parses back to the same spec, and a spec the catalogue
//! accepts builds a bot.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use pahtum::{BotSpec, Catalog, builtin_catalog};

static CATALOG: LazyLock<Catalog> = LazyLock::new(builtin_catalog);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let syntax = text.parse::<BotSpec>();
    if let Ok(spec) = &syntax {
        let again: BotSpec = spec.to_string().parse().expect("a spec's text parses");
        assert_eq!(&again, spec);
        assert_eq!(again.label(), spec.label());
    }
    if let Ok(spec) = CATALOG.parse(text) {
        assert_eq!(
            syntax.as_ref(),
            Ok(&spec),
            "the catalogue parses the same syntax"
        );
        let again = CATALOG.parse(spec.as_str()).expect("a spec's text parses");
        assert_eq!(again, spec);
        if let Err(e) = CATALOG.build(&spec, 1) {
            panic!("{text:?} was accepted but does not build: {e}");
        }
    }
});
