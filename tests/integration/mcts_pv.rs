//! `mcts` with the policy-value network (`prior=pv`, `mix=`, `pvnet=`)
//! through the binary: a game plays to its result, bad values are refused
//! as bad input naming the key or the file.

use crate::common;

#[test]
fn mcts_with_the_network_plays_and_refuses_bad_keys() {
    let spec = "mcts:prior=pv,mix=0.5,expand=8,iters=200";
    let out = common::ok(&["play", "--white", spec, "--black", "random", "--quiet"]);
    assert!(
        out.lines().last().is_some_and(|l| l.starts_with("result=")),
        "{out}"
    );
    let again = common::ok(&["play", "--white", spec, "--black", "random", "--quiet"]);
    assert_eq!(out, again);
    for (spec, names) in [
        ("mcts:mix=2", "mix"),
        (
            "mcts:prior=pv,pvnet=/no/such/net.safetensors",
            "/no/such/net.safetensors",
        ),
        (
            "mcts:prior=prune,mix=0,pvnet=/no/such/net.safetensors",
            "is read only",
        ),
        ("mcts:mix=0.5,minimax=0.5", "minimax="),
    ] {
        let err = common::refused(&["play", "--white", spec, "--black", "random"]);
        assert!(err.contains(names), "{spec}: {err}");
    }
}
