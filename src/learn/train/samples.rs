//! The self-play samples and their files (`samples/gen-N.bin`): a
//! sample's features, then its result and visit shares, little-endian.

use std::path::Path;

use super::{TrainError, file_err, samples_path};
use crate::game::bitboard::Bitboard;
use crate::net::{Features, index_square, square_index, swap_index};

/// One position of a self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub features: Features,
    /// Visit shares by policy index (`size * size + 1`).
    pub policy: Vec<f32>,
    /// The game's result for the side to move: 1, 0 or -1.
    pub z: f32,
}

impl Sample {
    /// The policy target under symmetry `sym`.
    pub fn transformed_policy(&self, sym: u8) -> Vec<f32> {
        let size = self.features.size;
        let n = swap_index(size);
        let mut out = vec![0f32; n + 1];
        for (i, &p) in self.policy.iter().enumerate().take(n) {
            let sq = index_square(i, size).transform(sym, size);
            out[square_index(sq, size)] = p;
        }
        out[n] = self.policy[n];
        out
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        let f = &self.features;
        for b in [f.mine, f.theirs, f.holes] {
            out.extend_from_slice(&b.0.to_le_bytes());
        }
        out.extend_from_slice(&[f.size, u8::from(f.white), u8::from(f.swap), 0]);
        out.extend_from_slice(&f.komi_halves.to_le_bytes());
        out.extend_from_slice(&self.z.to_le_bytes());
        for p in &self.policy {
            out.extend_from_slice(&p.to_le_bytes());
        }
    }

    fn read(bytes: &[u8], size: u8) -> Option<(Sample, usize)> {
        let width = swap_index(size) + 1;
        let len = 24 + 4 + 4 + 4 + 4 * width;
        if bytes.len() < len {
            return None;
        }
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
        let f32_at = |i: usize| f32::from_le_bytes(bytes[i..i + 4].try_into().unwrap_or([0; 4]));
        if bytes[24] != size {
            return None;
        }
        let features = Features {
            mine: Bitboard(u64_at(0)),
            theirs: Bitboard(u64_at(8)),
            holes: Bitboard(u64_at(16)),
            size,
            white: bytes[25] != 0,
            swap: bytes[26] != 0,
            komi_halves: i32::from_le_bytes(bytes[28..32].try_into().unwrap_or([0; 4])),
        };
        let z = f32_at(32);
        let policy = (0..width).map(|i| f32_at(36 + 4 * i)).collect();
        Some((
            Sample {
                features,
                policy,
                z,
            },
            len,
        ))
    }
}

pub(super) fn read_samples(out: &Path, g: u32, size: u8) -> Result<Vec<Sample>, TrainError> {
    let path = samples_path(out, g);
    let bytes = std::fs::read(&path).map_err(file_err(&path))?;
    let mut at = 0;
    let mut v = Vec::new();
    while at < bytes.len() {
        let Some((s, len)) = Sample::read(&bytes[at..], size) else {
            return Err(TrainError::File {
                path: path.display().to_string(),
                why: format!("a sample at byte {at} is cut short or of another board"),
            });
        };
        v.push(s);
        at += len;
    }
    Ok(v)
}
