//! The commands of [`super::Server`] that change or read its game: the
//! rules set up (`boardsize`, `set_holes`, `komi`, `pie`, `seed`), the moves
//! (`play`, `genmove`) and the views (`showboard`, `final_score`).

use super::super::timing::parse_seconds;
use super::super::wire::{colour_letter, parse_colour};
use super::{CommandReply, Server};
use crate::bot::clock::Clock;
use crate::game::bitboard::Bitboard;
use crate::game::outcome::{Komi, Move};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::game::square::{MAX_SIZE, MIN_SIZE, Square};
use crate::game::text::board_with_coordinates;

impl Server {
    /// Replaces the game by an empty board of side `size` with `holes`,
    /// keeping komi and pie rule; a new game gets a new bot.
    pub(super) fn reset(&mut self, size: u8, holes: Bitboard) -> CommandReply {
        let start = Position::new(size, holes, self.pie, self.komi).map_err(|e| e.to_string())?;
        self.size = size;
        self.holes = holes;
        self.game = Game::new(start);
        self.bot = None;
        Ok(String::new())
    }

    /// Rebuilds the game under new rules and replays its moves; refused,
    /// with the game unchanged, if a move no longer fits.
    pub(super) fn rebuild(&mut self, holes: Bitboard, pie: bool, komi: Komi) -> CommandReply {
        let start = Position::new(self.size, holes, pie, komi).map_err(|e| e.to_string())?;
        let mut game = Game::new(start);
        for &mv in self.game.moves() {
            game.try_play(mv)
                .map_err(|e| format!("the moves played do not fit: {e}"))?;
        }
        self.holes = holes;
        self.pie = pie;
        self.komi = komi;
        self.game = game;
        self.bot = None;
        Ok(String::new())
    }

    pub(super) fn boardsize(&mut self, args: &[&str]) -> CommandReply {
        let [n] = args else {
            return Err("boardsize takes one number".into());
        };
        match n.parse::<u8>() {
            Ok(size) if (MIN_SIZE..=MAX_SIZE).contains(&size) => self.reset(size, Bitboard::EMPTY),
            _ => Err(format!(
                "unacceptable size '{n}': sizes {MIN_SIZE} to {MAX_SIZE} are supported"
            )),
        }
    }

    pub(super) fn set_holes(&mut self, args: &[&str]) -> CommandReply {
        if !self.game.moves().is_empty() {
            return Err("set_holes needs a board without stones (send clear_board first)".into());
        }
        let mut holes = Bitboard::EMPTY;
        for word in args {
            let sq: Square = word.parse().map_err(|e| format!("{e}"))?;
            if !sq.is_on_board(self.size) {
                return Err(format!("square {sq} is off the {0}x{0} board", self.size));
            }
            if holes.contains(sq) {
                return Err(format!("square {sq} is listed twice"));
            }
            holes.insert(sq);
        }
        self.reset(self.size, holes)
    }

    pub(super) fn komi(&mut self, args: &[&str]) -> CommandReply {
        let [k] = args else {
            return Err("komi takes one number, like 6.5".into());
        };
        let komi: Komi = k.parse().map_err(|e| format!("{e}"))?;
        self.rebuild(self.holes, self.pie, komi)
    }

    pub(super) fn pie(&mut self, args: &[&str]) -> CommandReply {
        let pie = match args {
            ["on"] => true,
            ["off"] => false,
            _ => return Err("pie takes on or off".into()),
        };
        self.rebuild(self.holes, pie, self.komi)
    }

    pub(super) fn seed(&mut self, args: &[&str]) -> CommandReply {
        let [s] = args else {
            return Err("seed takes one unsigned 64-bit number".into());
        };
        self.seed = s
            .parse()
            .map_err(|_| format!("bad seed '{s}': expected an unsigned 64-bit number"))?;
        self.bots_built = 0;
        self.bot = None;
        Ok(String::new())
    }

