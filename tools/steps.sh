#!/usr/bin/env bash
# Runs `make STEP` for each step in turn, stops at the first that fails, and
# prints each step's wall time at the end either way: where `make test`'s
# time goes, on every run.
set -uo pipefail
make_command=${MAKE:-make}
report=()
status=0
for step in "$@"; do
  started=$(date +%s)
  "$make_command" --no-print-directory "$step"
  status=$?
  report+=("$step:$(($(date +%s) - started))")
  if [ "$status" -ne 0 ]; then
    break
  fi
done
echo
echo "make test, each step's wall time:"
total=0
for entry in "${report[@]}"; do
  printf '  %-10s %5d s\n' "${entry%%:*}" "${entry##*:}"
  total=$((total + ${entry##*:}))
done
printf '  %-10s %5d s\n' "all" "$total"
exit "$status"
