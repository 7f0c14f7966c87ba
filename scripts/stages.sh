# Sourced by the scripts: `stage NAME COMMAND...` runs COMMAND under a
# "== NAME ==" heading and records its wall time; `stage_summary` prints one
# line per stage and the total. A failing stage stops the script (set -e).
LK_STAGES=()
LK_STAGES_START=$SECONDS

stage() {
  local name="$1" start=$SECONDS
  shift
  printf '\n== %s ==\n' "$name"
  "$@"
  LK_STAGES+=("$(printf '%6d s  %s' "$((SECONDS - start))" "$name")")
}

stage_summary() {
  printf '\n== time per stage (%s, load %s) ==\n' "$1" "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%s\n' "${LK_STAGES[@]}"
  printf '%6d s  total\n' "$((SECONDS - LK_STAGES_START))"
}
