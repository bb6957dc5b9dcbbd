//! The self-play samples and their files (`samples/gen-N.bin`).
//!
//! # Format
//! A file of the current format starts with [`MAGIC`], 16 bytes, then
//! holds its samples one after the other, little-endian: the features
//! (the three bitboards, size, colour, swap flag, a zero byte, komi in
//! half points), the value target `z`, the margin target, then the visit
//! shares. A file without the header is of the first format, written
//! before the margin target: the same samples without the margin, which
//! reads back as NaN (no target). The header cannot open a file of the
//! first format: read as a sample, its first two bitboards would put
//! stones of both colours on the same squares.

use std::path::Path;

use super::{TrainError, file_err, samples_path};
use crate::game::bitboard::Bitboard;
use crate::net::{Features, index_square, square_index, swap_index};

/// The header of a samples file with margins.
pub const MAGIC: &[u8; 16] = b"pahtum samples 2";

/// One position of a self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub features: Features,
    /// Visit shares by policy index (`size * size + 1`).
    pub policy: Vec<f32>,
    /// The result for the side to move: 1, 0 or -1 (the game's, or the
    /// solver's with `--exact-targets`).
    pub z: f32,
    /// The final margin for the side to move in points, own minus the
    /// opponent's, komi included (the game's, or the solver's where
    /// `z` is); NaN in a file written before margins were recorded.
    pub margin: f32,
}

/// Bytes of a sample's fixed part: features, `z`.
const HEAD: usize = 24 + 4 + 4 + 4;

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

    /// Appends the sample in the current format (after [`MAGIC`]).
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        let f = &self.features;
        for b in [f.mine, f.theirs, f.holes] {
            out.extend_from_slice(&b.0.to_le_bytes());
        }
        out.extend_from_slice(&[f.size, u8::from(f.white), u8::from(f.swap), 0]);
        out.extend_from_slice(&f.komi_halves.to_le_bytes());
        out.extend_from_slice(&self.z.to_le_bytes());
        out.extend_from_slice(&self.margin.to_le_bytes());
        for p in &self.policy {
            out.extend_from_slice(&p.to_le_bytes());
        }
    }

    /// The sample at the start of `bytes` and its length, with a margin
    /// (`margins`) or without (the first format).
    fn read(bytes: &[u8], size: u8, margins: bool) -> Option<(Sample, usize)> {
        let width = swap_index(size) + 1;
        let head = HEAD + if margins { 4 } else { 0 };
        let len = head + 4 * width;
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
        let margin = if margins { f32_at(36) } else { f32::NAN };
        let policy = (0..width).map(|i| f32_at(head + 4 * i)).collect();
        Some((
            Sample {
                features,
                policy,
                z,
                margin,
            },
            len,
        ))
    }
}

/// The bytes of a samples file holding `samples`, in the current format.
pub(super) fn samples_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    for s in samples {
        s.write(&mut bytes);
    }
    bytes
}

/// The samples of a file's bytes, of either format; `Err` names the byte
/// where a sample is cut short or of another board.
fn parse_samples(bytes: &[u8], size: u8) -> Result<Vec<Sample>, usize> {
    let margins = bytes.starts_with(MAGIC);
    let mut at = if margins { MAGIC.len() } else { 0 };
    let mut v = Vec::new();
    while at < bytes.len() {
        let Some((s, len)) = Sample::read(&bytes[at..], size, margins) else {
            return Err(at);
        };
        v.push(s);
        at += len;
    }
    Ok(v)
}

pub(super) fn read_samples(out: &Path, g: u32, size: u8) -> Result<Vec<Sample>, TrainError> {
    let path = samples_path(out, g);
    let bytes = std::fs::read(&path).map_err(file_err(&path))?;
    parse_samples(&bytes, size).map_err(|at| TrainError::File {
        path: path.display().to_string(),
        why: format!("a sample at byte {at} is cut short or of another board"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(size: u8, k: u32) -> Sample {
        let width = swap_index(size) + 1;
        Sample {
            features: Features {
                mine: Bitboard(0b101 << k),
                theirs: Bitboard(0b10 << k),
                holes: Bitboard(1 << 40),
                size,
                white: k.is_multiple_of(2),
                swap: k == 1,
                komi_halves: -3,
            },
            policy: (0..width).map(|i| i as f32 / width as f32).collect(),
            z: [1.0, 0.0, -1.0][k as usize % 3],
            margin: 2.5 - k as f32,
        }
    }

    #[test]
    fn samples_read_back_as_written() {
        let v: Vec<Sample> = (0..4).map(|k| sample(7, k)).collect();
        let bytes = samples_bytes(&v);
        assert_eq!(parse_samples(&bytes, 7), Ok(v));
        assert_eq!(parse_samples(&samples_bytes(&[]), 7), Ok(Vec::new()));
        // Cut short, or read as another board.
        assert_eq!(
            parse_samples(&bytes[..bytes.len() - 1], 7).err(),
            Some(16 + 3 * 240)
        );
        assert!(parse_samples(&bytes, 6).is_err());
    }

    #[test]
    fn a_file_of_the_first_format_reads_with_no_margin() {
        let v: Vec<Sample> = (0..3).map(|k| sample(5, k)).collect();
        // The first format: no header, no margin after z.
        let mut old = Vec::new();
        for s in &v {
            let mut b = Vec::new();
            s.write(&mut b);
            b.drain(HEAD..HEAD + 4);
            old.extend_from_slice(&b);
        }
        let back = parse_samples(&old, 5).expect("old format");
        assert_eq!(back.len(), 3);
        for (a, b) in back.iter().zip(&v) {
            assert!(a.margin.is_nan());
            assert_eq!((&a.features, &a.policy, a.z), (&b.features, &b.policy, b.z));
        }
    }

    #[test]
    fn the_header_is_no_sample_of_the_first_format() {
        let word = |i: usize| u64::from_le_bytes(MAGIC[i..i + 8].try_into().expect("8 bytes"));
        assert_ne!(word(0) & word(8), 0, "mine and theirs would overlap");
    }
}
