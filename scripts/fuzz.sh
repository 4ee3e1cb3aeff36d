#!/usr/bin/env bash
# Runs every fuzz target of the module, one after another, for FUZZTIME each (default 60s),
# and prints a summary: the target, its package, pass or fail, the executions and their rate.
# Exits non-zero when any target failed. `make fuzz` runs it under cmd/withdb, which sets
# DATABASE_URL for the targets that start the server (web's FuzzJSONBodies).
#
# Targets are the `func FuzzXxx(f *testing.F)` in *_fuzz_test.go files. Their seeds (f.Add
# and testdata/fuzz/FuzzXxx/) also run in `make test`.
#
# When a target fails, Go writes the failing input to testdata/fuzz/FuzzXxx/<hash> in the
# target's package, and `go test -run 'FuzzXxx/<hash>' ./pkg/` replays it. Fix the code
# under test, and commit that file with the fix, so the input stays in the seed corpus.
#
# FUZZTIME includes Go's replay of the target's corpus (testdata/fuzz and the cache in
# GOCACHE) before it fuzzes. Go minimises each new interesting input for up to 60 s by
# default; with that, workers sat idle for most of a run here (FuzzParseTimeOfDay, and
# FuzzJSONBodies, whose coverage also depends on what earlier inputs stored), so the budget
# is a number of attempts, FUZZMINIMIZETIME (default 100x). A failing input is written to
# testdata either way, if less minimised. Inputs that only looked new stay in the cache and
# are replayed by every run; `go clean -fuzzcache` empties it when the replay takes too much
# of FUZZTIME.
set -euo pipefail

cd "$(dirname "$0")/.."

fuzztime="${FUZZTIME:-60s}"
minimize="${FUZZMINIMIZETIME:-100x}"
logs="$(mktemp -d)"

mapfile -t files < <(find . \( -name .git -o -name .data -o -name node_modules -o -name vendor \) -prune \
	-o -name '*_fuzz_test.go' -print | sort)

summary=()
failed=0
for file in "${files[@]}"; do
	pkg="$(dirname "$file")/"
	for name in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
		log="$logs/$name.log"
		corpus="${pkg}testdata/fuzz/$name"
		before="$(ls "$corpus" 2>/dev/null || true)"
		note=""
		echo "=== $name ($pkg, $fuzztime)"
		if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" "$pkg" 2>&1 | tee "$log"; then
			status=ok
		elif [[ "$(ls "$corpus" 2>/dev/null || true)" == "$before" ]] && grep -qx '    context deadline exceeded' "$log"; then
			# Go 1.26's coordinator can report the end of FUZZTIME as this error, having
			# found nothing (go.dev/issue/75804, fixed in Go 1.27): no input was written.
			status=ok
			note="  (stopped by Go's fuzztime race, go.dev/issue/75804)"
		else
			status=FAIL
			failed=1
			note="  (log: $log)"
		fi
		# The executions are the last progress line's, the rate their mean over the time spent
		# fuzzing (after Go replayed the corpus); both are 0 when FUZZTIME ran out during the
		# replay.
		read -r execs rate < <(awk '
			function seconds(t, v) {
				v = 0
				if (match(t, /[0-9]+h/)) v += 3600 * substr(t, RSTART, RLENGTH - 1)
				if (match(t, /[0-9]+m/)) v += 60 * substr(t, RSTART, RLENGTH - 1)
				if (match(t, /[0-9.]+s/)) v += substr(t, RSTART, RLENGTH - 1)
				return v
			}
			/now fuzzing/ { start = seconds($3) }
			/execs: [0-9]+ / {
				s = $0
				sub(/.*execs: /, "", s)
				split(s, f, " ")
				execs = f[1]
				end = seconds($3)
			}
			END { printf "%d %d\n", execs, (end > start ? execs / (end - start) : 0) }' "$log")
		summary+=("$(printf '%-26s %-22s %-4s execs %-10s %s/sec' "$name" "$pkg" "$status" "$execs" "$rate")$note")
	done
done

echo
echo "fuzzing summary ($fuzztime per target):"
printf '%s\n' "${summary[@]}"
if ((failed)); then
	echo "some targets failed: their inputs are in the packages' testdata/fuzz/; commit each with its fix" >&2
	exit 1
fi
rm -rf "$logs"
