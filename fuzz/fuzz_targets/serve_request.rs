//! `pahtum serve`'s request handling (`view::serve::handle`): any method,
//! path and body. The first byte picks the method and the path, the rest
//! is the body. The gate admits no search, so every request that passes
//! the checks stops at the gate (503) instead of thinking for a second:
//! what is fuzzed is everything a request goes through before a bot moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pahtum::view::serve::{Gate, handle};

const ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/move"),
    ("POST", "/api/review"),
    ("POST", "/api/budget"),
    ("GET", "/"),
    ("HEAD", "/"),
    ("GET", "/api/move"),
    ("POST", "/api/move?x=1"),
    ("POST", "/nowhere"),
    ("PUT", "/api/review"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let (method, path) = ROUTES[pick as usize % ROUTES.len()];
    let gate = Gate::new(0);
    let reply = handle(method, path, body, &gate);
    // A 500 is an internal error: no request may cause one.
    assert!(
        matches!(reply.status, 200 | 400 | 404 | 405 | 413 | 503),
        "{method} {path} {body:?}: {} {}",
        reply.status,
        reply.body
    );
    if reply.status != 200 {
        // Every refusal is a JSON `{"error": "one line"}` the page shows.
        let v: serde_json::Value = serde_json::from_str(&reply.body).expect("JSON refusal");
        let message = v["error"].as_str().expect("an error message");
        assert!(
            !message.is_empty() && !message.contains('\n'),
            "{message:?}"
        );
    } else if path.starts_with("/api/") {
        // Past the checks only a finished game or the person's turn is
        // answered without the gate: the answer is the game's state.
        let v: serde_json::Value = serde_json::from_str(&reply.body).expect("JSON state");
        assert!(v.is_object(), "{v}");
    }
});
