//! One game between two bots: seats, the pie swap, faults and timing.

use std::time::{Duration, Instant};

use crate::bot::clock::{Clock, FLAG_MARGIN, TimeControl};
use crate::bot::{Bot, BotFault, SearchInfo};
use crate::game::outcome::{Move, Outcome};
use crate::game::player::{ByPlayer, Player};
use crate::game::position::Position;
use crate::game::record::Game;

/// How a game ended (the `termination` column of `games.csv`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Every free square filled.
    Normal,
    /// A bot answered a move that is not legal (or not a move at all).
    IllegalMove,
    /// A bot did not answer in time: its clock ran out (`tc=`), or an
    /// external engine gave no answer within its move time limit.
    Timeout,
    /// A bot died.
    Crash,
    /// The input of a human player ended; the game is unfinished.
    Aborted,
}

impl Termination {
    /// The column value.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::IllegalMove => "illegal_move",
            Termination::Timeout => "timeout",
            Termination::Crash => "crash",
            Termination::Aborted => "aborted",
        }
    }

    fn of_fault(f: &BotFault) -> Termination {
        match f {
            BotFault::Crash(_) => Termination::Crash,
            BotFault::Timeout(_) => Termination::Timeout,
            BotFault::Illegal(_) => Termination::IllegalMove,
            BotFault::EndOfInput | BotFault::Interrupted => Termination::Aborted,
        }
    }
}

/// Which bot a colour belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The bot that moved first (started as White).
    First,
    /// The bot that moved second (started as Black).
    Second,
}

/// A finished (or aborted) game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Start, moves and final position.
    pub game: Game,
    /// The result; on a fault, a win for the side that did not fault.
    pub outcome: Outcome,
    /// Line scores as the board stands at the end (komi not included).
    pub scores: ByPlayer<u32>,
    /// How it ended.
    pub termination: Termination,
    /// The faulting colour and what happened, if a bot faulted.
    pub fault: Option<(Player, BotFault)>,
    /// Whether the pie swap was taken: then the second bot owns White.
    pub swapped: bool,
    /// Milliseconds each colour's owner spent choosing moves.
    pub ms: ByPlayer<u64>,
    /// Plies the game started with (a start position's opening moves),
    /// which no bot chose.
    pub book: usize,
    /// One entry per move the bots chose, in order: the moves from ply
    /// `book` on (a faulted move has none).
    pub log: Vec<MoveLog>,
}

/// What the arena saw of one move: its time, the mover's clock after it
/// and the bot's report of its search.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveLog {
    /// Milliseconds the move took.
    pub ms: u64,
    /// Milliseconds left on the mover's clock after the move, its
    /// increment added; `None` without a clock.
    pub clock_ms: Option<u64>,
    /// The bot's search report, if it gives one.
    pub info: Option<SearchInfo>,
}

impl GameResult {
    /// Which bot owned colour `c` at the end.
    pub fn seat_of(&self, c: Player) -> Seat {
        match (c, self.swapped) {
            (Player::White, false) | (Player::Black, true) => Seat::First,
            _ => Seat::Second,
        }
    }

    /// Number of moves played (a swap counts as one).
    pub fn plies(&self) -> usize {
        self.game.moves().len()
    }
}

/// What a game reports after each move, for displays.
#[derive(Clone, Debug)]
pub struct MoveEvent<'a> {
    /// The game after the move.
    pub game: &'a Game,
    /// The move.
    pub mv: Move,
    /// The colour that moved (Black for a swap).
    pub colour: Player,
    /// The bot's name.
    pub bot: &'a str,
    /// The bot's search report, if any.
    pub info: Option<SearchInfo>,
    /// Milliseconds the move took.
    pub ms: u64,
    /// Milliseconds left on the mover's clock after the move, its
    /// increment added; `None` without a clock.
    pub clock_ms: Option<u64>,
}

/// Which clock a seat plays under, if any: `[first, second]`.
pub type SeatClocks = [Option<TimeControl>; 2];

