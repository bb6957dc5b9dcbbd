//! One run directory as the page sees it: its kind (from `run.json`'s
//! `command` key), its tables and figures, its games and their reviews,
//! and what `moves.csv` says of the bots' searches.

use std::path::{Path, PathBuf};

use super::PageError;
use crate::judge::review::{RECORD_FILE, ReviewRecord};

/// The study commands whose directories the page knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// `tournament`, and the `merge` of its shards.
    Tournament,
    /// `sweep`.
    Sweep,
    /// `sprt`.
    Sprt,
    /// `fpa`.
    Fpa,
    /// `exact`.
    Exact,
    /// `tune`.
    Tune,
    /// `accuracy`.
    Accuracy,
    /// `rate`: ratings pooled over several runs.
    Rate,
}

impl RunKind {
    /// The kind of a `command` value, if the page knows it.
    pub fn from_command(command: &str) -> Option<RunKind> {
        Some(match command {
            "tournament" | "merge" => RunKind::Tournament,
            "sweep" => RunKind::Sweep,
            "sprt" => RunKind::Sprt,
            "fpa" => RunKind::Fpa,
            "exact" => RunKind::Exact,
            "tune" => RunKind::Tune,
            "accuracy" => RunKind::Accuracy,
            "rate" => RunKind::Rate,
            _ => return None,
        })
    }

    /// The file without which a directory of this kind says nothing.
    pub fn main_file(self) -> &'static str {
        match self {
            RunKind::Tournament => "summary.csv",
            RunKind::Sweep => "sweep.csv",
            RunKind::Sprt => "sprt.csv",
            RunKind::Fpa => "fpa.csv",
            RunKind::Exact => "exact.csv",
            RunKind::Tune => "tune.csv",
            RunKind::Accuracy => "accuracy.csv",
            RunKind::Rate => "ratings.csv",
        }
    }

    /// The command's name, as a section title.
    pub fn name(self) -> &'static str {
        match self {
            RunKind::Tournament => "tournament",
            RunKind::Sweep => "sweep",
            RunKind::Sprt => "sprt",
            RunKind::Fpa => "fpa",
            RunKind::Exact => "exact",
            RunKind::Tune => "tune",
            RunKind::Accuracy => "accuracy",
            RunKind::Rate => "rate",
        }
    }
}

/// A CSV file: its header and rows, every field as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The file name, e.g. `summary.csv`.
    pub name: String,
    /// The column names.
    pub header: Vec<String>,
    /// The rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Parses CSV text; a ragged or torn row ends the table there, as
    /// `--resume` would drop it.
    pub fn parse(name: &str, text: &str) -> Table {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .from_reader(text.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .map(|h| h.iter().map(str::to_string).collect())
            .unwrap_or_default();
        let mut rows = Vec::new();
        for rec in reader.records() {
            match rec {
                Ok(r) if r.len() == header.len() => {
                    rows.push(r.iter().map(str::to_string).collect())
                }
                _ => break,
            }
        }
        Table {
            name: name.to_string(),
            header,
            rows,
        }
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }
}

/// One game's `review.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The game's index (`games.csv`'s `game`).
    pub game: u64,
    /// Its rows, one per ply.
    pub table: Table,
    /// How it was made (`review.json` beside it); `None` for a review
    /// made before reviews recorded it, or a record that does not parse.
    pub record: Option<ReviewRecord>,
}

/// Everything the page shows of one directory.
#[derive(Clone, Debug)]
pub struct RunData {
    /// The directory as named.
    pub dir: PathBuf,
    /// What made it.
    pub kind: RunKind,
    /// The command that reruns it, when `run.json` records one.
    pub rerun: String,
    /// The board size, from the run's `--size` (7 when absent).
    pub size: u8,
    /// Every CSV file but `games.csv`, by name.
    pub tables: Vec<Table>,
    /// Every SVG figure, by name, with the text to inline.
    pub figures: Vec<(String, String)>,
    /// `games.csv`, for a tournament.
    pub games: Option<Table>,
    /// The reviews found in `review-N/review.csv` (where `pahtum review
    /// DIR --game N` writes them), in game order.
    pub reviews: Vec<Review>,
    /// From `moves.csv`: each game's `white_expect` column, one field a
    /// ply (`-` where the mover said nothing), for games where a bot
    /// said something.
    pub evals: Vec<(u64, String)>,
    /// From `moves.csv`: the searches of each bot, in the order the file
    /// first names them.
    pub search: Vec<BotSearch>,
}

