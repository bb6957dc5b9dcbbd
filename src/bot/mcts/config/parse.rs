//! A spec's `mcts` keys read into an [`MctsConfig`], every value range-checked.

use super::*;
use crate::bot::learned::net_param;
use crate::bot::spec::{Params, SpecError};

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
        let weights = EvalWeights::from_params_or(p, &DEFAULT_WEIGHTS)?;
        let threads = p.int("threads", DEFAULT_THREADS, 1, MAX_THREADS)? as usize;
        Ok(MctsConfig {
            budget,
            c: p.float("c", DEFAULT_C, 0.0, 10.0)? as f32,
            fpu: p.float("fpu", DEFAULT_FPU, 0.0, 10.0)? as f32,
            expand: p.int("expand", DEFAULT_EXPAND, 1, 1000)? as u32,
            lazy: p.int("lazy", DEFAULT_LAZY, 0, 1_000_000_000)? as u32,
            rollout,
            eps: p.float("eps", DEFAULT_EPS, 0.0, 1.0)?,
            mix: p.float("mix", DEFAULT_MIX, 0.0, 1.0)?,
            tempo: p.float("tempo", DEFAULT_TEMPO, 0.0, 4.0)?,
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
