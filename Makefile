# The two commands a newcomer needs: `make run` starts Switchboard, `make test`
# runs every test. Both work on a fresh clone with Rust, Node 20 and npm; the
# end-to-end tests install Debian's Chromium when it is missing.

.PHONY: run test web web-deps web-test rust-test e2e e2e-deps bench

run: web
	cargo run --release -p switchboard -- serve --demo

test: web web-test rust-test e2e

web-deps:
	cd web && npm ci --no-audit --no-fund

web: web-deps
	cd web && npm run build

web-test:
	cd web && npm test

rust-test:
	cargo test --workspace

# playwright-core drives the system Chromium; it never downloads a browser.
# apt needs root: sudo when the tests are not run as root.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
e2e-deps:
	@command -v chromium >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

e2e: e2e-deps
	cargo build -p switchboard
	cd web && CHROMIUM_PATH=$$(command -v chromium) npm run e2e

bench: web e2e-deps
	cargo bench -p switchboard --bench foundation
	cargo bench -p switchboard --bench workloads
	cargo bench -p boards
	cargo bench -p sessions
	cd web && npm run bench:engine
	cargo build --release -p switchboard
	cd web && CHROMIUM_PATH=$$(command -v chromium) SWITCHBOARD_BIN=../target/release/switchboard npx vitest run --config vitest.e2e.config.ts e2e/dashboard-scale.e2e.ts
