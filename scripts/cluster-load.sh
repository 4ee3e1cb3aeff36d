#!/usr/bin/env bash
# make cluster-load: the local cluster (scripts/cluster.sh) under k6 through nginx.
#
#   1. Throughput and latency with nginx sending to 1, 2 and 3 instances (loadtest/cluster.js,
#      CLUSTER_LOAD_SECONDS each, 30 by default): on one machine the instances share its cores,
#      so this shows what the balancer and the shared database cost, not what more machines give.
#   2. Losing an instance: the same load for 60 s with three instances; at 20 s instance 2 is
#      killed with SIGKILL, at 40 s it is started again. Then once more with SIGTERM (a graceful
#      stop) instead.
#
# For each run: requests, failures by method, p95, and the writes the server acknowledged (201
# to POST /collections, resent with the same Idempotency-Key when the answer was lost), each of
# which must be in the database afterwards. Exits non-zero when an acknowledged write is missing,
# or when the graceful stop cost a request. Results in tmp/cluster/load/.
set -euo pipefail

cd "$(dirname "$0")/.."
dir=$PWD/tmp/cluster
out=$dir/load
seconds=${CLUSTER_LOAD_SECONDS:-30}
base=http://127.0.0.1:18080

bash scripts/cluster.sh up
k6=$(bash loadtest/k6.sh)
rm -rf "$out"
mkdir -p "$out"
go build -o "$out/seed" ./loadtest/seed
db_url=$(cat "$dir/database_url")

echo "cluster-load: seeding through nginx"
# Users of this run's own: the cluster's database is kept between runs.
"$out/seed" -base "$base" -out "$out/data.json" -users "cluster-$(date +%s)" | tail -1

# run NAME DURATION: k6 through nginx in the background; its pid in k6_pid.
run() {
  "$k6" run --quiet --no-usage-report -e BASE_URL="$base" -e DATA="$out/data.json" -e RESULTS="$out" \
    -e SCENARIO="$1" -e DURATION="$2" -e RUN="$1-$(date +%s)" loadtest/cluster.js >"$out/$1.k6.log" 2>&1 &
  k6_pid=$!
}

# check NAME: the run's summary and whether every acknowledged write is in the database.
status=0
check() {
  wait "$k6_pid" || true
  local acked found
  grep -o 'ACK [A-Za-z0-9_-]*' "$out/$1.k6.log" | cut -d' ' -f2 | sort -u >"$out/$1.acked"
  acked=$(wc -l <"$out/$1.acked")
  found=$(psql -X -q -t -A "$db_url" -c "SELECT count(*) FROM collections WHERE id = ANY(string_to_array('$(paste -sd, "$out/$1.acked")', ','))")
  echo "   acknowledged writes: $acked, in the database afterwards: $found" | tee -a "$out/$1.txt"
  if [[ $found != "$acked" ]]; then
    echo "cluster-load: $1 lost $((acked - found)) acknowledged write(s)" >&2
    status=1
  fi
}

for n in 1 2 3; do
  bash scripts/cluster.sh scale "$n" >/dev/null
  echo "cluster-load: $n instance(s), ${seconds} s"
  run "instances-$n" "${seconds}s"
  check "instances-$n"
  head -2 "$out/instances-$n.txt"
done

for signal in KILL TERM; do
  bash scripts/cluster.sh scale 3 >/dev/null
  name=sig$(tr '[:upper:]' '[:lower:]' <<<"$signal")
  echo "cluster-load: 60 s with 3 instances; SIG$signal to instance 2 at 20 s, started again at 40 s"
  run "$name" 60s
  sleep 20
  kill -"$signal" "$(cat "$dir/instance2.pid")"
  echo "   $(date -u +%T) SIG$signal sent to instance 2"
  sleep 20
  bash scripts/cluster.sh start-instance 2 | sed 's/^/   /'
  check "$name"
  cat "$out/$name.txt"
  if [[ $signal == TERM ]] && ! grep -q '"failed": 0,' "$out/$name.json"; then
    echo "cluster-load: the graceful stop cost requests" >&2
    status=1
  fi
done
exit "$status"
