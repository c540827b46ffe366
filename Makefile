# The two commands a newcomer needs: `make run` starts Switchboard, `make test`
# runs every test. Both work on a fresh clone with Rust, Node 20 and npm.

.PHONY: run test web web-deps rust-test web-test bench

run: web
	cargo run --release -p switchboard -- serve --demo

test: web web-test rust-test

web-deps:
	@if [ -f web/package.json ]; then cd web && npm ci --no-audit --no-fund; fi

web: web-deps
	@if [ -f web/package.json ]; then cd web && npm run build; fi

web-test:
	@if [ -f web/package.json ]; then cd web && npm test; fi

rust-test:
	cargo test --workspace

bench: web
	cargo bench -p switchboard --bench foundation
