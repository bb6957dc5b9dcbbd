//! The engine side: any bot of the catalogue served over the protocol
//! (`pahtum engine --bot SPEC`). docs/protocol.md is the reference for every
//! command answered here.

mod commands;

use std::io::{self, BufRead, Write};
use std::time::Duration;

use super::process::read_capped_line;
use super::wire::{Reply, Request};
use crate::bot::{Bot, BotSpec, Catalog};
use crate::game::bitboard::Bitboard;
use crate::game::outcome::Komi;
use crate::game::position::Position;
use crate::game::record::Game;

/// The protocol version `protocol_version` answers.
pub const PROTOCOL_VERSION: &str = "1";

/// Every command the server knows, in the order `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "set_holes",
    "komi",
    "pie",
    "seed",
    "time_settings",
    "time_left",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "search_info",
    "quit",
];

/// One engine session: the rules being set up, the game so far and the bot
/// that plays it.
///
/// The bot is rebuilt for every game (after any command that starts one:
/// `boardsize`, `clear_board`, `set_holes`, `komi`, `pie`, `seed`) with the
/// seed `derive_seed(seed, [k])` for the k-th bot built, so the same command
/// stream always gets the same moves.
pub struct Server {
    catalog: Catalog,
    spec: BotSpec,
    seed: u64,
    bots_built: u64,
    size: u8,
    holes: Bitboard,
    pie: bool,
    komi: Komi,
    game: Game,
    bot: Option<Box<dyn Bot>>,
    /// The increment of `time_settings`, if the controller sent one: the
    /// game is clocked.
    increment: Option<Duration>,
    /// The clock of the last `time_left`, shown to the bot at the next
    /// `genmove` and then spent.
    time_left: Option<Duration>,
}

/// What handling one line produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handled {
    /// The answer to write.
    pub reply: Reply,
    /// Whether the session ends after it (`quit`).
    pub quit: bool,
}

type CommandReply = Result<String, String>;

