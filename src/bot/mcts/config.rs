//! MCTS parameters: one flat struct with one comment per field (KataGo's
//! `SearchParams`), parsed and range-checked from a bot spec.
//!
//! # How the defaults were chosen
//! By paired games (each random 7x7 5-hole layout played twice, colours
//! swapped) at 20,000 iterations a move against `heuristic`, with the
//! `strength` test of `tests/mcts.rs` (`MCTS_SEED=1`, 20 layouts, 40
//! games, so each line is about ±0.13; score rate = (wins + draws/2) /
//! games):
//!
//! | configuration | score |
//! |---|---|
//! | plain UCT: `rollout=random,reward=win,rave=off,prior=off` | 0.49 |
//! | random playouts + GRAVE + progressive bias + margin + solver | 0.39 |
//! | greedy playouts, no AMAF, no prior | 0.65 |
//! | `eval` leaves + GRAVE + bias | 0.56 |
//! | `eval` leaves, no AMAF, no prior, `c=0.4` / `0.2` / `0.8` | 0.64 / 0.70 / 0.48 |
//! | `eval`, `prior=prune,k=8`, `c=0.4` / `0.2` / `0.1` | 0.74 / 0.76 / 0.80 |
//! | `eval`, prune `k=5`, `c=0.2` | 0.81 |
//! | the same with GRAVE (`k=8`) / `minimax=0.5` / `iters=100000` | 0.70 / 0.79 / 0.79 |
//! | `eval`, prune `k=5,widen=2`, `c=0.2` (the defaults) | 0.83 |
//! | ... with `reward=win` / `scale=4` / `minimax=0.3` / `c=0.3` | 0.86 / 0.79 / 0.80 / 0.80 |
//! | ... with `expand=1` / `pw=0` / `pw=3` | 0.76 / 0.71 / 0.73 |
//! | ... with `decay=0.5` / `decay=0.3` / `reach=5` / `defence=1.0` | 0.48 / 0.63 / 0.65 / 0.81 |
//! | ... with `mix=0.3` / `mix=0.6` (random-fill margin blended in) | 0.61 / 0.53 |
//! | ... with `final=value` / `scale=15` | 0.73 / 0.73 |
//! | ... with `expand=4` / `k=4` / `k=6,widen=3` | 0.75 / 0.75 / 0.75 |
//!
//! What turns plain UCT around is the heuristic: static line-potential
//! leaf values instead of random playouts, a low exploration constant,
//! and pruning to the heuristic's best moves (widened slowly). AMAF
//! (RAVE/GRAVE) hurts here: with static leaves the "final stones" are a
//! random fill, and even with random playouts GRAVE did not help.
//! `reward=win` against `margin` head to head: 0.47 over 60 games (a tie),
//! so the margin reward stayed, until the equal-time gate of
//! experiments/result-reward/ made `reward=win` the default. On fresh layouts (`MCTS_SEED=2` and `3`,
//! 100 games each, Wilson 95 % over the 200) the defaults score 0.80
//! [0.74, 0.85] against `heuristic` (135 wins, 50 draws, 15 losses) and
//! 0.89 [0.84, 0.93] against plain UCT at the same 20,000 iterations
//! (163 wins, 30 draws, 7 losses).
//!
//! # Leaf evaluation, second round
//! Paired games against `heuristic` at 20,000 iterations, on the same
//! layouts within a column (`MCTS_SEED=101`, first 50 or 100 pairs, and
//! `MCTS_SEED=102`, 50 pairs; 100 or 200 games, so each figure is about
//! ±0.08 or ±0.06):
//!
//! | configuration | seed 101, 50 pairs | seed 101, 100 pairs | seed 102, 50 pairs |
//! |---|---|---|---|
//! | the previous defaults (`tempo=0`) | 0.765 | 0.755 | 0.770 |
//! | `exact=14` (root endgame search from 14 empty squares) | | 0.755 (same games) | |
//! | `tempo=0.25` / `0.5` / `1` / `2` | 0.79 / - / 0.80 / 0.64 | - / 0.777 / - / - | - / 0.84 / 0.84 / - |
//! | `lookahead=1` (one greedy heuristic ply before the evaluation) | 0.78 | | |
//! | `leaf_reach=2` / `5` / `leaf_reach=4,leaf_decay=0.3` | 0.755 / 0.66 / 0.70 | | |
//! | `leaf_decay=0.3` / `0.5` / `leaf_reach=8,leaf_decay=0.5` | 0.69 / 0.50 / 0.27 | | |
//!
//! The tempo term (the side to move at the leaf is credited `tempo` times
//! its best one-ply move value: it claims or blocks the best window next)
//! is the one change that helped on both layout sets, by about five
//! points; twice that weight over-credits the mover. The leaf keeps the
//! move-choice weights: every other decay or reach was worse, longer
//! reach much worse. The tempo costs a move-value sweep per leaf (the
//! default engine then runs about 180,000 iterations a second on one
//! loaded core, `mcts_default_iters_per_s_t1` of `pahtum bench`), and the
//! greedy `lookahead`, no better, would add one sweep per ply: it stays
//! off. Larger root
//! endgame searches change nothing: the lost points are decided earlier.
//!
//! Confirmed on fresh layouts (100 pairs, 200 games each, Wilson 95 %):
//! against `heuristic` (`MCTS_SEED=31`) the defaults score 0.812
//! [0.753, 0.861] (137 wins, 51 draws, 12 losses), the same engine with
//! `tempo=0` 0.765 [0.702, 0.818] (130, 46, 24) on the same games;
//! against plain UCT (`MCTS_SEED=32`) the defaults score 0.930
//! [0.886, 0.958] (175 wins, 22 draws, 3 losses), with `tempo=0` 0.925
//! [0.880, 0.954] (173, 24, 3): against plain UCT the tempo changes
//! nothing measurable, and the gap to the earlier 0.89 is layout noise.
//!
//! # Heuristic playouts, third round
//! The evaluation leaves above lose their points as Black: on 50 fresh
//! layouts (`pahtum tournament --bot mcts --bot heuristic --games 100
//! --seed 41`) they won all 50 games as White but only 14 of 50 as Black
//! (26 draws, 10 losses). `pahtum solve` on 12 of those drawn or lost
//! games at 20 empty squares found 9 already drawn with best play, and
//! on 20 of the third round's at 18 empty squares found none that Black
//! could still win: the points go in the middle game, and more
//! iterations of the same static evaluation did not help (above).
//! Playing each leaf out with the heuristic's own move choice does. Same
//! 30 layouts (60 games, `--seed 41`), 20,000 iterations unless stated;
//! score rate, and Black's wins/draws/losses:
//!
//! | configuration | score | as Black |
//! |---|---|---|
//! | `rollout=eval` (the second round's defaults) | 0.783 | 8/18/4 |
//! | `rollout=heuristic,eps=0.1` | 0.883 | 17/12/1 |
//! | ... `c=0.4` / `reward=win` | 0.833 / 0.875 | 13/14/3, 17/11/2 |
//! | ... `eps=0` / `0.05` / `0.2` | 0.900 / 0.892 / 0.808 | 20/8/2, 17/13/0, 16/7/7 |
//! | ... `eps=0.05,c=0.1` | 0.892 | 18/11/1 |
//! | ... `eps=0.05,iters=50000` | 0.908 | 20/9/1 |
//! | ... `eps=0.1,iters=2000` | 0.792 | 12/11/7 |
//!
//! Why it helps: the middle game of Pah Tum is a blocking contest in
//! which who completes a contested window depends on the order of the
//! next dozen moves. A static count of open windows (even with the tempo
//! term) cannot see that order; a playout in which both sides block and
//! extend the way the heuristic does plays it out. Epsilon must stay
//! small: at 0.2 the random moves let lines through that no sensible
//! opponent allows. The cost is time: a heuristic playout from the empty
//! board is about 60 µs (one `move_value` per free square per ply), so
//! the default engine runs about 20,000 iterations a second there
//! (`mcts_default_iters_per_s_t1`), faster as the board fills.
//!
//! On fresh layouts (`--seed 51`, 200 games, Wilson 95 %) the new
//! defaults score 0.863 [0.808, 0.903] against `heuristic` (154 wins,
//! 37 draws, 9 losses; as Black 54/37/9), the second round's defaults
//! 0.797 [0.736, 0.847] on the same games (140/39/21; as Black 40/39/21).
//! Against plain UCT (`--seed 52`, 200 games) they score 0.950
//! [0.910, 0.973] (180 wins, 20 draws, no loss).
//!
//! Three candidates, replayed as Black against `heuristic` on the same
//! 100 layouts (`pahtum play --layout`), against the defaults' 54/37/9
//! in the tournament: `eps=0` 47/47/6; `iters=50000` 24/17/4 after 45
//! games (stopped: level with the defaults); `k=8` 38/44/10 after 92
//! games (stopped: worse). None is adopted: the noiseless opponent model
//! is no better than a little noise, 2.5 times the iterations buys
//! nothing measurable, and wider pruning loses.
//!
//! # Fourth round: cheaper playouts, the same plateau
//! With the move-value tables (`eval::MoveTable`) a heuristic playout
//! costs about a fifth of what it did, with the same moves. Each
//! candidate replayed as Black against `heuristic` on the 200 layouts of
//! `--seed 51` and `--seed 52` (`pahtum play --layout`, the heuristic
//! seeded by the layout's index), 20,000 iterations; about ±0.03:
//!
//! | configuration | Black W/D/L | score |
//! |---|---|---|
//! | the defaults | 94/93/13 | 0.703 |
//! | `eps=0.02` / `eps=0.1` | 100/91/9, 90/87/23 | 0.728 / 0.668 |
//! | `k=4` / `k=6` | 99/87/14, 104/81/15 | 0.713 / 0.723 |
//! | `scale=5` / `scale=20` | 92/93/15, 88/88/24 | 0.693 / 0.660 |
//! | `c=0.3` / `c=0.14` | 99/83/18, 102/83/15 | 0.703 / 0.718 |
//! | `fpu=0.7` / `expand=1` / `minimax=0.2` | 103/85/12, 105/81/14, 93/89/18 | 0.728 / 0.728 / 0.688 |
//! | `eps=0.02,fpu=0.7,expand=1,k=6` together | 97/88/15 | 0.705 |
//! | `win_share=0.5` (first 53 layouts of seed 51 only) | 22/27/4 | 0.670 |
//! | `final=value` | 103/80/17 | 0.715 |
//! | `rave=grave` / `prior=bias` | 93/81/26, 85/91/24 | 0.668 / 0.653 |
//!
//! None is clearly better than the defaults (the four best together are
//! no better either, so their small leads are noise); more noise in the playouts
//! and a flatter margin reward are worse. Blending the win step into the
//! reward (`win_share`) turned wins into draws rather than the reverse:
//! chasing the margin is what makes a weaker opponent's small errors add
//! up to a win. Black's score against `heuristic` sits at about 0.70
//! for every setting above, and with it the overall score at about 0.85.
//!
//! The line weights (`decay`, `reach`, `defence`) steer both the playouts
//! and the priors; `heuristic` plays with the same defaults. On the same
//! 200 layouts:
//!
//! | configuration | Black W/D/L | score |
//! |---|---|---|
//! | `defence=1.0` / `defence=1.6` | 83/83/34, 103/77/20 | 0.623 / 0.708 |
//! | `decay=0.3` / `decay=0.5` | 61/80/59, 74/94/32 | 0.505 / 0.605 |
//! | `reach=4` | 101/82/17 | 0.710 |
//! | `widen=1.5` / `widen=3` | 96/81/23, 93/92/15 | 0.683 / 0.695 |
//! | `pw=0` / `pw=0.25` / `pw=0.5` / `pw=2` | 101/85/14, 105/89/6, 109/76/15, 99/82/19 | 0.718 / 0.748 / 0.735 / 0.700 |
//!
//! Every move of the line weights away from the defaults is level or
//! much worse: whatever would make the playouts stronger, it is not
//! these three numbers. A weaker progressive bias looked better, so it
//! was replayed on 100 fresh layouts (`--seed 53`), where the defaults
//! scored 67/28/5 (0.810), `pw=0.5` 62/32/6 (0.780) and `pw=0.25`
//! 63/27/10 (0.765): over all 300 layouts 0.739, 0.750 and 0.753, level
//! within the noise, so the default stays.
//!
//! Neither a longer search nor a deeper exact endgame moves it. On the
//! first 40 of those layouts (`--seed 51`), where the defaults score
//! 21/14/5: `iters=100000` 15/20/5; `exact=14` 21/14/5, the same games;
//! and `alphabeta` (its defaults: a million nodes, exact from 18 free
//! squares) 10/14/16. The games are close (most are won or drawn by one
//! line of three), and White's first stone, with an opponent that blocks
//! every open window, leaves Black few wins to find.
//!
//! # Fifth round: a learned line network (`rollout=net|value`)
//! The screens above say the playouts help most when they play like the
//! opponent, and that no hand-set weight of the line potential improves
//! them. So the value itself was learned: `bot::learned`, an n-tuple
//! network over the 14 lines (a table of the `4^7` patterns of a line per
//! four empty squares, summed over rows and columns), trained by TD(0)
//! self-play on 30 million games in four to five minutes on one core,
//! starting from the line potential, each step normalised by the squared
//! length of the value's gradient. One ply of it, the `learned` bot,
//! scores 0.641 [0.628, 0.654] against one ply of the line potential,
//! `heuristic` (4,000 games, `--seed 5`, 2,025-1,078-897;
//! `experiments/learned-lines`). Training settings, by the same measure,
//! on networks that started from the current score and were trained
//! before the step was normalised: a table per 1, 2 or 4 empty squares
//! 0.594 / 0.627 / 0.636 (10 million games); 30 million games with 10 %
//! or 5 % random moves 0.634 / 0.642; 100 million 0.637; 5-hole layouts
//! only 0.640; separate tables for odd and even empty counts 0.624. With
//! the built-in settings such a start scored 0.644, level with the 0.645
//! that the start from the line potential then scored, but a line pattern
//! that training never meets (six stones of seven and a gap) then keeps
//! only its current score, and `rollout=net` missed the block of a line of
//! seven.
//!
//! With `rollout=net` the playouts take the network's best move (and `eps`
//! random moves), and the priors rank moves by it too; `rollout=value`
//! plays no playout and scores the leaf by the network's predicted margin.
//! As Black against `heuristic` on the 200 layouts of the fourth round
//! (earlier networks trained from the current score; the defaults 94/93/13,
//! 0.703):
//!
//! | configuration | Black W/D/L | score |
//! |---|---|---|
//! | network playouts, heuristic priors | 94/94/12 | 0.705 |
//! | network playouts and priors (`rollout=net`) | 95/88/17 | 0.695 |
//! | ... with the leaf's network value blended in half and half (a trial build, not kept) | 102/83/15 | 0.718 |
//! | network leaves, no playout (`rollout=value`) | 89/86/25 | 0.660 |
//! | the built-in network for the searching side's playout moves, the heuristic for the opponent's (a trial build, not kept) | 106/82/12 | 0.735 |
//!
//! The built-in network (from the line potential) on the 100 layouts of
//! `--seed 51`, 200 games each, in one `pahtum sweep` (`results.csv` of
//! `experiments/learned-lines`):
//!
//! | `rollout` | score | W-D-L | as Black |
//! |---|---|---|---|
//! | `heuristic` (the default) | 0.880 | 157-38-5 | 57-38-5 |
//! | `net` | 0.848 | 147-45-8 | 47-45-8 |
//! | `value` | 0.830 | 146-40-14 | 47-39-14 |
//!
//! The plateau of 0.70 as Black stands whichever value guides the search.
//! Head to head, though, the network engine is the stronger:
//! `mcts:rollout=net` against the defaults scored 0.600 (`--seed 91`) and
//! 0.599 (`--seed 92`), 0.599 [0.569, 0.629] over 800 games
//! (393-173-234), about +70 Elo, at about the same speed (100,000
//! iterations from the bench position in 0.47 to 0.49 s against 0.38 to
//! 0.55 s, alternating runs on a noisy machine); against plain UCT
//! (`--seed 52`, 200 games) it scores 0.945 (179-20-1), level with the
//! defaults (180-20-0). The first built-in network, trained before the
//! step was normalised, scored 0.853 and 0.818 in the sweep, 0.573
//! [0.542, 0.603] head to head and 0.950 against plain UCT; its table for
//! 45 to 48 empty squares had diverged (`experiments/learned-lines`).
//! The default stays `heuristic`: the defaults are chosen, and the
//! engine's targets set, against `heuristic`, and there playouts that move
//! as the opponent does are worth as much as a better judgement.
//!
//! # How high Black can score against `heuristic`
//! `experiments/black-ceiling` plays Black against the real `heuristic` on
//! 400 fresh layouts (`examples/exploit_probe`, seeds 1 to 4), with the
//! defaults of the time (now `model=off`) and with a probe told the
//! opponent's rule: a single-agent search over Black's moves in which every
//! White move, in the tree and the playouts, is the heuristic's. At 20,000
//! iterations the defaults score 0.746 [0.715, 0.777] as Black (228/141/31)
//! and the probe 0.829 [0.802, 0.856] (278/107/15); on the second 100
//! layouts, five times the iterations take the probe from 0.820 to 0.850
//! and leave the defaults at 0.715; with the engine's 5 % random moves in
//! White's playouts too, the probe scores 0.856 [0.833, 0.880], so its edge
//! is in the tree: it knows White's reply to each of its moves.
//! `rollout=net` scores 0.706 [0.675, 0.737] there. With every game won as
//! White, the defaults are at about 0.87 overall and exact knowledge of the
//! opponent at about 0.91 to 0.93: what separates the defaults from 0.90 is
//! mostly the edge of modelling this one opponent. The sixth round takes
//! it.
//!
//! # Sixth round: a model of the opponent (`model=`)
//! The probe's edge is knowing the reply. `model=` gives the engine that
//! knowledge when the opponent shows it: at each node where the modelled
//! colour moves, only its moves of best line-potential value become
//! children (every one of them when several tie), so the tree searches the
//! replies `heuristic` can make and no other; the playouts are unchanged.
//! `model=on` always models the opponent (a research setting: against
//! anyone else the tree holds the wrong replies). Neither applies under
//! the pie rule. `model=auto` models it
//! while every one of its placements in the game so far, at least
//! `model_after` (2), was such a move: against `heuristic` from Black's
//! second move on, and against a player that makes any other move, never
//! again in that game. The model proves nothing untrue: a modelled node
//! lacks children, so it is never proven lost for its mover, and a reply
//! outside the model finds no kept subtree, so the next search starts
//! afresh.
//!
//! As Black against `heuristic` (`experiments/black-ceiling`, 20,000
//! iterations, the same 400 layouts as above), `model=auto` scores 0.944
//! [0.927, 0.961] (359/37/4), against 0.746 for `model=off` (the defaults
//! before this round) and 0.829 for the probe; `model=on`, 0.980 on the
//! second 100 layouts (96/4/0), where `off` scored 0.715. A tree that holds
//! real positions and both sides' moves uses the model better than the
//! probe's open-loop tree.
//!
//! What it gains and costs against other players, 20,000 iterations unless
//! stated. "Same games": two tournaments with the same seed and labels
//! play the same layouts with the same bot seeds, so a game in which the
//! model never switched on is the same moves in both, and the difference
//! lies in the games whose moves differ.
//!
//! | opponent | `model=auto` | `model=off` |
//! |---|---|---|
//! | `heuristic` (`--seed 51`, same 200 games) | 0.958 (184-15-1) | 0.863 (154-37-9) |
//! | plain UCT, `model=off` (`--seed 52`, same 200 games) | 0.950 (180-20-0) | 0.950 (180-20-0) |
//! | plain UCT with the model too (`--seed 52`, 200 games) | 0.948 (180-19-1) | |
//! | `model=off` head to head (`--seed 91`, 400 games; normal interval from the per-game variance) | 0.490 [0.446, 0.534] (161-70-169) | |
//! | `heuristic:defence=1.6` (`--seed 95`, same 200 games) | 0.863 (152-41-7) | 0.823 (139-51-10) |
//! | `alphabeta:nodes=100000` (`--seed 97`, same 200 games) | 0.698 (113-53-34) | 0.723 (118-53-29) |
//! | `alphabeta:nodes=20000`, both at `iters=2000` (`--seed 97` to `99`, same 1,200 games) | 0.695 | 0.715 |
//!
//! The `model=off` engine's moves were of best heuristic value on both of
//! its first two moves in 97 of the 400 head-to-head games (and on 48 %
//! of its moves overall), so the model was on for a move or two in those
//! games and off for the rest; the match stayed level.
//! `heuristic:defence=1.6` weighs the opponent's windows more than the
//! model does and agrees with it on 80 % of its moves; the games differ in
//! 156 of the 200, and over those `auto` scored 132.5 points and `off`
//! 124.5. `alphabeta` is the one opponent that the model costs something:
//! its first two moves were the heuristic's in about half the games, and
//! it then departs from them where its search finds better, which is where
//! a move chosen for the heuristic's reply is punished. Over the games
//! that differ, `auto` scored 65.5 of 100 at 20,000 iterations (`off`
//! 70.5), and 418 of 618 at 2,000 (`off` 442.5): about 0.02 of the
//! overall score, near two standard errors.
//!
//! `model_after` (placements seen before the model switches on) trades the
//! two: as Black against `heuristic` on the second and third sets of 100
//! black-ceiling layouts, 2 (the default) scores 0.945 and 0.930, 3 scores
//! 0.905 and 0.895, 4 scores 0.915 and 0.910 and 6 scores 0.825 and 0.830;
//! against `alphabeta:nodes=20000` at 2,000 iterations (the same 1,200
//! games), 3 costs 10 points over the 347 games that differ, where 2 costs
//! 24.5 over 618. So 3 would give up about 0.019 of the overall score
//! against `heuristic` (0.0375 as Black) to save about 0.012 against
//! `alphabeta`: level within the noise, and the default stays 2. Against
//! `model=off`, 2 gains 0.095 against a heuristic player, about five times
//! what it loses against a searching one.
//! `model=off` is the engine that assumes nothing of its opponent (use it
//! for self-play studies, where both sides would otherwise model each other
//! for a move or two now and then, and against engines that search).
//!
//! # Two threads
//! Self-play, 200 games unless stated, each layout with colours swapped,
//! `--threads 1` so that a two-thread bot has both cores (score of the
//! first bot; `--seed 71` unless stated). The rows with reuse at two
//! threads were measured before the fix described below them:
//!
//! | match | score |
//! |---|---|
//! | `iters=4000` against `iters=2000`, one thread each | 0.560 |
//! | `threads=2,iters=4000` against `iters=2000`, both with reuse | 0.460 |
//! | the same, both `reuse=false` | 0.565 |
//! | `threads=2,iters=4000`: reuse against none (`--seed 72`, 400 games) | 0.451 |
//! | the same, 200 games | 0.468 |
//! | one thread, `iters=2000`: reuse against none | 0.517 |
//! | `threads=2,iters=4000,prior=off`: reuse against none (`--seed 72`) | 0.512 |
//! | `threads=2,iters=4000`: reuse with a virtual loss of 3 against none (`--seed 72`) | 0.435 |
//!
//! A kept subtree made the tree-parallel search weaker, while one thread
//! neither gained nor lost by it. The cause was a bug in keeping the
//! subtree: under tree parallelism each thread takes children ranges from
//! its own block of the arena, so a descendant of the new root could sit
//! at a lower index, and keeping nodes in the order of their old indices
//! then put that descendant at node 0: the next search ran on another
//! position's statistics (the moves stayed legal, being free squares of a
//! later position). A trial build with no blocks scored 0.544 for reuse
//! against none (`threads=2,iters=2000,solver=false`, `--seed 81`, 400
//! games) where the same match had scored 0.404, and root parallelism
//! (trees owned by one thread) 0.504. `Tree::keep_subtree` now copies the
//! subtree breadth first with the new root at node 0, a test compares
//! subtrees grown by two threads before and after keeping them, and the
//! same match scores 0.496 (with `solver=true`, otherwise the same, it had
//! scored 0.458 before the fix).
//! Reuse is the default at every thread count again.
//!
//! At equal wall time (`--bot mcts:ms=M,threads=2,label=tree2 --bot
//! mcts:ms=M,label=one --threads 1`, seeds 73 to 75, 1,200 games each)
//! two threads scored 0.568 at 5 ms and 0.559 at 10 ms (the README's
//! table). With the faster heuristic playouts of `eval::LineValues` (more
//! than twice the iterations a second, the same moves) they score 0.564
//! [0.536, 0.592] at 2 ms (515-323-362), 0.536 [0.508, 0.564] at 5 ms
//! (500-286-414) and 0.534 [0.505, 0.562] at 10 ms (508-265-427): two
//! threads still run about 1.8 times the iterations of one, and, as with
//! longer searches before, doubling them buys less.
//!
//! Twice the iterations is worth only about 0.56 to 0.61 in
//! self-play (0.595 at 100 against 50 iterations, 0.610 at 200 against
//! 100, 0.575 at 2,000 against 1,000 over 100 games), because the first
//! player wins most games between equals.
//!
//! # Lazy selection (`lazy=`)
//! With random playouts, choosing a child (the scan of its siblings'
//! bounds) was about 70 % of an iteration (`perf`, one thread, the bench
//! search). With `lazy=N`, a node with at least `N` visits reuses a
//! thread's last choice until the chosen child's visits have grown by
//! about 1/16, counted per thread (`search::Choices`). Plain UCT (`rollout=random,reward=win,
//! rave=off,prior=off`), `lazy=64` against `lazy=0`, 20,000 iterations a
//! move unless stated:
//!
//! | match | score | W-D-L |
//! |---|---|---|
//! | equal iterations, `--seed 63` / `--seed 64`, 400 games each | 0.508 / 0.469 | 151-104-145, 125-125-150 |
//! | equal iterations, both | 0.488 [0.454, 0.523] | 276-229-295 |
//! | `ms=20` each (`--seed 65`, 200 games) | 0.578 [0.508, 0.644] | 89-53-58 |
//!
//! Level at equal iterations, and about three times the iterations a
//! second (`pahtum bench`: `mcts_lazy_iters_per_s_t1` against
//! `mcts_iters_per_s_t1`), so stronger at equal time. Two lengths were
//! tried before these: from 256 or 1,024 visits, lasting 1/64 of the
//! child's visits, 0.465 and 0.495 on `--seed 63`, no better and a little
//! slower. A choice that lasted 1/256 or 1/64 of the *parent's* visits
//! scored 0.57 to 0.62 at equal iterations on `--seed 61` and `62`, but
//! only by spending whole batches on children that looked good on few
//! visits (a corner with a 0.43 value got ten thousand visits at once at
//! the bench's root): more exploration by accident, which `c` gives on
//! purpose. It stays an option, off by default: `lazy=0` is the
//! textbook UCT that the baselines and the speed figures of the issue
//! name, and with the default engine's heuristic playouts the choice is
//! a small part of an iteration.

