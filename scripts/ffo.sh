#!/usr/bin/env bash
# The FFO 40-59 endgame benchmark: solves the 20 classic positions (20-34 empties) exactly
# and prints one row each and a total. Usage: scripts/ffo.sh [THREADS] [extra solve options]
# Data: ../shared/data/ffo (or $VOLTE_DATA/ffo).
set -euo pipefail
cd "$(dirname "$0")/.."
threads="${1:-2}"
shift || true
data="${VOLTE_DATA:-../shared/data}"
cargo build --release --quiet
exec ./target/release/volte solve "$data/ffo/fforum-40-59.obf" --threads "$threads" --hash-mb 1024 "$@"
