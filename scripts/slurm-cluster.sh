#!/usr/bin/env bash
# A throwaway one-node Slurm cluster on this machine, for CI and for trying deploy/slurm/.
#
#   scripts/slurm-cluster.sh start DIR    # prints: export SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-cluster.sh stop DIR
#
# Uses Debian's packages (apt-get install slurm-wlm munge). Everything lives in DIR: the
# configuration, a fresh munge key, the daemons' state, logs, sockets and pid files; nothing
# in /etc is read or changed. munged runs as the `munge` user and slurmctld as `slurm` (the
# users the packages create) when started by root; slurmd stays root, as it must to start
# jobs as their users. Run by another user, all three run as that user. Each daemon runs in
# the foreground in a process group of its own; `stop` ends the groups (and waits, bounded).
# The daemons listen on 127.0.0.1 only, on ports 56817 and 56818.
set -euo pipefail

cmd=${1:-}; dir=${2:-}
[[ -n "$cmd" && -n "$dir" ]] || { sed -n '2,5p' "$0" >&2; exit 2; }

stop_group() {
  local pidfile=$1
  [[ -f "$pidfile" ]] || return 0
  local pid; pid=$(cat "$pidfile")
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$pidfile"
}

case "$cmd" in
  start)
    for bin in munged slurmctld slurmd sinfo; do
      command -v "$bin" >/dev/null || { echo "slurm-cluster: no $bin (apt-get install slurm-wlm munge)" >&2; exit 1; }
    done
    # slurm.conf holds the folder's paths unquoted: a path it cannot hold is refused before anything is made.
    if [[ "$dir" =~ [[:space:][:cntrl:]\"\'#=\\] ]]; then
      echo "slurm-cluster: DIR '$dir' has a blank, a quote, '#', '=' or a backslash, which slurm.conf cannot hold in a path" >&2
      exit 2
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    mkdir -p "$dir/munge" "$dir/socket" "$dir/state" "$dir/spool" "$dir/log" "$dir/run"
    host=$(hostname -s)
    if [[ $(id -u) -eq 0 ]]; then
      munge_user=munge; slurm_user=slurm
    else
      munge_user=$(id -un); slurm_user=$(id -un)
    fi
    as() { local u=$1; shift; if [[ $(id -un) == "$u" ]]; then "$@"; else runuser -u "$u" -- "$@"; fi; }
    # munged wants its socket's directory open to all, its key's closed to all but itself.
    chmod 755 "$dir" "$dir/log" "$dir/run" "$dir/socket"
    [[ $(id -u) -eq 0 ]] && chown "$munge_user": "$dir/munge" "$dir/socket" && chown "$slurm_user": "$dir/state" "$dir/log"
    chmod 700 "$dir/munge"
    if [[ ! -f "$dir/munge/munge.key" ]]; then
      as "$munge_user" dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
      chmod 400 "$dir/munge/munge.key"
    fi
    cat > "$dir/slurm.conf" <<EOF
ClusterName=fetchsched
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=56817
SlurmdPort=56818
SlurmUser=$slurm_user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/socket/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    chmod 644 "$dir/slurm.conf"
    export SLURM_CONF="$dir/slurm.conf"
    # Each daemon in the foreground, in a session and process group of its own: setsid runs
    # in place (a background child of a script leads no group), so $! is the group's id.
    as_user=(); [[ $(id -u) -eq 0 ]] && as_user=(runuser -u "$munge_user" --)
    setsid "${as_user[@]}" munged -F --key-file="$dir/munge/munge.key" --socket="$dir/socket/munge.socket" \
      --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
      </dev/null >/dev/null 2>>"$dir/log/munged.out" &
    echo $! > "$dir/run/munged.group"
    for _ in $(seq 1 100); do [[ -S "$dir/socket/munge.socket" ]] && break; sleep 0.1; done
    if [[ ! -S "$dir/socket/munge.socket" ]]; then
      echo "slurm-cluster: munged did not start" >&2
      cat "$dir/log/munged.out" "$dir/munge/munged.log" >&2 2>/dev/null || true
      "$0" stop "$dir"; exit 1
    fi
    setsid slurmctld -D -f "$SLURM_CONF" </dev/null >/dev/null 2>>"$dir/log/slurmctld.out" &
    echo $! > "$dir/run/slurmctld.group"
    setsid slurmd -D -f "$SLURM_CONF" </dev/null >/dev/null 2>>"$dir/log/slurmd.out" &
    echo $! > "$dir/run/slurmd.group"
    # Up when the node is idle: at most 60 s.
    for _ in $(seq 1 120); do
      state=$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)
      [[ "$state" == idle ]] && break
      sleep 0.5
    done
    if [[ "${state:-}" != idle ]]; then
      echo "slurm-cluster: the node is not idle after 60 s (state '${state:-none}')" >&2
      tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/log/"*.out >&2 2>/dev/null || true
      "$0" stop "$dir"
      exit 1
    fi
    # Quoted for the shell that evals it: the folder's name is never run as code.
    printf 'export SLURM_CONF=%q\n' "$dir/slurm.conf"
    ;;
  stop)
    dir=$(cd "$dir" 2>/dev/null && pwd) || exit 0
    for d in slurmd slurmctld munged; do stop_group "$dir/run/$d.group"; done
    ;;
  *)
    sed -n '2,5p' "$0" >&2; exit 2
    ;;
esac
