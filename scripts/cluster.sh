#!/usr/bin/env bash
# A local cluster: three Tripplan instances on one PostgreSQL database and one S3 bucket, behind
# nginx, as production runs several instances behind a load balancer.
#
#   scripts/cluster.sh up     # make cluster: build, start everything (again: nothing to do)
#   scripts/cluster.sh down   # make cluster-down: stop everything
#   scripts/cluster.sh test   # make cluster-test: up if needed, then the tests in cluster/
#   scripts/cluster.sh start-instance N   # bring instance N back after a kill
#   scripts/cluster.sh scale N            # nginx sends to the first N instances only
#
# Ports (all on 127.0.0.1): nginx 18080, the instances 18081–18083, the S3 server (versitygw,
# posix backend) 18090; the cluster tests serve pages for link extraction on 18089. Everything
# the cluster keeps lies in tmp/cluster/: the secrets generated once (env), the bucket's files
# (s3/), nginx's prefix (nginx/), each process's log and pid file.
#
# `up` starts a supervisor under cmd/withdb, which finds PostgreSQL as make run does
# (DATABASE_URL, else 127.0.0.1:5432, else a private cluster in .data/postgres, stopped again
# when the supervisor ends); the supervisor (`serve`) creates the database tripplan_cluster if
# it is missing, starts the processes, and stops them all when it is told to (`down`). An
# instance that ends (killed, say, to watch nginx pass its requests to the others) stays down
# until the next `up`, which starts the cluster anew when any part of it is not ready.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/local_server.sh
source scripts/local_server.sh
root=$PWD
dir=$root/tmp/cluster
proxy_port=18080
instance_ports=(18081 18082 18083)
s3_port=18090
page_port=18089
database=tripplan_cluster
bucket=tripplan
public_url=http://localhost:$proxy_port
versitygw_version=v1.8.0
# The limits the tests reach: sign-in attempts per client address in a burst (the server's
# fixed 10, refilled 1 a second) and open live-update streams per user (small, set below).
signin_burst=10
stream_limit_per_user=3

mkdir -p "$dir"

log() { echo "cluster: $*"; }

# alive reports whether the process in a pid file of tmp/cluster is running.
alive() {
  local pid
  pid=$(cat "$dir/$1.pid" 2>/dev/null) || return 1
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null
}

# stop ends the process of a pid file (stop_pid) and removes the file.
stop() {
  local pid
  pid=$(cat "$dir/$1.pid" 2>/dev/null) || return 0
  stop_pid "$pid"
  rm -f "$dir/$1.pid"
}

# wait_for polls a URL until it answers with the status, for at most 60 s, while the
# supervisor lives.
wait_for() {
  local url=$1 want=$2
  for _ in $(seq 600); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' "$url" || true) == "$want" ]] && return 0
    alive supervisor || return 1
    sleep 0.1
  done
  return 1
}

# versitygw, installed with Go when missing or of another version.
versitygw_bin() {
  local gobin
  gobin=$(go env GOBIN)
  [[ -n $gobin ]] || gobin="$(go env GOPATH | cut -d: -f1)/bin"
  if ! go version -m "$gobin/versitygw" 2>/dev/null | grep -q "github.com/versity/versitygw[[:space:]]*$versitygw_version"; then
    log "installing versitygw $versitygw_version into $gobin" >&2
    go install "github.com/versity/versitygw/cmd/versitygw@$versitygw_version"
  fi
  echo "$gobin/versitygw"
}

# secrets generates the cluster's secrets once: every instance signs and checks sessions,
# tokens and upload URLs with the same ones.
secrets() {
  if [[ ! -s $dir/env ]]; then
    umask 077
    {
      echo "SESSION_SECRET=$(openssl rand -base64 48 | tr -d '\n')"
      echo "JWT_SECRET=$(openssl rand -base64 48 | tr -d '\n')"
      echo "AWS_ACCESS_KEY_ID=tripplan-cluster"
      echo "AWS_SECRET_ACCESS_KEY=$(openssl rand -hex 24)"
    } >"$dir/env"
  fi
  # shellcheck disable=SC1091
  source "$dir/env"
}