use crate::bot::eval::EvalWeights;
use crate::bot::learned::{LineNet, net_param};
use crate::bot::spec::{KeyInfo, Params, SpecError};

/// How long one search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations (playouts): reproducible.
    Iters(u64),
    /// Wall-clock milliseconds per move: not reproducible.
    Millis(u64),
}

/// How a playout chooses its moves below the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random (`Position::random_split`, about 30 ns a playout).
    Random,
    /// Each move takes the square with the largest immediate score change
    /// (own line gain plus the opponent gain it blocks), random among
    /// equals; with probability `eps` a random square instead.
    Greedy,
    /// Each move takes the square with the best line-potential value
    /// (`bot::eval::move_value`); `eps` as for greedy.
    Heuristic,
    /// No playout: the leaf is scored by the line-potential evaluation
    /// (`bot::eval::evaluate`, exact on a finished board) as if it were
    /// the final margin. AMAF statistics then come from a uniformly random
    /// fill of the leaf.
    Eval,
    /// Each move takes the square with the best one-ply value of the
    /// learned line network (`bot::learned`, the `net=` key); `eps` as for
    /// greedy. The priors rank children by the same values. Boards the
    /// network was not trained for get heuristic playouts and priors.
    Net,
    /// No playout: the leaf is scored by the learned line network's
    /// predicted margin (boards it does not cover: heuristic playouts).
    /// AMAF statistics then come from a uniformly random fill.
    Value,
}

