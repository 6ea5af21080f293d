#!/usr/bin/env bash
# Reproduces the shipped pattern weights: weights/othello.vw (to play: the human games, then
# generations of self-play games with the weights before) and
# weights/othello-solver.vw (to order the exact solver's moves) from the WTHOR and Logistello
# games, then weights/anti.vw from volte's own self-play games (written to
# target/selfplay-anti.ggf), with the side to move's offset. Rebuild afterwards to embed them.
# `network` fits weights/othello-network.vw, the network evaluation (the default in Othello
# and Reversi 1889), to the human games and the self-play campaign's shards in
# data/selfplay that it names, and moves its output by the side to move's offset that
# searches of 1,500 WTHOR positions measure (docs/evaluation.md); then refit its
# Multi-ProbCut table (`scripts/calibrate_mpc.sh network`).
# Usage: scripts/train.sh [othello|anti|network|all]   (default all: othello and anti)
# Data: ../shared/data (or $VOLTE_DATA). Times on 2 cores are in the README.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${VOLTE_DATA:-../shared/data}"
what="${1:-all}"
cargo build --release --quiet
if [[ "$what" == othello || "$what" == all ]]; then
    # Generation 0: the human games alone (the playing weights of 1177206).
    ./target/release/volte train "$data/wthor" "$data/logistello" \
        --variant othello --relabel-empties 14 --output target/othello-gen0.vw
    # Generation 1: volte at level 8 with the generation-0 weights (the solver's own, shipped
    # ones to order its moves) plays 100,000 games from 12 random plies, perfectly from 14
    # empties; their positions after the random plies (at most 48 empties) join the human
    # games' (about 35 minutes on 2 cores).
    ./target/release/volte selfplay --variant othello --games 100000 --level 8 --random-plies 12 \
        --epsilon 0 --seed 11 --eval-file target/othello-gen0.vw \
        --solver-eval-file weights/othello-solver.vw --output target/selfplay-othello-gen1.ggf
    ./target/release/volte train "$data/wthor" "$data/logistello" \
        --extra target/selfplay-othello-gen1.ggf --extra-max-empties 48 \
        --variant othello --relabel-empties 14 --output weights/othello.vw --exact-check 300 --exact-max-empties 26
    # The solver's ordering weights: the same games (and cached labels), more regularised,
    # and positions off the good players' paths (self-play with many random moves) up to
    # 18 empties, labelled exactly by the solver up to 14.
    ./target/release/volte selfplay --variant othello --games 100000 --level 2 --random-plies 8 \
        --epsilon 0.25 --solve-empties 4 --seed 7 --output target/selfplay-othello-random.ggf
    ./target/release/volte train "$data/wthor" "$data/logistello" \
        --extra target/selfplay-othello-random.ggf --extra-max-empties 18 \
        --variant othello --relabel-empties 14 --ridge 64 --output weights/othello-solver.vw
fi
if [[ "$what" == network ]]; then
    # The human games and the campaign shards named here (every position after each
    # game's random opening; shards are only appended to, and these are complete), so that
    # the weights come from committed data alone: 571,248 self-play games; six passes,
    # about 15 minutes and 5.6 GB on one core.
    campaign=(othello-l10-s59-01 othello-l10-s59-02 othello-l8-s61-01 othello-l8-s61-02
        othello-l8-s61-03 othello-l8-s61-04 othello-l8-s61-05 othello-l8-s61-06
        othello-n8-s63-01 othello-n8-s63-02 othello-n8-s63-03 othello-n8-s63-04)
    extras=()
    for f in "${campaign[@]}"; do extras+=(--extra "data/selfplay/$f.vgames"); done
    ./target/release/volte train "$data/wthor" "$data/logistello" "${extras[@]}" \
        --extra-max-empties 60 --search-weight 0.5 \
        --variant othello --relabel-empties 14 --model network --epochs 6 \
        --output target/othello-network-fit.vw
    # The offset for the side to move: every position searched to depths 1-10 without
    # probable cuts (about 30 s on 2 cores).
    ./target/release/volte calibrate-mpc --wthor "$data/wthor" --positions 1500 --depth 10 \
        --min-empties 10 --max-empties 60 --seed 78 --eval-file target/othello-network-fit.vw \
        --parity-output weights/othello-network.vw
fi
if [[ "$what" == anti || "$what" == all ]]; then
    ./target/release/volte selfplay --variant anti --games 30000 --level 6 --random-plies 10 \
        --epsilon 0.02 --solve-empties 14 --eval classic --output target/selfplay-anti.ggf
    ./target/release/volte train target/selfplay-anti.ggf \
        --variant anti --relabel-empties 14 --ridge 50 --output target/anti-fit.vw
    # The offset for the side to move, as the network's (about 25 s on 2 cores).
    ./target/release/volte calibrate-mpc --wthor "$data/wthor" --variant anti --positions 1500 \
        --depth 10 --min-empties 10 --max-empties 60 --seed 78 --eval-file target/anti-fit.vw \
        --parity-output weights/anti.vw
fi
