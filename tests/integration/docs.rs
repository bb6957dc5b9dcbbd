//! What a newcomer reads is true: every file the README, the docs, help
//! texts and source comments cite exists, and every markdown link leads
//! somewhere; the README's quickstart output is what the quickstart
//! prints, and each subcommand's example (in the README, docs/cli.md or
//! docs/clusters.md) what that command prints; the cluster recipes of
//! docs/clusters.md are the ones their tests run; options and keys are
//! spelled and defaulted one way.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_pahtum");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The pages whose `$ pahtum ...` examples are run and compared, in the
/// order a reader meets them.
const EXAMPLE_PAGES: [&str; 3] = ["README.md", "docs/cli.md", "docs/clusters.md"];

/// Where the cluster recipes live, each after its `<!-- recipe:NAME -->`.
const RECIPES_PAGE: &str = "docs/clusters.md";

/// Files to check: the README, docs/, the experiments' READMEs, and the
/// Rust sources (comments and help texts).
fn cited_from() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    let mut stack: Vec<PathBuf> = ["docs", "experiments", "src", "tests", "examples", "benches"]
        .iter()
        .map(|d| root().join(d))
        .collect();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with("tests/data") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "md" || x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Top-level folders of the repository: a word starting with one of these
/// is a path into it.
const ROOTS: [&str; 9] = [
    "src/",
    "tests/",
    "docs/",
    "examples/",
    "experiments/",
    "data/",
    "benches/",
    ".ci/",
    ".cargo/",
];

/// Whether `cited` (relative to the repository root) names something
/// there: a file or folder, a source file without its `.rs`, or, with a
/// `*`, some file matching the part before it.
fn exists(cited: &str) -> bool {
    let path = root().join(cited);
    if let Some((prefix, _)) = cited.split_once('*') {
        let p = root().join(prefix);
        let (dir, stem) = (p.parent().expect("parent"), p.file_name());
        let stem = stem.map_or(String::new(), |s| s.to_string_lossy().into_owned());
        return std::fs::read_dir(dir).is_ok_and(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(&stem))
        });
    }
    path.exists() || path.with_extension("rs").exists()
}

