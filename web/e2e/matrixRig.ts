/**
 * A real Matrix homeserver for the messenger e2e test: Synapse from `target/pyenv` (`make py-deps`),
 * configured as `crates/matrix/tests/rig` configures it (SQLite in a fresh folder, a free loopback
 * port, no federation, registration by shared secret only), with users registered by Synapse's own
 * script and driven over the client-server API with `fetch`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./harness";

const PYTHON = resolve(import.meta.dirname, "../../target/pyenv/bin/python");
const SHARED_SECRET = "e2e-registration-secret";

export interface Synapse {
  url: string;
  /** Registers `user` (no admin) through the shared secret. */
  register: (user: string, password: string) => void;
  /** Signs `user` in; their access token. */
  login: (user: string, password: string) => Promise<string>;
  /** A client-server API call (`/_matrix/client/v3` + `path`) with `token`. */
  call: (method: string, path: string, token: string, body?: unknown) => Promise<Record<string, unknown>>;
  stop: () => void;
}

export async function startSynapse(): Promise<Synapse> {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run \`make py-deps\``);
  const importable = spawnSync(PYTHON, ["-c", "import synapse.app.homeserver"], { stdio: "ignore" });
  if (importable.status !== 0) throw new Error(`${PYTHON} cannot import synapse: run \`make py-deps\``);
  const root = mkdtempSync(join(tmpdir(), "synapse-e2e-"));
  const port = await freePort();
  const config = join(root, "homeserver.yaml");
  writeFileSync(
    config,
    [
      "server_name: localhost",
      `pid_file: ${root}/homeserver.pid`,
      "listeners:",
      `  - port: ${port}`,
      "    bind_addresses: ['127.0.0.1']",
      "    type: http",
      "    tls: false",
      "    resources:",
      "      - names: [client]",
      "        compress: false",
      "database:",
      "  name: sqlite3",
      "  args:",
      `    database: ${root}/homeserver.db`,
      `log_config: ${root}/log.yaml`,
      `media_store_path: ${root}/media`,
      `signing_key_path: ${root}/signing.key`,
      `registration_shared_secret: ${SHARED_SECRET}`,
      "enable_registration: false",
      "report_stats: false",
      "federation_domain_whitelist: []",
      "trusted_key_servers: []",
      "suppress_key_server_warning: true",
      "presence:",
      "  enabled: false",
      "rc_login:",
      "  address: {per_second: 100, burst_count: 100}",
      "  account: {per_second: 100, burst_count: 100}",
      "  failed_attempts: {per_second: 100, burst_count: 100}",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(root, "log.yaml"),
    "version: 1\nformatters:\n  plain:\n    format: '%(asctime)s %(name)s %(levelname)s %(message)s'\nhandlers:\n  console:\n    class: logging.StreamHandler\n    formatter: plain\nroot:\n  level: WARNING\n  handlers: [console]\ndisable_existing_loggers: false\n",
  );
  const keys = spawnSync(PYTHON, ["-m", "synapse.app.homeserver", "-c", config, "--generate-keys"]);
  if (keys.status !== 0) throw new Error(`Synapse made no keys: ${keys.stderr.toString()}`);
  const log = join(root, "synapse.log");
  writeFileSync(log, "");
  const child: ChildProcess = spawn(PYTHON, ["-m", "synapse.app.homeserver", "-c", config], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => writeFileSync(log, chunk, { flag: "a" }));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      child.kill();
      throw new Error(`Synapse did not start: ${readFileSync(log, "utf8")}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const reply = await fetch(`${url}/_matrix/client/v3${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await reply.json()) as Record<string, unknown>;
    if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  return {
    url,
    register: (user, password) => {
      const made = spawnSync(PYTHON, [
        "-m",
        "synapse._scripts.register_new_matrix_user",
        "-u",
        user,
        "-p",
        password,
        "--no-admin",
        "-k",
        SHARED_SECRET,
        url,
      ]);
      if (made.status !== 0) throw new Error(`registering ${user}: ${made.stderr.toString()}`);
    },
    login: async (user, password) => {
      const reply = await fetch(`${url}/_matrix/client/v3/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          type: "m.login.password",
          identifier: { type: "m.id.user", user },
          password,
        }),
      });
      const answer = (await reply.json()) as { access_token?: string };
      if (answer.access_token === undefined) throw new Error(`${user} could not sign in: ${JSON.stringify(answer)}`);
      return answer.access_token;
    },
    call,
    stop: () => child.kill(),
  };
}