/// What `moves.csv` says of one bot's searches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotSearch {
    /// The bot's label.
    pub bot: String,
    /// Moves it chose.
    pub moves: u64,
    /// Moves with a search report (`nodes` given).
    pub searched: u64,
    /// Nodes over the reported searches.
    pub nodes: u64,
    /// Depth over the reported searches.
    pub depth: u64,
    /// Milliseconds over the reported searches.
    pub ms: u64,
}

impl BotSearch {
    /// Nodes a second over the moves with a search report; `None` without
    /// measurable time.
    pub fn nodes_per_second(&self) -> Option<f64> {
        (self.ms > 0).then(|| self.nodes as f64 * 1000.0 / self.ms as f64)
    }
}

/// What [`read_moves`] gathers.
type MovesSummary = (Vec<(u64, String)>, Vec<BotSearch>);

/// Reads `moves.csv` line by line (it is the largest file of a run, and
/// the page needs only sums and one column of it). Lines that do not
/// parse end the reading, as a torn line would.
fn read_moves(path: &Path) -> Result<MovesSummary, PageError> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|source| PageError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut lines = std::io::BufReader::new(file).lines();
    let header = lines.next().and_then(Result::ok).unwrap_or_default();
    let cols: Vec<&str> = header.split(',').collect();
    let at = |name: &str| cols.iter().position(|c| *c == name);
    let (Some(cg), Some(cb), Some(ce), Some(cn), Some(cd), Some(cm)) = (
        at("game"),
        at("bot"),
        at("white_expect"),
        at("nodes"),
        at("depth"),
        at("move_ms"),
    ) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut evals: Vec<(u64, String)> = Vec::new();
    let mut said = false;
    let mut search: Vec<BotSearch> = Vec::new();
    for line in lines {
        let Ok(line) = line else { break };
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != cols.len() {
            break;
        }
        let Ok(game) = f[cg].parse::<u64>() else {
            break;
        };
        if evals.last().map(|e| e.0) != Some(game) {
            if !said {
                evals.pop();
            }
            evals.push((game, String::new()));
            said = false;
        }
        if let Some((_, text)) = evals.last_mut() {
            if !text.is_empty() {
                text.push(' ');
            }
            if f[ce].is_empty() {
                text.push('-');
            } else {
                text.push_str(f[ce]);
                said = true;
            }
        }
        if f[cb] == crate::arena::moves_csv::BOOK {
            continue;
        }
        let i = match search.iter().position(|s| s.bot == f[cb]) {
            Some(i) => i,
            None => {
                search.push(BotSearch {
                    bot: f[cb].to_string(),
                    ..BotSearch::default()
                });
                search.len() - 1
            }
        };
        let s = &mut search[i];
        s.moves += 1;
        if let Ok(n) = f[cn].parse::<u64>() {
            s.searched += 1;
            s.nodes += n;
            s.depth += f[cd].parse::<u64>().unwrap_or(0);
            s.ms += f[cm].parse::<u64>().unwrap_or(0);
        }
    }
    if !said {
        evals.pop();
    }
    Ok((evals, search))
}

fn read(path: &Path) -> Result<String, PageError> {
    std::fs::read_to_string(path).map_err(|source| PageError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The value of option `key` in `run.json`'s `options` (pairs of strings).
fn option<'a>(json: &'a serde_json::Value, key: &str) -> Option<&'a str> {
    json.get("options")?
        .as_array()?
        .iter()
        .filter_map(|p| p.as_array())
        .find(|p| p.first().and_then(|k| k.as_str()) == Some(key))?
        .get(1)?
        .as_str()
}

