# The image of a pool runner: `switchboard runner --connect ...` dialing out to
# a Switchboard server's runner listener, with the pinned Claude Code and Codex
# CLIs beside it (deploy/kubernetes/ runs it; docs/runners.md).
#
#   docker build -t switchboard-runner:0.1.0 .
#
# Every version is pinned, so that an image built next month runs what this
# one ran: the base images by exact tag (add `@sha256:` digests where a
# registry can be reached while editing; `latest` or a bare major moves under
# us), Debian's packages by version, Node by its image's tag, the engines at
# tools/engines/package.json's versions, the ones the conformance suite runs.
# crates/cli/tests/deploy.rs checks all of that against this very file.
#
# RUN --mount needs BuildKit, the default builder since Docker 23.

# Node: the web app's build tool, and the engines' runtime (Claude Code asks
# for Node 22 or later, the web app's Vite for 20.19 or later).
FROM node:24.19.0-trixie-slim AS node

# The web app, which the binary embeds when it is compiled
# (crates/server/src/routes/ui.rs).
FROM node AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

# The same Rust as rust-version in Cargo.toml, on the runtime's Debian, so the
# binary links against the glibc it runs with.
FROM rust:1.95.0-slim-trixie AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY crates crates
COPY --from=web /src/web/dist web/dist
# The caches keep crates and objects between builds; the binary is copied out
# of them because a cache mount is not part of the image.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p switchboard \
 && cp target/release/switchboard /usr/local/bin/switchboard

FROM debian:13.8-slim

# git for sessions' checkouts and worktrees, the public roots for the model
# APIs and git remotes, and tini as PID 1: it reaps what engines leave behind
# (every orphaned process is handed to PID 1, which must wait for it, and the
# runner is not written to). A Debian security update removes the version named here from the
# archive at the next point release; the build then fails, which is the cue to
# move the base tag and these versions together.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      ca-certificates=20250419+deb13u1 \
      git=1:2.47.3-0+deb13u1 \
      tini=0.19.0-3+b8 \
 && rm -rf /var/lib/apt/lists/*

# Node alone: npm is mounted only for the install below, so the image an
# engine runs in has no package manager.
COPY --from=node /usr/local/bin/node /usr/local/bin/node
# The engines at the versions tools/engines/package.json pins. Claude Code's
# postinstall puts its native binary in place of a stub, and the two version
# checks fail the build if it did not. npm's options are written `--name=value`
# so that every other word is a package (the deploy test reads them).
RUN --mount=type=bind,from=node,source=/usr/local/lib/node_modules/npm,target=/opt/npm \
    node /opt/npm/bin/npm-cli.js install --global --no-audit --no-fund --cache=/tmp/npm-cache \
      @anthropic-ai/claude-code@2.1.330 \
      @openai/codex@0.169.0 \
 && rm -rf /tmp/npm-cache \
 && claude --version \
 && codex --version

COPY --from=build /usr/local/bin/switchboard /usr/local/bin/switchboard

# A numeric USER, so that Kubernetes' runAsNonRoot can tell it is not root.
# HOME holds what must outlive the container (the turns' spools and the
# engines' homes, ~/.claude and ~/.codex, from which sessions resume): mount a
# persistent volume there.
RUN useradd --uid 10001 --user-group --create-home --home-dir /home/runner --shell /bin/bash runner
ENV HOME=/home/runner \
    DISABLE_AUTOUPDATER=1
USER 10001:10001
WORKDIR /home/runner

ENTRYPOINT ["tini", "--", "switchboard", "runner"]
