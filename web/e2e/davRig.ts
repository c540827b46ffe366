/**
 * A real WebDAV server for the e2e tests of drives and sheets: WsgiDAV from `target/pyenv`
 * (`make py-deps`) sharing a fresh folder with one user and a password (basic auth), on a free
 * loopback port, killed by `stop`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, setSetting, type RunningServer } from "./harness";

const WSGIDAV = resolve(import.meta.dirname, "../../target/pyenv/bin/wsgidav");

export interface DavRig {
  /** The share's URL, ending in `/`. */
  url: string;
  /** The shared folder on disk. */
  share: string;
  stop: () => void;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1");
  });
}

/** Starts WsgiDAV for `user` with `password`; `fill` puts files in the share first. */
export async function startDav(user: string, password: string, fill?: (share: string) => void): Promise<DavRig> {
  if (!existsSync(WSGIDAV)) throw new Error(`${WSGIDAV} is missing: run \`make py-deps\``);
  const dir = mkdtempSync(join(tmpdir(), "dav-e2e-"));
  const share = join(dir, "root");
  mkdirSync(share);
  fill?.(share);
  const port = await freePort();
  const config = {
    host: "127.0.0.1",
    port,
    provider_mapping: { "/": { root: share, readonly: false } },
    http_authenticator: { domain_controller: null, accept_basic: true, accept_digest: false, default_to_digest: false },
    simple_dc: { user_mapping: { "*": { [user]: { password } } } },
    dir_browser: { enable: false },
    lock_storage: true,
    verbose: 1,
  };
  writeFileSync(join(dir, "wsgidav.json"), JSON.stringify(config));
  const dav = spawn(WSGIDAV, ["--config", join(dir, "wsgidav.json")], { stdio: "ignore" });
  const started = Date.now();
  while (!(await listening(port))) {
    if (Date.now() - started > 20_000) {
      dav.kill();
      throw new Error("WsgiDAV did not start");
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  return { url: `http://127.0.0.1:${port}/`, share, stop: () => dav.kill() };
}

/** Turns the drives on and adds the WebDAV drive `main` at `url`. */
export async function addDrive(server: RunningServer, url: string, username: string, password: string): Promise<void> {
  await setSetting(server, "driveEnabled", true);
  const added = await server.api("POST", "/drives", { kind: "webdav", url, username, password });
  if (added.status !== 201) throw new Error(`the drive was not added: ${added.status} ${JSON.stringify(added.body)}`);
}
