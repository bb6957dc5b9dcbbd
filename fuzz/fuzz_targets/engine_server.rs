//! The engine protocol server (`pahtum engine`), a line at a time: any
//! line, of any bytes, gets at most one framed answer and never a panic.
//! The first byte picks the bot served, among quick ones, so that
//! `genmove` is cheap on every board size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pahtum::builtin_catalog;
use pahtum::protocol::Server;

const SPECS: &[&str] = &[
    "random",
    "greedy",
    "heuristic",
    "learned",
    "flatmc:playouts=2",
    "alphabeta:depth=1",
    "mcts:iters=16",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, lines)) = data.split_first() else {
        return;
    };
    let catalog = builtin_catalog();
    let spec = catalog
        .parse(SPECS[pick as usize % SPECS.len()])
        .expect("a valid spec");
    let mut server = Server::new(catalog, spec, u64::from(pick));
    for line in lines.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        let Some(out) = server.handle(&line) else {
            continue;
        };
        // One answer: its first line `=`/`?`, ended by the one blank line.
        let text = out.reply.to_string();
        assert!(text.starts_with(['=', '?']), "{line:?}: {text:?}");
        assert!(text.ends_with("\n\n"), "{line:?}: {text:?}");
        assert!(
            !text[..text.len() - 2].contains("\n\n"),
            "{line:?}: {text:?}"
        );
        if out.quit {
            break;
        }
    }
});
