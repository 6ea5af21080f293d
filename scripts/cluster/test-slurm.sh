#!/usr/bin/env bash
# Tests the cluster scripts on a real Slurm: starts a single-node cluster on this machine
# (munged, slurmctld and slurmd on localhost, from Debian's slurm-wlm and munge packages,
# installed when missing; a configuration and key of its own in a scratch folder, ports
# 16817-16818), submits a 4-task array of a small solve and of a small selfplay through
# submit.sh, and of a small book's leaves through book.sh, waits for the merges, and
# compares them byte for byte with one machine's outputs; then a solve through parallel.sh
# on this machine, and over ssh to an sshd of its own on 127.0.0.1:16822. The daemons it started are
# stopped however it ends. Needs root (to install packages and run slurmd).
#
# Usage: scripts/cluster/test-slurm.sh      (.ci/run runs it)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if [ "$(id -u)" != 0 ]; then
    echo "test-slurm: needs root (installs slurm-wlm and munge, runs slurmd)" >&2
    exit 1
fi
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null \
    || ! command -v parallel > /dev/null || [ ! -x /usr/sbin/sshd ]; then
    echo "test-slurm: installing slurm-wlm, munge, parallel and openssh-server"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || true
    apt-get install -y -qq slurm-wlm munge parallel openssh-server openssh-client > /dev/null
fi
cargo build --release --quiet
volte="$root/target/release/volte"
work="$(mktemp -d /tmp/volte-slurm.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
    local status=$?
    for f in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munged.pid" "$work/sshd.pid"; do
        [ -f "$f" ] && kill "$(cat "$f")" 2> /dev/null || true
    done
    for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
    sleep 1
    for f in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munged.pid" "$work/sshd.pid"; do
        [ -f "$f" ] && kill -9 "$(cat "$f")" 2> /dev/null || true
    done
    if [ "$status" != 0 ]; then
        echo "test-slurm: FAILED; logs:" >&2
        for log in "$work"/*.log; do
            [ -f "$log" ] && { echo "== $log" >&2; tail -n 30 "$log" >&2; }
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT INT TERM

# munge with a key and socket of its own.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/munge.sock" \
    --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munged.seed"
host="$(hostname -s)"
cpus="$(nproc)"
mem="$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)"
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" << CONF
ClusterName=voltetest
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmdSpoolDir=$work/spool
StateSaveLocation=$work/state
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SchedulerType=sched/backfill
SchedulerParameters=kill_invalid_depend
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld
slurmd
for _ in $(seq 60); do
    state="$(sinfo -h -o %T 2> /dev/null || true)"
    [ "$state" = idle ] && break
    sleep 1
done
if [ "$state" != idle ]; then
    echo "test-slurm: the node did not come up (state '$state')" >&2
    exit 1
fi
echo "test-slurm: single-node Slurm up ($host, $cpus CPUs)"

cd "$work"
export VOLTE="$volte"
export SBATCH_OPTS="--chdir=$work"
"$volte" selfplay --games 12 --level 3 --random-plies 10-20 --solve-empties 10 --threads 1 \
    --seed 5 --output "$work/positions.ggf" > /dev/null 2>&1
solve=(solve "$work/positions.ggf" --empties 14 --all-moves --progress-secs 0)
selfplay=(selfplay --games 10 --level 3 --random-plies 8-12 --solve-empties 10 --threads 1)
"$volte" "${solve[@]}" --output "$work/solve-one.obf" > /dev/null
"$volte" "${selfplay[@]}" --output "$work/selfplay-one.ggf" > /dev/null 2>&1

compare() {
    if ! cmp "$1" "$2"; then
        echo "test-slurm: $1 differs from one machine's $2" >&2
        exit 1
    fi
    echo "test-slurm: $1 is one machine's output, byte for byte ($(wc -c < "$1") bytes)"
}
timeout 600 "$root/scripts/cluster/submit.sh" --wait 4 "$work/solve-slurm.obf" "${solve[@]}"
compare "$work/solve-slurm.obf" "$work/solve-one.obf"
timeout 600 "$root/scripts/cluster/submit.sh" --wait 4 "$work/selfplay-slurm.ggf" "${selfplay[@]}"
compare "$work/selfplay-slurm.ggf" "$work/selfplay-one.ggf"
ls "$work"/volte-shard-*.log > /dev/null
# A book: positions learnt on one machine, leaves searched by a 4-task array, merged.
head -n 40 "$root/openings/volte-8ply.txt" | grep -v '^#' | cut -d' ' -f1 > "$work/lines.txt"
book=(--depth 6 --solve-from 12 --threads 1)
"$volte" book learn "$work/book-one.vbk" "$work/lines.txt" --plies 8 "${book[@]}" > /dev/null 2>&1
"$volte" book learn "$work/book-base.vbk" "$work/lines.txt" --plies 8 --no-search "${book[@]}" > /dev/null 2>&1
timeout 600 "$root/scripts/cluster/book.sh" --wait 4 "$work/book-base.vbk" "$work/book-slurm.vbk" "${book[@]}"
compare "$work/book-slurm.vbk" "$work/book-one.vbk"
# The same with GNU parallel, on this machine alone.
timeout 600 "$root/scripts/cluster/parallel.sh" : 4 "$work/solve-parallel.obf" "${solve[@]}" > /dev/null 2>&1
compare "$work/solve-parallel.obf" "$work/solve-one.obf"
# And over ssh: an sshd of its own on 127.0.0.1:16822 (its own host key, a key to log in
# with), GNU parallel logging in to it as to a remote host, two jobs at a time.
mkdir -p /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh-host"
ssh-keygen -q -t ed25519 -N '' -f "$work/ssh-id"
cp "$work/ssh-id.pub" "$work/authorized_keys"
/usr/sbin/sshd -f /dev/null -o Port=16822 -o ListenAddress=127.0.0.1 \
    -o HostKey="$work/ssh-host" -o AuthorizedKeysFile="$work/authorized_keys" \
    -o PidFile="$work/sshd.pid" -o StrictModes=no -o PermitRootLogin=prohibit-password \
    -o PasswordAuthentication=no -o UsePAM=no -E "$work/sshd.log"
export PARALLEL_SSH="ssh -i $work/ssh-id -p 16822 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
timeout 600 "$root/scripts/cluster/parallel.sh" "2/$(id -un)@127.0.0.1" 4 "$work/solve-ssh.obf" "${solve[@]}" > /dev/null 2>&1
compare "$work/solve-ssh.obf" "$work/solve-one.obf"
grep -q "Accepted publickey" "$work/sshd.log"
# A merge with a shard missing is refused and writes nothing.
rm "$work"/solve-slurm.shard-0003-of-0004.obf
if "$root/scripts/cluster/merge.sh" "$work/solve-slurm.shard" obf 4 "$work/bad.obf" 2> "$work/merge.err"; then
    echo "test-slurm: a merge with a shard missing was not refused" >&2
    exit 1
fi
grep -q "shard 3/4 is missing" "$work/merge.err"
[ ! -e "$work/bad.obf" ]
echo "test-slurm: passed"
