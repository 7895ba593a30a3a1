# CI's steps and lanes, sourced by .ci/run (bash 5.1 or later: `wait -n -p`).
#
#   step NAME COMMAND...   runs COMMAND, says when it starts (with the time since the run began)
#                          and records its time for the table printed at the end.
#   lane NAME COMMAND...   runs COMMAND (a function of steps) in the background, its output kept
#                          in a log.
#   await_lanes            waits for every lane started; the first to fail stops the others.
#                          Each lane's log is then shown, in the order the lanes started.
#
# A step must be called as a plain command, never after `if`, `||` or `&&`: there bash would
# ignore `set -e` in the whole of it, and a step that fails half-way would go on.

ci_dir=$(mktemp -d /tmp/fetchsched-ci-steps.XXXXXX)
ci_lane=
declare -A ci_lane_name=()
ci_lane_order=()
exec 3>&2

step() {
  local name=$1 start=$SECONDS rc=0
  shift
  echo "[ci +${SECONDS}s] ${ci_lane:+$ci_lane: }$name" >&3
  # In the background and awaited, so that `set -e` holds within a function run as a step.
  "$@" &
  wait $! || rc=$?
  printf '%6d  %s%s\n' $((SECONDS - start)) "${ci_lane:+$ci_lane: }$name" "$( ((rc == 0)) || echo " (failed: exit $rc)")" \
    >> "$ci_dir/steps"
  return $rc
}

lane() {
  local name=$1
  shift
  ( trap - EXIT; ci_lane=$name; start=$SECONDS; "$@"; printf '%6d  %s (the lane, in all)\n' $((SECONDS - start)) "$name" \
    >> "$ci_dir/steps" ) > "$ci_dir/lane-$name.log" 2>&1 &
  ci_lane_name[$!]=$name
  ci_lane_order+=("$name")
}

# The processes under `pid`, itself first. A step may start a session of its own (within.py, a
# script's server), which a signal to the lane's process group would miss.
tree_of() {
  local child
  echo "$1"
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do tree_of "$child"; done
}

# Stops a lane: SIGTERM to every process under it, then SIGKILL to those left after ten seconds.
stop_lane() {
  local pids
  pids=$(tree_of "$1")
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || return 0
  for _ in $(seq 100); do
    # shellcheck disable=SC2086
    kill -0 $pids 2>/dev/null || return 0
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
}

await_lanes() {
  local failed=0 pid rc name
  while ((${#ci_lane_name[@]})); do
    rc=0 pid=
    wait -n -p pid "${!ci_lane_name[@]}" || rc=$?
    if [[ -z "${pid:-}" ]]; then
      # None of them is a job any more, so their ends are unknown: a failure, never a pass.
      echo "[ci +${SECONDS}s] the lanes ${ci_lane_name[*]} ended unseen (wait: exit $rc)" >&3
      failed=1
      break
    fi
    name=${ci_lane_name[$pid]}
    unset "ci_lane_name[$pid]"
    echo "[ci +${SECONDS}s] lane $name ended (exit $rc)" >&3
    if ((rc != 0)); then
      failed=$rc
      break
    fi
  done
  # After a failure, the others are stopped: a run that failed already need not wait for them.
  for pid in "${!ci_lane_name[@]}"; do
    stop_lane "$pid"
    wait "$pid" 2>/dev/null || true
    echo "[ci +${SECONDS}s] lane ${ci_lane_name[$pid]} stopped" >&3
    unset "ci_lane_name[$pid]"
  done
  for name in "${ci_lane_order[@]}"; do
    echo "==================== lane $name ===================="
    cat "$ci_dir/lane-$name.log"
  done
  ci_lane_order=()
  return $failed
}

# Stops the lanes still running; for the run's EXIT trap.
stop_lanes() {
  local pid
  for pid in "${!ci_lane_name[@]}"; do stop_lane "$pid"; done
}

ci_table() {
  echo "[ci] the steps' times (seconds), slowest first; lanes ran side by side:" >&2
  sort -rn "$ci_dir/steps" >&2 2>/dev/null || true
  echo "[ci] total ${SECONDS}s" >&2
}
