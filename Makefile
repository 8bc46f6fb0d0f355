# locksim — make targets. `make help` lists them.
GO      ?= go
PKGS    ?= ./...
TIMEOUT ?= 20m

# The commit every output records (internal/buildinfo): the go command
# stamps none in a linked git worktree, nor in what go run makes, so make
# tells the linker (empty outside git: the commit is then unknown).
REV     := $(shell git rev-parse --short=7 HEAD 2>/dev/null)$(shell git status --porcelain 2>/dev/null | grep -q . && echo -dirty)
LDFLAGS := -X github.com/locksim/locksim/internal/buildinfo.stamp=$(REV)

.PHONY: help build test race lint demo ci

help:
	@echo "make demo   run every pattern on embedded Redis (nothing to install)"
	@echo "make test   go test (starts real redis-servers itself when installed)"
	@echo "make race   go test -race"
	@echo "make lint   gofmt + go vet"
	@echo "make ci     what CI runs: install redis-server if missing, lint, race, the gate"
	@echo "make check  the correctness gate; make explore, make report, make bench, make rapid-deep, make fuzz"
	@echo "make bench-long  the benchmark sweep with longer, repeated runs (95% intervals); make bench-sim  the simulator's seeds/min"
	@echo "make real   real mode's agreement table on real redis-servers (reports/real/): every cell, about an hour on 2 cores"
	@echo "make real-stale  rerun only the table's stale cells (made by other lock code, scenarios, claims or oracles)"
	@echo "make real-clients  install what the reference clients of clients/ need (Debian's nodejs, npm, python3-redis; npm ci)"
	@echo "make real-langs  add the reference clients' rows (node-redlock, redis-semaphore, py-redis-lock) to reports/real, keeping its other cells"

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o locksim ./cmd/locksim

demo:
	$(GO) run ./cmd/locksim demo

test:
	$(GO) test -count=1 -timeout $(TIMEOUT) $(PKGS)

race:
	$(GO) test -race -count=1 -timeout $(TIMEOUT) $(PKGS)

lint:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

ci:
	bash .ci/run

# The CI gate: run the expectations matrix (internal/gate/expectations.txt);
# exit 1 on any deviation. CHECK_SEEDS overrides the seeds per cell.
CHECK_SEEDS ?= 40
.PHONY: check explore
check:
	$(GO) run -ldflags '$(LDFLAGS)' ./cmd/locksim check --seeds $(CHECK_SEEDS)

# Explore every pattern under every built-in scenario (reports, never
# fails); e.g. make explore EXPLORE_SEEDS=500 EXPLORE_ARGS="--pattern redlock --scenario all".
EXPLORE_SEEDS ?= 50
EXPLORE_ARGS  ?= --pattern all --scenario all
explore:
	$(GO) run -ldflags '$(LDFLAGS)' ./cmd/locksim explore $(EXPLORE_ARGS) --seeds $(EXPLORE_SEEDS)

# The comparison a team reads before choosing a pattern: every pattern under
# every built-in scenario (REPORT_SEEDS seeds each, REPORT_BASELINE_SEEDS for
# steady; the safety curves with REPORT_SWEEP_SEEDS per point; the production
# faults with REPORT_SEEDS, half as many for runs longer than a simulated second), with the latest benchmark from reports/bench and real mode's agreement table from reports/real, written to reports/
# (README.md, report.html, plots/, viz/). 17,716 simulations, about 80 s of CPU time
# (40 s without the production faults); wall time depends on the load.
REPORT_SEEDS          ?= 20
REPORT_BASELINE_SEEDS ?= 2
REPORT_SWEEP_SEEDS    ?= 10
.PHONY: report
report:
	$(GO) run -ldflags '$(LDFLAGS)' ./cmd/locksim report --out reports --bench reports/bench \
		--seeds $(REPORT_SEEDS) --baseline-seeds $(REPORT_BASELINE_SEEDS) \
		--sweep-seeds $(REPORT_SWEEP_SEEDS) --real reports/real

# rapid-deep: the simulator's property tests (sim/simprop) with more of
# everything — 1000 checks per property and per mutation hunt, three rapid
# seeds per hunt, a minute of shrinking each. Add SIMPROP_FLAGS=-simprop.update
# to keep smaller counterexamples in sim/simprop/testdata/counterexamples.
.PHONY: rapid-deep
rapid-deep:
	$(GO) test -count=1 -timeout 3h -v -run 'TestProperties|TestMutations' ./sim/simprop/ \
		-rapid.checks=1000 -rapid.shrinktime=60s -simprop.seeds=3 $(SIMPROP_FLAGS)

# Fuzz the scenario parser: it refuses a file or returns one within the
# limits (sim/scenario FuzzParseBounds), and what it accepts round-trips
# (FuzzParse). A new input is minimized for at most a second: minimizing
# for the default minute stalls the run (execs stop counting meanwhile).
FUZZ_TIME ?= 60s
.PHONY: fuzz
fuzz:
	$(GO) test -run x -fuzz '^FuzzParseBounds$$' -fuzztime $(FUZZ_TIME) -fuzzminimizetime 1s ./sim/scenario/
	$(GO) test -run x -fuzz '^FuzzParse$$' -fuzztime $(FUZZ_TIME) -fuzzminimizetime 1s ./sim/scenario/

