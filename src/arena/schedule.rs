//! The game list of a tournament: a pure function of its arguments.
//!
//! Games come in colour-swapped pairs on one layout: layout `L` is played
//! by games `2L` (the pairing's first-listed bot moves first) and `2L + 1`
//! (the other bot moves first). Layouts are numbered round by round: round
//! `q` gives each pairing `j` (in pairing order) layout `q * pairings + j`,
//! so every prefix of the schedule is balanced over pairings and hole
//! counts. Round `q` uses rules `q mod rules.len()` (the `--holes` list
//! cycles). A layout's holes come from `derive_seed(seed, &[layout])`, and
//! each seat's bot seed from `derive_seed(seed, &[game, seat])` with seat 0
//! for the bot that moves first; [`game_seeds`] is the one place that
//! derives them, for the schedule and for every other command that plays
//! games from a seed (`play`, `tune`).
//!
//! With a start-position suite (`--openings`), pair `L` starts from the
//! suite's start `L mod N` instead: its holes and its opening moves, which
//! both games of the pair play, one with each colour.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::game::rules::{Rules, layout_rng};
use crate::game::suite::Suite;

/// Who plays whom.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Every bot against every other bot.
    #[default]
    RoundRobin,
    /// The first bot against each of the others.
    Gauntlet,
}

impl Format {
    /// The name on the command line and in `run.json`.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "unknown format '{s}' (formats: round-robin, gauntlet)"
            )),
        }
    }
}

/// Part `index` (1-based) of `count` disjoint parts of a schedule
/// (`--shard K/N`). Layout pairs are dealt out in turn: pair `L` belongs to
/// part `L mod count + 1`, so both games of a pair stay together and every
/// part gets a balanced share of pairings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// This part, `1..=count`.
    pub index: u32,
    /// Number of parts.
    pub count: u32,
}

impl Shard {
    /// The whole schedule, `1/1`.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether layout `layout` is in this part.
    #[inline]
    pub fn contains_layout(self, layout: u64) -> bool {
        layout % self.count as u64 + 1 == self.index as u64
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N` with `1 <= K <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{s}': expected K/N with 1 <= K <= N, like 2/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The seeds of one game: its layout's (the holes) and each seat's bot's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSeeds {
    /// Seed of the layout's holes ([`layout_rng`]).
    pub layout: u64,
    /// Seed of each seat's bot; seat 0 moves first.
    pub bots: [u64; 2],
}

/// Where a game stands among the games of a run: what its seeds derive
/// from, besides the run's seed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameKey {
    /// Game `game` of a tournament's schedule, played on layout `layout`
    /// (both games of a pair share it). `play` plays game 0 on layout 0.
    Scheduled {
        /// The layout index.
        layout: u64,
        /// The game index.
        game: u64,
    },
    /// Game `game` of iteration `iteration` of a tune, whose games all
    /// share the iteration's layout. Its streams carry a tag of their
    /// own, so no tune game replays a tournament game of the same seed.
    Tuned {
        /// The SPSA iteration.
        iteration: u64,
        /// The game within the iteration.
        game: u64,
    },
}

/// Tag of a tune's layout streams.
const TUNE_LAYOUT_TAG: u64 = 0x7475_6e65;

/// Tag of a tune's bot streams.
const TUNE_BOT_TAG: u64 = 0x626f_7473;

/// The seeds of the game at `key` in the run of seed `seed`: the one place
/// a game's randomness is derived, so that every command that plays the
/// same game plays it on the same holes with the same bot streams.
pub fn game_seeds(seed: u64, key: GameKey) -> GameSeeds {
    match key {
        GameKey::Scheduled { layout, game } => GameSeeds {
            layout: derive_seed(seed, &[layout]),
            bots: [0, 1].map(|seat| derive_seed(seed, &[game, seat])),
        },
        GameKey::Tuned { iteration, game } => GameSeeds {
            layout: derive_seed(seed, &[TUNE_LAYOUT_TAG, iteration]),
            bots: [0, 1].map(|seat| derive_seed(seed, &[TUNE_BOT_TAG, iteration, game, seat])),
        },
    }
}

/// Two bots (indices into the tournament's bot list) that meet; `a` is
/// listed first and moves first in the even game of each pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// The first-listed bot.
    pub a: usize,
    /// The other bot.
    pub b: usize,
}

/// One game of the schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScheduledGame {
    /// Index in the whole schedule (the `game` column).
    pub index: u64,
    /// Layout index (the `layout` column); `index / 2`.
    pub layout: u64,
    /// Index into [`Schedule::pairings`].
    pub pairing: usize,
    /// Index into the rules list.
    pub rules: usize,
    /// The bot that moves first (starts as White).
    pub first: usize,
    /// The bot that moves second.
    pub second: usize,
}