/// Plays `start` (a start position, perhaps with opening moves already
/// played) to the end: `first` moves first (White), `second` second.
/// Under the pie rule a swap hands White (and its stone) to `second`, and
/// `first` continues as Black. A fault ends the game at once as a loss for
/// the bot that faulted; the moves so far are kept. `clocks` gives each
/// seat's time control: a seat with one is shown its clock before each
/// move and loses on time (`timeout`) when a move overruns what is left by
/// more than [`FLAG_MARGIN`]. `on_move` sees every move as it is played.
pub fn play_game(
    start: Game,
    first: &mut dyn Bot,
    second: &mut dyn Bot,
    clocks: SeatClocks,
    mut on_move: impl FnMut(&MoveEvent<'_>),
) -> GameResult {
    let mut game = start;
    let book = game.moves().len();
    let mut left: [Option<Clock>; 2] = clocks.map(|tc| tc.map(TimeControl::start));
    let mut spent = ByPlayer::new(Duration::ZERO, Duration::ZERO);
    let mut swapped = game.moves().contains(&Move::Swap);
    let mut fault = None;
    let mut log = Vec::with_capacity(game.position().empty().count() as usize + 1);
    // One clock read per move: each move is charged the time since the
    // previous one ended (the clock is a large share of a fast game).
    let mut clock = Instant::now();
    while !game.is_over() {
        let colour = game.position().turn();
        let first_to_move = (colour == Player::White) != swapped;
        let seat = usize::from(!first_to_move);
        let bot: &mut dyn Bot = if first_to_move {
            &mut *first
        } else {
            &mut *second
        };
        if clocks[seat].is_some() {
            // A clocked move starts now: what the arena did since the
            // last move (showing it, writing it) is not the mover's time.
            clock = Instant::now();
            bot.set_clock(left[seat]);
        }
        let answer = bot.select_move(&game);
        let now = Instant::now();
        let took = now.saturating_duration_since(clock);
        clock = now;
        // A swap hands White to the swapper, so charge time by the final
        // owner of the colour: the swapper's think time goes to White.
        let charged = if matches!(answer, Ok(Move::Swap)) {
            !colour
        } else {
            colour
        };
        spent[charged] += took;
        let answer = answer.and_then(|mv| charge(&mut left[seat], took).map(|()| mv));
        let mv = match answer {
            Ok(mv) => mv,
            Err(f) => {
                fault = Some((colour, f));
                break;
            }
        };
        if let Err(e) = game.try_play(mv) {
            fault = Some((colour, BotFault::Illegal(format!("{mv}: {e}"))));
            break;
        }
        if mv == Move::Swap {
            swapped = true;
        }
        let info = bot.last_search();
        let ms = took.as_millis() as u64;
        let clock_ms = left[seat].map(|c| c.left.as_millis() as u64);
        on_move(&MoveEvent {
            game: &game,
            mv,
            colour: if mv == Move::Swap {
                Player::White
            } else {
                colour
            },
            bot: bot.name(),
            info: info.clone(),
            ms,
            clock_ms,
        });
        log.push(MoveLog { ms, clock_ms, info });
    }
    let (outcome, termination) = result_of(game.position(), &fault);
    GameResult {
        scores: game.position().scores(),
        outcome,
        termination,
        fault,
        swapped,
        ms: ByPlayer::new(
            spent[Player::White].as_millis() as u64,
            spent[Player::Black].as_millis() as u64,
        ),
        book,
        log,
        game,
    }
}

/// Charges a move of `took` to the mover's clock, if it has one: the
/// increment is added, or the game is lost on time when the move overran
/// what was left by more than [`FLAG_MARGIN`].
fn charge(clock: &mut Option<Clock>, took: Duration) -> Result<(), BotFault> {
    let Some(c) = clock else { return Ok(()) };
    if took > c.left + FLAG_MARGIN {
        return Err(BotFault::Timeout(format!(
            "clock ran out: the move took {} ms with {} ms left",
            took.as_millis(),
            c.left.as_millis()
        )));
    }
    c.left = c.left.saturating_sub(took) + c.inc;
    Ok(())
}

/// The result of a game that ended at `pos`, by `fault` if a bot faulted
/// (a loss for it; an aborted game keeps the board's result).
fn result_of(pos: &Position, fault: &Option<(Player, BotFault)>) -> (Outcome, Termination) {
    match fault {
        None => (pos.outcome(), Termination::Normal),
        Some((c, f)) => {
            let t = Termination::of_fault(f);
            let o = match (t, c) {
                (Termination::Aborted, _) => pos.outcome(),
                (_, Player::White) => Outcome::BlackWins,
                (_, Player::Black) => Outcome::WhiteWins,
            };
            (o, t)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::random::RandomBot;
    use crate::game::rng::FastRng;
    use crate::game::rules::Rules;

    struct Faulty;
    impl Bot for Faulty {
        fn name(&self) -> &str {
            "faulty"
        }
        fn select_move(&mut self, _: &Game) -> Result<Move, BotFault> {
            Ok(Move::Place(crate::game::square::Square::new(7, 7)))
        }
    }

    #[test]
    fn random_game_is_complete_and_replays() {
        let rules = Rules {
            pie: true,
            ..Rules::default()
        };
        let start = rules.new_game(&mut FastRng::new(5)).expect("game");
        let run = || {
            let mut a = RandomBot::new("a", 1);
            let mut b = RandomBot::new("b", 2);
            play_game(Game::new(start), &mut a, &mut b, [None; 2], |_| {})
        };
        let r = run();
        assert_eq!(r.termination, Termination::Normal);
        assert!(r.game.is_over());
        assert_eq!(r.game.moves_text(), run().game.moves_text());
        assert_eq!(r.outcome, r.game.outcome());
    }

    /// Plays at random after sleeping `nap` per move.
    struct Sleepy {
        inner: RandomBot,
        nap: std::time::Duration,
        shown: Vec<Option<Clock>>,
    }
    impl Bot for Sleepy {
        fn name(&self) -> &str {
            "sleepy"
        }
        fn set_clock(&mut self, clock: Option<Clock>) {
            self.shown.push(clock);
        }
        fn select_move(&mut self, g: &Game) -> Result<Move, BotFault> {
            std::thread::sleep(self.nap);
            self.inner.select_move(g)
        }
    }

    #[test]
    fn a_clock_that_runs_out_loses_on_time() {
        let start = Rules::default()
            .new_game(&mut FastRng::new(5))
            .expect("game");
        let mut a = RandomBot::new("a", 1);
        let mut s = Sleepy {
            inner: RandomBot::new("s", 2),
            nap: Duration::from_millis(40),
            shown: Vec::new(),
        };
        // 0.1 s for the game, at least 40 ms a move: on an idle machine
        // the third move overruns the 20 ms left by less than the margin
        // and empties the clock, and the fourth loses; a loaded machine
        // (naps that oversleep) may flag a move sooner, never later.
        let tc: TimeControl = "0.1+0".parse().expect("tc");
        let r = play_game(Game::new(start), &mut a, &mut s, [None, Some(tc)], |_| {});
        assert_eq!(r.termination, Termination::Timeout);
        assert_eq!(r.outcome, Outcome::WhiteWins);
        assert!(matches!(
            r.fault,
            Some((Player::Black, BotFault::Timeout(_)))
        ));
        let shown: Vec<Duration> = s.shown.iter().map(|c| c.expect("clock").left).collect();
        assert!((1..=4).contains(&shown.len()), "{shown:?}");
        assert_eq!(s.shown[0], Some(tc.start()));
        assert!(
            shown
                .windows(2)
                .all(|w| w[1].is_zero() || w[1] + Duration::from_millis(40) <= w[0])
        );
        // The moves before the flag are kept, each with its mover's clock:
        // White (no clock) moved once more than Black.
        assert_eq!(r.plies(), 2 * shown.len() - 1);
        assert_eq!(r.log.len(), r.plies());
        for (i, m) in r.log.iter().enumerate() {
            match i % 2 {
                0 => assert_eq!(m.clock_ms, None),
                _ => assert_eq!(m.clock_ms, Some(shown[i / 2 + 1].as_millis() as u64)),
            }
        }
        // With an increment far above the naps, the game is played out.
        let tc: TimeControl = "0.5+0.2".parse().expect("tc");
        s.nap = Duration::from_millis(1);
        let r = play_game(Game::new(start), &mut a, &mut s, [None, Some(tc)], |_| {});
        assert_eq!(r.termination, Termination::Normal);
    }

    #[test]
    fn illegal_move_loses() {
        let start = Rules::default()
            .new_game(&mut FastRng::new(5))
            .expect("game");
        let mut a = RandomBot::new("a", 1);
        let mut f = Faulty;
        let r = play_game(Game::new(start), &mut a, &mut f, [None; 2], |_| {});
        assert_eq!(r.termination, Termination::IllegalMove);
        assert_eq!(r.outcome, Outcome::WhiteWins);
        assert_eq!(r.plies(), 1);
        let r = play_game(Game::new(start), &mut f, &mut a, [None; 2], |_| {});
        assert_eq!(r.outcome, Outcome::BlackWins);
    }
}
