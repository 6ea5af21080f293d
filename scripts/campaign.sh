#!/usr/bin/env bash
# The self-play data campaign (docs/data.md): volte plays games for training, one core, in
# the background, across sessions. The games are numbered; shard K of 60 is games
# 50,000*(K-1)+1 to 50,000*K, written to data/selfplay/othello-l10-s59-KK.vgames. The script
# resumes the first shard that is not full (a killed run loses at most the block of 256
# games it was playing), then goes on to the next. Progress goes to target/campaign.log.
#
# Usage: scripts/campaign.sh [first-shard]      (stop it with: scripts/campaign.sh stop)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = stop ]; then
    # The script first (else it would go on to the next step), then the volte it runs.
    [ -f target/campaign.pid ] && kill "$(cat target/campaign.pid)" 2> /dev/null || true
    pkill -f "target/campaign-volte" || true
    echo "campaign: stopped"
    exit 0
fi
mkdir -p target
# One run at a time: two would append to the same files.
exec 9> target/campaign.lock
if ! flock -n 9; then
    echo "campaign: already running (target/campaign.lock is held)" >&2
    exit 1
fi
cargo build --release --quiet
mkdir -p data/selfplay target
# The games depend on the weights that play them: a generation keeps its weights. The first
# run records them; a later run with other weights stops instead of mixing generations
# (start a new generation: another seed and file prefix).
weights=data/selfplay/othello-l10-s59.weights
sums="$(sha256sum weights/othello.vw weights/othello-solver.vw)"
if [ ! -f "$weights" ]; then
    printf '%s\n' "$sums" > "$weights"
elif [ "$(cat "$weights")" != "$sums" ]; then
    echo "campaign: the weights changed since this generation started ($weights);" \
        "give the new weights a generation of their own" >&2
    exit 1
fi
# A copy of the binary, so that rebuilding volte meanwhile does not touch the running one.
cp target/release/volte target/campaign-volte
echo $$ > target/campaign.pid
shards=60
games=$((shards * 50000))
first="${1:-1}"
for ((k = first; k <= shards; k++)); do
    out=$(printf "data/selfplay/othello-l10-s59-%02d.vgames" "$k")
    echo "$(date -u +%FT%TZ) shard $k/$shards -> $out" >> target/campaign.log
    nice -n 10 target/campaign-volte selfplay --variant othello --games "$games" --shard "$k/$shards" \
        --level 10 --solve-empties 20 --random-plies 10-30 --epsilon 0 --seed 59 --threads 1 \
        --output "$out" >> target/campaign.log 2>&1
done
