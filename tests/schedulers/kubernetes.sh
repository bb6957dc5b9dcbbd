#!/usr/bin/env bash
# The Kubernetes recipe of docs/clusters.md cannot run here: checks that
# its YAML parses into an indexed Job whose completions match the shard
# count, and that its pahtum command is the SLURM recipe's (the per-task
# --shard, --out and --threads values aside). Needs python3 with PyYAML (installed
# with apt as root when missing); otherwise prints `kubernetes: skipped:
# REASON` and exits 0.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/tests/schedulers/lib.sh"

skip() { echo "kubernetes: skipped: $*"; exit 0; }
fail() { echo "kubernetes: FAILED: $*"; exit 1; }

command -v python3 >/dev/null || skip "no python3"
if ! python3 -c 'import yaml' 2>/dev/null; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || skip "no PyYAML (and no root apt-get)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-yaml; } \
        >/dev/null 2>&1 || skip "apt-get install python3-yaml failed"
    python3 -c 'import yaml' 2>/dev/null || skip "PyYAML installed but not importable by $(command -v python3)"
fi

yaml=$(recipe_block kubernetes)
[ -n "$yaml" ] || fail "no Kubernetes recipe in docs/clusters.md"
# Prints the container's shell command after checking the Job's shape.
command=$(python3 -c '
import sys, re, yaml
job = yaml.safe_load(sys.stdin)
def need(ok, what):
    if not ok:
        sys.exit("kubernetes: FAILED: " + what)
need(job.get("kind") == "Job" and job.get("apiVersion") == "batch/v1", "not a batch/v1 Job")
spec = job["spec"]
need(spec.get("completionMode") == "Indexed", "completionMode is not Indexed")
pod = spec["template"]["spec"]
need(pod.get("restartPolicy") == "OnFailure", "restartPolicy is not OnFailure")
(c,) = pod["containers"]
need(c["command"] == ["sh", "-c"], "the container does not run sh -c")
(line,) = c["args"]
m = re.search(r"--shard [^/]*/(\d+)", line)
need(m and int(m.group(1)) == spec["completions"], "completions differ from the shard count")
need("--resume" in line.split(), "the command lacks --resume")
print(line)
' <<<"$yaml" 2>&1) || fail "${command#kubernetes: FAILED: }"
k8s=$(tournament_command <<<"$command" | defaults_resolved)
slurm=$(recipe_block slurm | tournament_command | defaults_resolved)
parallel=$(recipe_block parallel | tournament_command | defaults_resolved)
[ "$k8s" = "$slurm" ] || fail "its command differs from the SLURM one: '$k8s' vs '$slurm'"
[ "$parallel" = "$slurm" ] || fail "GNU parallel's command differs from the SLURM one: '$parallel' vs '$slurm'"
echo "kubernetes: ok: the YAML is an indexed Job of $(grep -o 'completions: [0-9]*' <<<"$yaml") running the SLURM recipe's command"
