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
        let budget = Budget::from_params(p, &ITERS, &MS)?;
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
        let prior: Prior = p.pick(&PRIOR)?;
        let minimax = p.real(&MINIMAX)? as f32;
        // The node field that holds a leaf's minimax value holds the
        // network's value under `mix=`: a `minimax=` above 0 turns the
        // default mix off (`MIX`'s implied value), and only a `mix=` above
        // 0 given beside it is refused.
        let mix = p.real(&MIX)? as f32;
        let pvnet = pv_net(p, prior == Prior::Pv || mix > 0.0)?;
        if mix > 0.0 && minimax > 0.0 {
            return Err(SpecError(format!(
                "bot spec '{}': mix= and minimax= cannot both be above 0",
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
            prior,
            k: p.int(&K)? as u32,
            widen: p.real(&WIDEN)? as f32,
            pw: p.real(&PW)? as f32,
            minimax,
            solver: p.flag(&SOLVER)?,
            exact: p.int(&EXACT)? as u32,
            prove: p.int(&PROVE)? as u32,
            prove_nodes: p.int(&PROVE_NODES)?,
            reuse: p.flag(&REUSE)?,
            alloc: p.pick(&ALLOC)?,
            early: p.flag(&EARLY)?,
            r#final: p.pick(&FINAL)?,
            model: p.pick(&MODEL)?,
            model_after: p.int(&MODEL_AFTER)? as u32,
            threads: p.int(&THREADS)? as usize,
            parallel: p.pick(&PARALLEL)?,
            max_nodes: node_bound(p)?,
            weights: crate::bot::spec::weights_from_params_with(p, &WEIGHTS)?,
            net: net_param(p)?,
            pvnet,
            mix,
        })
    }
}

/// The `pvnet=` network when `used` (`prior=pv` or `mix=`): the built-in
/// one or a file's.
fn pv_net(p: &Params, used: bool) -> Result<Option<Arc<PvNet>>, SpecError> {
    let text = p.text(&PVNET)?;
    if !used {
        if text != PVNET.default_text() {
            // A network file that nothing reads would be a silent no-op;
            // the default is taken, so that a spec may write every key
            // out (a gate's previous defaults).
            return Err(SpecError(format!(
                "bot spec '{}': pvnet= is read only with prior=pv or mix= above 0",
                p.spec()
            )));
        }
        return Ok(None);
    }
    match text {
        "builtin" => Ok(Some(PvNet::builtin())),
        path => PvNet::load(std::path::Path::new(path))
            .map(Some)
            .map_err(|e| SpecError(format!("bot spec '{}': {e}", p.spec()))),
    }
}

/// The node bound of `max_nodes=` or `mem=` (at most one of them given).
fn node_bound(p: &Params) -> Result<u32, SpecError> {
    let nodes = p.int(&MAX_NODES_KEY)?;
    match p.opt_int(&MEM)? {
        Some(_) if p.raw(MAX_NODES_KEY.key).is_some() => Err(SpecError(format!(
            "bot spec '{}': give max_nodes= or mem=, not both",
            p.spec()
        ))),
        Some(mib) => Ok(nodes_in_mib(mib)),
        None => Ok(nodes.min(u32::MAX as u64) as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::spec::BotSpec;

    fn params(s: &str) -> Params {
        Params::new(&s.parse::<BotSpec>().expect("spec"))
    }

    /// `mem=` gives the node bound in MiB (40-byte nodes), is refused
    /// beside `max_nodes=`, and is bounded as `max_nodes=` is.
    #[test]
    fn mem_gives_the_node_bound_in_mib_and_excludes_max_nodes() {
        let cfg = |s: &str| MctsConfig::from_params(&params(s));
        assert_eq!(cfg("mcts:mem=40").expect("valid").max_nodes, 1_048_576);
        assert_eq!(cfg("mcts:mem=1").expect("valid").max_nodes, 26_214);
        assert_eq!(cfg("mcts:max_nodes=1000").expect("valid").max_nodes, 1000);
        assert_eq!(cfg("mcts").expect("valid").max_nodes, 1 << 26);
        let both = cfg("mcts:mem=10,max_nodes=1000").expect_err("both");
        assert!(
            both.0.contains("give max_nodes= or mem=, not both"),
            "{}",
            both.0
        );
        assert!(cfg("mcts:mem=0").is_err());
        assert!(cfg(&format!("mcts:mem={}", MAX_MEM_MIB + 1)).is_err());
        assert_eq!(
            cfg(&format!("mcts:mem={MAX_MEM_MIB}"))
                .expect("valid")
                .max_nodes as u64,
            MAX_NODES
        );
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

    /// `prior=pv` and `mix=` load the network (`pvnet=`, the built-in one
    /// by default); nothing else does, and a `pvnet=` that nothing reads,
    /// a file that is no network, a weight outside `[0, 1]` and `mix=`
    /// beside `minimax=` are refused.
    #[test]
    fn network_keys_parse_and_refuse_bad_values() {
        let cfg = |s: &str| MctsConfig::from_params(&params(s));
        let default = cfg("mcts").expect("valid");
        assert_eq!((default.prior, default.mix), (Prior::Pv, 0.5));
        assert_eq!(default.pvnet, Some(PvNet::builtin()));
        assert_eq!(default, MctsConfig::default());
        assert!(
            cfg("mcts:prior=prune,mix=0")
                .expect("valid")
                .pvnet
                .is_none()
        );
        let pv = cfg("mcts:prior=pv,mix=0").expect("valid");
        assert_eq!((pv.prior, pv.mix), (Prior::Pv, 0.0));
        assert!(pv.prunes() && pv.uses_pvnet());
        assert_eq!(pv.pvnet, Some(PvNet::builtin()));
        let mix = cfg("mcts:prior=prune,mix=0.25,pvnet=builtin").expect("valid");
        assert_eq!((mix.prior, mix.mix), (Prior::Prune, 0.25));
        assert!(mix.pvnet.is_some());
        // minimax= takes the node field of the network's value: it turns
        // the default mix off, and a mix= above 0 given beside it is refused.
        let minimax = cfg("mcts:minimax=0.2").expect("valid");
        assert_eq!((minimax.mix, minimax.minimax), (0.0, 0.2));
        let err = |s: &str| cfg(s).expect_err(s).0;
        assert!(err("mcts:prior=prune,mix=0,pvnet=x.safetensors").contains("pvnet= is read only"));
        let missing = err("mcts:prior=pv,pvnet=/no/such/net.safetensors");
        assert!(missing.contains("/no/such/net.safetensors"), "{missing}");
        assert!(err("mcts:mix=0.5,minimax=0.1").contains("mix= and minimax="));
        for bad in [
            "mcts:mix=1.5",
            "mcts:mix=-0.1",
            "mcts:mix=x",
            "mcts:prior=policy",
        ] {
            assert!(cfg(bad).is_err(), "{bad}");
        }
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
