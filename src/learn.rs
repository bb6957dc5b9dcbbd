//! Learning the networks of [`crate::net`]: the line network's TD
//! self-play ([`lines`], always built: `examples/train_lines` runs it) and
//! the policy/value network's self-play generations, learner and
//! generation matches (`train`, feature `train`).

pub mod lines;
#[cfg(feature = "train")]
pub mod train;