#[test]
fn every_cited_repository_path_exists() {
    let mut missing = Vec::new();
    for file in cited_from() {
        let text = read(&file);
        let rel = file.strip_prefix(root()).expect("in repo").to_path_buf();
        let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./*-".contains(c)));
        for w in words {
            let w = w.trim_end_matches(['.', '-']);
            let rooted = ROOTS.iter().any(|r| w.starts_with(r));
            // A bare markdown file name is cited beside the citing file
            // (docs/) or at the root.
            let bare_md = !w.contains('/') && w.ends_with(".md") && w.len() > 3;
            let ok = if rooted {
                exists(w)
            } else if bare_md {
                let beside = rel
                    .parent()
                    .map_or(PathBuf::new(), Path::to_path_buf)
                    .join(w);
                exists(&beside.to_string_lossy()) || exists(w)
            } else {
                true
            };
            if !ok {
                missing.push(format!("{}: {w}", rel.display()));
            }
        }
    }
    missing.dedup();
    assert!(
        missing.is_empty(),
        "cited but not in the repository:\n{}",
        missing.join("\n")
    );
}

/// The lines of a markdown text outside its fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The anchors of a markdown file's headings, as GitHub makes them:
/// lower case, punctuation other than `-` and `_` dropped, spaces as `-`.
fn anchors(text: &str) -> Vec<String> {
    prose_lines(text)
        .into_iter()
        .filter_map(|l| {
            let title = l.trim_start_matches('#');
            (title.len() < l.len() && title.starts_with(' ')).then_some(title)
        })
        .map(|title| {
            title
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || " -_".contains(*c))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// Every relative markdown link `[text](TARGET)` leads to a file or folder
/// of the repository, resolved from the linking file's folder, and a
/// `#anchor` into a markdown file to one of its headings: moving a page or
/// renaming a section cannot leave a dangling link behind.
#[test]
fn every_markdown_link_resolves() {
    let mut broken = Vec::new();
    for file in cited_from() {
        if file.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let text = read(&file);
        let rel = file.strip_prefix(root()).expect("in repo");
        for line in prose_lines(&text) {
            for (_, rest) in line.match_indices("](").map(|(i, _)| line.split_at(i + 2)) {
                let target = rest.split_once(')').map_or(rest, |(t, _)| t);
                if target.contains(':') || target.contains(char::is_whitespace) {
                    continue; // a URL, or not a link
                }
                let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
                let linked = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().expect("parent").join(path)
                };
                if !linked.exists() {
                    broken.push(format!("{}: {target}: no such file", rel.display()));
                } else if !anchor.is_empty()
                    && linked.extension().is_some_and(|x| x == "md")
                    && !anchors(&read(&linked)).iter().any(|a| a == anchor)
                {
                    broken.push(format!("{}: {target}: no such heading", rel.display()));
                }
            }
        }
    }
    broken.dedup();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The lines of the first ```text block after `heading` in the README.
fn readme_block(heading: &str) -> String {
    let readme = read(&root().join("README.md"));
    let after = &readme[readme.find(heading).expect("heading")..];
    let start = after.find("```text\n").expect("block") + "```text\n".len();
    let len = after[start..].find("```").expect("end of block");
    after[start..start + len].to_string()
}

#[test]
#[ignore = "long: .ci/run runs it"]
fn readme_quickstart_output_is_real() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let o = Command::new(BIN)
        .args(["tournament", "--out"])
        .arg(&out)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let block = readme_block("## Quickstart");
    assert!(
        stdout.contains(block.trim()),
        "README's quickstart block:\n{block}\nthe quickstart printed:\n{stdout}"
    );
}

/// The `solve` example prints exactly its lines, every one of them.
#[test]
fn solve_example_is_real() {
    let (page, line) = EXAMPLE_PAGES
        .iter()
        .map(|p| read(&root().join(p)))
        .find_map(|text| {
            let line = text
                .lines()
                .find(|l| l.starts_with("$ pahtum solve "))?
                .to_string();
            Some((text, line))
        })
        .expect("a `$ pahtum solve` example");
    let file = line.trim_start_matches("$ pahtum solve ").trim();
    let expected: Vec<&str> = page[page.find(&line).expect("line") + line.len()..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    let o = Command::new(BIN)
        .args(["solve", file])
        .current_dir(root())
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .collect::<Vec<_>>(),
        expected
    );
}

fn help(sub: &str) -> String {
    let o = Command::new(BIN)
        .args([sub, "--help"])
        .output()
        .expect("runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The help of one option: its line and, when clap lays the help out long
/// (one option's text has several paragraphs), the lines under it.
fn option_help(help: &str, option: &str) -> Option<String> {
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(option));
    let first = lines.next()?;
    let rest = lines.take_while(|l| !l.trim_start().starts_with('-'));
    Some(
        std::iter::once(first)
            .chain(rest)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[test]
fn one_seed_default_and_holes_defaults_in_help() {
    for sub in ["play", "tournament", "sweep", "sprt", "fpa", "engine"] {
        let h = help(sub);
        let seed = option_help(&h, "--seed").expect("--seed");
        assert!(seed.contains("[default: 1]"), "{sub}: {seed}");
        if let Some(holes) = option_help(&h, "--holes") {
            let want = if sub == "fpa" {
                "[default: 3,5,7,9,11,13]"
            } else {
                "[default: 5]"
            };
            assert!(holes.contains(want), "{sub}: {holes}");
        }
    }
}

#[test]
fn one_spelling_per_key_in_the_bot_list() {
    let o = Command::new(BIN).arg("bots").output().expect("runs");
    let list = String::from_utf8_lossy(&o.stdout);
    // The random-move share is `eps` in every bot; no time budget is `-`.
    assert!(
        !list.lines().any(|l| l.trim_start().starts_with("epsilon=")),
        "{list}"
    );
    assert!(list.contains("eps=0 "), "{list}");
    assert!(list.contains("eps=0.030753 "), "{list}");
    assert!(!list.contains("ms=0 "), "{list}");
    assert_eq!(list.matches("  ms=- ").count(), 3, "{list}");
    // The old spelling is still accepted.
    let o = Command::new(BIN)
        .args([
            "play",
            "--white",
            "flatmc:playouts=20,rollout=heuristic,epsilon=0.5",
        ])
        .args([
            "--black", "random", "--size", "3", "--holes", "1", "--quiet",
        ])
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The fenced block after `<!-- recipe:NAME -->` in [`RECIPES_PAGE`] (what
/// the scheduler tests extract and run).
fn recipe(name: &str) -> Option<String> {
    let text = read(&root().join(RECIPES_PAGE));
    let after = text.split_once(&format!("<!-- recipe:{name} -->\n"))?.1;
    let body = after.strip_prefix("```")?.split_once('\n')?.1;
    Some(body.split_once("\n```")?.0.to_string())
}

#[test]
fn every_cluster_recipe_is_marked_and_tested() {
    for name in ["slurm", "parallel", "kubernetes"] {
        let block =
            recipe(name).unwrap_or_else(|| panic!("{RECIPES_PAGE}: no recipe:{name} block"));
        for needed in ["pahtum tournament", "--shard", "--out", "--resume"] {
            assert!(block.contains(needed), "recipe:{name} lacks {needed}");
        }
        let script = format!("tests/schedulers/{name}.sh");
        assert!(root().join(&script).exists(), "{script} missing");
        // One copy only: a second marked block elsewhere would be untested.
        for page in cited_from() {
            let marked = read(&page).contains(&format!("<!-- recipe:{name} -->"));
            assert!(
                !marked || page.ends_with(RECIPES_PAGE),
                "{}: recipe:{name} belongs in {RECIPES_PAGE}",
                page.display()
            );
        }
        assert!(
            read(&root().join(".ci/run")).contains("tests/schedulers/$scheduler.sh")
                && read(&root().join(".ci/run")).contains(name),
            ".ci/run does not run {script}"
        );
    }
}

/// One `$ COMMAND` of a page's `sh`/`console` blocks and the lines
/// shown under it (up to the next `$` line or the end of the block).
struct Example {
    command: String,
    expected: Vec<String>,
}

/// Every `$ pahtum ...` and `$ cat ...` example of one page, with a
/// `\` continuation joined and a trailing `# comment` dropped.
fn page_examples(page: &str) -> Vec<Example> {
    let text = read(&root().join(page));
    let mut examples: Vec<Example> = Vec::new();
    let (mut in_block, mut shell) = (false, false);
    // Output lines belong to a command of the same block only.
    let mut current: Option<usize> = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(info) = line.strip_prefix("```") {
            shell = !in_block && (info == "sh" || info == "console");
            in_block = !in_block;
            current = None;
            continue;
        }
        if !(in_block && shell) {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            let mut command = cmd.to_string();
            while command.ends_with('\\') {
                command.pop();
                command.push(' ');
                command.push_str(lines.next().expect("continued line").trim());
            }
            if let Some((before, _)) = command.split_once("  #") {
                command = before.to_string();
            }
            examples.push(Example {
                command: command.trim().to_string(),
                expected: Vec::new(),
            });
            current = Some(examples.len() - 1);
        } else if let Some(i) = current {
            examples[i].expected.push(line.trim_end().to_string());
        }
    }
    examples.retain(|e| e.command.starts_with("pahtum ") || e.command.starts_with("cat "));
    examples
}

/// With a CSV header whose columns end in `_ms` (timing columns) first,
/// the lines with those fields emptied: a file shown with `cat` is
/// compared timing columns aside.
fn without_ms_fields(lines: &[String]) -> Vec<String> {
    let Some(header) = lines.first() else {
        return Vec::new();
    };
    let timed: Vec<bool> = header.split(',').map(|h| h.ends_with("_ms")).collect();
    if timed.len() < 2 || !timed.contains(&true) {
        return lines.to_vec();
    }
    lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            if f.len() != timed.len() {
                return l.clone();
            }
            f.iter()
                .zip(&timed)
                .map(|(v, t)| if *t { "" } else { *v })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

/// With a timing column (`ms/move`, the last), a table line without it.
fn without_timing(lines: &[String]) -> Vec<String> {
    let timed = lines.first().is_some_and(|l| l.ends_with("ms/move"));
    lines
        .iter()
        .map(|l| match l.rsplit_once(' ') {
            Some((rest, _)) if timed => rest.trim_end().to_string(),
            _ => l.clone(),
        })
        .collect()
}

/// Each subcommand's example in the README, docs/cli.md and
/// docs/clusters.md prints what the page shows under it, a page's examples
/// run in order in a scratch directory of the page's own (where `tests/`
/// is the repository's, so the cited files are found and `results/` is
/// scratch). Lines that a command writes on stderr (`tune`'s header) may be
/// shown too; the timing column of `sweep` and the machine-dependent
/// `bench` are not compared.
#[test]
#[ignore = "long: .ci/run runs it"]
fn doc_examples_print_what_the_docs_show() {
    let mut seen = Vec::new();
    for page in EXAMPLE_PAGES {
        seen.extend(run_page_examples(page));
    }
    // The guard itself: every subcommand that has an example is checked.
    for sub in [
        "score",
        "play",
        "tournament",
        "merge",
        "rate",
        "sweep",
        "sprt",
        "fpa",
        "solve",
        "exact",
        "accuracy",
        "tune",
        "review",
        "bots",
    ] {
        assert!(
            seen.iter().any(|s| s == sub),
            "no `$ pahtum {sub}` example in {}",
            EXAMPLE_PAGES.join(", ")
        );
    }
}

/// Runs the examples of `page` and checks what each prints; returns the
/// subcommands run.
fn run_page_examples(page: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(root().join("tests"), dir.path().join("tests")).expect("symlink");
    let mut seen = Vec::new();
    for ex in &page_examples(page) {
        let (command, head) = match ex.command.split_once(" | head -") {
            Some((c, n)) => (c, Some(n.parse::<usize>().expect("head count"))),
            None => (ex.command.as_str(), None),
        };
        let words: Vec<&str> = command.split_whitespace().collect();
        if words[..2] == ["pahtum", "bench"] {
            continue;
        }
        let (stdout, stderr) = if words[0] == "cat" {
            (read(&dir.path().join(words[1])), String::new())
        } else {
            seen.push(words[1].to_string());
            let o = Command::new(BIN)
                .args(&words[1..])
                .current_dir(dir.path())
                .output()
                .expect("runs");
            let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
            assert!(o.status.success(), "{page}: $ {}\n{stderr}", ex.command);
            (String::from_utf8_lossy(&o.stdout).into_owned(), stderr)
        };
        let mut out: Vec<String> = stdout.lines().map(|l| l.trim_end().to_string()).collect();
        if let Some(n) = head {
            out.truncate(n);
        }
        let err: Vec<&str> = stderr.lines().map(str::trim_end).collect();
        let (out, expected) = (without_timing(&out), without_timing(&ex.expected));
        let (out, expected) = if words[0] == "cat" {
            (without_ms_fields(&out), without_ms_fields(&expected))
        } else {
            (out, expected)
        };
        for line in &expected {
            assert!(
                out.contains(line) || err.contains(&line.as_str()),
                "{page}: $ {}\nshows a line it did not print: {line}\nstdout:\n{}",
                ex.command,
                out.join("\n")
            );
        }
        let shown: Vec<&String> = expected.iter().filter(|l| out.contains(l)).collect();
        assert_eq!(
            out.iter().collect::<Vec<_>>(),
            shown,
            "{page}: $ {}",
            ex.command
        );
    }
    seen
}

/// The text of docs/cli.md from `heading` to the next `## ` heading.
fn cli_section(heading: &str) -> String {
    let page = read(&root().join("docs/cli.md"));
    let start = page
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/cli.md: no {heading}"));
    let rest = &page[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 3);
    rest[..end].to_string()
}

#[test]
fn help_docs_and_behaviour_agree() {
    // play plays one game: its --holes takes one count, and says so.
    let holes = option_help(&help("play"), "--holes").expect("--holes");
    assert!(holes.contains("--holes <N>"), "{holes}");
    assert!(!holes.contains("cycle"), "{holes}");
    let o = Command::new(BIN)
        .args([
            "play", "--white", "random", "--black", "random", "--holes", "3,5",
        ])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("one hole count"));
    // train's steps depend on the threads (src/learn/train.rs): neither
    // its help nor docs/cli.md may say otherwise.
    let threads = option_help(&help("train"), "--threads").expect("--threads");
    assert!(!threads.contains("the results do not depend"), "{threads}");
    assert!(threads.contains("the training steps do"), "{threads}");
    let train = cli_section("## `train`");
    assert!(train.contains("the training\nsteps do"), "{train}");
    // `holes` is a count in exact's files, the squares in games.csv.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("exact");
    let o = Command::new(BIN)
        .args(["exact", "--size", "3", "--holes", "2", "--quiet", "--out"])
        .arg(&out)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for file in ["exact.csv", "exact_summary.csv"] {
        let text = read(&out.join(file));
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().expect("header").split(',').collect();
        let row: Vec<&str> = lines.next().expect("a row").split(',').collect();
        let i = header.iter().position(|&c| c == "holes").expect("holes");
        assert_eq!(row[i], "2", "{file}: {text}");
    }
    let tournament = cli_section("## `tournament`");
    let columns = tournament
        .split("\n\n")
        .find(|p| p.starts_with("A column name means"))
        .expect("the column paragraph");
    for file in ["`exact.csv`", "`exact_summary.csv`", "`versus.csv`"] {
        assert!(columns.contains(file), "{columns}");
    }
    assert!(columns.contains("`holes` is the count"), "{columns}");
    let exact = cli_section("## `exact`");
    assert!(exact.contains("`holes` (the number of holes)"), "{exact}");
    assert!(exact.contains("(`holes`\nits hole count"), "{exact}");
}

/// The mark of a test that `cargo test` leaves out for its time and
/// `.ci/run` runs by name.
const LONG: &str = "#[ignore = \"long: .ci/run runs it\"]";

/// Every test marked [`LONG`] is named in `.ci/run`, so that leaving it
/// out of `cargo test` never leaves it unrun.
#[test]
fn every_long_test_is_run_by_ci() {
    let ci = read(&root().join(".ci/run"));
    let dir = root().join("tests/integration");
    let mut marked = Vec::new();
    for e in std::fs::read_dir(&dir)
        .expect("tests/integration")
        .flatten()
    {
        let path = e.path();
        let module = path
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        let text = read(&path);
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if line.trim() != LONG {
                continue;
            }
            let name = lines
                .find_map(|l| l.trim().strip_prefix("fn "))
                .and_then(|l| l.split('(').next())
                .expect("a test function after the mark");
            marked.push(format!("{module}::{name}"));
        }
    }
    assert!(!marked.is_empty(), "no test is marked {LONG}");
    for test in marked {
        assert!(
            ci.split_whitespace().any(|w| w == test),
            ".ci/run does not run {test}"
        );
    }
}

/// The README's "Code layout" names every folder of `src/` at its depth
/// (two spaces a level, under its parent), and every folder it names
/// exists: the map is the territory.
#[test]
fn code_layout_matches_src() {
    let block = readme_block("## Code layout");
    let mut named = Vec::new();
    let mut parents: Vec<String> = Vec::new();
    for line in block.lines().skip(1) {
        let depth = (line.len() - line.trim_start().len()) / 2;
        let first = line.trim_start().split("  ").next().unwrap_or("");
        // "net.rs, net/": the folder is the entry's last name ending in '/'.
        let Some(dir) = first.split(", ").find_map(|n| n.strip_suffix('/')) else {
            continue;
        };
        parents.truncate(depth.saturating_sub(1));
        parents.push(dir.to_string());
        named.push(parents.join("/"));
    }
    let mut on_disk = Vec::new();
    let mut stack = vec![root().join("src")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("src/ reads") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                let rel = p.strip_prefix(root().join("src")).expect("under src");
                on_disk.push(rel.to_string_lossy().replace('\\', "/"));
                stack.push(p);
            }
        }
    }
    named.sort();
    on_disk.sort();
    assert_eq!(
        named, on_disk,
        "README Code layout (left) against src/ (right)"
    );
}
