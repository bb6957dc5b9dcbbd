//! The hole layouts `exact` solves: every layout of a hole count, one per
//! class of the square's eight symmetries (weighted by the class's size),
//! or seeded random ones.

use crate::game::bitboard::Bitboard;
use crate::game::outcome::Komi;
use crate::game::rng::derive_seed;
use crate::game::rules::{HoleSetup, Rules, layout_rng};
use crate::game::square::Square;

/// `--layouts all` enumerates the layouts of a hole count only up to this
/// many (before grouping by symmetry): beyond it, listing them alone takes
/// minutes and solving them all takes years, so random layouts are the
/// answer.
pub const MAX_ENUMERATED: u64 = 20_000_000;

/// One layout to solve and how many layouts of the board it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The hole squares.
    pub holes: Bitboard,
    /// The size of its symmetry class (`--layouts all`), else 1.
    pub weight: u64,
}

/// The number of ways to choose `k` of `n` things, saturating at
/// `u64::MAX`.
pub fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * u128::from(n - i) / u128::from(i + 1);
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// The squares of the board of side `size`, in index order.
fn board_squares(size: u8) -> Vec<Square> {
    Bitboard::full(size).into_iter().collect()
}

/// The smallest image of `holes` under the 8 symmetries (compared as bit
/// sets), and how many distinct images there are.
fn canonical(holes: Bitboard, size: u8) -> (Bitboard, u64) {
    let mut images = [0u64; 8];
    for (sym, img) in images.iter_mut().enumerate() {
        *img = holes.transform(sym as u8, size).0;
    }
    let min = images.iter().copied().min().unwrap_or(holes.0);
    images.sort_unstable();
    let mut distinct = 1;
    for w in images.windows(2) {
        if w[0] != w[1] {
            distinct += 1;
        }
    }
    (Bitboard(min), distinct)
}

/// Every layout of `holes` holes on the board of side `size`, one per class
/// of the square's 8 symmetries (the class's smallest member as a bit set),
/// weighted by the class size, in increasing order of the bit set. The
/// weights add up to `choose(size², holes)`.
///
/// # Errors
/// More than [`MAX_ENUMERATED`] layouts to list (the message names the count).
pub fn symmetry_classes(size: u8, holes: u32) -> Result<Vec<Layout>, String> {
    let squares = board_squares(size);
    let n = squares.len() as u32;
    if holes > n {
        return Err(format!("{holes} holes do not fit on a {size}x{size} board"));
    }
    let total = choose(n, holes);
    if total > MAX_ENUMERATED {
        return Err(format!(
            "a {size}x{size} board has {total} layouts with {holes} holes, more than {MAX_ENUMERATED} to list"
        ));
    }
    let mut out = Vec::new();
    // Gosper's hack walks the `holes`-subsets of the board's squares as
    // bit patterns over their indices in `squares`.
    let mut pattern: u128 = (1u128 << holes) - 1;
    let limit: u128 = 1u128 << n;
    loop {
        let mut set = Bitboard::EMPTY;
        let mut bits = pattern;
        while bits != 0 {
            set.insert(squares[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        let (min, weight) = canonical(set, size);
        if min == set {
            out.push(Layout { holes: set, weight });
        }
        if holes == 0 {
            break;
        }
        let low = pattern & pattern.wrapping_neg();
        let ripple = pattern + low;
        if ripple >= limit {
            break;
        }
        pattern = (((ripple ^ pattern) >> 2) / low) | ripple;
    }
    out.sort_by_key(|l| l.holes.0);
    Ok(out)
}

/// `count` layouts of `holes` holes drawn at random, each of weight 1; the
/// `i`-th is a function of (`seed`, `holes`, `i`) alone, so a longer run
/// starts with a shorter one's layouts.
///
/// # Errors
/// More holes than the board holds.
pub fn random_layouts(size: u8, holes: u32, count: u64, seed: u64) -> Result<Vec<Layout>, String> {
    let rules = Rules {
        size,
        holes: HoleSetup::Random(holes),
        pie: false,
        komi: Komi::ZERO,
    };
    rules.validate().map_err(|e| e.to_string())?;
    Ok((0..count)
        .map(|i| {
            let mut rng = layout_rng(derive_seed(seed, &[u64::from(holes), i]));
            Layout {
                holes: rules.draw_holes(&mut rng),
                weight: 1,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(choose(9, 0), 1);
        assert_eq!(choose(9, 4), 126);
        assert_eq!(choose(49, 5), 1_906_884);
        assert_eq!(choose(3, 4), 0);
        assert_eq!(choose(200, 100), u64::MAX);
    }

    #[test]
    fn classes_weigh_as_many_layouts_as_there_are() {
        for size in 3..=5u8 {
            let n = u32::from(size) * u32::from(size);
            for holes in 0..=n.min(6) {
                let classes = symmetry_classes(size, holes).expect("small");
                let total: u64 = classes.iter().map(|c| c.weight).sum();
                assert_eq!(total, choose(n, holes), "{size}x{size}, {holes} holes");
                assert!(classes.iter().all(|c| [1, 2, 4, 8].contains(&c.weight)));
                assert!(classes.windows(2).all(|w| w[0].holes.0 < w[1].holes.0));
            }
        }
        // 3x3 with one hole: a corner, an edge, the centre.
        let one = symmetry_classes(3, 1).expect("small");
        let weights: Vec<u64> = one.iter().map(|c| c.weight).collect();
        assert_eq!(weights, vec![4, 4, 1]);
    }

    #[test]
    fn too_many_layouts_are_refused() {
        assert!(symmetry_classes(7, 10).is_err());
        assert!(symmetry_classes(3, 10).is_err());
    }

    #[test]
    fn random_layouts_are_a_function_of_seed_holes_and_index() {
        let a = random_layouts(7, 21, 5, 9).expect("valid");
        let b = random_layouts(7, 21, 3, 9).expect("valid");
        assert_eq!(a[..3], b[..]);
        assert!(a.iter().all(|l| l.holes.count() == 21 && l.weight == 1));
        assert_ne!(a, random_layouts(7, 21, 5, 10).expect("valid"));
    }
}
