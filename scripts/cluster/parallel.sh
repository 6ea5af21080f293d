#!/usr/bin/env bash
# Runs a volte batch job as N shards with GNU parallel over ssh hosts (or this machine
# alone with HOSTS ":"), then merges them into OUTPUT. The hosts need volte on their PATH
# (or $VOLTE) and this working directory on a shared file system. A shard that fails or is
# interrupted is rerun by running the script again: each shard goes on where its output
# ends, and finished shards are not redone.
#
# Usage: scripts/cluster/parallel.sh HOSTS N OUTPUT volte-command args...
#   scripts/cluster/parallel.sh node1,node2,node3 48 solved.obf solve positions.txt --all-moves
#   (HOSTS as GNU parallel's -S takes them: "4/node1,8/node2" gives jobs per host.)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 4 ]; then
    echo "usage: $0 HOSTS N OUTPUT volte-command args..." >&2
    exit 2
fi
hosts="$1"
n="$2"
output="$3"
shift 3
case "$n" in
    '' | *[!0-9]* | 0) echo "parallel: N must be a number above 0, not '$n'" >&2; exit 2 ;;
esac
ext="${output##*.}"
prefix="${output%.*}.shard"
volte="${VOLTE:-volte}"
args=$(printf '%q ' "$@")
dir="$(pwd)"
# shellcheck disable=SC2016
parallel --will-cite --halt now,fail=1 -S "$hosts" --workdir "$dir" \
    "$(printf '%q' "$volte") $args --shard {}/$n --output \$(printf '%s-%04d-of-%04d.%s' $(printf '%q' "$prefix") {} $n $ext)" \
    ::: $(seq 1 "$n")
"$here/merge.sh" "$prefix" "$ext" "$n" "$output"
