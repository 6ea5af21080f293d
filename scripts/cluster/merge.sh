#!/usr/bin/env bash
# Merges the N shard outputs of one volte batch job (PREFIX-K-of-N.EXT, as shard.sbatch and
# parallel.sh write them) into OUTPUT: they are concatenated in order, which gives the file
# one machine writes, byte for byte. Refused, naming the shard, when a shard is missing, did
# not finish, or was written by another run (its PREFIX-K-of-N.EXT.run differs from the
# first shard's other than in the shard); OUTPUT is then not written. OUTPUT.run records
# the run without the shard, as one machine's run records it.
#
# Usage: scripts/cluster/merge.sh PREFIX EXT N OUTPUT
set -euo pipefail
if [ $# -ne 4 ]; then
    echo "usage: $0 PREFIX EXT N OUTPUT" >&2
    exit 2
fi
prefix="$1"
ext="$2"
n="$3"
output="$4"
case "$n" in
    '' | *[!0-9]* | 0) echo "merge: N must be a number above 0, not '$n'" >&2; exit 2 ;;
esac
if [ "$ext" = vgames ]; then
    echo "merge: .vgames shards are not concatenated: volte train reads their folder" >&2
    exit 2
fi
part() { printf '%s-%04d-of-%04d.%s' "$prefix" "$1" "$n" "$ext"; }
# Other shard files of the same prefix (another N) mean shards of different runs.
for f in "$prefix"-*-of-*."$ext"; do
    [ -e "$f" ] || continue
    case "$f" in
        *"-of-$(printf '%04d' "$n").$ext") ;;
        *) echo "merge: $f is a shard of a run split another way than $n shards" >&2; exit 1 ;;
    esac
done
first_run=""
for ((k = 1; k <= n; k++)); do
    f="$(part "$k")"
    if [ ! -f "$f" ] || [ ! -f "$f.run" ]; then
        echo "merge: shard $k/$n is missing ($f)" >&2
        exit 1
    fi
    run="$(head -n 1 "$f.run")"
    case "$run" in
        *" --shard $k/$n"*) ;;
        *) echo "merge: $f is not shard $k/$n (its run: $run)" >&2; exit 1 ;;
    esac
    if ! sed -n 2p "$f.run" | grep -q '^complete '; then
        echo "merge: shard $k/$n has not finished ($f)" >&2
        exit 1
    fi
    rest="${run/ --shard $k\/$n/}"
    if [ -z "$first_run" ]; then
        first_run="$rest"
    elif [ "$rest" != "$first_run" ]; then
        echo "merge: shard $k/$n comes from another run ($run)" >&2
        exit 1
    fi
done
tmp="$output.merging"
: > "$tmp"
for ((k = 1; k <= n; k++)); do
    cat "$(part "$k")" >> "$tmp"
done
mv "$tmp" "$output"
printf '%s\ncomplete %s\n' "$first_run" "$(wc -l < "$output" | tr -d ' ')" > "$output.run"
echo "merge: $n shards -> $output ($(wc -l < "$output") lines)"
