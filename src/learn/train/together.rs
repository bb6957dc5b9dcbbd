//! `--parallel-games`: self-play games played many at once on each
//! thread, as KataGo and Leela play them. Each game's searches take one
//! leaf a step, without virtual loss; a thread gathers the waiting leaves
//! of all its games and evaluates them in one batch, so that searches of
//! one leaf still fill the network's batches. Each position's numbers do
//! not depend on its batch, so a game is the same whatever games it shares
//! batches with, whatever the threads, and the same as a game searched
//! alone at `batch=1`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::games::SelfPlayGame;
use super::{Sample, TrainConfig, TrainProgress};
use crate::game::position::Position;
use crate::net::{PvNet, Scratch, swap_index};

/// Generation `generation`'s self-play with `cfg.parallel_games` games in
/// flight, shared out over the pool's threads: the samples in game order
/// (an interrupt empties the games it cut short).
pub fn self_play_together(
    cfg: &TrainConfig,
    net: &Arc<PvNet>,
    generation: u32,
    progress: &dyn TrainProgress,
) -> Vec<Vec<Sample>> {
    let total = cfg.games as usize;
    let threads = rayon::current_num_threads().clamp(1, total.max(1));
    let per_thread = (cfg.parallel_games as usize).div_ceil(threads).max(1);
    let next = AtomicUsize::new(0);
    // Counted under a lock, so that the bar's positions arrive in order.
    let done = Mutex::new(0u64);
    let mut games: Vec<Vec<Sample>> = vec![Vec::new(); total];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (next, done) = (&next, &done);
                std::thread::Builder::new()
                    .name(format!("pahtum-self-play-{}", t + 1))
                    .spawn_scoped(scope, move || {
                        let mut own = Vec::new();
                        play_on_one_thread(cfg, net, generation, per_thread, next, &mut |i, s| {
                            own.push((i, s));
                            let mut n = done.lock().unwrap_or_else(PoisonError::into_inner);
                            *n += 1;
                            progress.game(generation, *n, total as u64);
                        });
                        own
                    })
                    .unwrap_or_else(|e| panic!("cannot start a self-play thread: {e}"))
            })
            .collect();
        for handle in handles {
            let own = handle
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (i, samples) in own {
                games[i] = samples;
            }
        }
    });
    games
}

/// Plays games taken from `next` on this thread, `in_flight` at a time,
/// handing each one's samples to `finish` as it ends.
fn play_on_one_thread(
    cfg: &TrainConfig,
    net: &Arc<PvNet>,
    generation: u32,
    in_flight: usize,
    next: &AtomicUsize,
    finish: &mut dyn FnMut(usize, Vec<Sample>),
) {
    let width = swap_index(cfg.size) + 1;
    let mut playing: Vec<(usize, SelfPlayGame<'_>)> = Vec::with_capacity(in_flight);
    let mut waiting: Vec<(usize, usize)> = Vec::with_capacity(in_flight);
    let (mut batch, mut logits, mut values) = (Vec::<Position>::new(), Vec::new(), Vec::new());
    let mut scratch = Scratch::default();
    loop {
        while playing.len() < in_flight {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= cfg.games as usize {
                break;
            }
            playing.push((i, SelfPlayGame::new(cfg, net, generation, i as u32, true)));
        }
        if playing.is_empty() {
            return;
        }
        // Every game plays on to its next leaves; the games that end leave.
        batch.clear();
        waiting.clear();
        let mut g = 0;
        while g < playing.len() {
            match playing[g].1.advance() {
                Some(k) => {
                    batch.extend_from_slice(playing[g].1.bot.leaves());
                    waiting.push((g, k));
                    g += 1;
                }
                None => {
                    let (i, game) = playing.swap_remove(g);
                    // The game swapped in from the end is advanced next;
                    // none of the waiting ones has moved.
                    finish(i, game.samples());
                }
            }
        }
        if batch.is_empty() {
            continue;
        }
        logits.resize(batch.len() * width, 0.0);
        values.resize(batch.len(), 0.0);
        // Self-play plays `zero`'s defaults: no score utility.
        net.evaluate_slice(&batch, &mut scratch, &mut logits, &mut values, 0.0);
        let mut at = 0;
        for &(g, k) in &waiting {
            playing[g]
                .1
                .bot
                .absorb(&logits[at * width..(at + k) * width], &values[at..at + k]);
            at += k;
        }
    }
}