    /// Checks that `word` names the side to move of an unfinished game.
    pub(super) fn colour_to_move(&self, word: &str) -> Result<Player, String> {
        let colour = parse_colour(word)?;
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        let turn = self.game.position().turn();
        if colour != turn {
            return Err(format!("it is {turn}'s turn, not {colour}'s"));
        }
        Ok(colour)
    }

    pub(super) fn play(&mut self, args: &[&str]) -> CommandReply {
        let [colour, mv] = args else {
            return Err("play takes a colour and a move, like: play w d4".into());
        };
        self.colour_to_move(colour)?;
        let mv: Move = mv.parse().map_err(|e| format!("{e}"))?;
        self.game
            .try_play(mv)
            .map(|_| String::new())
            .map_err(|e| format!("illegal move {mv}: {e}"))
    }

    /// `time_settings BASE INC`: the games that follow are clocked with
    /// `INC` seconds added after each move (BASE is the engine's to note:
    /// `time_left` says what is left before each move).
    pub(super) fn time_settings(&mut self, args: &[&str]) -> CommandReply {
        let [base, inc] = args else {
            return Err("time_settings takes the base time and the increment in seconds, like: time_settings 10 0.1".into());
        };
        let base = parse_seconds(base)?;
        let inc = parse_seconds(inc)?;
        if base.is_zero() {
            return Err("time_settings: the base time must be above 0".into());
        }
        self.increment = Some(inc);
        Ok(String::new())
    }

    /// `time_left COLOUR SECONDS`: the clock of `COLOUR` before its next
    /// move, which the bot shares out as its own clock.
    pub(super) fn time_left(&mut self, args: &[&str]) -> CommandReply {
        let [colour, left] = args else {
            return Err("time_left takes a colour and seconds, like: time_left w 9.5".into());
        };
        parse_colour(colour)?;
        self.time_left = Some(parse_seconds(left)?);
        Ok(String::new())
    }

    pub(super) fn genmove(&mut self, args: &[&str]) -> CommandReply {
        let [colour] = args else {
            return Err("genmove takes a colour, like: genmove b".into());
        };
        self.colour_to_move(colour)?;
        if self.bot.is_none() {
            let seed = derive_seed(self.seed, &[self.bots_built]);
            self.bots_built += 1;
            let bot = self
                .catalog
                .build(&self.spec, seed)
                .map_err(|e| format!("cannot build bot: {e}"))?;
            self.bot = Some(bot);
        }
        let bot = self
            .bot
            .as_mut()
            .ok_or_else(|| "no bot (internal error)".to_string())?;
        // A clock only for a move `time_left` was sent for: without it the
        // bot plays by its own budget.
        let clock = self.time_left.take().map(|left| Clock {
            left,
            inc: self.increment.unwrap_or_default(),
        });
        bot.set_clock(clock);
        let mv = bot
            .select_move(&self.game)
            .map_err(|e| format!("bot failed: {e}"))?;
        self.game
            .try_play(mv)
            .map_err(|e| format!("bot chose an illegal move {mv}: {e}"))?;
        Ok(mv.to_string())
    }

    pub(super) fn showboard(&self) -> String {
        let pos = self.game.position();
        let s = pos.scores();
        let to_move = if self.game.is_over() {
            "none (game over)".to_string()
        } else {
            colour_letter(pos.turn()).to_string()
        };
        format!(
            "\n{}to_move {to_move} white {} black {} komi {} pie {} swapped {}",
            board_with_coordinates(pos),
            s[Player::White],
            s[Player::Black],
            pos.komi(),
            if pos.pie() { "on" } else { "off" },
            if pos.swapped() { "yes" } else { "no" },
        )
    }

    /// `W+N`, `B+N` or `0`: the margin by the board as it stands, komi
    /// included (GTP's format).
    pub(super) fn final_score(&self) -> String {
        let m = self.game.position().margin_halves();
        let points = Komi::from_halves(m.abs());
        match m.signum() {
            1 => format!("W+{points}"),
            -1 => format!("B+{points}"),
            _ => "0".into(),
        }
    }
}