/// An SVG as it can sit inside HTML: no XML declaration, and no namespace
/// attributes, which HTML does not need and whose URLs would be the only
/// `http://` text in the page.
pub fn inline_svg(text: &str) -> String {
    let start = text.find("<svg").unwrap_or(0);
    text[start..]
        .replace(" xmlns=\"http://www.w3.org/2000/svg\"", "")
        .replace(" xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "")
}

/// Where `pahtum review DIR --game N` writes game `N`'s review.
pub fn review_csv(dir: &Path, game: u64) -> PathBuf {
    dir.join(format!("review-{game}")).join("review.csv")
}

/// The game whose review directory `path` (`DIR/review-N`) is.
fn review_game(path: &Path) -> Option<u64> {
    let n = path.file_name()?.to_str()?.strip_prefix("review-")?;
    // `review-0012` is no game's directory: the game is written plainly.
    let game: u64 = n.parse().ok()?;
    (game.to_string() == n).then_some(game)
}

impl RunData {
    /// Reads directory `dir`.
    ///
    /// # Errors
    /// [`PageError::Unrecognised`] where `dir` has no readable `run.json`,
    /// its `command` is not a study command, or its main file is missing;
    /// [`PageError::Io`] where a file cannot be read.
    pub fn read(dir: &Path) -> Result<RunData, PageError> {
        let bad = |why: String| PageError::Unrecognised {
            dir: dir.to_path_buf(),
            why,
        };
        let json_path = dir.join("run.json");
        if !json_path.is_file() {
            return Err(bad("no run.json".into()));
        }
        let json: serde_json::Value =
            serde_json::from_str(&read(&json_path)?).map_err(|e| bad(format!("run.json: {e}")))?;
        let command = json
            .get("command")
            .and_then(|c| c.as_str())
            .ok_or_else(|| bad("run.json has no \"command\"".into()))?;
        let kind = RunKind::from_command(command).ok_or_else(|| {
            bad(format!(
                "run.json's command '{command}' is not a study command"
            ))
        })?;
        if !dir.join(kind.main_file()).is_file() {
            return Err(bad(format!(
                "{} without {}",
                crate::arena::runinfo::a_run(command),
                kind.main_file()
            )));
        }
        let rerun = rerun_line(&json);
        let size = option(&json, "--size")
            .and_then(|s| s.parse().ok())
            .unwrap_or(7);
        let entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|source| PageError::Io {
                path: dir.to_path_buf(),
                source,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        // Reviews are found by listing the directory once, not by looking
        // for one per game, so a run of many games costs no more.
        let mut reviewed: Vec<u64> = entries.iter().filter_map(|p| review_game(p)).collect();
        reviewed.sort_unstable();
        let mut names: Vec<PathBuf> = entries.into_iter().filter(|p| p.is_file()).collect();
        names.sort();
        let mut run = RunData {
            dir: dir.to_path_buf(),
            kind,
            rerun,
            size,
            tables: Vec::new(),
            figures: Vec::new(),
            games: None,
            reviews: Vec::new(),
            evals: Vec::new(),
            search: Vec::new(),
        };
        for path in names {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "moves.csv" {
                (run.evals, run.search) = read_moves(&path)?;
            } else if name.ends_with(".csv") {
                let table = Table::parse(name, &read(&path)?);
                if name == "games.csv" {
                    run.games = Some(table);
                } else {
                    run.tables.push(table);
                }
            } else if name.ends_with(".svg") {
                run.figures
                    .push((name.to_string(), inline_svg(&read(&path)?)));
            }
        }
        if let Some(games) = &run.games {
            let at = games.column("game").unwrap_or(0);
            let played: std::collections::HashSet<&str> =
                games.rows.iter().map(|r| r[at].as_str()).collect();
            for game in reviewed {
                let path = review_csv(dir, game);
                if played.contains(game.to_string().as_str()) && path.is_file() {
                    let table = Table::parse("review.csv", &read(&path)?);
                    let record = path
                        .parent()
                        .map(|d| d.join(RECORD_FILE))
                        .and_then(|j| std::fs::read(j).ok())
                        .and_then(|b| serde_json::from_slice(&b).ok());
                    run.reviews.push(Review {
                        game,
                        table,
                        record,
                    });
                }
            }
        }
        // The main file first, so each section opens on its result.
        run.tables.sort_by_key(|t| t.name != kind.main_file());
        Ok(run)
    }

    /// The table named `name`.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }
}

/// The command line that reruns a run, from its `run.json`: the recorded
/// `rerun`, else the first command line as given, else empty.
fn rerun_line(json: &serde_json::Value) -> String {
    json.get("rerun")
        .and_then(|r| r.as_str())
        .map(str::to_string)
        .or_else(|| {
            let line = json.get("command_line")?.as_array()?;
            Some(
                line.iter()
                    .filter_map(|w| w.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_last_row_ends_the_table() {
        let t = Table::parse("x.csv", "a,b\n1,2\n3,4\n5");
        assert_eq!(t.header, ["a", "b"]);
        assert_eq!(t.rows, [["1", "2"], ["3", "4"]]);
        assert_eq!(t.column("b"), Some(1));
        assert_eq!(t.column("c"), None);
    }

    #[test]
    fn moves_give_each_games_expectations_and_each_bots_speed() {
        let dir = std::env::temp_dir().join(format!("pahtum-moves-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("moves.csv");
        let header = crate::arena::moves_csv::MOVES_HEADER;
        std::fs::write(
            &path,
            format!(
                "{header}\n0,1,white,book,a1,,,,,,,\n0,2,black,m,b1,0.6,0.4000,100,3,b1,10,\n0,3,white,r,c1,,,,,,0,\n1,1,white,r,a1,,,,,,0,\n1,2,black,m,b1,0.5,0.5000,300,5,b1 c1,30,\n2,1,white,r,a1,,,,,,0,\n2,2,bl"
            ),
        )
        .unwrap();
        let (evals, search) = read_moves(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        // Game 2 has no expectation (and its torn line ends the file).
        assert_eq!(
            evals,
            [(0, "- 0.4000 -".to_string()), (1, "- 0.5000".to_string())]
        );
        assert_eq!(search.len(), 2);
        assert_eq!((search[0].bot.as_str(), search[0].moves), ("m", 2));
        assert_eq!(search[0].nodes_per_second(), Some(10_000.0));
        assert_eq!((search[1].bot.as_str(), search[1].searched), ("r", 0));
        assert_eq!(search[1].nodes_per_second(), None);
    }

    #[test]
    fn svg_loses_its_declaration_and_namespace() {
        let s = inline_svg(
            "<?xml version=\"1.0\"?>\n<svg width=\"1\" xmlns=\"http://www.w3.org/2000/svg\"><g/></svg>",
        );
        assert_eq!(s, "<svg width=\"1\"><g/></svg>");
    }

    #[test]
    fn options_are_read_from_pairs() {
        let j: serde_json::Value =
            serde_json::from_str(r#"{"options":[["--bot","a b"],["--size","5"]]}"#).unwrap();
        assert_eq!(option(&j, "--size"), Some("5"));
        assert_eq!(option(&j, "--holes"), None);
    }

    #[test]
    fn review_directories_name_their_game_plainly() {
        assert_eq!(review_game(Path::new("r/review-12")), Some(12));
        assert_eq!(review_game(Path::new("r/review-012")), None);
        assert_eq!(review_game(Path::new("r/review-x")), None);
        assert_eq!(
            review_csv(Path::new("r"), 3),
            Path::new("r/review-3/review.csv")
        );
    }

    #[test]
    fn commands_map_to_kinds() {
        assert_eq!(RunKind::from_command("merge"), Some(RunKind::Tournament));
        assert_eq!(
            RunKind::from_command("tune").map(RunKind::main_file),
            Some("tune.csv")
        );
        assert_eq!(
            RunKind::from_command("rate").map(RunKind::main_file),
            Some("ratings.csv")
        );
        assert_eq!(RunKind::from_command("bench"), None);
    }

    #[test]
    fn a_directory_without_run_json_is_named() {
        let dir = std::env::temp_dir().join(format!("pahtum-page-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = RunData::read(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            e.contains("no run.json") && e.contains("pahtum-page-"),
            "{e}"
        );
    }
}
