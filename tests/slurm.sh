#!/usr/bin/env bash
# A real one-node Slurm for the cluster tests (tests/test_slurm.py): a "login node" without an
# NVIDIA driver (this machine, outside) and a "GPU node" (slurmd and so every job step, inside a
# private mount namespace that shows a driver: /proc/driver/nvidia/version and a loader cache
# holding the test's stand-in libcuda.so.1, whose cuInit returns 0). Only the driver is faked;
# Slurm, munge, the loader and the toolkits are real. Recipe: ../shared/reference/slurm.md.
#
#   bash tests/slurm.sh          # set-up only (tests/run.sh): packages, munge key, stand-in driver,
#                                #   loader cache, slurm.conf in the test bed; starts nothing
#   bash tests/slurm.sh start    # set-up, then munged + slurmctld + slurmd; running ones are reused
#                                #   (restarted when their config or namespace is not this bed's)
#   bash tests/slurm.sh stop     # stop the daemons this bed started (by their pid files)
#   bash tests/slurm.sh status   # exit 0 when the cluster answers and the node is usable
#
# The tests start the daemons in a session fixture and stop them at its end, so nothing runs
# after the suite. Everything lives in ${CUDAENV_TESTBED:-~/.cache/cudaenv-testbed}/slurm;
# clients find the cluster through SLURM_CONF=<that>/slurm.conf (nothing written to /etc/slurm).
# Cold: ~20 s (apt); warm set-up: < 0.2 s; start: ~2-5 s.
set -euo pipefail

BED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/slurm
CONF=$BED/slurm.conf
export SLURM_CONF=$CONF
here=$(cd "$(dirname "$0")" && pwd)
action=${1:-setup}

say() { echo "slurm.sh: $*" >&2; }

