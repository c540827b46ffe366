# The two commands a newcomer needs: `make run` starts Switchboard, `make test`
# runs every check CI runs. Both work on a fresh clone with Rust (rustup),
# Node 20 with npm and Python 3: the targets below install what else they need
# (rustfmt and clippy, the web app's packages, git for the worktree tests, the
# pinned Python tools in a virtualenv, Debian's Chromium for the end-to-end tests).
# The machine's steps (git-, e2e-, mail-, ssh-, dbus-, py-, calendar- and
# engines-deps) are each `tools/deps.py install STEP`: it checks every piece
# that step's tests use (each program, each dovecot service, each pinned Python
# and npm package), installs exactly the packages of the missing ones, saying
# "installing dovecot-lmtpd for /usr/lib/dovecot/lmtp", then checks again;
# with everything there it prints nothing. apt runs through sudo when the steps
# are not run as root. `tools/deps.py check STEP` only reports.

.PHONY: run test build checks style rust-deps rust-style web-deps web-style web web-test rust-test rust-test-run git-deps py-deps engines-deps mail-deps calendar-deps ssh-deps dbus-deps test-engines api-check e2e e2e-deps bench screens fuzz fuzz-deps

# Incremental compilation's cache was half of a fresh `make test`'s target
# (3.7 of 7.6 GB) and pays off only when one crate is rebuilt again and again,
# which `cargo` run by hand still does; the runs here start cold or rebuild
# whole crates.
export CARGO_INCREMENTAL := 0

run: web
	cargo run --release -p switchboard -- serve --demo

# Style first: a formatting slip fails the run before the long suites start.
# tools/steps.sh runs the steps in turn and prints each one's wall time.
# Compiling keeps both cores busy, so it runs alone (`style`, `build`); the
# three suites that run programs mostly wait on them (the Rust tests on the
# servers and engines they start, the API check on Schemathesis's requests,
# the browser tests on Chromium), so `checks` runs them side by side on what
# `build` made, each one's output printed whole when it ends.
TEST_STEPS := style web-test build checks
test:
	@MAKE="$(MAKE)" tools/steps.sh $(TEST_STEPS)

# The test build also links target/debug/switchboard, the binary the API check
# and the browser tests run: a separate `cargo build -p switchboard` resolved
# features without the dev-dependencies and compiled the server's whole
# dependency chain a second time (a minute and a gigabyte on a fresh clone).
build: web git-deps py-deps engines-deps e2e-deps mail-deps calendar-deps ssh-deps dbus-deps
	cargo test --workspace --no-run

checks:
	@$(MAKE) --no-print-directory -j3 --output-sync=target rust-test-run api-check e2e

style: rust-style web-style

# rustup's default profile has both; a minimal one does not.
rust-deps:
	@cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1 || rustup component add rustfmt clippy

# One check-mode build of the whole workspace, all targets, lints as errors.
# It once ran per package, to prove each builds with only its own dependency
# features: on a fresh clone that rebuilt the shared dependencies under each
# package's feature set, 5 of CI's 8 minutes of style, and `make test` must
# stay under 20 minutes there. Feature sets are the workspace's own
# ([workspace.dependencies]), so a package that leans on another's features
# is rare, and `cargo test -p <package>` shows it at once.
rust-style: rust-deps
	cargo fmt --all --check
	cargo clippy --quiet --workspace --all-targets -- -D warnings

# Installed again only when the lockfile changes: each step of `make test`
# is a make of its own, and four of them need the web app's packages.
web-deps: web/node_modules/.package-lock.json
web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

web-style: web-deps
	cd web && npm run typecheck
	cd web && npm run lint
	cd web && npm run format:check

# Built again only when a source of the web app changed.
WEB_SOURCES := $(shell find web/src web/public web/wasm -type f 2>/dev/null) web/index.html web/vite.config.ts web/engineLoops.config.ts web/tsconfig.json web/package.json
web: web/dist/index.html
web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SOURCES)
	cd web && npm run build

web-test: web-deps
	cd web && npm test

