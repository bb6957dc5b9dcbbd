//! A spec's `mcts` keys read into an [`MctsConfig`], every value range-checked.

use super::keys::*;
use super::*;
use crate::bot::learned::{NET_KEY, net_param};
use crate::bot::spec::{Params, SpecError};

impl MctsConfig {
    /// The configuration of a spec's params; absent keys take defaults.
    ///
    /// # Errors
    /// A value out of range or not accepted, or both `iters` and `ms`.
    pub fn from_params(p: &Params) -> Result<MctsConfig, SpecError> {
        let iters = p.int(&ITERS)?;
        let budget = match (p.raw(ITERS.key), p.opt_int(&MS)?) {
            (Some(_), Some(_)) => {
                return Err(SpecError(format!(
                    "bot spec '{}': give iters= or ms=, not both",
                    p.spec()
                )));
            }
            (_, Some(ms)) => Budget::Millis(ms),
            (_, None) => Budget::Iters(iters),
        };
        let rollout: Rollout = p.pick(&ROLLOUT)?;
        if p.text(&NET_KEY)? != NET_KEY.default_text()
            && !matches!(rollout, Rollout::Net | Rollout::Value)
        {
            // A network file that nothing reads would be a silent no-op.
            return Err(SpecError(format!(
                "bot spec '{}': net= is read only with rollout=net or rollout=value",
                p.spec()
            )));
        }
        Ok(MctsConfig {
            budget,
            c: p.real(&C)? as f32,
            fpu: p.real(&FPU)? as f32,
            expand: p.int(&EXPAND)? as u32,
            lazy: p.int(&LAZY)? as u32,
            rollout,
            eps: p.real(&EPS)?,
            tempo: p.real(&TEMPO)?,
            reward: p.pick(&REWARD)?,
            scale: p.real(&SCALE)?,
            win_share: p.real(&WIN_SHARE)?,
            rave: p.pick(&RAVE)?,
            bias: p.real(&BIAS)? as f32,
            r#ref: p.int(&REF)? as u32,
            prior: p.pick(&PRIOR)?,
            k: p.int(&K)? as u32,
            widen: p.real(&WIDEN)? as f32,
            pw: p.real(&PW)? as f32,
            minimax: p.real(&MINIMAX)? as f32,
            solver: p.flag(&SOLVER)?,
            exact: p.int(&EXACT)? as u32,
            prove: p.int(&PROVE)? as u32,
            prove_nodes: p.int(&PROVE_NODES)?,
            reuse: p.flag(&REUSE)?,
            r#final: p.pick(&FINAL)?,
            model: p.pick(&MODEL)?,
            model_after: p.int(&MODEL_AFTER)? as u32,
            threads: p.int(&THREADS)? as usize,
            parallel: p.pick(&PARALLEL)?,
            max_nodes: p.int(&MAX_NODES_KEY)?.min(u32::MAX as u64) as u32,
            weights: crate::bot::spec::weights_from_params_with(p, &WEIGHTS)?,
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
        for k in KEYS.iter().filter(|k| k.default_text() != "-") {
            if !first {
                spec.push(',');
            }
            first = false;
            spec.push_str(&format!("{}={}", k.key, k.default_text()));
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
