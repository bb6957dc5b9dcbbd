//! `pahtum play` and `pahtum bots` end to end, through the real binary.

use crate::common;

use std::process::Output;

use common::text;

fn pahtum(args: &[&str], stdin: &str) -> Output {
    common::pahtum_with_input(args, stdin.as_bytes())
}

fn result_line(out: &str) -> (String, u32, u32) {
    let last = out.lines().last().expect("a last line");
    let parts: Vec<&str> = last.split(' ').collect();
    assert_eq!(parts.len(), 3, "last line: {last}");
    let value = |p: &str, key: &str| {
        p.strip_prefix(key)
            .unwrap_or_else(|| panic!("{key} in {last}"))
            .to_string()
    };
    let result = value(parts[0], "result=");
    assert!(
        ["white", "black", "draw"].contains(&result.as_str()),
        "{last}"
    );
    let w = value(parts[1], "white=").parse().expect("white score");
    let b = value(parts[2], "black=").parse().expect("black score");
    (result, w, b)
}

#[test]
fn plays_a_game_and_shows_every_move() {
    let args = [
        "play",
        "--white",
        "greedy",
        "--black",
        "heuristic",
        "--seed",
        "3",
    ];
    let o = pahtum(&args, "");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let (result, w, b) = result_line(&out);
    let expected = match w.cmp(&b) {
        std::cmp::Ordering::Greater => "white",
        std::cmp::Ordering::Less => "black",
        std::cmp::Ordering::Equal => "draw",
    };
    assert_eq!(result, expected);
    // 44 moves on the standard board, each followed by the board with ranks.
    assert!(out.contains("44. black heuristic: "), "{out}");
    assert_eq!(out.matches("  a b c d e f g").count(), 45, "{out}");
    assert!(out.starts_with("white=greedy black=heuristic seed=3 size=7 holes="));
    // The same seed gives the same game.
    let again = pahtum(&args, "");
    assert_eq!(text(&again.stdout), out);
}

#[test]
fn quiet_shows_only_the_end_and_verbose_the_statistics() {
    let args = ["play", "--white", "random", "--black", "flatmc:playouts=50"];
    let o = pahtum(
        &[&args[..], &["--quiet", "--size", "5", "--holes", "3"]].concat(),
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    // setup, 5 ranks, the file letters, the result.
    assert_eq!(lines.len(), 8, "{out}");
    result_line(&out);
    let o = pahtum(
        &[&args[..], &["--verbose", "--size", "4", "--holes", "1"]].concat(),
        "",
    );
    let out = text(&o.stdout);
    assert!(out.contains("info: nodes=50 depth=1"), "{out}");
}

#[test]
fn komi_decides_but_is_not_printed() {
    let base = [
        "play",
        "--white",
        "heuristic",
        "--black",
        "greedy",
        "--seed",
        "8",
    ];
    let plain = text(&pahtum(&base, "").stdout);
    let with = pahtum(&[&base[..], &["--komi", "1000.5"]].concat(), "");
    assert!(with.status.success());
    let with = text(&with.stdout);
    let (_, w0, b0) = result_line(&plain);
    let (r, w1, b1) = result_line(&with);
    assert_eq!((w0, b0), (w1, b1));
    assert_eq!(r, "black");
}

#[test]
fn pie_and_layout_are_honoured() {
    let o = pahtum(
        &[
            "play", "--white", "random", "--black", "random", "--pie", "--layout", "a1,c3",
            "--size", "3", "--seed", "4",
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("holes=a1,c3 pie=on"), "{out}");
    result_line(&out);
}

#[test]
fn human_is_told_why_and_may_stop() {
    let args = [
        "play", "--white", "human", "--black", "greedy", "--size", "3", "--layout", "a1",
    ];
    let o = pahtum(&args, "hello\na1\nz9\nswap\nb2\n");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("input ended after 2 moves, with white (human) to move"),
        "{err}"
    );
    let out = text(&o.stdout);
    assert!(out.contains("'hello' is not a square"), "{out}");
    assert!(out.contains("a1 is a hole"), "{out}");
    assert!(out.contains("'z9' is not a square"), "{out}");
    assert!(out.contains("swap needs the pie rule"), "{out}");
    assert!(out.contains("1. white human: b2"), "{out}");
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with("result=aborted white="),
        "{out}"
    );
    // A whole game: the human tries every square in turn, taken ones are refused.
    let all = "a2\na3\nb1\nb2\nb3\nc1\nc2\nc3\n".repeat(4);
    let o = pahtum(&args, &all);
    let out = text(&o.stdout);
    assert!(o.status.success());
    assert!(out.contains("8. black greedy"), "{out}");
    assert!(!out.contains("aborted"), "{out}");
    result_line(&out);
    // Empty input: stops at once, not counted as a finished game.
    let o = pahtum(&args, "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stdout).ends_with("result=aborted white=0 black=0\n"));
    assert!(text(&o.stderr).contains("input ended after 0 moves"));
}

/// The boards `play` printed, in order (each ends with its file letters).
fn boards(out: &str) -> Vec<String> {
    let mut all = Vec::new();
    let mut current = String::new();
    for line in out.lines() {
        let line = line.trim_start_matches("> ");
        if line.starts_with(|c: char| c.is_ascii_digit()) && line.chars().nth(1) == Some(' ') {
            current.push_str(line);
            current.push('\n');
        } else if line.trim_start().starts_with("a b") {
            all.push(std::mem::take(&mut current));
        }
    }
    all
}

/// The squares the prompts offer as examples ("type a square like b2").
fn example_squares(out: &str) -> Vec<String> {
    out.split("type a square like ")
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect()
        })
        .collect()
}

