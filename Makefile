# ucs — build, test and measure. `make demo` runs the main job, `make test` the tests.
GO      ?= go
BIN     ?= bin/ucs
# The race detector needs cgo (a C compiler); use it where one is installed.
RACE    ?= $(shell command -v gcc >/dev/null 2>&1 && echo -race)
FUZZTIME ?= 30s

.PHONY: all build test vet demo bench bench-go bench-calls bench-knowledge bench-learning bench-real bench-exec bench-compare bench-model bench-mcp bench-store bench-view fuzz install skill-validate clean

all: build

# A static binary: pflag imports net, which with cgo links libc dynamically and
# makes every call pay the dynamic loader (about 1 ms here).
# VERSION stamps the build (ucs version): git describe's tag, or the tag, the
# commits since and the commit for a development build; nothing without git,
# and then the binary says the go command's version, else 0.0.0-devel.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS ?= -s -w $(if $(VERSION),-X github.com/unified-cognitive-substrate/ucs/internal/version.Stamp=$(VERSION))
BUILDFLAGS ?= -trimpath -ldflags="$(LDFLAGS)"

# ucs, and beside it the MCP server ucs-mcp (ucs mcp runs it) and ucs-pg,
# which serves PostgreSQL stores (ucs becomes it for --store postgres://):
# binaries of their own, so the MCP SDK's and the database driver's
# start-up stays out of every ucs call.
build:
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o $(BIN) ./cmd/ucs
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o $(dir $(BIN))ucs-mcp ./cmd/ucs-mcp
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o $(dir $(BIN))ucs-pg ./cmd/ucs-pg

vet:
	$(GO) vet ./...

# A package's tests may take longer than go test's default 10 minutes on a
# slow or busy machine under -race (the learning benchmark's seeded runs):
# the limit is for a hung test, not a slow one.
test: vet
	$(GO) test $(RACE) -count=1 -timeout 30m ./...

demo: build
	./scripts/demo.sh $(BIN)

# Go micro-benchmarks for the hot paths (bridge: load, save, keyword search,
# report, consult, status on workspaces of 0, 1k and 10k entries).
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Whole calls, one process each, as an agent makes them: median wall time and
# peak memory of every command on workspaces of 0, 1k, 10k and 50k entries,
# and how report and consult grow. With REF=/path/to/reference/src (the Python
# reference's src directory, python3 on PATH) the reference is measured
# beside ucs, up to 10k entries, in alternating blocks of 10 runs after a
# warm-up call (BENCHCALLS='... -block 1' alternates call by call, cold).
BENCHCALLS ?= -sizes fresh,1k,10k,50k -growth -runs 20
bench-calls: build
	$(GO) run ./internal/bench/cmd/benchcalls -ucs $(BIN) $(if $(REF),-ref $(REF)) $(BENCHCALLS)

bench: bench-go bench-calls

# Issue 18's scale: every command on a fresh workspace and on one of
# 100,000 entries (80,000 methodology, 12,000 judgment nodes, 8,000 dead
# ends): consult within 5x of fresh, report flat, peak memory, and the
# largest consult answer (its knowledge is capped).
bench-knowledge: build
	$(GO) run ./internal/bench/cmd/benchcalls -ucs $(BIN) -sizes fresh,100k -growth -runs 20 -v

# Per-call cost of this build against another (BASE=path/to/old/ucs) and a
# do-nothing Go program, 200 alternating runs: make bench-compare BASE=/tmp/ucs-old
# What ucs exec adds to a wrapped command (median, 200 alternating runs).
bench-exec: build
	python3 scripts/bench_exec.py $(BIN) $(or $(RUNS),200)

# The MCP server (issue 19): median per tool call over stdio against the
# same operation in process (bridge.Do), and the server's resident memory
# after 1,000 and after MCPCALLS calls.
MCPCALLS ?= 100000
bench-mcp: build
	$(GO) run ./internal/bench/cmd/benchmcp -server $(dir $(BIN))ucs-mcp -runs $(or $(RUNS),500) -calls $(MCPCALLS)

bench-compare: build bin/hello-go
	python3 scripts/compare_calls.py $(BASE) $(BIN) bin/hello-go $(or $(RUNS),200) "$(NEWARGS)"

# A do-nothing Go program, built as ucs is: the floor of a call.
bin/hello-go:
	mkdir -p bin/hello && printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("{}\\n") }\n' > bin/hello/main.go
	cd bin/hello && printf 'module hello\n\ngo 1.26\n' > go.mod && CGO_ENABLED=0 $(GO) build -trimpath -ldflags="-s -w" -o ../hello-go .