/// The full game list of a tournament, computed on demand.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    bots: usize,
    pairings: Vec<Pairing>,
    pairs_per_pairing: u64,
    rules: Vec<Rules>,
    seed: u64,
    openings: Option<Arc<Suite>>,
}

impl Schedule {
    /// The schedule of `bots` bots in `format`, `games_per_pairing` games
    /// for each pairing rounded up to whole pairs, cycling through
    /// `rules` (which must not be empty; an empty list means the default
    /// rules).
    pub fn new(
        bots: usize,
        format: Format,
        games_per_pairing: u64,
        rules: Vec<Rules>,
        seed: u64,
    ) -> Schedule {
        let pairings = match format {
            Format::RoundRobin => (0..bots)
                .flat_map(|a| (a + 1..bots).map(move |b| Pairing { a, b }))
                .collect(),
            Format::Gauntlet => (1..bots).map(|b| Pairing { a: 0, b }).collect(),
        };
        let rules = if rules.is_empty() {
            vec![Rules::default()]
        } else {
            rules
        };
        Schedule {
            bots,
            pairings,
            pairs_per_pairing: games_per_pairing.div_ceil(2),
            rules,
            seed,
            openings: None,
        }
    }

    /// The schedule starting pair `L` from start `L mod N` of `openings`
    /// (holes and opening moves), or from random layouts with `None`.
    pub fn with_openings(mut self, openings: Option<Arc<Suite>>) -> Schedule {
        self.openings = openings;
        self
    }

    /// The start-position suite, if any.
    pub fn openings(&self) -> Option<&Suite> {
        self.openings.as_deref()
    }

    /// Number of bots.
    pub fn bots(&self) -> usize {
        self.bots
    }

    /// The pairings, in schedule order.
    pub fn pairings(&self) -> &[Pairing] {
        &self.pairings
    }

    /// Games per pairing after rounding up to whole pairs.
    pub fn games_per_pairing(&self) -> u64 {
        self.pairs_per_pairing * 2
    }

    /// The rules the rounds cycle through.
    pub fn rules(&self) -> &[Rules] {
        &self.rules
    }

    /// The tournament seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of layouts (= pairs) in the whole schedule.
    pub fn layouts(&self) -> u64 {
        self.pairs_per_pairing * self.pairings.len() as u64
    }

    /// Number of games in the whole schedule.
    pub fn len(&self) -> u64 {
        self.layouts() * 2
    }

    /// Whether the schedule has no games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `index`, which must be below [`Schedule::len`].
    ///
    /// # Panics
    /// If the schedule has no pairings.
    pub fn game(&self, index: u64) -> ScheduledGame {
        let layout = index / 2;
        let np = self.pairings.len() as u64;
        let pairing = (layout % np) as usize;
        let round = layout / np;
        let p = self.pairings[pairing];
        let (first, second) = if index.is_multiple_of(2) {
            (p.a, p.b)
        } else {
            (p.b, p.a)
        };
        ScheduledGame {
            index,
            layout,
            pairing,
            rules: (round % self.rules.len() as u64) as usize,
            first,
            second,
        }
    }

