//! The networks and their inference: the policy and value network of the
//! `zero` bot (below, in `planes`, `pv` and `format`) and the line
//! network of `learned` and `mcts`'s playouts ([`lines`]). Their files are
//! read here; their trainers are in `crate::learn`.
//!
//! # The policy-value network
//! A small residual convolutional network in the style of AlphaZero (Silver
//! et al. 2018), fully convolutional so that one network plays every board
//! size:
//!
//! - input: [`PLANES`] planes of the `size x size` board, from the side to
//!   move's view ([`encode`]): its stones, the opponent's, the holes, the
//!   empty squares, a plane of ones (which, with the zero padding of the
//!   convolutions, marks the edge), whether the side to move is White,
//!   whether the pie swap is offered, the komi for the side to move, and
//!   three planes of the score: what each side would add to its line
//!   score by a stone on each empty square, and the side to move's lead
//!   as the lines stand. The score is a sum over runs that a small
//!   network would need many layers to count; given, it is what the
//!   network learns from first;
//! - a 3x3 convolution to `channels` planes, then `blocks` residual blocks
//!   of two 3x3 convolutions (ReLU after each, the block's input added
//!   before the second ReLU);
//! - the policy: a 1x1 convolution gives one logit per square, and a
//!   linear map of the planes' means gives the swap's logit;
//! - the value: the planes' means through a hidden layer of `hidden` units
//!   (ReLU) to one number, squashed by `tanh`: the expected result for the
//!   side to move, 1 a win, 0 a draw, -1 a loss.
//!
//! There is no batch normalisation: at this size the network trains
//! without it, and inference is then the same arithmetic in training and
//! play.
//!
//! # The file
//! A `safetensors` file of `f32` tensors with the names and shapes the
//! trainer gives them (`pahtum train`, `src/learn/train`; read and written
//! in `format`): `stem.weight`
//! `[channels, PLANES, 3, 3]` and `stem.bias`, `block{i}.conv{1,2}.weight`
//! `[channels, channels, 3, 3]` and their biases, `policy.weight`
//! `[1, channels, 1, 1]`, `swap.weight` `[1, channels]`, `value1.weight`
//! `[hidden, channels]`, `value2.weight` `[1, hidden]`, each with a bias.
//! Two parts are optional, and present when the trainer was asked for
//! them (`pahtum train --global-pool`, `--margin-head`): global pooling,
//! `block{i}.pool.weight` `[channels, 2 * channels]` in every block (the
//! means and then the maxima of the block's first convolution over the
//! board, mapped to a bias of each channel before its second, after
//! KataGo's global pooling, Wu 2019), and the auxiliary margin head
//! `margin.weight` `[1, hidden]` on the value's hidden units, the final
//! margin for the side to move in tens of points, a training target
//! that a search reads only when asked (`zero:score=`).
//! The sizes are read off the shapes, so the file is all there is.
//!
//! # Speed
//! Activations are kept square by square with the channels contiguous, and
//! each 3x3 weight is stored `[tap][in][out]`, so the innermost loop runs
//! over output channels. The convolutions are specialised by channel
//! count (`kernel`), so that a square's outputs stay in vector registers
//! and each row of weights is one fused multiply-add of whole vectors;
//! up to four positions of a batch go through a layer together and share
//! each row. Each position's numbers do not depend on the batch or the
//! threads: a batch only shares the scratch memory and the weight reads,
//! and spreads positions over threads ([`PvNet::evaluate_batch`]).
//! `pahtum bench` prints evaluations a second at batch 1 and 8.

mod files;
mod format;
mod kernel;
pub mod lines;
mod planes;
mod pv;

pub use files::{NetError, NetFiles};
pub use planes::{Features, PLANES, POINTS_UNIT, encode, index_square, square_index, swap_index};
#[cfg(all(test, feature = "train"))]
pub(crate) use pv::game_positions;
pub use pv::{Evaluation, PvNet, Scratch, legal_priors};
