#!/usr/bin/env bash
# Compares the solving speed of two volte binaries on the same positions, in the same run:
# the two are run alternately ROUNDS times (one thread, a fresh table per position), and
# the script prints each run's total time (user CPU seconds: time the host gives to other
# guests does not count in it) and nodes, then the ratio of the medians. The machine is
# noisy (identical runs differ by up to a quarter); alternating and taking medians of
# several rounds keeps the ratio honest.
# Usage: scripts/solve_ab.sh OLD_BINARY NEW_BINARY [POSITIONS] [ROUNDS]
# POSITIONS defaults to FFO 40-44 (../shared/data or $VOLTE_DATA).
set -euo pipefail
old="$1"
new="$2"
data="${VOLTE_DATA:-$(dirname "$0")/../../shared/data}"
positions="${3:-}"
rounds="${4:-3}"
if [ -z "$positions" ]; then
    positions="$(mktemp)"
    head -5 "$data/ffo/fforum-40-59.obf" > "$positions"
fi
run() {
    # Prints "user-seconds nodes" for one `volte solve` run.
    local tf nodes
    tf="$(mktemp)"
    nodes="$(/usr/bin/time -f '%U' -o "$tf" "$1" solve "$positions" --hash-mb 256 2>/dev/null |
        awk '/^total:/ { gsub(",", ""); print $4 }')"
    echo "$(tail -1 "$tf") $nodes"
    rm -f "$tf"
}
old_times=()
new_times=()
for i in $(seq "$rounds"); do
    read -r t n < <(run "$old")
    echo "round $i old: $t s, $n nodes"
    old_times+=("$t")
    read -r t n < <(run "$new")
    echo "round $i new: $t s, $n nodes"
    new_times+=("$t")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mo="$(median "${old_times[@]}")"
mn="$(median "${new_times[@]}")"
awk -v o="$mo" -v n="$mn" 'BEGIN { printf "median old %.3f s, new %.3f s: new/old = %.3f\n", o, n, n / o }'
