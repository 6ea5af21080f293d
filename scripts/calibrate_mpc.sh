#!/usr/bin/env bash
# Refits the Multi-ProbCut parameters: searches positions of WTHOR games at depths 1-12
# without probable cuts and writes src/search/mpc_table.rs for the linear weights, or with
# `network` src/search/mpc_table_network.rs for weights/othello-network.vw (refit it
# whenever the network changes); then rebuild.
# Usage: scripts/calibrate_mpc.sh [network] [extra calibrate-mpc options]
# Data: ../shared/data/wthor (or $VOLTE_DATA/wthor). About 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${VOLTE_DATA:-../shared/data}"
table=(--output src/search/mpc_table.rs)
if [ "${1:-}" = network ]; then
    shift
    table=(--eval-file weights/othello-network.vw --output src/search/mpc_table_network.rs)
fi
cargo build --release --quiet
exec ./target/release/volte calibrate-mpc --wthor "$data/wthor" --positions 2400 --depth 12 \
    --min-empties 16 --max-empties 54 --seed 1889 "${table[@]}" "$@"
