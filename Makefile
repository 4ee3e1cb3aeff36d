# Tripplan. `make run` serves the app with demo data; `make test` runs the whole suite.
# Both find PostgreSQL by themselves: DATABASE_URL, else 127.0.0.1:5432, else a private
# cluster in .data/postgres started with the installed PostgreSQL binaries.

GO ?= go
# gotestsum (pinned in go.mod as a tool) runs go test: a line per package, then every failure
# and every skipped test with its reason, then the totals.
GOTESTSUM ?= --format pkgname --format-hide-empty-pkg

.PHONY: run build test race lint load audit fuzz generate generate-check api-client css vendor-js fmt fmt-check vet bench clean cluster cluster-down cluster-test cluster-load

run: ## serve on :8080 with demo data and dev sign-in
	$(GO) run ./cmd/tripplan

build: ## build bin/tripplan
	$(GO) build -o bin/tripplan ./cmd/tripplan

test: ## the whole suite against a real PostgreSQL
	$(GO) vet ./...
	$(GO) run ./cmd/withdb -- $(GO) tool gotestsum $(GOTESTSUM) -- -count=1 -timeout 30m ./...
	cd deploy && $(GO) vet ./... && $(GO) test -count=1 ./... # the Dockerfile and deploy/k8s (a module of its own)

race: ## the whole suite again under the race detector (CI runs it)
	$(GO) run ./cmd/withdb -- $(GO) tool gotestsum $(GOTESTSUM) -- -race -count=1 -timeout 30m ./...

lint: ## go vet, staticcheck and deadcode (pinned in go.mod as tools)
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	@dead="$$($(GO) tool deadcode -test ./...)"; if [ -n "$$dead" ]; then echo "$$dead"; echo "unreachable code (deadcode -test): delete it"; exit 1; fi

bench: ## benchmarks of the hot endpoints (numbers go to docs/PERFORMANCE.md)
	$(GO) run ./cmd/withdb -- $(GO) test -run '^$$' -bench . -benchmem ./...

load: ## seed a realistic dataset and run the k6 scenarios in loadtest/ (numbers go to docs/PERFORMANCE.md)
	$(GO) run ./cmd/withdb -- bash loadtest/run.sh

audit: node_modules/.package-lock.json ## Lighthouse (pinned in package.json) with Debian's Chromium on the demo's home, collection and plan pages, cold and warm, at mobile settings (numbers go to docs/PERFORMANCE.md)
	$(GO) run ./cmd/withdb -- bash scripts/audit.sh

fuzz: ## run every fuzz target for 60 s (their seed corpora also run in make test)
	$(GO) run ./cmd/withdb -- bash scripts/fuzz.sh

generate: ## regenerate templ output, the built CSS, the vendored JS, the app's PNG icons and the API client (all committed)
	$(GO) tool templ generate
	$(GO) run ./cmd/icons static/img
	$(MAKE) css vendor-js api-client

api-client: ## regenerate the Go client in apiclient/ from web/openapi.yaml (oapi-codegen, pinned in go.mod)
	$(GO) tool oapi-codegen -config apiclient/oapi-codegen.yaml web/openapi.yaml

css: node_modules/.package-lock.json
	npx --no-install tailwindcss -c tailwind.config.js -i static/css/input.css -o static/css/app.css --minify

vendor-js: node_modules/.package-lock.json ## copy the pinned htmx, Leaflet (static/) and axe-core (e2e/testdata, tests only) files
	npm run vendor

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

generate-check: generate ## fail when committed generated files are stale
	@git diff --exit-code -- '*_templ.go' static/css/app.css static/js static/img static/vendor e2e/testdata apiclient || \
		(echo "generated files are stale: run 'make generate' and commit" >&2; exit 1)

fmt:
	gofmt -w $$(git ls-files '*.go')

fmt-check: ## fail when a Go file is not gofmt-formatted
	@out=$$(gofmt -l $$(git ls-files '*.go')); [ -z "$$out" ] || (echo "not gofmt-formatted: $$out" >&2; exit 1)

vet:
	$(GO) vet ./...

cluster: ## three instances behind nginx on one database and one S3 bucket (versitygw), at http://localhost:18080
	bash scripts/cluster.sh up

cluster-down: ## stop the local cluster
	bash scripts/cluster.sh down

cluster-test: ## bring the cluster up if needed and run the tests in cluster/ through nginx and each instance
	bash scripts/cluster.sh test

cluster-load: ## k6 through the cluster's nginx at 1, 2 and 3 instances, then one instance killed (SIGKILL, then SIGTERM) mid-run; no acknowledged write may be lost (numbers go to docs/PERFORMANCE.md)
	bash scripts/cluster-load.sh

clean: ## remove build output and the private database cluster
	rm -rf bin .data