setup() {
    if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null \
        || ! command -v srun >/dev/null || ! command -v gcc >/dev/null || ! command -v unshare >/dev/null; then
        say "installing slurm-wlm and munge"
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -qq --no-install-recommends slurm-wlm munge gcc libc6-dev util-linux >/dev/null \
            || { apt-get update -qq && apt-get install -y -qq --no-install-recommends slurm-wlm munge gcc libc6-dev util-linux >/dev/null; }
    fi
    # The package writes the key; make one if a previous install or image lost it.
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
        chown munge:munge /etc/munge/munge.key 2>/dev/null || true
        chmod 400 /etc/munge/munge.key
    fi
    mkdir -p "$BED/driver" "$BED/state" "$BED/spool" "$BED/log"

    # The test's STAND-IN for the NVIDIA driver's libcuda.so.1: only cuInit, returning 0
    # (CUDA_SUCCESS). The toolkit's stub answers 34 (CUDA_ERROR_STUB_LIBRARY) instead.
    local src=$BED/driver/cudaenv-testbed-standin-libcuda.c
    local new=$src.new
    cat > "$new" <<'C'
/* cudaenv test bed: STAND-IN for the NVIDIA driver's libcuda.so.1 (not a driver). */
int cudaenv_testbed_standin_driver = 1;
int cuInit(unsigned int flags) { (void)flags; return 0; }
int cuDriverGetVersion(int *v) { if (v) *v = 13000; return 0; }
C
    if ! cmp -s "$new" "$src" || [ ! -e "$BED/driver/libcuda.so.1" ]; then
        mv "$new" "$src"
        gcc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$BED/driver/libcuda.so.1.part" "$src"
        mv "$BED/driver/libcuda.so.1.part" "$BED/driver/libcuda.so.1"
        rm -f "$BED/ld.so.cache"
    else
        rm -f "$new"
    fi
    # The GPU node's loader cache: the system's directories plus the stand-in driver's.
    printf 'include /etc/ld.so.conf.d/*.conf\n%s\n' "$BED/driver" > "$BED/ld.so.conf"
    if [ ! -s "$BED/ld.so.cache" ] || [ /etc/ld.so.cache -nt "$BED/ld.so.cache" ]; then
        ldconfig -X -C "$BED/ld.so.cache.part" -f "$BED/ld.so.conf"
        mv "$BED/ld.so.cache.part" "$BED/ld.so.cache"
    fi
    # The kernel module's version file of a real install (580.159.04).
    cp "$here/fixtures/nvidia/proc/proprietary-580.159.04.version" "$BED/driver/version"

    # The site's TaskProlog, as an admin installs it (docs/clusters.md): before each task, a switch
    # the job inherited from another node (cudaenv use on the login node, --export=ALL) is planned
    # again for the task's node and allocation; Slurm applies the export/unset lines it prints.
    # Cheap for every other job (no cudaenv state: no process), and it never fails a task.
    cat > "$BED/task-prolog.new" <<'SH'
#!/bin/sh
# cudaenv test bed: Slurm TaskProlog (docs/clusters.md, "Build settings and the node's own values").
[ -n "${_CUDAENV_STATE-}" ] || exit 0
# Tests of a site that has no such prolog set this in the job's environment (not a site's line).
[ -z "${CUDAENV_TESTBED_NO_SITE_PROLOG-}" ] || exit 0
command -v cudaenv >/dev/null 2>&1 || exit 0
cudaenv slurm task-prolog || true
SH
    chmod 755 "$BED/task-prolog.new"
    if cmp -s "$BED/task-prolog.new" "$BED/task-prolog"; then rm -f "$BED/task-prolog.new"; else mv "$BED/task-prolog.new" "$BED/task-prolog"; fi

    local host cpus mem port
    host=$(hostname -s)
    # Ports of this bed's own (Slurm's defaults, 6817/6818, belong to a site's cluster): two beds on
    # one machine (two checkouts, a CI rehearsal beside a developer's bed) must not answer for
    # each other, so the pair is derived from the bed's path.
    port=$(( 20000 + ($(printf '%s' "$BED" | cksum | cut -d' ' -f1) % 5000) * 2 ))
    cpus=$(nproc --all)
    mem=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
    cat > "$CONF.new" <<EOF
# Written by tests/slurm.sh: the cudaenv test bed's one-node cluster (node "$host" = the GPU node).
ClusterName=cudaenv-testbed
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
# task/affinity binds each task to its allocated cores with sched_setaffinity (no cgroups).
TaskPlugin=task/affinity
TaskProlog=$BED/task-prolog
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$BED/state
SlurmdSpoolDir=$BED/spool
SlurmctldPidFile=$BED/slurmctld.pid
SlurmdPidFile=$BED/slurmd.pid
SlurmctldLogFile=$BED/log/slurmctld.log
SlurmdLogFile=$BED/log/slurmd.log
ReturnToService=2
InactiveLimit=0
KillWait=5
# sbatch --wait sleeps 2 s, then 8, 32... while the sleep is below MinJobAge/2: with 5 it polls
# every 2 s (a job here ends in well under a second; its record lives 5 s, over two polls).
MinJobAge=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    if cmp -s "$CONF.new" "$CONF"; then rm -f "$CONF.new"; else mv "$CONF.new" "$CONF"; fi
}

# Our daemons are found by pid file, or, should a pid file be lost, by a command line naming
# this bed's slurm.conf (never by name alone: another cluster's daemons are not ours).
ours() {  # ours COMM: pids of COMM whose arguments name $CONF
    local d
    for d in /proc/[0-9]*; do
        [ "$(cat "$d/comm" 2>/dev/null)" = "$1" ] || continue
        tr '\0' '\n' < "$d/cmdline" 2>/dev/null | grep -qxF "$CONF" && echo "${d#/proc/}"
    done
    return 0
}

