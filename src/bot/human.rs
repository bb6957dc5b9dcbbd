//! `human`: a person at the terminal (or any text stream).

use std::io::{BufRead, BufReader, Stdin, Stdout, Write};

use super::spec::{BotKind, Params, SpecError};
use super::{Bot, BotFault};
use crate::game::outcome::Move;
use crate::game::position::{MoveError, Position};
use crate::game::record::Game;
use crate::game::square::Square;
use crate::game::text::board_with_coordinates;

/// Reads moves from `input` and talks on `output`: shows the board with
/// coordinates, asks for a square name (or `swap` when the pie rule offers
/// it), explains and asks again on anything else, and reports
/// [`BotFault::EndOfInput`] when the input ends, so a game stops cleanly.
/// Generic over the streams so that tests can drive it with strings.
#[derive(Debug)]
pub struct HumanBot<R, W> {
    name: String,
    input: R,
    output: W,
}

impl<R: BufRead + Send, W: Write + Send> HumanBot<R, W> {
    /// A human reading `input` and writing to `output`.
    pub fn new(name: impl Into<String>, input: R, output: W) -> HumanBot<R, W> {
        HumanBot {
            name: name.into(),
            input,
            output,
        }
    }

    /// The streams back (for tests to read what was written).
    pub fn into_inner(self) -> (R, W) {
        (self.input, self.output)
    }

    fn say(&mut self, text: &str) -> Result<(), BotFault> {
        self.output
            .write_all(text.as_bytes())
            .and_then(|()| self.output.flush())
            .map_err(|e| BotFault::Crash(format!("cannot write to the terminal: {e}")))
    }

    /// Why `answer` is not a move here, or the move.
    fn interpret(game: &Game, answer: &str) -> Result<Move, String> {
        let pos = game.position();
        if answer.eq_ignore_ascii_case("swap") {
            return if pos.can_swap() {
                Ok(Move::Swap)
            } else if pos.pie() {
                Err("swap is only allowed as Black's first decision".into())
            } else {
                Err("swap needs the pie rule (--pie), which is off in this game".into())
            };
        }
        let sq: Square = answer.parse().map_err(|_| {
            format!(
                "'{answer}' is not a square: type a file and a rank, like {}",
                example_square(pos)
            )
        })?;
        let mut probe = *pos;
        match probe.try_play(sq) {
            Ok(()) => Ok(Move::Place(sq)),
            Err(MoveError::OffBoard(_)) => {
                Err(format!("{sq} is off the {n}x{n} board", n = pos.size()))
            }
            Err(e) => Err(format!("{e}: choose a free square ('.')")),
        }
    }
}

/// A square to show in "type a square like ...": one the person could
/// play now, so that the example is never off this board or taken. The
/// centre when it is free (the move a newcomer is likeliest to want),
/// else the first free square; `a1` only on a full board, where no move is
/// asked for.
fn example_square(pos: &Position) -> Square {
    let mid = pos.size() / 2;
    let centre = Square::new(mid, mid);
    let free = pos.empty();
    if free.contains(centre) {
        centre
    } else {
        free.into_iter().next().unwrap_or(Square::new(0, 0))
    }
}

impl<R: BufRead + Send, W: Write + Send> Bot for HumanBot<R, W> {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        let pos = *game.position();
        let mut prompt = format!("\n{}", board_with_coordinates(&pos));
        prompt.push_str(&format!(
            "{} ({}) to move: type a square like {}",
            pos.turn(),
            pos.turn().to_char(),
            example_square(&pos)
        ));
        if pos.can_swap() {
            prompt.push_str(", or swap to take over White");
        }
        prompt.push_str("\n> ");
        self.say(&prompt)?;
        loop {
            let mut line = String::new();
            let n = self
                .input
                .read_line(&mut line)
                .map_err(|e| BotFault::Crash(format!("cannot read a move: {e}")))?;
            if n == 0 {
                self.say("\n")?;
                return Err(BotFault::EndOfInput);
            }
            let answer = line.trim();
            if answer.is_empty() {
                self.say("> ")?;
                continue;
            }
            match Self::interpret(game, answer) {
                Ok(mv) => return Ok(mv),
                Err(why) => self.say(&format!("{why}; try again\n> "))?,
            }
        }
    }
}

/// The human bot of the terminal.
pub type TerminalHuman = HumanBot<BufReader<Stdin>, Stdout>;

/// The catalogue entry: a person typing moves on stdin.
pub const KIND: BotKind = BotKind {
    name: "human",
    summary: "a person: shows the board, reads a square (or swap) on stdin",
    keys: &[],
    build: |params: &Params, _seed| -> Result<Box<dyn Bot>, SpecError> {
        let bot: TerminalHuman = HumanBot::new(
            params.label(),
            BufReader::new(std::io::stdin()),
            std::io::stdout(),
        );
        Ok(Box::new(bot))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Komi;

    fn run(input: &str, pie: bool, first: Option<&str>) -> (Result<Move, BotFault>, String) {
        let holes = Bitboard::from_square("a1".parse().expect("sq"));
        let mut game = Game::new(Position::new(3, holes, pie, Komi::ZERO).expect("pos"));
        if let Some(f) = first {
            game.try_play(f.parse().expect("mv")).expect("legal");
        }
        let mut bot = HumanBot::new("me", input.as_bytes(), Vec::new());
        let mv = bot.select_move(&game);
        let (_, out) = bot.into_inner();
        (mv, String::from_utf8(out).expect("utf8"))
    }

    #[test]
    fn explains_and_asks_again() {
        let (mv, out) = run("zz\na1\nd4\nswap\n\nB2\n", false, Some("c3"));
        assert_eq!(mv, Ok(Move::Place("b2".parse().expect("sq"))));
        assert!(out.contains("'zz' is not a square"), "{out}");
        assert!(out.contains("a1 is a hole"), "{out}");
        assert!(out.contains("d4 is off the 3x3 board"), "{out}");
        assert!(out.contains("swap needs the pie rule"), "{out}");
        assert!(out.contains("3 . . W"), "{out}");
        let (mv, out) = run("c3\nswap\n", true, Some("c3"));
        assert_eq!(mv, Ok(Move::Swap));
        assert!(out.contains("already occupied"), "{out}");
        assert!(out.contains("or swap"), "{out}");
    }

    #[test]
    fn the_example_square_is_a_free_one_of_this_board() {
        // 3x3 with a hole on a1: the centre while it is free, then the
        // first free square, never a square off the board.
        let (_, out) = run("zz\nb2\n", false, Some("c3"));
        assert!(out.contains("to move: type a square like b2"), "{out}");
        assert!(out.contains("'zz' is not a square: type a file and a rank, like b2"));
        let (_, out) = run("b1\n", false, Some("b2"));
        assert!(out.contains("to move: type a square like b1"), "{out}");
        assert!(!out.contains("d4"), "{out}");
    }

    #[test]
    fn end_of_input_stops() {
        assert_eq!(run("", false, None).0, Err(BotFault::EndOfInput));
        assert_eq!(run("x\n", false, None).0, Err(BotFault::EndOfInput));
    }
}
