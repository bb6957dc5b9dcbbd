//! Learning the policy/value network: self-play generations, the learner,
//! and each generation's match against the previous one (feature `train`).

pub mod train;
