#!/usr/bin/env bash
# Runs every fuzz target of the module (every `func FuzzX(f *testing.F)` in a
# _test.go file) for SECS seconds, one after another:
#
#   bash scripts/fuzz.sh [SECS]     # default 5
#
# A target that finds a failure leaves the input under
# <package>/testdata/fuzz/<Target>/; commit it, so `go test` replays it as a
# regression test from then on. Exits non-zero when any target failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
SECS="${1:-5}"

failed=()
count=0
while IFS= read -r file; do
	pkg="./$(dirname "${file#./}")"
	for target in $(sed -nE 's/^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\).*/\1/p' "$file"); do
		count=$((count + 1))
		echo "== $pkg $target (${SECS}s)"
		# No minimizing: a failing input is written at once. (Minimizing one when
		# the time ran out showed only "context deadline exceeded" and kept
		# nothing, which hid a real failure.)
		out=$(go test -run=NONE -fuzz="^${target}\$" -fuzztime="${SECS}s" -fuzzminimizetime=0x "$pkg" 2>&1)
		rc=$?
		echo "$out"
		# The engine sometimes stops with "context deadline exceeded" when the
		# time runs out mid-input, writing nothing: no failure was found (one
		# found is written at once). That run is tried once more.
		if [ $rc -ne 0 ] && grep -q "context deadline exceeded" <<<"$out" && ! grep -q "Failing input written" <<<"$out"; then
			echo "== $pkg $target stopped at its deadline without a failing input; once more"
			go test -run=NONE -fuzz="^${target}\$" -fuzztime="${SECS}s" -fuzzminimizetime=0x "$pkg"
			rc=$?
		fi
		if [ $rc -ne 0 ]; then
			failed+=("$pkg $target")
		fi
	done
done < <(find . -name '*_test.go' -not -path './.git/*' | sort)

echo "== $count fuzz targets, ${#failed[@]} failed"
for f in "${failed[@]}"; do
	echo "FAIL: $f"
done
[ "${#failed[@]}" -eq 0 ]
