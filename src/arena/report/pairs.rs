//! Colour-swapped pairs: both games of a layout for one pairing, the
//! unit of the pentanomial statistics (`pairs.csv`, SPRT, Elo).

use crate::arena::games_csv::GameRecord;

/// Both games of one layout for one pairing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PairResult {
    /// Layout index.
    pub layout: u64,
    /// Number of holes.
    pub holes: u32,
    /// The pairing's first-listed bot.
    pub bot: usize,
    /// The other bot.
    pub opponent: usize,
    /// `bot`'s points when it moved first (game `2 * layout`).
    pub points_first: f64,
    /// `bot`'s points when it moved second (game `2 * layout + 1`).
    pub points_second: f64,
    /// `bot`'s line scores summed over both games.
    pub bot_score: u32,
    /// The opponent's line scores summed over both games.
    pub opp_score: u32,
}

impl PairResult {
    /// The pentanomial outcome: `bot`'s points over the pair doubled,
    /// 0 (two losses) to 4 (two wins).
    pub fn pentanomial(&self) -> usize {
        ((self.points_first + self.points_second) * 2.0).round() as usize
    }
}

/// Pairs both games of each layout (records in any order; a layout with a
/// game missing is left out), in layout order.
pub fn pair_results(records: &[GameRecord]) -> Vec<PairResult> {
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    if !sorted.is_sorted_by_key(|r| r.game) {
        sorted.sort_by_key(|r| r.game);
    }
    let mut out = Vec::new();
    for w in sorted.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.game % 2 != 0 || b.game != a.game + 1 || a.layout != b.layout {
            continue;
        }
        let (bot, opp) = (a.first, a.second);
        let score = |r: &GameRecord, who: usize| r.colour_of(who).map_or(0, |c| r.scores[c]);
        out.push(PairResult {
            layout: a.layout,
            holes: a.holes.count(),
            bot,
            opponent: opp,
            points_first: a.points_of(bot),
            points_second: b.points_of(bot),
            bot_score: score(a, bot) + score(b, bot),
            opp_score: score(a, opp) + score(b, opp),
        });
    }
    out
}

/// Pentanomial counts `[LL, LD, DD or WL, WD, WW]` of `pairs`, for the
/// first-listed bot: what a pentanomial SPRT or Elo estimate consumes.
pub fn pentanomial_counts(pairs: &[PairResult]) -> [u64; 5] {
    let mut c = [0; 5];
    for p in pairs {
        c[p.pentanomial().min(4)] += 1;
    }
    c
}
