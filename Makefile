# toolgen: make run (generate, then run the example) and make test.
GO ?= go
# The go:generate line lives in tools/doc.go; check-generated runs the same
# command with -check.
INTEROP = runtime/mcpserver/testdata/interop
APPHOST = runtime/mcpserver/testdata/apphost
TOOLGEN = cd tools && $(GO) run ../cmd/toolgen -out ../generated

.PHONY: all generate check-generated run test test-short bench bench-catalog bench-test lint fuzz

all: generate test

## generate: regenerate generated/ from tools/ (go generate ./tools/...)
generate:
	$(GO) generate ./tools/...

## check-generated: fail when generated/ is stale
check-generated:
	$(TOOLGEN) -check ./...

## run: generate, list the catalog and make a few calls, serve the tools
## over MCP to two people with tokens (a refusal, a proposal confirmed by
## the host, the record), then run the agent example against a scripted
## fake of the Anthropic Messages API (no key), then two agents' palettes:
## a read-only research agent (request_skill, a remote MCP server's read
## tools, request_tools swept) and a writing agent (request_tools over notes);
## and a person's console (runtime/console): its URL and a token, its JSON
## API used once, then shut down (go run ./examples/console -serve keeps
## it up for a browser)
run: generate
	$(GO) run ./examples/catalog
	$(GO) run ./examples/mcpteam
	$(GO) run ./examples/agent -fake
	$(GO) run ./examples/research
	$(GO) run ./examples/writer
	$(GO) run ./examples/console

## test: vet, check-generated, and every test with the race detector
## (the MCP interop tests and the MCP Apps browser test need the pinned
## node packages: installed first; README's "What make test needs" says
## what else it uses and costs);
## then the schema tests that need the sample tools' hook files, which are
## built only with the toolgen tag (as toolgen's bootstrap program builds):
## the sample packages, the generated registry and the schema parity tests
## of cmd/toolgen/internal/schema. A package may take 30 minutes, not go
## test's 10: the generator's tests build programs under the race detector
## and take 3 minutes on a quiet 2-core VM, over 10 when it is busy;
## last, without the race detector (which allocates on its own), the
## allocation test of a quiet call, 200 times: it once failed 1 run in 30
test: lint check-generated $(INTEROP)/node_modules $(APPHOST)/node_modules
	$(GO) test -race -count=1 -timeout 30m ./...
	$(GO) test -race -count=1 -timeout 30m -tags toolgen ./tools/... ./generated/... ./cmd/toolgen/internal/schema/
	$(GO) test -count=200 -run '^TestQuietCallAllocations$$' ./runtime/internal/registry/

## node_modules of $(INTEROP): the node packages of the MCP interop tests,
## from the lock file (fetched from the npm registry the first time). Without
## npm, a note: the interop tests then skip, saying so (with CI set they fail)
NPM ?= npm
$(INTEROP)/node_modules: $(INTEROP)/package-lock.json
	@if command -v $(NPM) >/dev/null 2>&1; then \
	  echo "cd $(INTEROP) && $(NPM) ci --no-audit --no-fund"; \
	  cd $(INTEROP) && $(NPM) ci --no-audit --no-fund && touch node_modules; \
	else \
	  echo "$(NPM) is not installed: the MCP interop tests will skip (install Node.js and npm to run them)"; \
	fi

## node_modules of $(APPHOST): the MCP Apps test host (AppBridge, the TypeScript SDK v2 client, esbuild), from the lock file
$(APPHOST)/node_modules: $(APPHOST)/package-lock.json
	@if command -v $(NPM) >/dev/null 2>&1; then \
	  echo "cd $(APPHOST) && $(NPM) ci --no-audit --no-fund"; \
	  cd $(APPHOST) && $(NPM) ci --no-audit --no-fund && touch node_modules; \
	else \
	  echo "$(NPM) is not installed: the MCP Apps browser test will skip (install Node.js and npm to run it)"; \
	fi

## test-short: the fast tests only (no builds of generated code)
test-short:
	$(GO) test -short ./...

## bench: the call path side by side with easyjson, encoding/json, jsonschema
## and the MCP SDK (the bench module, six interleaved runs, one benchstat
## table and the ratios), then the MCP start-up and provider benchmarks
BENCHSTAT = $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench:
	cd bench && for i in 1 2 3 4 5 6; do $(GO) test -run='^$$' -bench=. -benchmem -count=1 ./compare/ ./generated/; done | tee bench.txt
	cd bench && $(BENCHSTAT) bench.txt
	cd bench && $(GO) run ./scripts/ratios < bench.txt
	$(GO) test -run='^$$' -bench=. -benchmem -count=6 ./runtime/mcpserver/ ./generated/providers/ | tee bench-runtime.txt
	$(BENCHSTAT) bench-runtime.txt

## bench-catalog: toolgen, the build, start-up and listing on synthetic
## modules of 100, 1,000 and 10,000 tools (SIZES: packages of 50 tools),
## then a table of how each grows; NESTED=1: tools whose arguments nest,
## and at each size the program listing them built side by side with the
## same types registered with the MCP SDK's AddTool (BUILDS=3 builds of
## each: time, compiler peak RSS, generated Go size)
SIZES ?= 2 20 200
bench-catalog:
	cd bench && NESTED=$(NESTED) scripts/growth.sh $(SIZES)

## lint: gofmt and go vet
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags toolgen ./tools/... ./generated/... ./cmd/toolgen/internal/schema/

## fuzz: run every fuzz target for FUZZTIME each (default 20s). A target
## fails only when it writes a reproducer to testdata/fuzz: Go 1.26's fuzz
## coordinator can end a run with "context deadline exceeded" and no input
## (go.dev/issue/75804, fixed in Go 1.27), which is reported and ignored.
## FUZZMINIMIZETIME bounds the minimization of each new input (Go's 60s
## default can eat a whole run).
FUZZTIME ?= 20s
FUZZMINIMIZETIME ?= 5s
FUZZPKGS ?= ./...
fuzz:
	@fail=0; for pkg in $$($(GO) list $(FUZZPKGS)); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; \
	    before=$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l); \
	    if ! $(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZETIME) $$pkg; then \
	      after=$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l); \
	      if [ "$$after" -gt "$$before" ]; then fail=1; \
	      else echo "fuzz $$f: failed without a reproducer (go.dev/issue/75804): ignored"; fi; \
	    fi; \
	  done; \
	done; exit $$fail

## bench-test: the bench module builds, its paths agree, its generated code is fresh
bench-test:
	cd bench/tools && $(GO) run github.com/toolgen-go/toolgen/cmd/toolgen -check -out ../generated .
	cd bench && $(GO) vet ./... && $(GO) test ./...