    /// The games of `shard`, in game order.
    pub fn shard_games(&self, shard: Shard) -> impl Iterator<Item = u64> + '_ {
        (0..self.layouts())
            .filter(move |&l| shard.contains_layout(l))
            .flat_map(|l| [2 * l, 2 * l + 1])
    }

    /// The start position of `game` before any move: its rules with holes
    /// drawn from the layout's seed (both games of a pair get the same
    /// holes), or the holes of its start in the suite.
    ///
    /// # Errors
    /// The rules do not describe a playable game.
    pub fn start(&self, game: &ScheduledGame) -> Result<Position, crate::PositionError> {
        let rules = &self.rules[game.rules];
        if let Some(suite) = &self.openings {
            rules.validate()?;
            return Position::new(
                rules.size,
                suite.start(game.layout).holes,
                rules.pie,
                rules.komi,
            );
        }
        let mut rng = layout_rng(self.seeds(game).layout);
        rules.new_game(&mut rng)
    }

    /// The game `game` starts as: [`Schedule::start`] with the opening
    /// moves of its start in the suite played.
    ///
    /// # Errors
    /// Rules that describe no playable game, or a start that does not fit
    /// them (a suite is checked against the rules when it is read).
    pub fn start_game(&self, game: &ScheduledGame) -> Result<Game, String> {
        let pos = self.start(game).map_err(|e| e.to_string())?;
        let mut g = Game::new(pos);
        if let Some(suite) = &self.openings {
            for &mv in &suite.start(game.layout).moves {
                g.try_play(mv)
                    .map_err(|e| format!("opening move {mv}: {e}"))?;
            }
        }
        Ok(g)
    }

    /// The seeds of `game` ([`game_seeds`]).
    pub fn seeds(&self, game: &ScheduledGame) -> GameSeeds {
        let key = GameKey::Scheduled {
            layout: game.layout,
            game: game.index,
        };
        game_seeds(self.seed, key)
    }

    /// The random seed of the bot in `seat` (0 moves first, 1 second).
    pub fn bot_seed(&self, game: &ScheduledGame, seat: u64) -> u64 {
        self.seeds(game).bots[usize::from(seat != 0)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::HoleSetup;

    #[test]
    fn pairs_swap_colours_and_share_holes() {
        let s = Schedule::new(3, Format::RoundRobin, 3, vec![], 9);
        assert_eq!(s.games_per_pairing(), 4);
        assert_eq!(s.pairings().len(), 3);
        assert_eq!(s.len(), 12);
        for l in 0..s.layouts() {
            let (g0, g1) = (s.game(2 * l), s.game(2 * l + 1));
            assert_eq!((g0.first, g0.second), (g1.second, g1.first));
            assert_eq!(g0.layout, g1.layout);
            assert_eq!(
                s.start(&g0).map(|p| p.holes()),
                s.start(&g1).map(|p| p.holes())
            );
            assert_ne!(s.bot_seed(&g0, 0), s.bot_seed(&g1, 0));
        }
        let per: Vec<usize> = (0..3)
            .map(|p| (0..12).filter(|&g| s.game(g).pairing == p).count())
            .collect();
        assert_eq!(per, vec![4, 4, 4]);
    }

    #[test]
    fn gauntlet_and_hole_cycle() {
        let rules = [3, 5]
            .map(|n| Rules {
                holes: HoleSetup::Random(n),
                ..Rules::default()
            })
            .to_vec();
        let s = Schedule::new(4, Format::Gauntlet, 4, rules, 1);
        assert!(s.pairings().iter().all(|p| p.a == 0));
        assert_eq!(s.len(), 12);
        // Round 0 (layouts 0..3) uses 3 holes, round 1 uses 5.
        let holes: Vec<u32> = (0..12)
            .step_by(2)
            .map(|g| s.start(&s.game(g)).map(|p| p.holes().count()).unwrap_or(0))
            .collect();
        assert_eq!(holes, vec![3, 3, 3, 5, 5, 5]);
    }

    #[test]
    fn shards_partition_by_pairs() {
        let s = Schedule::new(3, Format::RoundRobin, 10, vec![], 1);
        let mut all: Vec<u64> = (1..=4)
            .flat_map(|k| {
                s.shard_games(Shard { index: k, count: 4 })
                    .collect::<Vec<_>>()
            })
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..s.len()).collect::<Vec<_>>());
        let one: Vec<u64> = s.shard_games(Shard { index: 2, count: 4 }).collect();
        assert_eq!(&one[..4], &[2, 3, 10, 11]);
    }

    #[test]
    fn game_seeds_are_the_documented_streams() {
        let s = Schedule::new(2, Format::RoundRobin, 4, vec![], 9);
        let g = s.game(3);
        assert_eq!(s.seeds(&g).layout, derive_seed(9, &[1]));
        assert_eq!(s.bot_seed(&g, 1), derive_seed(9, &[3, 1]));
        let tuned = game_seeds(
            9,
            GameKey::Tuned {
                iteration: 1,
                game: 3,
            },
        );
        assert_eq!(tuned.layout, derive_seed(9, &[TUNE_LAYOUT_TAG, 1]));
        assert_eq!(tuned.bots[1], derive_seed(9, &[TUNE_BOT_TAG, 1, 3, 1]));
        assert_ne!(tuned.layout, s.seeds(&g).layout);
    }

    #[test]
    fn openings_in_order_with_both_colours_and_cycled() {
        use crate::game::outcome::Komi;
        let text = "a1 | d4 e4\nb1 | c3\ng7 | a2 a3 a4\n";
        let suite = Suite::parse(text, 7, false, Komi::ZERO).expect("suite");
        let s = Schedule::new(3, Format::RoundRobin, 4, vec![], 9)
            .with_openings(Some(Arc::new(suite.clone())));
        // 3 pairings x 2 pairs = 6 layouts: starts 0 1 2 0 1 2.
        let lines: Vec<String> = (0..s.len())
            .map(|g| {
                let game = s.start_game(&s.game(g)).expect("start");
                let holes: Vec<String> = game.start().holes().map(|q| q.to_string()).collect();
                format!("{} | {}", holes.join(" "), game.moves_text())
            })
            .collect();
        for (g, line) in lines.iter().enumerate() {
            assert_eq!(line, &suite.starts[g / 2 % 3].line(), "game {g}");
        }
        for l in 0..s.layouts() {
            let (g0, g1) = (s.game(2 * l), s.game(2 * l + 1));
            assert_eq!((g0.first, g0.second), (g1.second, g1.first));
        }
        assert_eq!(s.openings().map(Suite::len), Some(3));
    }

    #[test]
    fn shard_parses() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        for bad in ["3/2", "0/2", "1/0", "x", "1/2/3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