/// How a finished playout is turned into a reward in `[0, 1]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reward {
    /// 1 for a win, ½ for a draw, 0 for a loss.
    Win,
    /// `(1 + tanh(margin / scale)) / 2`, margin in points from the player's
    /// view: a big win counts more than a narrow one.
    Margin,
}

/// All-moves-as-first statistics.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rave {
    /// Plain UCT.
    Off,
    /// RAVE (Gelly and Silver 2007): each child's own AMAF statistics.
    Rave,
    /// GRAVE (Cazenave 2015): the AMAF statistics of the closest ancestor
    /// with at least `ref` visits.
    Grave,
}

/// Use of the heuristic move value inside the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Prior {
    /// None.
    Off,
    /// Progressive bias (Chaslot et al. 2008): `pw * h / (n + 1)` added to
    /// a child's score, `h` the heuristic value scaled to `[0, 1]`.
    Bias,
    /// Progressive unpruning (Chaslot et al. 2008): children are ordered
    /// by heuristic value and selection only sees the best
    /// `k + floor(log_widen(1 + N / 50))` of them, `N` the node's visits
    /// (`widen=0`: exactly the best `k` moves become children). The bias
    /// term is added as for `bias`.
    Prune,
}

/// Which root child is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FinalChoice {
    /// Most visits (ties: higher mean).
    Visits,
    /// Highest mean among children with at least a tenth of the most visits.
    Value,
}