# Issue 27's yardstick: consult, report and status on a workspace that has
# learned 6,000 outcomes (8-word contexts, 40 tools all connected) against
# a fresh one of the same manifest and a do-nothing Go program, 200 calls
# each alternating call by call; the state's and the model's size, the
# distinct features, peak memory. Target: learned within 1.5x of fresh,
# within 3.5x of the do-nothing program. Flags in BENCHMODEL, e.g.
#   make bench-model BENCHMODEL='-model v3 -n 2000 -runs 50'
BENCHMODEL ?=
bench-model: build bin/hello-go
	$(GO) run ./internal/bench/cmd/benchmodel -ucs $(BIN) -hello bin/hello-go -v $(if $(RUNS),-runs $(RUNS)) $(BENCHMODEL)

# The learning-quality benchmark (issue 16, docs/learning-benchmark.md): every
# policy on 10 seeds x 600 episodes, driving the real binary as an agent does
# (consult, choose, report). Tables on stdout; results.json and curves.svg in
# bin/bench-learning. A model under test plugs in with its init arguments:
#   make bench-learning BENCHLEARNING='-ucs-init-args "--model v3"'
# and is checked on the held-out seeds with BENCHLEARNING='-seed-base 1000'.
# Its fleet mode (agents learning together against isolated, and a newcomer
# joining; docs/learning.md): BENCHLEARNING='-fleet 4 -seed-base 1000'.
BENCHLEARNING ?=
bench-learning: build
	$(GO) run ./internal/bench/cmd/benchlearning -ucs $(BIN) -seeds 10 -episodes 600 -parallel 2 -out bin/bench-learning $(BENCHLEARNING)

# The real-trace learning benchmark (issue 27, docs/learning-benchmark.md):
# tau-bench's recorded airline trajectories (testdata/realtrace) replayed
# through the real binary, one process per call (consult before each call,
# report after it), for models v4 and v2, against three counting baselines.
# Tables on stdout; results.json in bin/bench-real (v5, the default, told the
# task and consulting as a probe: the replayed agents never saw the advice)
# and bin/bench-real/v4-v2 (the earlier models, as issue 27 measured them).
# The development split (never the reporting run) while tuning a model:
#   make bench-real BENCHREAL='-split dev'
BENCHREAL ?=
bench-real: build
	$(GO) run ./internal/bench/cmd/benchreal -ucs $(BIN) -models v5 -task -probe -out bin/bench-real $(BENCHREAL)
	$(GO) run ./internal/bench/cmd/benchreal -ucs $(BIN) -models v4,v2 -parallel 2 -out bin/bench-real/v4-v2 $(BENCHREAL)

# The dashboard at issue 20's scale: ucs view on a workspace of 100,000
# entries (built, or VIEWWS=DIR), its page's size, and how long chromium
# takes to open and draw it.
bench-view: build
	$(GO) run ./internal/bench/cmd/benchview -ucs $(BIN) $(if $(VIEWWS),-workspace $(VIEWWS))

# A PostgreSQL store against a directory (issue 21), on a throwaway local
# cluster: the median report, and 8 agents reporting at once.
bench-store: build
	$(GO) run ./internal/bench/cmd/benchstore -ucs $(BIN)

# Runs every fuzz target for FUZZTIME each (make fuzz FUZZTIME=5m).
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

# The binaries (go install: ucs, ucs-mcp and ucs-pg) and the skill (~/.openclaw/skills/ucs, or SKILLS_DIR).
SKILLS_DIR ?=
install:
	CGO_ENABLED=0 $(GO) install $(BUILDFLAGS) ./cmd/ucs ./cmd/ucs-mcp ./cmd/ucs-pg
	bin=$$($(GO) env GOBIN); [ -n "$$bin" ] || bin=$$($(GO) env GOPATH)/bin; \
	"$$bin/ucs" skill install $(if $(SKILLS_DIR),--dir $(SKILLS_DIR))

# Checks SKILL.md's frontmatter against the Agent Skills rules (a Go test,
# parsing it with yaml.v3: ucs itself never parses YAML), then installs the
# skill into a temporary folder and runs the reference validator (npm
# skills-ref) and ucs skill check on it; says so and passes where npm cannot
# reach its registry.
skill-validate: build
	$(GO) test -count=1 -run 'TestRepositorySkillFrontmatter|TestIdentify|TestValidate' ./skill
	./scripts/skill-validate.sh $(BIN)

clean:
	rm -rf bin
