#!/usr/bin/env bash
# Prints the path of k6 v1.8.1, installed with Go into GOBIN (or GOPATH/bin) when missing; the
# load scripts (loadtest/run.sh, scripts/cluster-load.sh) run it.
set -euo pipefail
version=v1.8.1
gobin=$(go env GOBIN)
[[ -n $gobin ]] || gobin="$(go env GOPATH | cut -d: -f1)/bin"
if [[ ! -x $gobin/k6 ]]; then
  echo "installing k6 $version into $gobin" >&2
  go install "go.k6.io/k6@$version"
fi
echo "$gobin/k6"
