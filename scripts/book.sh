#!/usr/bin/env bash
# Builds the shipped opening book, book/othello.vbk, with volte's own searches:
#   1. every position of the XOT openings (all 8 plies of each of the 10,784 lines);
#   2. every position of the first 10 plies of the WTHOR games reached by >= 3 of them;
#   3. best-first expansion of the most promising lines (EXPAND positions).
# Each leaf is searched DEPTH plies deep (default 20, 19 at odd plies; exact from 24 empties).
# Resumable: the book is saved after every batch of searches; rerun to go on. The book is
# written to target/book/othello.vbk and copied to book/ at the end; rebuild to embed it.
# Usage: scripts/book.sh            (env: DEPTH, EXPAND, MARGIN, THREADS, VOLTE_DATA, VOLTE)
set -euo pipefail
cd "$(dirname "$0")/.."
data="${VOLTE_DATA:-../shared/data}"
depth="${DEPTH:-20}"
expand="${EXPAND:-2000}"
margin="${MARGIN:-4}"
threads="${THREADS:-$(nproc)}"
if [[ -z "${VOLTE:-}" ]]; then
    cargo build --release --quiet
    VOLTE=./target/release/volte
fi
out=target/book/othello.vbk
mkdir -p target/book
"$VOLTE" book learn "$out" "$data/openings/xot-large.txt" --plies 8 \
    --depth "$depth" --threads "$threads"
"$VOLTE" book learn "$out" "$data/wthor" --plies 10 --min-games 3 \
    --depth "$depth" --threads "$threads"
"$VOLTE" book build "$out" --expand "$expand" --margin "$margin" --max-ply 30 \
    --depth "$depth" --threads "$threads"
"$VOLTE" book stats "$out"
cp "$out" book/othello.vbk
echo "book/othello.vbk written; rebuild (cargo build --release) to embed it"