# running reports whether the cluster is up: its supervisor, nginx and every instance ready.
running() {
  alive supervisor || return 1
  local port
  for port in "$proxy_port" "${instance_ports[@]}"; do
    [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz" || true) == 200 ]] || return 1
  done
}

up() {
  if running; then
    log "already running"
    report
    return
  fi
  alive supervisor && log "a part of the cluster is not running: starting it anew"
  down >/dev/null
  log "building"
  go build -o bin/tripplan ./cmd/tripplan
  go build -o bin/withdb ./cmd/withdb
  go build -o bin/loaddb ./loadtest/loaddb
  versitygw_bin >"$dir/versitygw.path"
  command -v nginx >/dev/null || { log "nginx is missing: apt-get install -y nginx-light" >&2; exit 1; }
  secrets
  : >"$dir/supervisor.log"
  setsid bin/withdb -- bash scripts/cluster.sh serve >>"$dir/supervisor.log" 2>&1 </dev/null &
  echo $! >"$dir/supervisor.pid"
  local port
  for port in "${instance_ports[@]}"; do
    wait_for "http://127.0.0.1:$port/readyz" 200 || { log "instance :$port did not start; tmp/cluster/supervisor.log:" >&2; tail -30 "$dir/supervisor.log" >&2; exit 1; }
  done
  wait_for "http://127.0.0.1:$proxy_port/readyz" 200 || { log "nginx did not start; tmp/cluster/supervisor.log:" >&2; tail -30 "$dir/supervisor.log" >&2; exit 1; }
  report
}

report() {
  cat <<EOF

Tripplan cluster is running at $public_url (nginx → 127.0.0.1:${instance_ports[0]}, :${instance_ports[1]}, :${instance_ports[2]}; S3 on :$s3_port)
Sign in at $public_url/login as a demo user (Ana or Ben), or from a client:
  curl -X POST $public_url/dev/auth/login -H 'Content-Type: application/json' -d '{"provider":"GOOGLE","provider_id":"demo-ana","nickname":"Ana"}'
Logs: tmp/cluster/*.log. Stop it with make cluster-down.

EOF
}

down() {
  stop supervisor
  # Whatever a supervisor that was killed left behind.
  local name
  for name in nginx instance1 instance2 instance3 versitygw; do
    stop "$name"
  done
  log "stopped"
}

# serve runs under cmd/withdb (DATABASE_URL, DATABASE_ADMIN_URL): it starts the processes and
# waits; when one ends, or serve is told to stop, it stops the others.
serve() {
  secrets
  local db_url
  db_url=$(bin/loaddb ensure "$database")
  echo "$db_url" >"$dir/database_url"

  mkdir -p "$dir/s3"
  ROOT_ACCESS_KEY_ID=$AWS_ACCESS_KEY_ID ROOT_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY \
    "$(cat "$dir/versitygw.path")" --port "127.0.0.1:$s3_port" --quiet posix "$dir/s3" >>"$dir/versitygw.log" 2>&1 &
  echo $! >"$dir/versitygw.pid"
  trap 'shutdown' TERM INT HUP
  local signed=(--aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY"
    -H "x-amz-content-sha256: $(printf '' | sha256sum | cut -d' ' -f1)")
  local status
  for _ in $(seq 300); do
    status=$(curl -s -o /dev/null -w '%{http_code}' -I "${signed[@]}" "http://127.0.0.1:$s3_port/$bucket" || true)
    [[ $status == 000 ]] || break
    sleep 0.1
  done
  if [[ $status == 404 ]]; then
    status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "${signed[@]}" "http://127.0.0.1:$s3_port/$bucket")
    [[ $status == 200 ]] || { log "creating the bucket: HTTP $status" >&2; shutdown; }
    log "bucket $bucket created"
  elif [[ $status != 200 ]]; then
    log "the S3 server answers HTTP $status for the bucket" >&2
    shutdown
  fi

  local i
  for i in 1 2 3; do
    start_instance "$i"
  done

  mkdir -p "$dir/nginx/logs" "$dir/nginx/tmp"
  nginx_conf >"$dir/nginx/nginx.conf"
  nginx -p "$dir/nginx/" -c nginx.conf -e logs/error.log -g 'daemon off;' >>"$dir/nginx.log" 2>&1 &
  echo $! >"$dir/nginx.pid"
  log "started: nginx on :$proxy_port, instances on :${instance_ports[*]}, S3 on :$s3_port, database $database"

  # An instance that ends leaves the others serving (nginx passes its requests on), as in
  # production; a signal runs shutdown.
  local status
  while :; do
    status=0
    wait -n || status=$?
    ((status != 127)) || break # no process left
    log "a process of the cluster ended with status $status (see tmp/cluster/*.log); the others go on" >&2
  done
}

# start_instance starts instance $1 (1–3) in the background, its pid in instanceN.pid: by
# serve, and by start-instance to bring back one that was stopped or killed.
start_instance() {
  local i=$1 db_url
  db_url=$(cat "$dir/database_url")
  mkdir -p "$dir/instance$i"
  (cd "$dir/instance$i" && exec env -i PATH="$PATH" HOME="$HOME" \
    APP_ENV=development DEV_LOGIN=true ADDR="127.0.0.1:${instance_ports[i - 1]}" BASE_URL="$public_url" \
    DATABASE_URL="$db_url" SESSION_SECRET="$SESSION_SECRET" JWT_SECRET="$JWT_SECRET" \
    STORAGE_URL="s3://$bucket?endpoint=http://127.0.0.1:$s3_port&use_path_style=true&region=us-east-1" \
    AWS_ACCESS_KEY_ID="$AWS_ACCESS_KEY_ID" AWS_SECRET_ACCESS_KEY="$AWS_SECRET_ACCESS_KEY" \
    TRUSTED_PROXIES=127.0.0.1 EXTRACT_ALLOW_HOSTS="127.0.0.1:$page_port" \
    STREAM_LIMIT_PER_USER="$stream_limit_per_user" \
    "$root/bin/tripplan") >>"$dir/instance$i.log" 2>&1 &
  echo $! >"$dir/instance$i.pid"
}

shutdown() {
  trap - TERM INT HUP
  local name
  for name in nginx instance1 instance2 instance3 versitygw; do
    stop "$name"
  done
  wait || true
  exit 0
}

# nginx_conf is nginx's configuration: one upstream of the first $1 instances (all three by
# default), round robin (no sticky sessions: any instance answers any request), live updates
# unbuffered.
nginx_conf() {
  cat <<EOF
worker_processes 1;
pid nginx.pid;
events { worker_connections 1024; }
http {
  access_log logs/access.log;
  # Nothing is buffered to disk: request bodies go straight to an instance, answers that
  # outgrow the memory buffers are passed on as they come.
  client_body_temp_path tmp/body;
  proxy_temp_path tmp/proxy;
  fastcgi_temp_path tmp/fastcgi;
  uwsgi_temp_path tmp/uwsgi;
  scgi_temp_path tmp/scgi;
  client_max_body_size 6m;
  proxy_request_buffering off;
  proxy_max_temp_file_size 0;

  upstream tripplan {
$(for port in "${instance_ports[@]:0:${1:-3}}"; do echo "    server 127.0.0.1:$port max_fails=1 fail_timeout=5s;"; done)
    keepalive 32;
  }

  server {
    listen 127.0.0.1:$proxy_port;
    location / {
      proxy_pass http://tripplan;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      # The instances trust 127.0.0.1 (TRUSTED_PROXIES): the client is the address nginx
      # appends, whatever the client wrote before it.
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      # An instance that is down or times out passes the request to the next one, for
      # idempotent methods only (proxy_next_upstream's default leaves POST, PATCH and LOCK out).
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      # Live updates (server-sent events): passed on as written, and a stream stays open
      # between the server's keep-alive comments.
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
EOF
}

cluster_test() {
  up
  # shellcheck disable=SC1091
  source "$dir/env"
  CLUSTER_URL=http://127.0.0.1:$proxy_port CLUSTER_DIR="$dir" \
    CLUSTER_INSTANCES="http://127.0.0.1:${instance_ports[0]},http://127.0.0.1:${instance_ports[1]},http://127.0.0.1:${instance_ports[2]}" \
    CLUSTER_DATABASE_URL=$(cat "$dir/database_url") CLUSTER_PAGE_ADDR=127.0.0.1:$page_port \
    CLUSTER_SIGNIN_BURST=$signin_burst CLUSTER_STREAM_LIMIT_PER_USER=$stream_limit_per_user \
    go test -count=1 -v -timeout 10m ./cluster/
}

case "${1:-}" in
up) up ;;
down) down ;;
serve) serve ;;
test) cluster_test ;;
start-instance)
  # Brings instance $2 back (after a kill), and waits until it is ready.
  [[ ${2:-} =~ ^[123]$ ]] || { echo "usage: scripts/cluster.sh start-instance 1|2|3" >&2; exit 2; }
  alive "instance$2" && { log "instance $2 is running"; exit 0; }
  secrets
  start_instance "$2"
  wait_for "http://127.0.0.1:${instance_ports[$2 - 1]}/readyz" 200 || { log "instance $2 did not start" >&2; exit 1; }
  log "instance $2 is back on :${instance_ports[$2 - 1]}"
  ;;
scale)
  # Sends the traffic to the first $2 instances only (nginx reloads its configuration); the
  # others stay up and idle.
  [[ ${2:-} =~ ^[123]$ ]] || { echo "usage: scripts/cluster.sh scale 1|2|3" >&2; exit 2; }
  nginx_conf "$2" >"$dir/nginx/nginx.conf"
  nginx -p "$dir/nginx/" -c nginx.conf -e logs/error.log -s reload
  # The reload is done when the old worker has left and the new one answers.
  wait_for "http://127.0.0.1:$proxy_port/readyz" 200
  log "nginx sends to $2 instance(s)"
  ;;
*)
  echo "usage: scripts/cluster.sh up|down|test|start-instance N|scale N" >&2
  exit 2
  ;;
esac