/// Whether the search models the opponent as `heuristic` inside the tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// Every opponent move is searched as usual.
    Off,
    /// The opponent is modelled while every one of its placements in this
    /// game so far, at least `model_after` of them, was a move of best
    /// line-potential value (by `weights`), the move `heuristic` with
    /// the same weights would choose; one placement that was not turns
    /// the model off for the rest of the game. Never under the pie rule,
    /// where the opening and the swap follow other rules.
    Auto,
    /// The opponent is always modelled (but never under the pie rule, as
    /// with `Auto`).
    On,
}

/// Default [`MctsConfig::model_after`].
const DEFAULT_MODEL_AFTER: u64 = 2;

/// How several threads share the work.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One shared tree, statistics in atomics, virtual loss.
    Tree,
    /// One tree per thread, merged at the root by visit counts.
    Root,
}

// The defaults, each chosen by measurement (tests/mcts.rs, issue 5 report).
const DEFAULT_ITERS: u64 = 20_000;
const DEFAULT_C: f64 = 0.2;
const DEFAULT_FPU: f64 = 1.0;
const DEFAULT_EXPAND: u64 = 2;
const DEFAULT_EPS: f64 = 0.05;
const DEFAULT_MIX: f64 = 0.0;
const DEFAULT_SCALE: f64 = 10.0;
/// Default [`MctsConfig::win_share`].
const DEFAULT_WIN_SHARE: f64 = 0.0;
const DEFAULT_BIAS: f64 = 0.001;
const DEFAULT_REF: u64 = 50;
const DEFAULT_K: u64 = 5;
const DEFAULT_PW: f64 = 1.0;
const DEFAULT_EXACT: u64 = 10;
const DEFAULT_MINIMAX: f64 = 0.0;
const DEFAULT_WIDEN: f64 = 2.0;
const DEFAULT_MAX_NODES: u64 = 4_000_000;
const DEFAULT_TEMPO: f64 = 0.5;
const DEFAULT_LOOKAHEAD: u64 = 0;

