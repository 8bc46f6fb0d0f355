# locksim — make targets. `make help` lists them.
GO      ?= go
PKGS    ?= ./...
TIMEOUT ?= 20m

.PHONY: help build test race lint demo ci

help:
	@echo "make demo   run every pattern on embedded Redis (nothing to install)"
	@echo "make test   go test (starts real redis-servers itself when installed)"
	@echo "make race   go test -race"
	@echo "make lint   gofmt + go vet"
	@echo "make ci     what CI runs: install redis-server if missing, lint, race"

build:
	$(GO) build -o locksim ./cmd/locksim

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
