/**
 * Real mail servers for the mail e2e, as crates/mail's test rig starts them: Debian's dovecot
 * (plain IMAP on loopback, the SPECIAL-USE folders made at once) run from a temporary folder, and
 * the rig's aiosmtpd relay (crates/mail/src/rig/smtp_relay.py, from the repository's Python
 * virtualenv) handing every mail to dovecot's LMTP for the one user. Mail is delivered over SMTP
 * by a plain SMTP conversation on a socket, as any client would.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./harness";

const repoRoot = resolve(import.meta.dirname, "../..");
const DOVECOT = process.env.SWITCHBOARD_DOVECOT ?? "/usr/sbin/dovecot";
const PYTHON = process.env.SWITCHBOARD_MAIL_PYTHON ?? join(repoRoot, "target/pyenv/bin/python");
const RELAY = join(repoRoot, "crates/mail/src/rig/smtp_relay.py");

export const ADDRESS = "agent@switchboard.test";
export const PASSWORD = "rig-secret";

export interface MailRig {
  imapPort: number;
  smtpPort: number;
  /** Sends a raw RFC 822 message from `from` to the rig's user over SMTP. */
  deliver(from: string, raw: string): Promise<void>;
  /** Every message in the user's Maildir, in any folder, as text. */
  messages(): string[];
  stop(): void;
}

const id = (...args: string[]) => execFileSync("id", args, { encoding: "utf8" }).trim();

/** Whether the programs are here; the reason when not, so the file can say why it skips. */
export function mailRigMissing(): string | null {
  if (!existsSync(DOVECOT)) return `${DOVECOT} is missing (make mail-deps)`;
  if (!existsSync(PYTHON)) return `${PYTHON} is missing (make py-deps)`;
  return null;
}

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () => {
      socket.end();
      done(true);
    });
    socket.on("error", () => done(false));
  });
}

/** A plain SMTP conversation: one command, one reply, in order. */
async function smtpSend(port: number, from: string, to: string, raw: string): Promise<void> {
  const socket = createConnection({ host: "127.0.0.1", port });
  let buffer = "";
  const waiting: ((line: string) => void)[] = [];
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    // A reply is done at a line whose code is followed by a space (not "250-").
    for (;;) {
      const end = buffer.search(/^\d{3} .*\r\n/m);
      if (end < 0) break;
      const lineEnd = buffer.indexOf("\r\n", end);
      const reply = buffer.slice(0, lineEnd);
      buffer = buffer.slice(lineEnd + 2);
      waiting.shift()?.(reply);
    }
  });
  const reply = () => new Promise<string>((done) => waiting.push(done));
  const expectCode = async (code: string, sent: string) => {
    const text = await reply();
    if (!text.split("\r\n").at(-1)?.startsWith(code)) throw new Error(`SMTP ${sent} answered ${text}`);
  };
  const command = async (line: string, code: string) => {
    const answered = expectCode(code, line);
    socket.write(`${line}\r\n`);
    await answered;
  };
  await expectCode("220", "greeting");
  await command("EHLO e2e.test", "250");
  await command(`MAIL FROM:<${from}>`, "250");
  await command(`RCPT TO:<${to}>`, "250");
  await command("DATA", "354");
  const body = raw.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
  await command(`${body}\r\n.`, "250");
  await command("QUIT", "221");
  socket.end();
}

export async function startMailRig(): Promise<MailRig> {
  const root = mkdtempSync(join(tmpdir(), "switchboard-mail-e2e-"));
  const asRoot = id("-u") === "0";
  const uid = Number(asRoot ? id("-u", "dovecot") : id("-u"));
  const gid = Number(asRoot ? id("-g", "dovecot") : id("-g"));
  const internal = asRoot ? "dovecot" : id("-un");
  const internalGroup = asRoot ? "dovecot" : id("-gn");
  const login = asRoot ? "dovenull" : id("-un");
  const home = join(root, "mail");
  mkdirSync(home);
  if (asRoot) {
    chmodSync(root, 0o755);
    chownSync(home, uid, gid);
  }
  // The relay's STARTTLS wants a certificate; the test speaks plain SMTP and never asks for it.
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"].concat([
      "-keyout",
      join(root, "key.pem"),
      "-out",
      join(root, "cert.pem"),
    ]),
    { stdio: "ignore" },
  );
  writeFileSync(join(root, "passwd"), `${ADDRESS}:{PLAIN}${PASSWORD}:${uid}:${gid}::${home}::\n`);
  const [imapPort, smtpPort] = [await freePort(), await freePort()];
  const folders = ["Sent", "Drafts", "Archive", "Junk", "Trash"]
    .map((name) => `  mailbox ${name} {\n    special_use = \\${name}\n    auto = subscribe\n  }`)
    .join("\n");
  writeFileSync(
    join(root, "dovecot.conf"),
    `base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
default_internal_user = ${internal}
default_internal_group = ${internalGroup}
default_login_user = ${login}
first_valid_uid = 1
first_valid_gid = 1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${root}/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%u ${root}/passwd
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0666
  }
}
service anvil {
  chroot =
}
namespace inbox {
  inbox = yes
${folders}
}
`,
  );
  const children: ChildProcess[] = [spawn(DOVECOT, ["-F", "-c", join(root, "dovecot.conf")], { stdio: "ignore" })];
  const lmtp = join(root, "run", "lmtp");
  children.push(
    // With the password, the relay offers AUTH as a submission server does: an account added in
    // the page always signs in to send.
    spawn(PYTHON, [RELAY, String(smtpPort), lmtp, ADDRESS, join(root, "cert.pem"), join(root, "key.pem"), PASSWORD], {
      stdio: "ignore",
    }),
  );
  const deadline = Date.now() + 15_000;
  while (!((await listening(imapPort)) && (await listening(smtpPort)) && existsSync(lmtp))) {
    if (Date.now() > deadline) {
      const log = existsSync(join(root, "dovecot.log")) ? readFileSync(join(root, "dovecot.log"), "utf8") : "";
      throw new Error(`the mail rig did not start:\n${log}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  const maildir = join(home, "Maildir");
  return {
    imapPort,
    smtpPort,
    deliver: (from, raw) => smtpSend(smtpPort, from, ADDRESS, raw),
    messages() {
      const found: string[] = [];
      const walk = (dir: string) => {
        if (!existsSync(dir)) return;
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else if (/\/(new|cur)\/[^/]+$/.test(path)) found.push(readFileSync(path, "utf8"));
        }
      };
      walk(maildir);
      return found;
    },
    stop() {
      for (const child of children) child.kill();
    },
  };
}
