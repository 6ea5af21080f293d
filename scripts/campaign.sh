#!/usr/bin/env bash
# The self-play data campaign (docs/data.md): volte plays games for training, one core, in
# the background, across sessions. Six generations of games, each numbered and cut into
# shards of SIZE games (shard K holds games SIZE*(K-1)+1 to SIZE*K; SIZE is 50,000 but in
# generation 6):
#   1: level 10, perfect from 20 empties, seed 59, the linear weights:
#      data/selfplay/othello-l10-s59-KK.vgames (60 shards; about 0.25 s a game, most of it
#      solving the 20 empties); stopped in shard 02;
#   2: level 8, perfect from 14 empties, seed 61, the linear weights:
#      data/selfplay/othello-l8-s61-KK.vgames (40 shards; about 0.03 s a game); stopped after
#      shard 06 when the network became the default;
#   3: level 8, perfect from 14 empties, seed 63, the 16-lane network:
#      data/selfplay/othello-n8-s63-KK.vgames (40 shards); stopped in shard 10 when the
#      32-lane network became the default;
#   4: level 8, perfect from 14 empties, seed 65, the 32-lane network:
#      data/selfplay/othello-n8-s65-KK.vgames (40 shards); stopped in shard 09 when the
#      network took its offset for the side to move;
#   5: level 8, perfect from 14 empties, seed 67, the network with that offset:
#      data/selfplay/othello-n8-s67-KK.vgames (40 shards); stopped in shard 04 when more
#      level-8 games had stopped helping (docs/data.md);
#   6: depth 12 (at a level's 95%), perfect from 20 empties, seed 69, the same network
#      (the default): data/selfplay/othello-n12-s69-KK.vgames (100 shards of 10,000 games:
#      about 0.45 s a game, so a shard is about 75 minutes), the default generation. (Level
#      12 would solve from 22-24 empties itself: three times the time a game.)
# All open with 10 to 30 random plies. The script resumes the first shard of the
# generation that is not full (a killed run loses at most the block of 256 games it was
# playing), then goes on to the next. Progress goes to target/campaign.log.
#
# Usage: scripts/campaign.sh [generation] [first-shard]   (stop it: scripts/campaign.sh stop)
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
generation="${1:-6}"
case "$generation" in
    1) prefix=othello-l10-s59 level=10 solve=20 seed=59 shards=60 eval=linear ;;
    2) prefix=othello-l8-s61 level=8 solve=14 seed=61 shards=40 eval=linear ;;
    3) prefix=othello-n8-s63 level=8 solve=14 seed=63 shards=40 eval=pattern ;;
    4) prefix=othello-n8-s65 level=8 solve=14 seed=65 shards=40 eval=pattern ;;
    5) prefix=othello-n8-s67 level=8 solve=14 seed=67 shards=40 eval=pattern ;;
    6) prefix=othello-n12-s69 depth=12 solve=20 seed=69 shards=100 size=10000 eval=pattern ;;
    *)
        echo "campaign: unknown generation '$generation' (1 to 6)" >&2
        exit 1
        ;;
esac
cargo build --release --quiet
mkdir -p data/selfplay target
# The games depend on the weights that play them: a generation keeps its weights. The first
# run records them; a later run with other weights stops instead of mixing generations
# (start a new generation: another seed and file prefix).
weights="data/selfplay/$prefix.weights"
# (generations 1-2: the linear weights and the solver's; 3-6: the network as well)
files=(weights/othello.vw weights/othello-solver.vw)
[ "$eval" = pattern ] && files+=(weights/othello-network.vw)
sums="$(sha256sum "${files[@]}")"
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
games=$((shards * ${size:-50000}))
# A level, or a midgame depth with no endgame solve before --solve-empties.
if [ -n "${depth:-}" ]; then strength=(--depth "$depth"); else strength=(--level "$level"); fi
first="${2:-1}"
for ((k = first; k <= shards; k++)); do
    out=$(printf "data/selfplay/%s-%02d.vgames" "$prefix" "$k")
    echo "$(date -u +%FT%TZ) generation $generation, shard $k/$shards -> $out" >> target/campaign.log
    nice -n 10 target/campaign-volte selfplay --variant othello --games "$games" --shard "$k/$shards" \
        "${strength[@]}" --solve-empties "$solve" --random-plies 10-30 --epsilon 0 --seed "$seed" \
        --eval "$eval" --threads 1 --output "$out" >> target/campaign.log 2>&1
done
