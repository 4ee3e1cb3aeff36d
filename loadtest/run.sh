#!/usr/bin/env bash
# make load: builds the server from this tree, starts it on a fresh database (tripplan_load) on
# a free local port, seeds the dataset through the JSON API (loadtest/seed), runs the k6
# scenarios (loadtest/steady.js, stress.js, throughput.js), stops the server and prints a
# summary with the machine's facts and where the CPU went during each scenario. Results, the
# dataset's ids and the server's log stay in loadtest/results/. Exits non-zero when a
# threshold failed.
#
# Run it through cmd/withdb (`make load`), which sets DATABASE_URL and DATABASE_ADMIN_URL.
set -euo pipefail

cd "$(dirname "$0")/.."
: "${DATABASE_URL:?is not set: run make load, which finds PostgreSQL with cmd/withdb}"
# LOAD_DATABASE names the database, for runs beside others on one PostgreSQL server.
database=${LOAD_DATABASE:-tripplan_load}
# LOAD_SCENARIOS picks scenarios (e.g. "steady"), all three by default.
read -r -a scenarios <<<"${LOAD_SCENARIOS:-steady stress throughput}"
results="$PWD/loadtest/results"
work=$(mktemp -d)
# shellcheck source=scripts/local_server.sh
source scripts/local_server.sh
server_pid=
stop_server() {
  stop_pid "$server_pid"
  server_pid=
}
trap 'stop_server; rm -rf "$work"' EXIT

# k6, installed with Go when missing.
k6=$(bash loadtest/k6.sh)

echo "load: building"
go build -o "$work/tripplan" ./cmd/tripplan
go build -o "$work/seed" ./loadtest/seed
go build -o "$work/loaddb" ./loadtest/loaddb
rm -rf "$results"
mkdir -p "$results" "$work/server"

db_url=$("$work/loaddb" fresh "$database")
echo "load: fresh database $database"

start_server load "$work/tripplan" "$work/server" "$db_url" "$results/server.log"

"$work/seed" -base "$base" -out "$results/data.json" | tee "$results/seed.txt"
"$work/loaddb" analyze "$database"

# CPU accounting, to tell the load generator's share from the server's and PostgreSQL's.
clock=$(getconf CLK_TCK)
machine_ticks() { awk '/^cpu / { print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9 }' /proc/stat; }
process_ticks() { awk '{ print $14+$15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# postgres_snapshot lists the load database's connections (PostgreSQL backends) with their CPU
# ticks; postgres_ticks is what the connections of the second list used since the first.
postgres_snapshot() {
  local pid
  for pid in $(ps -eo pid=,args= | awk -v db=" $database " 'index($0, "postgres: ") && index($0, db) { print $1 }'); do
    echo "$pid $(process_ticks "$pid")"
  done
}
postgres_ticks() { awk 'NR == FNR { t[$1] = $2; next } { s += $2 - t[$1] } END { print s + 0 }' "$1" "$2"; }
# children_seconds is the CPU time this shell's finished children (k6, once it exits) used
# between two outputs of `times`, which must run in this shell itself, not in a subshell.
children_seconds() {
  awk 'FNR == 2 { split($0, f, /[ms ]+/); v = f[1]*60 + f[2] + f[3]*60 + f[4]; if (NR == FNR) a = v; else b = v }
    END { print b - a }' "$1" "$2"
}

status=0
for s in "${scenarios[@]}"; do
  echo "load: scenario $s"
  read -r busy0 total0 < <(machine_ticks)
  server0=$(process_ticks "$server_pid")
  postgres_snapshot >"$work/pg0"
  times >"$work/times0"
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  rc=0
  "$k6" run --quiet --no-usage-report -e BASE_URL="$base" -e DATA="$results/data.json" -e RESULTS="$results" \
    "loadtest/$s.js" || rc=$?
  read -r busy1 total1 < <(machine_ticks)
  server1=$(process_ticks "$server_pid")
  postgres_snapshot >"$work/pg1"
  times >"$work/times1"
  awk -v b="$((busy1 - busy0))" -v t="$((total1 - total0))" -v srv="$((server1 - server0))" -v pg="$(postgres_ticks "$work/pg0" "$work/pg1")" \
    -v k6="$(children_seconds "$work/times0" "$work/times1")" -v hz="$clock" -v cpus="$(nproc)" -v loadavg="$load0" \
    'BEGIN {
      busy = b / hz; wall = t / hz / cpus
      printf "   CPU over %.0f s: machine %.0f%% busy of %d cores (%.1f CPU-s): server %.1f, PostgreSQL (load database) %.1f, k6 %.1f, rest of the machine %.1f; load average before %s\n",
        wall, 100 * busy / (wall * cpus), cpus, busy, srv / hz, pg / hz, k6, busy - srv / hz - pg / hz - k6, loadavg
    }' >"$results/$s.cpu"
  cat "$results/$s.cpu"
  case $rc in
    0) ;;
    99) status=1 ;; # thresholds crossed; k6 has reported which
    *) echo "load: k6 failed ($rc) on $s" >&2; status=1 ;;
  esac
done
if ! grep -q '"ratio_ok": true' "$results/throughput.json" 2>/dev/null; then
  status=1
fi
stop_server

echo
echo "================ make load summary ================"
echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory"
echo "tools:   $(go version | cut -d' ' -f3-), $("$k6" version | head -1 | cut -d' ' -f1-2), server and k6 on the same machine over loopback"
echo "command: make load (loadtest/run.sh)"
grep '^seed: [0-9]' "$results/seed.txt" || true
for s in "${scenarios[@]}"; do
  cat "$results/$s.txt" "$results/$s.cpu" 2>/dev/null || echo "== $s: no result"
done
if [[ $status -ne 0 ]]; then
  echo "load: FAILED: a threshold was crossed (see above)"
else
  echo "load: all thresholds passed"
fi
exit "$status"
