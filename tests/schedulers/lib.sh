# Shared by the scheduler tests: the cluster recipes, read from
# docs/clusters.md itself so that the documentation cannot drift from what
# is tested.
# Sourced, not run.

# The fenced block after `<!-- recipe:NAME -->` in docs/clusters.md, without
# fences.
recipe_block() {
    awk -v mark="<!-- recipe:$1 -->" '
        $0 == mark { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }
    ' "$ROOT/docs/clusters.md"
}

# The recipe's `pahtum tournament` command as one line, continuation lines
# joined, without what a scheduler fills in per task (--shard, --out,
# --threads values and --resume) and without GNU parallel's `::: ...`.
tournament_command() {
    sed -e ':a' -e '/\\$/{N;s/\\\n[[:space:]]*/ /;ba' -e '}' |
        grep -o 'pahtum tournament.*' | head -n 1 |
        sed -e 's/ :::.*//' \
            -e 's/ --\(shard\|out\|threads\) \("[^"]*"\|[^ ]*\$(([^)]*))[^ ]*\|[^ ]*\)//g' \
            -e 's/ --resume//g' -e 's/[[:space:]]*$//'
}

# Compares the CSV and SVG files of two run directories byte for byte,
# timing columns (`*_ms`) cut; prints the first difference and fails.
same_results() {
    local a=$1 b=$2 f n=0
    for f in "$b"/*.csv "$b"/*.svg; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        if ! cmp -s <(cut_ms "$a/${f##*/}") <(cut_ms "$f"); then
            echo "${f##*/} differs between $a and $b:"
            diff <(cut_ms "$a/${f##*/}") <(cut_ms "$f") | head -n 5
            return 1
        fi
    done
    [ "$n" -gt 0 ] || { echo "no result files in $b"; return 1; }
}

# A CSV without its `*_ms` columns (other files unchanged).
cut_ms() {
    case $1 in
    *.csv) awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = ($i !~ /_ms$/) }
        { s = ""; for (i = 1; i <= NF; i++) if (keep[i]) s = s (s == "" ? "" : ",") $i; print s }' "$1" ;;
    *) cat "$1" ;;
    esac
}

# Data rows of games.csv in DIR (0 when absent).
rows() {
    if [ -f "$1/games.csv" ]; then echo $(($(wc -l <"$1/games.csv") - 1)); else echo 0; fi
}

# Shell defaults written out: `"${GAMES:-4000}"` becomes `4000`.
defaults_resolved() {
    sed 's/"\${[A-Za-z_]*:-\([^}]*\)}"/\1/g'
}
