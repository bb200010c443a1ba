#!/usr/bin/env bash
# Runs `make test`'s stages in order, stops at the first that fails, and prints how long each
# took at the end (the README's timing comes from this table).
#   scripts/test-stages.sh STAGE...   (each STAGE is a make target)
set -uo pipefail
make=${MAKE:-make}
names=() secs=() status=0
for s in "$@"; do
	start=$(date +%s)
	$make --no-print-directory "$s"
	rc=$?
	names+=("$s") secs+=($(( $(date +%s) - start )))
	if [ $rc -ne 0 ]; then status=$rc; echo "make test: stage $s failed (exit $rc)" >&2; break; fi
done
total=0
echo
echo "make test: time per stage"
for i in "${!names[@]}"; do
	printf '  %-14s %4d:%02d\n' "${names[$i]}" $(( secs[$i] / 60 )) $(( secs[$i] % 60 ))
	total=$(( total + secs[$i] ))
done
printf '  %-14s %4d:%02d\n' total $(( total / 60 )) $(( total % 60 ))
exit $status
