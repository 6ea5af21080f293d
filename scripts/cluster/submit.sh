#!/usr/bin/env bash
# Submits a volte batch job to Slurm as an array of N shards and a merge that runs when all
# of them have succeeded (--dependency=afterok), which writes OUTPUT.
#
# Usage: scripts/cluster/submit.sh N OUTPUT volte-command args...
#   scripts/cluster/submit.sh 64 solved.obf solve positions.txt --all-moves
#   scripts/cluster/submit.sh 100 games.ggf selfplay --games 1000000 --level 10 --random-plies 10-30
#   (OUTPUT ending in .vgames: compact records, one file a shard and no merge; `volte
#   train` reads their folder)
# Extra sbatch options go in $SBATCH_OPTS (e.g. "--partition=long --time=2-0").
# $VOLTE names the binary on the nodes (default: volte on the PATH); the working directory
# must be on a file system every node sees. Prints the two job ids; `--wait` (first
# argument) waits for the merge and fails when it fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
wait=""
if [ "${1:-}" = "--wait" ]; then
    wait="--wait"
    shift
fi
if [ $# -lt 3 ]; then
    echo "usage: $0 [--wait] N OUTPUT volte-command args..." >&2
    exit 2
fi
n="$1"
output="$2"
shift 2
case "$n" in
    '' | *[!0-9]* | 0) echo "submit: N must be a number above 0, not '$n'" >&2; exit 2 ;;
esac
ext="${output##*.}"
prefix="${output%.*}.shard"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array=0-$((n - 1)) \
    --export=ALL,VOLTE="${VOLTE:-volte}" "$here/shard.sbatch" "$prefix" "$ext" "$@")
array="${array%%;*}"
if [ "$ext" = vgames ]; then
    # Compact self-play records are read as a folder (volte train DIR): nothing to merge.
    echo "shards: job $array (array of $n) -> ${prefix}-*-of-$(printf '%04d' "$n").vgames"
    exit 0
fi
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} $wait --dependency=afterok:"$array" \
    --job-name=volte-merge --output=volte-merge-%j.log \
    --wrap="'$here/merge.sh' '$prefix' '$ext' $n '$output'")
echo "shards: job $array (array of $n); merge: job ${merge%%;*} -> $output"
