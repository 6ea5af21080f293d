#!/usr/bin/env bash
# The development set of evaluation work (docs/data.md): positions with 30 empties from 400
# self-play games that no training reads (seed 60; the training data is seed 59), every
# legal move scored exactly by volte's solver. Solving them is long (minutes a position
# on one core), so the script resumes where a killed run stopped; run it in the background
# and commit data/devset/ when you stop. Progress: target/devset.log.
#
# Usage: scripts/devset.sh [positions]   (default 320)
# Then:  volte bench --accuracy data/devset/dev30.obf --depth 15
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-320}"
cargo build --release --quiet
mkdir -p data/devset target
cp target/release/volte target/devset-volte
echo $$ > target/devset.pid
target/devset-volte selfplay --variant othello --games 400 --level 10 --random-plies 10-30 \
    --solve-empties 20 --epsilon 0 --seed 60 --threads 1 --output data/devset/games.ggf \
    >> target/devset.log 2>&1
nice -n 10 target/devset-volte solve data/devset/games.ggf --empties 30 --all-moves \
    --count "$count" --threads 1 --output data/devset/dev30.obf --progress-secs 600 \
    >> target/devset.log 2>&1
