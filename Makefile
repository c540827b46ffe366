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
e2e-deps:
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

e2e: e2e-deps
	cargo build -p switchboard
	cd web && npm run e2e

bench: web e2e-deps
	cargo bench -p switchboard --bench foundation
	cargo bench -p switchboard --bench workloads
	cargo bench -p boards
	cargo bench -p sessions
	cd web && npm run bench:engine
	cargo build --release -p switchboard
	cd web && SWITCHBOARD_BIN=../target/release/switchboard npx vitest run --config vitest.e2e.config.ts e2e/dashboard-scale.e2e.ts
