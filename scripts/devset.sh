#!/usr/bin/env bash
# The development sets of evaluation work (docs/data.md): positions from 400 self-play
# games that no training reads (seed 60; the training data is seed 59), every legal move
# scored exactly by volte's solver: dev24.obf at 24 empties (about 10 s a position on one
# core), then dev30.obf at 30 empties (about 10 to 40 minutes a position: a campaign across
# sessions). Solving resumes where a killed run stopped; run it in the background and
# commit data/devset/ when you stop. Progress: target/devset.log.
#
# Usage: scripts/devset.sh [positions]   (default 320; stop it with: scripts/devset.sh stop)
# Then:  volte bench --accuracy data/devset/dev24.obf --depth 15
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = stop ]; then
    # The script first (else it would go on to the next step), then the volte it runs.
    [ -f target/devset.pid ] && kill "$(cat target/devset.pid)" 2> /dev/null || true
    pkill -f "target/devset-volte" || true
    echo "devset: stopped"
    exit 0
fi
count="${1:-320}"
mkdir -p target
# One run at a time: two would append to the same files.
exec 9> target/devset.lock
if ! flock -n 9; then
    echo "devset: already running (target/devset.lock is held)" >&2
    exit 1
fi
cargo build --release --quiet
mkdir -p data/devset target
cp target/release/volte target/devset-volte
echo $$ > target/devset.pid
target/devset-volte selfplay --variant othello --games 400 --level 10 --random-plies 10-30 \
    --solve-empties 20 --epsilon 0 --seed 60 --threads 1 --output data/devset/games.ggf \
    >> target/devset.log 2>&1
for empties in 24 30; do
    nice -n 10 target/devset-volte solve data/devset/games.ggf --empties "$empties" --all-moves \
        --count "$count" --threads 1 --output "data/devset/dev$empties.obf" --progress-secs 600 \
        >> target/devset.log 2>&1
done