/// Most iterations one search may take.
pub const MAX_ITERS: u64 = 1_000_000_000;
/// Most worker threads.
pub const MAX_THREADS: u64 = crate::bot::MAX_THREADS as u64;
/// Most tree nodes (node ids are `u32`).
pub const MAX_NODES: u64 = 1 << 31;

/// The keys `pahtum bots` lists for `mcts`, with defaults and ranges.
pub const KEYS: &[KeyInfo] = &[
    key(
        "iters",
        "20000",
        "1..=1000000000",
        "iterations (playouts) per move; reproducible",
    ),
    key(
        "ms",
        "-",
        "1..=86400000",
        "time budget per move in milliseconds instead of iters (-: none; not reproducible)",
    ),
    key(
        "c",
        "0.2",
        "0..=10",
        "UCT exploration constant: mean + c*sqrt(ln N / n)",
    ),
    key(
        "fpu",
        "1.0",
        "0..=10",
        "score of an unvisited child (first-play urgency)",
    ),
    key(
        "expand",
        "2",
        "1..=1000",
        "visits a leaf receives before it is expanded",
    ),
    key(
        "lazy",
        "0",
        "0..=1000000000",
        "from this many visits a node reuses a thread's choice of child until that child's \
         visits grow by about 1/16, counted per thread (0: off, textbook UCT)",
    ),
    key(
        "rollout",
        "heuristic",
        "random|greedy|heuristic|eval|net|value",
        "playout policy below the tree",
    ),
    // rollout=net|value: the learned network, as for `learned`.
    crate::bot::learned::NET_KEY,
    key(
        "eps",
        "0.05",
        "0..=1",
        "probability of a random move in greedy/heuristic playouts",
    ),
    key(
        "mix",
        "0",
        "0..=1",
        "rollout=eval: weight of a random fill's margin blended into the static value",
    ),
    key(
        "tempo",
        "0.5",
        "0..=4",
        "rollout=eval: weight of the side to move's best move value added to the leaf value",
    ),
    key(
        "leaf_decay",
        "-",
        "0..=1",
        "rollout=eval: decay of the leaf evaluation (default: decay)",
    ),
    key(
        "leaf_reach",
        "-",
        "0..=8",
        "rollout=eval: reach of the leaf evaluation (default: reach)",
    ),
    key(
        "lookahead",
        "0",
        "0..=8",
        "rollout=eval: plies of greedy heuristic moves played before the leaf is evaluated",
    ),
    key(
        "reward",
        "win",
        "win|margin",
        "win: 1/0.5/0; margin: (1+tanh(margin/scale))/2",
    ),
    key(
        "scale",
        "10",
        "0.1..=1000",
        "points of margin that count as a clear win (reward=margin)",
    ),
    key(
        "win_share",
        "0",
        "0..=1",
        "reward=margin: weight of the win/draw/loss step blended into the margin reward",
    ),
    key(
        "rave",
        "off",
        "off|rave|grave",
        "all-moves-as-first statistics: none, RAVE or GRAVE",
    ),
    key(
        "bias",
        "0.001",
        "0..=1",
        "RAVE beta = m / (m + n + bias*m*n), m AMAF visits, n visits",
    ),
    key(
        "ref",
        "50",
        "0..=1000000",
        "GRAVE: AMAF of the closest ancestor with >= ref visits",
    ),
    key(
        "prior",
        "prune",
        "off|bias|prune",
        "heuristic move values: progressive bias or prune to k",
    ),
    key(
        "k",
        "5",
        "1..=65",
        "prior=prune: children kept per node (best by heuristic)",
    ),
    key(
        "widen",
        "2",
        "0|1.1..=100",
        "prior=prune: one more child each time visits grow by this factor (0: fixed k)",
    ),
    key(
        "pw",
        "1.0",
        "0..=100",
        "progressive bias weight: + pw * h / (n + 1)",
    ),
    key(
        "minimax",
        "0",
        "0..=1",
        "implicit minimax weight: q = (1-w)*mean + w*minimax of leaf evaluations",
    ),
    key(
        "solver",
        "true",
        "true|false",
        "MCTS-Solver: proven results propagate; exact endgames",
    ),
    key(
        "exact",
        "10",
        "0..=14",
        "solver: search exactly at the root with <= this many empty squares",
    ),
    key(
        "reuse",
        "true",
        "true|false",
        "keep the matching subtree between moves",
    ),
    key(
        "final",
        "visits",
        "visits|value",
        "root child played: most visits, or best mean",
    ),
    key(
        "model",
        "auto",
        "off|auto|on",
        "opponent model: in the tree the opponent plays only its moves of best line-potential \
         value (the heuristic's choice); auto: while all its moves this game, at least model_after, \
         were such; never with the pie rule",
    ),
    key(
        "model_after",
        "2",
        "0..=32",
        "model=auto: opponent placements, all of best value, before the opponent is modelled",
    ),
    key("threads", "1", "1..=256", "search threads"),
    key(
        "parallel",
        "tree",
        "tree|root",
        "shared tree (virtual loss) or one tree per thread",
    ),
    key(
        "max_nodes",
        "4000000",
        "128..=2147483648",
        "node bound (shared out among root-parallel trees); when full, leaves stop expanding",
    ),
    // The heuristic's weights, shared with `heuristic` and `alphabeta`.
    EvalWeights::KEYS[0],
    EvalWeights::KEYS[1],
    EvalWeights::KEYS[2],
];