alive() {  # alive PIDFILE COMM: the pid in PIDFILE runs COMM
    local pid
    pid=$(cat "$1" 2>/dev/null) || return 1
    [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}

stop_one() {  # stop_one PIDFILE COMM [by-conf]: TERM, up to 10 s, then KILL
    local pids pid i left
    pids=$(cat "$1" 2>/dev/null || true)
    alive "$1" "$2" || pids=
    if [ "${3:-}" = by-conf ]; then pids="$pids $(ours "$2")"; fi
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
    for i in $(seq 100); do
        left=
        for pid in $pids; do [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && left="$left $pid"; done
        [ -z "$left" ] && break
        sleep 0.1
    done
    for pid in $left; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -f "$1"
}

node_state() { sinfo -h -n "$(hostname -s)" -o %t 2>/dev/null | head -1; }

# slurmd of this bed, in the GPU node's namespace and started with the current slurm.conf.
slurmd_current() {
    alive "$BED/slurmd.pid" slurmd || return 1
    local pid
    pid=$(cat "$BED/slurmd.pid")
    [ -e "/proc/$pid/root/proc/driver/nvidia/version" ] && [ ! "$CONF" -nt "$BED/slurmd.pid" ]
}

start() {
    setup
    if [ ! -d /proc/driver ]; then
        say "no /proc/driver on this machine: cannot show a driver to the GPU node"; exit 3
    fi
    if ! unshare -m --propagation private true 2>/dev/null; then
        say "no private mount namespace here (unshare -m refused): cannot make the GPU node"; exit 3
    fi
    # munge: reuse a working daemon (ours or the system's), else start one and remember it.
    if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
        mkdir -p /run/munge /var/log/munge /var/lib/munge
        chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
        rm -f /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock
        runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid 9>&-  # not holding our lock
        echo /run/munge/munged.pid > "$BED/munged.ours"
        local i
        for i in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
        munge -n | unmunge >/dev/null || { say "munged does not answer"; exit 1; }
    fi
    # slurmctld: restarted when the config changed since it started.
    if alive "$BED/slurmctld.pid" slurmctld && [ ! "$CONF" -nt "$BED/slurmctld.pid" ] \
        && scontrol ping 2>/dev/null | grep -q UP; then
        :
    else
        stop_one "$BED/slurmctld.pid" slurmctld by-conf
        slurmctld -c -f "$CONF" 9>&-
        local i
        for i in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.1; done
        scontrol ping 2>/dev/null | grep -q UP || { say "slurmctld does not answer (log: $BED/log/slurmctld.log)"; exit 1; }
    fi
    # slurmd: the GPU node. Its private mount namespace shows the driver to it and its job steps.
    if ! slurmd_current; then
        stop_one "$BED/slurmd.pid" slurmd by-conf
        unshare -m --propagation private sh -ec '
            mount -t tmpfs -o mode=0755,size=1m cudaenv-testbed-driver /proc/driver
            mkdir /proc/driver/nvidia
            cp "$1/driver/version" /proc/driver/nvidia/version
            mount --bind "$1/ld.so.cache" /etc/ld.so.cache
            exec slurmd -f "$2"' sh "$BED" "$CONF" 9>&-
    fi
    local i st=
    for i in $(seq 150); do
        st=$(node_state)
        case "$st" in
            idle|mix|alloc) break ;;
            drain*|down*) scontrol update nodename="$(hostname -s)" state=resume 2>/dev/null || true ;;
        esac
        sleep 0.2
    done
    case "$st" in idle|mix|alloc) ;; *) say "node not usable (state '$st'; log: $BED/log/slurmd.log)"; exit 1 ;; esac
}

stop() {
    # Each takes ~2 s to shut down: stop both at once, munged (which they use) after them.
    stop_one "$BED/slurmd.pid" slurmd by-conf &
    stop_one "$BED/slurmctld.pid" slurmctld by-conf &
    wait
    if [ -e "$BED/munged.ours" ]; then
        stop_one "$(cat "$BED/munged.ours")" munged
        rm -f "$BED/munged.ours"
    fi
}

# One set-up, start or stop at a time (the tests and bench/bench_slurm.py may overlap).
mkdir -p "$BED"
exec 9>"$BED/.lock"
flock 9

case "$action" in
    setup) setup ;;
    start) start ;;
    stop) stop ;;
    status) slurmd_current && scontrol ping 2>/dev/null | grep -q UP && case "$(node_state)" in idle|mix|alloc) ;; *) exit 1 ;; esac ;;
    *) say "usage: bash tests/slurm.sh [setup|start|stop|status]"; exit 2 ;;
esac
