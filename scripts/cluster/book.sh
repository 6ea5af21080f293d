#!/usr/bin/env bash
# Searches the leaves of an opening book on Slurm: an array of N tasks, each growing its own
# copy of BASE with `volte book build --shard K/N` (the leaves are dealt to shards by a hash
# of their position; a task started again goes on where its copy was saved), then `volte
# book merge` into OUTPUT once all succeeded: the book `volte book build BASE` gives on one
# machine, byte for byte. BASE holds the positions, e.g. from
#   volte book learn base.vbk games/ --plies 20 --no-search
# Best-first expansion (`build --expand`) depends on every search before it: run it on one
# machine afterwards.
#
# Usage: scripts/cluster/book.sh [--wait] N BASE OUTPUT [build options: --depth D ...]
# $VOLTE and $SBATCH_OPTS as for submit.sh.
set -euo pipefail
wait=""
if [ "${1:-}" = "--wait" ]; then
    wait="--wait"
    shift
fi
if [ $# -lt 3 ]; then
    echo "usage: $0 [--wait] N BASE OUTPUT [build options]" >&2
    exit 2
fi
n="$1"
base="$2"
output="$3"
shift 3
case "$n" in
    '' | *[!0-9]* | 0) echo "book: N must be a number above 0, not '$n'" >&2; exit 2 ;;
esac
[ -f "$base" ] || { echo "book: $base does not exist" >&2; exit 1; }
volte="${VOLTE:-volte}"
prefix="${output%.*}.shard"
opts=$(printf '%q ' "$@")
shard='$(printf "%s-%04d-of-%04d.vbk" '"$(printf '%q' "$prefix")"' $((SLURM_ARRAY_TASK_ID + 1)) '"$n"')'
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array=0-$((n - 1)) --job-name=volte-book \
    --output=volte-book-%A_%a.log \
    --wrap="s=$shard; [ -e \"\$s\" ] || cp $(printf '%q' "$base") \"\$s\"; exec $(printf '%q' "$volte") book build \"\$s\" $opts --shard \$((SLURM_ARRAY_TASK_ID + 1))/$n")
array="${array%%;*}"
parts=""
for ((k = 1; k <= n; k++)); do
    parts="$parts $(printf '%q' "$(printf '%s-%04d-of-%04d.vbk' "$prefix" "$k" "$n")")"
done
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} $wait --dependency=afterok:"$array" \
    --job-name=volte-merge --output=volte-merge-%j.log \
    --wrap="exec $(printf '%q' "$volte") book merge $(printf '%q' "$output")$parts")
echo "book shards: job $array (array of $n); merge: job ${merge%%;*} -> $output"