const fn key(
    key: &'static str,
    default: &'static str,
    accepts: &'static str,
    help: &'static str,
) -> KeyInfo {
    KeyInfo {
        key,
        default,
        accepts,
        help,
    }
}

/// Every parameter of the search. `Default` is the tuned engine.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations or milliseconds per move.
    pub budget: Budget,
    /// UCT exploration constant `c` in `mean + c * sqrt(ln N / n)`.
    pub c: f32,
    /// Score of a child with no visits (and no AMAF statistics); a value
    /// above `1 + c * sqrt(ln N)` visits every child once first.
    pub fpu: f32,
    /// Visits a leaf gets (each with a playout from it) before its children
    /// are created: trades memory for tree growth.
    pub expand: u32,
    /// Visits from which a node reuses a thread's last choice of child
    /// (lazy selection, `search::Choices`; 0: off, every visit chooses).
    pub lazy: u32,
    /// Playout policy.
    pub rollout: Rollout,
    /// Random-move probability in greedy and heuristic playouts.
    pub eps: f64,
    /// With `eval` leaves: weight of a random fill's margin blended into
    /// the static value (0: static value only).
    pub mix: f64,
    /// With `eval` leaves: weight of the side to move's best one-ply move
    /// value added to the static value (a tempo term).
    pub tempo: f64,
    /// Weights of the `eval` leaf evaluation (by default the same as
    /// `weights`, which also order and prune moves).
    pub leaf_weights: EvalWeights,
    /// With `eval` leaves: greedy heuristic plies played from the leaf
    /// before it is evaluated.
    pub lookahead: u32,
    /// Reward of a playout. `Win` by default: the margin-shaped reward
    /// maximises the mean margin over the search's own imperfect
    /// continuations and so gives away drawn and won games against best
    /// replies; the result-only reward passed the gate against it at equal
    /// time (experiments/result-reward/, experiments/perfect-play/).
    pub reward: Reward,
    /// Margin scale in points for [`Reward::Margin`].
    pub scale: f64,
    /// Weight of the win/draw/loss step in [`Reward::Margin`]: the reward
    /// is `(1 - w) * margin reward + w * win reward`, so a narrow win
    /// counts clearly more than a draw while margins still order wins.
    pub win_share: f64,
    /// AMAF mode.
    pub rave: Rave,
    /// RAVE bias `b` in `beta = m / (m + n + b m n)`.
    pub rave_bias: f32,
    /// GRAVE reference: visits an ancestor needs for its AMAF values to be
    /// used below it (0 makes GRAVE equal RAVE).
    pub grave_ref: u32,
    /// Heuristic prior mode.
    pub prior: Prior,
    /// Children kept per node with [`Prior::Prune`].
    pub prune_k: u32,
    /// Progressive unpruning base: one more child each time a node's
    /// visits grow by this factor (0: fixed `k`).
    pub widen: f32,
    /// Progressive-bias weight.
    pub prior_weight: f32,
    /// Weight of the implicit minimax value in a child's `q` (0: off).
    pub minimax: f32,
    /// MCTS-Solver and exact endgames.
    pub solver: bool,
    /// With the solver on, positions with at most this many empty squares
    /// are searched exactly at the root.
    pub exact: u32,
    /// Keep the subtree of the position reached between two moves.
    pub reuse: bool,
    /// Which root child is played.
    pub final_choice: FinalChoice,
    /// Opponent model.
    pub model: Model,
    /// With [`Model::Auto`]: opponent placements seen, every one of best
    /// line-potential value, before the opponent is modelled.
    pub model_after: u32,
    /// Worker threads.
    pub threads: usize,
    /// How threads share work.
    pub parallel: Parallel,
    /// Most nodes a tree may hold.
    pub max_nodes: u32,
    /// Weights of the line-potential heuristic (priors, `eval` leaves,
    /// heuristic playouts).
    pub weights: EvalWeights,
    /// The learned network of `rollout=net|value`, read from the `net=`
    /// file; `None`: the built-in one.
    pub net: Option<&'static LineNet>,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iters(DEFAULT_ITERS),
            c: DEFAULT_C as f32,
            fpu: DEFAULT_FPU as f32,
            expand: DEFAULT_EXPAND as u32,
            lazy: 0,
            rollout: Rollout::Heuristic,
            eps: DEFAULT_EPS,
            mix: DEFAULT_MIX,
            tempo: DEFAULT_TEMPO,
            leaf_weights: EvalWeights::default(),
            lookahead: DEFAULT_LOOKAHEAD as u32,
            reward: Reward::Win,
            scale: DEFAULT_SCALE,
            win_share: DEFAULT_WIN_SHARE,
            rave: Rave::Off,
            rave_bias: DEFAULT_BIAS as f32,
            grave_ref: DEFAULT_REF as u32,
            prior: Prior::Prune,
            prune_k: DEFAULT_K as u32,
            widen: DEFAULT_WIDEN as f32,
            prior_weight: DEFAULT_PW as f32,
            minimax: DEFAULT_MINIMAX as f32,
            solver: true,
            exact: DEFAULT_EXACT as u32,
            reuse: true,
            final_choice: FinalChoice::Visits,
            model: Model::Auto,
            model_after: DEFAULT_MODEL_AFTER as u32,
            threads: 1,
            parallel: Parallel::Tree,
            max_nodes: DEFAULT_MAX_NODES as u32,
            weights: EvalWeights::default(),
            net: None,
        }
    }
}