impl Server {
    /// A session serving `spec` (already validated by `catalog`), with base
    /// seed `seed`, on an empty 7x7 board without holes, komi or pie rule.
    pub fn new(catalog: Catalog, spec: BotSpec, seed: u64) -> Server {
        let start = Position::new(7, Bitboard::EMPTY, false, Komi::ZERO)
            .unwrap_or_else(|e| unreachable!("an empty 7x7 board is valid: {e}"));
        Server {
            catalog,
            spec,
            seed,
            bots_built: 0,
            size: 7,
            holes: Bitboard::EMPTY,
            pie: false,
            komi: Komi::ZERO,
            game: Game::new(start),
            bot: None,
            increment: None,
            time_left: None,
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Serves commands from `input` until `quit` or the end of input,
    /// writing and flushing each answer to `output`.
    ///
    /// # Errors
    /// Reading or writing failed (a closed output pipe included).
    pub fn serve(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        // Lines are read as bytes, so invalid UTF-8 or an endless line is a
        // malformed command (answered with `?`), not the end of the session.
        while let Some(line) = read_capped_line(&mut input)? {
            let Some(out) = self.handle(&line) else {
                continue;
            };
            write!(output, "{}", out.reply)?;
            output.flush()?;
            if out.quit {
                break;
            }
        }
        Ok(())
    }

    /// Handles one input line; `None` for lines without a command (blank,
    /// comment).
    pub fn handle(&mut self, line: &str) -> Option<Handled> {
        let req = Request::parse(line)?;
        let answer = self.dispatch(&req);
        let reply = match answer {
            Ok(text) => Reply::ok(req.id, text),
            Err(text) => Reply::err(req.id, text),
        };
        Some(Handled {
            quit: req.name == "quit" && reply.ok,
            reply,
        })
    }

    fn dispatch(&mut self, req: &Request) -> CommandReply {
        let args: Vec<&str> = req.args.iter().map(String::as_str).collect();
        let none = |name: &str| -> CommandReply {
            if args.is_empty() {
                Ok(String::new())
            } else {
                Err(format!("{name} takes no arguments"))
            }
        };
        match req.name.as_str() {
            "protocol_version" => none("protocol_version").map(|_| PROTOCOL_VERSION.into()),
            "name" => none("name").map(|_| format!("pahtum {}", self.spec.label())),
            "version" => none("version").map(|_| env!("CARGO_PKG_VERSION").into()),
            "known_command" => match args.as_slice() {
                [c] => Ok(COMMANDS.contains(c).to_string()),
                _ => Err("known_command takes one command name".into()),
            },
            "list_commands" => none("list_commands").map(|_| COMMANDS.join("\n")),
            "quit" => none("quit"),
            "boardsize" => self.boardsize(&args),
            "clear_board" => {
                none("clear_board")?;
                self.reset(self.size, Bitboard::EMPTY)
            }
            "set_holes" => self.set_holes(&args),
            "komi" => self.komi(&args),
            "pie" => self.pie(&args),
            "seed" => self.seed(&args),
            "play" => self.play(&args),
            "genmove" => self.genmove(&args),
            "time_settings" => self.time_settings(&args),
            "time_left" => self.time_left(&args),
            "search_info" => none("search_info").map(|_| {
                self.bot
                    .as_ref()
                    .and_then(|b| b.last_search())
                    .map_or_else(String::new, |i| super::timing::info_words(&i))
            }),
            "undo" => {
                none("undo")?;
                self.game
                    .undo()
                    .map(|_| String::new())
                    .ok_or_else(|| "nothing to undo".to_string())
            }
            "showboard" => none("showboard").map(|_| self.showboard()),
            "final_score" => none("final_score").map(|_| self.final_score()),
            "" => Err("no command after the id".into()),
            id if id.bytes().all(|b| b.is_ascii_digit()) => Err(format!(
                "id {id} is out of range (0..={}); no command was run",
                u64::MAX
            )),
            other => Err(format!("unknown command '{other}' (see list_commands)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin_catalog;
    use crate::game::square::Square;

    fn server() -> Server {
        let catalog = builtin_catalog();
        let spec = catalog.parse("random").expect("spec");
        Server::new(catalog, spec, 7)
    }

    fn ask(s: &mut Server, line: &str) -> Reply {
        s.handle(line).expect("a command").reply
    }

    fn ok(s: &mut Server, line: &str) -> String {
        let r = ask(s, line);
        assert!(r.ok, "{line}: {}", r.text);
        r.text
    }

    fn refused(s: &mut Server, line: &str) -> String {
        let r = ask(s, line);
        assert!(!r.ok, "{line} should be refused, got {}", r.text);
        r.text
    }

    #[test]
    fn setup_and_turns() {
        let mut s = server();
        ok(&mut s, "boardsize 3");
        ok(&mut s, "clear_board");
        ok(&mut s, "set_holes b2");
        ok(&mut s, "play w a1");
        refused(&mut s, "play w a2");
        refused(&mut s, "play b b2");
        refused(&mut s, "play b a1");
        refused(&mut s, "set_holes c3");
        let mv = ok(&mut s, "genmove b");
        assert!(mv.parse::<Square>().is_ok(), "{mv}");
        ok(&mut s, "undo");
        ok(&mut s, "undo");
        refused(&mut s, "undo");
        assert_eq!(ok(&mut s, "final_score"), "0");
        for _ in 0..4 {
            ok(&mut s, "genmove w");
            ok(&mut s, "genmove b");
        }
        assert!(s.game().is_over());
        refused(&mut s, "genmove w");
        assert!(ok(&mut s, "showboard").contains("game over"));
    }

    #[test]
    fn pie_and_komi() {
        let mut s = server();
        ok(&mut s, "pie on");
        ok(&mut s, "komi 2.5");
        ok(&mut s, "play w d4");
        ok(&mut s, "play b swap");
        // After the swap Black, now the first player, is still to move.
        refused(&mut s, "play w e4");
        ok(&mut s, "play b e4");
        refused(&mut s, "pie off");
        ok(&mut s, "komi 0");
        assert!(ok(&mut s, "showboard").contains("swapped yes"));
        assert_eq!(ok(&mut s, "final_score"), "0");
        ok(&mut s, "play w a1");
        ok(&mut s, "play b f4");
        ok(&mut s, "play w b1");
        ok(&mut s, "play b g4");
        ok(&mut s, "komi 1.5");
        assert_eq!(ok(&mut s, "final_score"), "B+4.5");
    }

    #[test]
    fn malformed_commands_are_refused() {
        let mut s = server();
        for bad in [
            "boardsize",
            "boardsize 9",
            "boardsize x",
            "komi x",
            "pie maybe",
            "play",
            "play w",
            "play x d4",
            "play w z9",
            "play w swap",
            "genmove",
            "genmove b",
            "set_holes a1 a1",
            "set_holes h8",
            "seed -1",
            "frobnicate",
            "name extra",
        ] {
            refused(&mut s, bad);
        }
        assert_eq!(ok(&mut s, "known_command genmove"), "true");
        assert_eq!(ok(&mut s, "known_command fly"), "false");
        assert_eq!(ask(&mut s, "5 protocol_version"), Reply::ok(Some(5), "1"));
    }

    #[test]
    fn every_line_with_a_command_or_an_id_gets_one_answer() {
        let mut s = server();
        let mut out = Vec::new();
        let input = "7\n7 \n8 frobnicate\n# just a comment\n\n9 name extra\n\
                     99999999999999999999 name\n99999999999999999999\n+3 name\n\x07\n10 name\n";
        s.serve(input.as_bytes(), &mut out).expect("io");
        let text = String::from_utf8(out).expect("utf8");
        let answers: Vec<&str> = text.split_terminator("\n\n").collect();
        let firsts: Vec<String> = answers
            .iter()
            .map(|a| a.split(' ').next().unwrap_or_default().to_string())
            .collect();
        assert_eq!(
            firsts,
            ["?7", "?7", "?8", "?9", "?", "?", "?", "=10"],
            "{text}"
        );
        assert!(answers[0].contains("no command after the id"), "{text}");
        assert!(answers[4].contains("is out of range"), "{text}");
        assert!(answers[6].contains("unknown command '+3'"), "{text}");
    }

    #[test]
    fn same_commands_same_moves() {
        let run = || {
            let mut s = server();
            (0..10)
                .map(|i| ok(&mut s, if i % 2 == 0 { "genmove w" } else { "genmove b" }))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn serve_stops_at_quit() {
        let mut s = server();
        let mut out = Vec::new();
        s.serve(&b"name\n\nbogus\nquit\nname\n"[..], &mut out)
            .expect("io");
        let text = String::from_utf8(out).expect("utf8");
        assert_eq!(
            text,
            "= pahtum random\n\n? unknown command 'bogus' (see list_commands)\n\n=\n\n"
        );
        let mut out = Vec::new();
        s.serve(&b"play w \xff\xfe\nname"[..], &mut out)
            .expect("io");
        let text = String::from_utf8(out).expect("utf8");
        assert!(text.starts_with("? bad square"), "{text}");
        assert!(text.ends_with("= pahtum random\n\n"), "{text}");
    }
}