# The worktree tests run the real git on repositories they make; the engine
# conformance suite (the `engines` test of package switchboard) runs the
# pinned real CLIs, and must find them: SWITCHBOARD_ENGINES_REQUIRED turns
# its skip into a failure. The mail tests (crates/mail's rig) run the real
# dovecot and aiosmtpd, and SWITCHBOARD_MAIL_REQUIRED does the same for them;
# the calendar tests run a real Radicale, and SWITCHBOARD_CALENDAR_REQUIRED
# does the same for it; the drives and sheets tests run a real WsgiDAV
# (SWITCHBOARD_DRIVES_REQUIRED), the documents and sheets tests read back with
# python-docx and openpyxl (SWITCHBOARD_OFFICE_REQUIRED), and the messenger
# tests run a real Synapse (SWITCHBOARD_MATRIX_REQUIRED), all from target/pyenv.
# The runner tests (crates/cli/tests/runners.rs) log into a real sshd on
# loopback as a separate local user, which only root can run and add (CI is
# root): there SWITCHBOARD_SSH_REQUIRED makes a missing sshd a failure too;
# anyone else's run skips them, saying so.
SSH_REQUIRED := $(shell [ "$$(id -u)" = 0 ] && echo SWITCHBOARD_SSH_REQUIRED=1)
ENGINE_TEST_ENV := SWITCHBOARD_ENGINES_DIR=$(CURDIR)/target/engines/node_modules/.bin SWITCHBOARD_ENGINES_REQUIRED=1 SWITCHBOARD_MAIL_REQUIRED=1 SWITCHBOARD_CALENDAR_REQUIRED=1 SWITCHBOARD_DRIVES_REQUIRED=1 SWITCHBOARD_OFFICE_REQUIRED=1 SWITCHBOARD_MATRIX_REQUIRED=1 $(SSH_REQUIRED)
rust-test: git-deps py-deps engines-deps mail-deps calendar-deps ssh-deps dbus-deps web
	$(ENGINE_TEST_ENV) cargo test --workspace

# The same, on what `make build` compiled.
rust-test-run:
	$(ENGINE_TEST_ENV) cargo test --workspace

# The conformance suite alone: the real Claude Code and Codex CLIs driven
# through Switchboard against scripted model APIs (docs/engines.md).
test-engines: engines-deps
	$(ENGINE_TEST_ENV) cargo test -p switchboard --test engines

# playwright-core drives the system Chromium; it never downloads a browser.
DEPS := python3 tools/deps.py
e2e-deps:
	@$(DEPS) install e2e

# Debian's dovecot, the IMAP server (dovecot-imapd) and the LMTP server
# (dovecot-lmtpd, which aiosmtpd from py-deps delivers into) of the mail
# tests; each test runs its own dovecot from a temporary folder, as root or
# not. A machine can have one without the other, hence a check per service.
mail-deps:
	@$(DEPS) install mail

# Radicale from PyPI, the CalDAV server of the calendar tests
# (crates/calendar/tests/rig): target/radicale, a virtualenv of its own beside
# py-deps' one; a package whose pinned version is not there is installed
# again. Each test runs its own Radicale on a loopback port with a temporary
# folder and htpasswd users.
calendar-deps:
	@$(DEPS) install calendar

# Debian's OpenSSH server, the runner host of the SSH runner tests: each test
# runs its own sshd on a loopback port, as root, for a separate local user.
# The runner connects with openssh-client's ssh; the tests make keys with its
# ssh-keygen.
ssh-deps:
	@$(DEPS) install ssh

# Debian's dbus-daemon, the private system bus on which the keep-awake
# tests serve logind's inhibitors (standins::logind).
dbus-deps:
	@$(DEPS) install dbus

# target/pyenv, a virtualenv of its own, so the machine's Python stays as it
# was; a package whose pinned version (tools/python/requirements.txt) is not
# there is installed, the others stay. Debian's python3 makes virtualenvs only
# with its python3-venv package, which comes first when missing.
py-deps:
	@$(DEPS) install py

# The Claude Code and Codex CLIs the conformance suite runs, at the versions
# tools/engines pins, in a folder of their own (target/engines, not the web
# app's node_modules): a CLI not there at its pinned version, or without its
# command in node_modules/.bin, is installed by `npm install` from the copied
# lockfile, the other left as it is. Claude Code's postinstall puts its
# native binary in place: package.json's allowScripts names it, as npm 11
# wants before it runs a dependency's install script (it only warns today; it
# will refuse later). Without it `claude` is a stub that fails, so the
# `--version` runs after an install fail the target. Claude Code asks for
# Node 22 but the native binary needs no Node: npm's engine warning is
# harmless.
engines-deps:
	@$(DEPS) install engines

# Schemathesis checks docs/openapi.json against a live debug server: no 5xx,
# every status documented, every body matching its schema (tools/api-check.sh
# says which runs and why; about three minutes).
# After the web build: a debug binary built before web/dist exists embeds no
# web app, and the e2e target's own build would then have nothing to redo.
api-check: py-deps web
	cargo build -p switchboard
	tools/api-check.sh

git-deps:
	@$(DEPS) install git

e2e: e2e-deps web
	cargo build -p switchboard
	cd web && CHROMIUM_PATH=$$(command -v chromium) npm run e2e