impl MctsConfig {
    /// The configuration of a spec's params; absent keys take defaults.
    ///
    /// # Errors
    /// A value out of range or not accepted, or both `iters` and `ms`.
    pub fn from_params(p: &Params) -> Result<MctsConfig, SpecError> {
        let d = MctsConfig::default();
        let budget = match (
            p.opt_int("iters", 1, MAX_ITERS)?,
            p.opt_int("ms", 1, 86_400_000)?,
        ) {
            (Some(_), Some(_)) => {
                return Err(SpecError(format!(
                    "bot spec '{}': give iters= or ms=, not both",
                    p.spec()
                )));
            }
            (_, Some(ms)) => Budget::Millis(ms),
            (Some(n), None) => Budget::Iters(n),
            (None, None) => d.budget,
        };
        let rollout = [
            Rollout::Random,
            Rollout::Greedy,
            Rollout::Heuristic,
            Rollout::Eval,
            Rollout::Net,
            Rollout::Value,
        ][p.choice(
            "rollout",
            d.rollout as usize,
            &["random", "greedy", "heuristic", "eval", "net", "value"],
        )?];
        if matches!(p.raw("net"), Some(f) if f != "builtin")
            && !matches!(rollout, Rollout::Net | Rollout::Value)
        {
            // A network file that nothing reads would be a silent no-op.
            return Err(SpecError(format!(
                "bot spec '{}': net= is read only with rollout=net or rollout=value",
                p.spec()
            )));
        }
        let reward = [Reward::Win, Reward::Margin]
            [p.choice("reward", d.reward as usize, &["win", "margin"])?];
        let rave = [Rave::Off, Rave::Rave, Rave::Grave]
            [p.choice("rave", d.rave as usize, &["off", "rave", "grave"])?];
        let prior = [Prior::Off, Prior::Bias, Prior::Prune]
            [p.choice("prior", d.prior as usize, &["off", "bias", "prune"])?];
        let final_choice = [FinalChoice::Visits, FinalChoice::Value]
            [p.choice("final", d.final_choice as usize, &["visits", "value"])?];
        let parallel = [Parallel::Tree, Parallel::Root]
            [p.choice("parallel", d.parallel as usize, &["tree", "root"])?];
        let model = [Model::Off, Model::Auto, Model::On]
            [p.choice("model", d.model as usize, &["off", "auto", "on"])?];
        let weights = EvalWeights::from_params(p)?;
        let threads = p.int("threads", 1, 1, MAX_THREADS)? as usize;
        Ok(MctsConfig {
            budget,
            c: p.float("c", DEFAULT_C, 0.0, 10.0)? as f32,
            fpu: p.float("fpu", DEFAULT_FPU, 0.0, 10.0)? as f32,
            expand: p.int("expand", DEFAULT_EXPAND, 1, 1000)? as u32,
            lazy: p.int("lazy", 0, 0, 1_000_000_000)? as u32,
            rollout,
            eps: p.float("eps", DEFAULT_EPS, 0.0, 1.0)?,
            mix: p.float("mix", DEFAULT_MIX, 0.0, 1.0)?,
            tempo: p.float("tempo", DEFAULT_TEMPO, 0.0, 4.0)?,
            leaf_weights: EvalWeights {
                decay: p.float("leaf_decay", weights.decay, 0.0, 1.0)?,
                reach: p.int("leaf_reach", weights.reach as u64, 0, 8)? as u32,
                defence: weights.defence,
            },
            lookahead: p.int("lookahead", DEFAULT_LOOKAHEAD, 0, 8)? as u32,
            reward,
            scale: p.float("scale", DEFAULT_SCALE, 0.1, 1000.0)?,
            win_share: p.float("win_share", DEFAULT_WIN_SHARE, 0.0, 1.0)?,
            rave,
            rave_bias: p.float("bias", DEFAULT_BIAS, 0.0, 1.0)? as f32,
            grave_ref: p.int("ref", DEFAULT_REF, 0, 1_000_000)? as u32,
            prior,
            prune_k: p.int("k", DEFAULT_K, 1, 65)? as u32,
            widen: match p.float("widen", DEFAULT_WIDEN, 0.0, 100.0)? {
                w if w > 0.0 && w < 1.1 => {
                    return Err(SpecError(format!(
                        "bot spec '{}': widen={w} is not accepted (widen takes 0, or a number 1.1..=100)",
                        p.spec()
                    )));
                }
                w => w as f32,
            },
            prior_weight: p.float("pw", DEFAULT_PW, 0.0, 100.0)? as f32,
            minimax: p.float("minimax", DEFAULT_MINIMAX, 0.0, 1.0)? as f32,
            solver: p.flag("solver", d.solver)?,
            exact: p.int("exact", DEFAULT_EXACT, 0, 14)? as u32,
            reuse: p.flag("reuse", d.reuse)?,
            final_choice,
            model,
            model_after: p.int("model_after", DEFAULT_MODEL_AFTER, 0, 32)? as u32,
            threads,
            parallel,
            max_nodes: p
                .int("max_nodes", DEFAULT_MAX_NODES, 128, MAX_NODES)?
                .min(u32::MAX as u64) as u32,
            weights,
            net: net_param(p)?,
        })
    }

