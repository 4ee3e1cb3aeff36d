# shellcheck shell=bash
# Sourced by scripts/audit.sh, loadtest/run.sh and scripts/cluster.sh: starting a server built
# from this tree on a free local port, and stopping a process the way all three do.

# stop_pid ends process $1, if it runs: TERM, then KILL after 20 s; a child of this shell is
# reaped.
stop_pid() {
  local pid=$1
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  for _ in $(seq 200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
}

# start_server runs the server binary $2 in directory $3 on database URL $4, logging to $5, and
# waits until it is ready; $1 names the caller in messages. Remote providers are switched off,
# so that search uses the built-in catalog, routes the offline estimates and no exchange rates
# are fetched; the demo user signs in by dev login. Sets server_pid and base (its URL).
start_server() {
  local who=$1 binary=$2 dir=$3 db_url=$4 log=$5
  (cd "$dir" && exec env -u BASE_URL -u GOOGLE_PLACES_API_KEY -u NOMINATIM_URL -u OSRM_URL -u OSRM_WALK_URL -u RATES_URL \
    -u LLM_BASE_URL -u STORAGE_URL -u CORS_ORIGINS \
    DATABASE_URL="$db_url" ADDR=127.0.0.1:0 APP_ENV=development DEV_LOGIN=true MAP_TILE_URL=none \
    "$binary" >"$log" 2>&1) &
  server_pid=$!
  base=
  for _ in $(seq 1200); do
    base=$(grep -o -m1 'Tripplan is running at http://[^ ]*' "$log" | cut -d' ' -f5 || true)
    [[ -n $base ]] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then
      cat "$log" >&2
      echo "$who: the server exited" >&2
      exit 1
    fi
    sleep 0.1
  done
  [[ -n $base ]] || { echo "$who: the server printed no URL within 2 minutes" >&2; exit 1; }
  for _ in $(seq 300); do
    curl -fs -o /dev/null "$base/readyz" && break
    sleep 0.1
  done
  curl -fsS -o /dev/null "$base/readyz"
  echo "$who: server ready at $base"
}