# Every page at 1440 and 390 px wide in both themes, as PNGs in docs/screens/ with a README
# listing them, photographed from a fresh `serve --demo` (web/e2e/screens.ts, built as the
# engine benchmark is). Not part of `make test`: run it when the pages change, and commit.
screens: e2e-deps web
	cargo build -p switchboard
	cd web && npx vite build --ssr e2e/screens.ts --outDir node_modules/.cache/screens --emptyOutDir --logLevel warn
	cd web && CHROMIUM_PATH=$$(command -v chromium) SWITCHBOARD_BIN=$(CURDIR)/target/debug/switchboard node node_modules/.cache/screens/screens.js $(CURDIR)/docs/screens

# The parsers of outside input fuzzed with cargo-fuzz (libFuzzer): each
# target of fuzz/fuzz_targets for FUZZ_SECONDS (default 60), one after the
# other, with memory and input size capped (docs/security.md, "Fuzzing").
# Not part of `make test`, which replays every saved input instead
# (crates/fuzzing/tests/replay.rs). cargo-fuzz needs nightly flags:
# RUSTC_BOOTSTRAP=1 lets the stable toolchain take them. `-O` builds
# fuzz/Cargo.toml's release profile, which keeps debug assertions and
# overflow checks. No sanitizer: the parsers are safe Rust, and a panic is
# what the targets look for. The run starts from the
# seeds in fuzz/corpus/<target> and keeps the inputs it finds that reach new
# code in fuzz/target/grown/<target> (not committed: the seeds stay small);
# a crash is written to fuzz/artifacts/<target> and the run stops there.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = $(basename $(notdir $(wildcard fuzz/fuzz_targets/*.rs)))
fuzz-deps:
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

fuzz: fuzz-deps
	cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build -O --sanitizer none
	@for target in $(FUZZ_TARGETS); do \
		echo "fuzz: $$target for $(FUZZ_SECONDS) s"; \
		mkdir -p fuzz/target/grown/$$target; \
		(cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O --sanitizer none $$target \
			target/grown/$$target corpus/$$target -- \
			-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -malloc_limit_mb=2048 \
			-max_len=262144 -timeout=10 -print_final_stats=1) || exit 1; \
	done

# The conformance suite's wall time is one of the figures: how long the real
# CLIs through Switchboard cost `make test`.
bench: web e2e-deps engines-deps ssh-deps mail-deps py-deps
	@start=$$(date +%s); $(MAKE) --no-print-directory test-engines >/dev/null 2>&1 || { echo "conformance suite failed"; exit 1; }; \
		echo "conformance suite (make test-engines, built): $$(( $$(date +%s) - start )) s wall"
	cargo bench -p switchboard --bench foundation
	cargo bench -p switchboard --bench bulk
	cargo bench -p switchboard --bench workloads
	cargo bench -p switchboard --bench stream
	cargo bench -p switchboard --bench inbox
	cargo bench -p switchboard --bench pm_events
	cargo bench -p switchboard --bench session_inbox
	cargo bench -p switchboard --bench hook
	cargo bench -p switchboard --bench returning
	cargo bench -p switchboard --bench mcp
	cargo bench -p switchboard --bench runners
	$(ENGINE_TEST_ENV) cargo bench -p switchboard --bench engine_hook
	$(ENGINE_TEST_ENV) cargo bench -p switchboard --bench titles
	$(ENGINE_TEST_ENV) cargo bench -p switchboard --bench messenger
	$(ENGINE_TEST_ENV) cargo bench -p switchboard --bench email
	cargo bench -p tasks --bench merge
	cargo bench -p friction --bench scan
	$(ENGINE_TEST_ENV) cargo bench -p switchboard --bench scale
	cargo bench -p switchboard --bench sessions_list
	cargo bench -p switchboard --bench line_cpu
	cargo bench -p governor
	cargo bench -p boards
	cargo bench -p sessions
	cargo bench -p sandbox
	cargo bench -p app_proxy --bench proxy
	SWITCHBOARD_MAIL_REQUIRED=1 cargo bench -p mailclient --bench sync
	cargo bench -p feeds --bench poll
	cargo bench -p runners --bench listener_flood
	cd web && npm run bench:engine
	cargo build --release -p switchboard
	cd web && CHROMIUM_PATH=$$(command -v chromium) SWITCHBOARD_BIN=../target/release/switchboard npm run bench:dashboard
	cd web && CHROMIUM_PATH=$$(command -v chromium) SWITCHBOARD_BIN=../target/release/switchboard npm run bench:sessions
	cd web && CHROMIUM_PATH=$$(command -v chromium) SWITCHBOARD_BIN=../target/release/switchboard npm run bench:work
