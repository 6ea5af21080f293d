#!/usr/bin/env bash
# Counts the instructions the solver executes on a set of positions, under valgrind's
# cachegrind: a measure of the work per node that, unlike time, does not move with the
# machine's load (identical timed runs here differ by a tenth or more). It builds the
# working tree for x86-64-v3 (AVX2, BMI2: valgrind cannot run the AVX-512 code that
# target-cpu=native gives on this machine) into target/x86-64-v3, solves on one thread
# with a 64 MB table, and prints the solver's node count and the instruction count (of
# which starting up, mostly unpacking the weights, is about 0.4 G).
# Compare two versions by running it on each; memory stalls are not in the count, so a
# change that trades instructions for cache misses still needs a timed comparison
# (scripts/solve_ab.sh).
# Usage: scripts/instructions.sh [POSITIONS]
# POSITIONS defaults to FFO 40 (../shared/data or $VOLTE_DATA); needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${VOLTE_DATA:-../shared/data}"
positions="${1:-}"
if ! command -v valgrind > /dev/null; then
    echo "instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2
    exit 1
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -z "$positions" ]; then
    positions="$tmp/positions.obf"
    head -1 "$data/ffo/fforum-40-59.obf" > "$positions"
fi
RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build --release --quiet --target-dir target/x86-64-v3
out="$tmp/cachegrind.out"
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" \
    target/x86-64-v3/release/volte solve "$positions" --threads 1 --hash-mb 64 2>&1 |
    grep -E "^total:|I +refs" | sed 's/^==[0-9]*== *//'
