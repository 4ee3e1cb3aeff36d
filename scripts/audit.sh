#!/usr/bin/env bash
# make audit: builds the server from this tree, starts it on a fresh database (tripplan_audit)
# with the demo data on a free local port, signs in as the demo user Ana and runs Lighthouse
# (scripts/audit.mjs, pinned in package.json) with Debian's Chromium on her home page, her
# collection and her plan, each cold and warm, at Lighthouse's default mobile settings. Prints
# a table and the machine's facts; reports go to tmp/audit/. Numbers go to docs/PERFORMANCE.md.
#
# Run it through cmd/withdb (`make audit`), which sets DATABASE_URL and DATABASE_ADMIN_URL.
set -euo pipefail

cd "$(dirname "$0")/.."
: "${DATABASE_URL:?is not set: run make audit, which finds PostgreSQL with cmd/withdb}"
export CHROME_PATH=${CHROME_PATH:-$(command -v chromium || true)}
[[ -n $CHROME_PATH ]] || { echo "audit: Chromium not found (apt-get install chromium, or set CHROME_PATH)" >&2; exit 1; }
work=$(mktemp -d)
out="$PWD/tmp/audit"
# shellcheck source=scripts/local_server.sh
source scripts/local_server.sh
server_pid=
stop_server() {
  stop_pid "$server_pid"
  server_pid=
}
trap 'stop_server; rm -rf "$work"' EXIT

echo "audit: building"
go build -o "$work/tripplan" ./cmd/tripplan
go build -o "$work/loaddb" ./loadtest/loaddb
db_url=$("$work/loaddb" fresh tripplan_audit)
rm -rf "$out"
mkdir -p "$out" "$work/server"

start_server audit "$work/tripplan" "$work/server" "$db_url" "$out/server.log"

# Ana's browser session, and the first collection and plan of her lists.
cookie=$(curl -fsS -D - -o /dev/null -X POST "$base/dev/auth/login" -H 'Content-Type: application/json' \
  -d '{"provider":"GOOGLE","provider_id":"demo-ana","nickname":"Ana"}' | grep -io 'tripplan_session=[^;]*' | head -1)
first() { curl -fsS -H "Cookie: $cookie" -H 'Accept: text/html' "$base$1" | grep -o "href=\"$1/[A-Za-z0-9_-]*\"" | grep -v '/new"' | head -1 | cut -d'"' -f2; }
collection=$(first /collections)
plan=$(first /plans)
[[ -n $collection && -n $plan ]] || { echo "audit: no demo collection or plan found" >&2; exit 1; }
# Warm the server's own caches (static files' compressed forms, the day listing) so the numbers
# are the pages', not the first request's.
for p in /home "$collection" "$plan"; do
  curl -fsS --compressed -o /dev/null -H "Cookie: $cookie" -H 'Accept: text/html' "$base$p"
done

load0=$(cut -d' ' -f1-3 /proc/loadavg)
AUDIT_DIR="$out" node scripts/audit.mjs "$base" "$cookie" /home "$collection" "$plan" | tee "$out/results.jsonl"
stop_server

echo
echo "================ make audit summary ================"
echo "date:      $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine:   $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory"
echo "chromium:  $("$CHROME_PATH" --version 2>/dev/null | head -1)"
echo "load avg:  $load0 (before the runs: other work on the machine slows the simulated phone's CPU)"
echo "lighthouse: $(node -p 'require("./node_modules/lighthouse/package.json").version') (mobile defaults: simulated slow 4G, 4x CPU slowdown)"
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
console.log("page                          load  score  LCP ms  requests (from network)  transferred");
for (const r of rows) {
  const page = r.path.replace(/\/[A-Za-z0-9_-]{15,}$/, "/{id}");
  console.log(page.padEnd(30) + r.load.padEnd(6) + String(r.score).padStart(5) + String(r.lcp_ms).padStart(8) +
    (String(r.requests) + " (" + r.from_network + ")").padStart(24) + (String((r.transferred_bytes / 1024).toFixed(1)) + " KiB").padStart(13));
}' "$out/results.jsonl"
