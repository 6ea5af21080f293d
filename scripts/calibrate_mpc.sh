#!/usr/bin/env bash
# Refits the Multi-ProbCut parameters: searches positions of WTHOR games at depths 1-12
# without probable cuts and writes src/search/mpc_table.rs (then rebuild).
# Usage: scripts/calibrate_mpc.sh [extra calibrate-mpc options]
# Data: ../shared/data/wthor (or $VOLTE_DATA/wthor). About 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${VOLTE_DATA:-../shared/data}"
cargo build --release --quiet
exec ./target/release/volte calibrate-mpc --wthor "$data/wthor" --positions 2400 --depth 12 \
    --output src/search/mpc_table.rs "$@"