# Benchmarks against real redis-servers (scripts/bench.sh starts 5 on free
# loopback ports): the sweep into reports/bench/ (about 5 minutes; tune with
# BENCH_DURATION, BENCH_WARMUP, BENCH_REPS), and the go test -bench per-call
# costs in benchstat format into reports/bench/micro.txt.
.PHONY: bench bench-micro bench-long bench-sim
bench:
	bash scripts/bench.sh

# bench-long: the same sweep, longer and quieter — 8 repetitions (enough for
# 95% intervals of every median and ratio) of 2s runs after 300ms of warm-up
# (about an hour on 2 cores; run it on an otherwise idle machine).
BENCH_LONG_REPS     ?= 8
BENCH_LONG_DURATION ?= 2s
BENCH_LONG_WARMUP   ?= 300ms
bench-long:
	BENCH_REPS=$(BENCH_LONG_REPS) BENCH_DURATION=$(BENCH_LONG_DURATION) BENCH_WARMUP=$(BENCH_LONG_WARMUP) \
		bash scripts/bench.sh

# bench-sim: the simulator's own speed, seeds/min per pattern at steady on
# one core (GOMAXPROCS 1), BENCH_SIM_REPS repetitions of BENCH_SIM_SEEDS
# seeds, into reports/bench/sim.md and sim.csv (a few minutes).
BENCH_SIM_SEEDS ?= 20
BENCH_SIM_REPS  ?= 6
bench-sim:
	$(GO) run ./bench/cmd/simbench --out reports/bench --seeds $(BENCH_SIM_SEEDS) --reps $(BENCH_SIM_REPS)

bench-micro:
	bash scripts/bench.sh micro

# Real mode's agreement table: every pattern × built-in scenario real mode
# can run, REAL_RUNS real runs (real redis-servers, client processes, real
# faults) beside REAL_SIM_SEEDS simulated seeds, plus rows for the lock
# libraries of bench/refs; written to reports/real/README.md. Needs
# redis-server. Every cell records a fingerprint of what decided it, and
# locksim report shows a cell made by other code as stale; real-stale
# reruns only those. Time, measured with the defaults on this 2-core
# machine: a cell of a 1s scenario takes 3.2s (5 runs, 2 at once; 20
# simulated seeds take milliseconds), node-clock-jump's (4s) about 14s,
# steady's (30s) about 92s, so about 135s a pattern over the 11 built-in
# scenarios: 15 correct patterns, about 40 minutes, the 6 Go libraries
# (the client clock faults refused them) about 13 more, and the 4
# reference clients of clients/ (REAL_LANGS) about 13 more: 66 minutes for
# the whole table on 2 cores at load 0.2-2.3 (2026-12-07).
REAL_RUNS     ?= 5
REAL_SIM_SEEDS ?= 20
REAL_PARALLEL ?= 2
REAL_LIBS     ?= redsync-1,redsync-5,redsync-setnx-1,redsync-setnx-5,redislock,rueidislock,$(REAL_LANGS)
# The libraries of other languages, through the reference clients of
# clients/ (make real-clients); 4 more rows, about 10 minutes.
REAL_LANGS    ?= node-redlock,node-redis-semaphore,node-redis-semaphore-sem,py-redis-lock
.PHONY: real
real: real-clients
	mkdir -p reports/real bin
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/locksim ./cmd/locksim
	cd bench/refs && $(GO) build -o ../../bin/locksim-real-client ./cmd/locksim-real-client
	bin/locksim real --table reports/real/README.md --runs $(REAL_RUNS) --sim-seeds $(REAL_SIM_SEEDS) \
		--parallel $(REAL_PARALLEL) --libraries $(REAL_LIBS) --lib-client bin/locksim-real-client

.PHONY: real-stale
real-stale: real-clients
	mkdir -p bin
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/locksim ./cmd/locksim
	cd bench/refs && $(GO) build -o ../../bin/locksim-real-client ./cmd/locksim-real-client
	bin/locksim real --table reports/real/README.md --merge --stale --runs $(REAL_RUNS) --sim-seeds $(REAL_SIM_SEEDS) \
		--parallel $(REAL_PARALLEL) --libraries $(REAL_LIBS) --lib-client bin/locksim-real-client

# The reference clients of other languages (clients/, docs/real-protocol.md):
# Debian's nodejs and npm (when node is missing), Debian's python3-redis
# (when /usr/bin/python3 cannot import redis), then the node packages at
# the versions clients/node/package-lock.json pins.
.PHONY: real-clients
real-clients:
	bash clients/install.sh

# Their rows in real mode's table, merged into reports/real (the other
# cells are kept): every built-in scenario real mode runs for them,
# REAL_RUNS runs each (about 10 minutes on 2 idle cores; 14 minutes at
# load 8-15).
.PHONY: real-langs
real-langs: real-clients
	mkdir -p bin
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/locksim ./cmd/locksim
	bin/locksim real --table reports/real/README.md --merge --runs $(REAL_RUNS) --sim-seeds $(REAL_SIM_SEEDS) \
		--parallel $(REAL_PARALLEL) --pattern $(REAL_LANGS) --libraries $(REAL_LANGS)