#[test]
fn a_human_sees_each_board_once_and_every_move_named() {
    let args = [
        "play", "--white", "human", "--black", "greedy", "--size", "3", "--holes", "0",
    ];
    // The human plays a1, the bot answers, the input ends at the next prompt.
    let o = pahtum(&args, "a1\n");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let shown = boards(&out);
    // The empty board, after a1, after the bot's answer: each once.
    assert_eq!(shown.len(), 3, "{out}");
    assert!(shown.windows(2).all(|w| w[0] != w[1]), "{out}");
    assert!(out.contains("2. black greedy: "), "{out}");
    // The example is a free square of this 3x3 board: the centre while
    // it is free.
    let examples = example_squares(&out);
    assert_eq!(examples.len(), 2, "{out}");
    assert_eq!(examples[0], "b2", "{out}");
    for sq in &examples {
        let b: Vec<char> = sq.chars().collect();
        assert!(
            b.len() == 2 && ('a'..='c').contains(&b[0]) && ('1'..='3').contains(&b[1]),
            "{sq}: {out}"
        );
    }
    // --quiet keeps the boards to the human's prompts, but the bot's move
    // is still named: the person must know what was played.
    let o = pahtum(&[&args[..], &["--quiet"]].concat(), "a1\n");
    let out = text(&o.stdout);
    assert!(out.contains("2. black greedy: "), "{out}");
    let shown = boards(&out);
    assert_eq!(shown.len(), 2, "{out}");
    assert!(shown.windows(2).all(|w| w[0] != w[1]), "{out}");
    // The human as Black, with the pie rule: the bot's first move named,
    // then the board once, at the prompt.
    let o = pahtum(
        &[
            "play", "--white", "greedy", "--black", "human", "--size", "3", "--holes", "0",
            "--pie", "--quiet",
        ],
        "",
    );
    let out = text(&o.stdout);
    assert!(out.contains("1. white greedy: "), "{out}");
    assert_eq!(boards(&out).len(), 1, "{out}");
    // Bot against bot, --quiet still shows the end alone.
    let o = pahtum(
        &[
            "play", "--white", "greedy", "--black", "random", "--size", "3", "--quiet",
        ],
        "",
    );
    let out = text(&o.stdout);
    assert!(!out.contains("1. white"), "{out}");
    assert_eq!(boards(&out).len(), 1, "{out}");
}

#[test]
fn bad_options_exit_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--size", "3", "--holes", "9"], "--holes 9"),
        (&["--size", "9"], "--size: 9 is out of range"),
        (&["--size", "2"], "--size: 2 is out of range"),
        (&["--layout", "a1,z9"], "z9"),
        (&["--layout", "d4", "--size", "3"], "d4"),
        (&["--seed", "-1"], "--seed: -1 is out of range"),
        (&["--seed", "abc"], "--seed: 'abc'"),
        (&["--holes", "3,5"], "one hole count"),
        (&["--holes", "x"], "--holes"),
        (&["--komi", "x"], "--komi"),
        (&["--quiet", "--verbose"], "--quiet"),
        (&["--holes", "5", "--layout", "a1"], "--layout"),
    ];
    for (extra, needle) in cases {
        let args = [
            &["play", "--white", "random", "--black", "random"][..],
            extra,
        ]
        .concat();
        let o = pahtum(&args, "");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert!(o.stdout.is_empty(), "{extra:?} printed {}", text(&o.stdout));
    }
    let specs: &[(&str, &str, &str)] = &[
        ("nosuch", "random", "unknown bot 'nosuch'"),
        ("random", "greedy:block=9", "block=9"),
        ("heuristic:foo=1", "random", "no key 'foo'"),
        ("flatmc:rollout=smart", "random", "random|heuristic"),
        ("random", "heuristic:decay", "KEY=VALUE"),
        (
            "learned:net=/nonexistent/x.net",
            "random",
            "cannot read line network '/nonexistent/x.net'",
        ),
        (
            "random",
            "mcts:rollout=net,net=Cargo.toml",
            "'Cargo.toml' is not a line network: no PTLN header",
        ),
        (
            "mcts:rollout=heuristic,net=data/lines-7.net",
            "random",
            "net= is read only with rollout=net or rollout=value",
        ),
        // A spec quoting a newline is shown escaped, still on one line.
        ("mc\nts", "random", "bad bot spec 'mc\\nts'"),
    ];
    for (w, b, needle) in specs {
        let o = pahtum(&["play", "--white", w, "--black", b], "");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{w} {b}: {err}");
        assert_eq!(err.lines().count(), 1, "{w} {b}: {err}");
        assert!(err.contains(needle), "{w} {b}: {err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn bots_lists_every_bot_and_key() {
    let o = pahtum(&["bots"], "");
    assert!(o.status.success());
    let out = text(&o.stdout);
    for name in [
        "random",
        "greedy",
        "heuristic",
        "learned",
        "flatmc",
        "human",
    ] {
        assert!(out.contains(&format!("\n{name}  ")), "{name}: {out}");
    }
    for key in [
        "block=0.5",
        "decay=0.4",
        "reach=3",
        "defence=1.3",
        "net=builtin",
        "playouts=2000",
        "rollout=random",
        "random|heuristic",
        "a number 0..=4",
        "label=NAME",
    ] {
        assert!(out.contains(key), "{key}: {out}");
    }
}