    /// Whether AMAF statistics are kept.
    #[inline]
    pub fn uses_amaf(&self) -> bool {
        self.rave != Rave::Off
    }

    /// Whether the heuristic move value is computed at expansion.
    #[inline]
    pub fn uses_prior(&self) -> bool {
        self.prior != Prior::Off
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::spec::BotSpec;

    fn params(s: &str) -> Params {
        Params::new(&s.parse::<BotSpec>().expect("spec"))
    }

    #[test]
    fn listed_defaults_are_the_defaults() {
        let mut spec = String::from("mcts:");
        let mut first = true;
        for k in KEYS.iter().filter(|k| k.default != "-") {
            if !first {
                spec.push(',');
            }
            first = false;
            spec.push_str(&format!("{}={}", k.key, k.default));
        }
        let c = MctsConfig::from_params(&params(&spec)).expect("defaults parse");
        assert_eq!(c, MctsConfig::default());
    }

    #[test]
    fn refuses_bad_values() {
        for bad in [
            "mcts:iters=0",
            "mcts:iters=5,ms=5",
            "mcts:c=-1",
            "mcts:rollout=smart",
            "mcts:threads=0",
            "mcts:max_nodes=3",
            "mcts:solver=maybe",
            "mcts:k=0",
            "mcts:model=maybe",
        ] {
            assert!(MctsConfig::from_params(&params(bad)).is_err(), "{bad}");
        }
        let c =
            MctsConfig::from_params(&params("mcts:ms=50,parallel=root,threads=2")).expect("valid");
        assert_eq!(c.budget, Budget::Millis(50));
        assert_eq!(c.parallel, Parallel::Root);
    }

    #[test]
    fn reuse_defaults_on_for_every_thread_count() {
        let reuse = |s: &str| MctsConfig::from_params(&params(s)).expect("valid").reuse;
        assert!(reuse("mcts"));
        assert!(reuse("mcts:threads=2,parallel=root"));
        assert!(reuse("mcts:threads=2"));
        assert!(!reuse("mcts:threads=2,reuse=false"));
        assert!(!reuse("mcts:reuse=false"));
    }
}
