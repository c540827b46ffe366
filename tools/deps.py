#!/usr/bin/env python3
"""Every piece the tests of each Makefile install step use, checked one by one,
and the install of exactly the missing ones (`make mail-deps` and the rest).

One marker per step was not enough: a machine with Debian's dovecot-imapd but
not dovecot-lmtpd has `dovecot`, so the old `mail-deps` installed nothing and
the mail tests died on the missing /usr/lib/dovecot/lmtp (issue 66). Here each
step lists each program, file, pinned Python package and pinned npm package
its tests use, with the package that brings it.

    tools/deps.py check STEP...    prints each missing piece; exits 1 if any
    tools/deps.py install STEP...  installs the packages of the missing pieces,
                                   naming each, then checks again
    tools/deps.py pieces STEP...   lists every piece, one per line, tab-separated
                                   (kind, package, what, location, name, version)

STEP is a Makefile target without its `-deps`: git, dbus, ssh, mail, e2e, py,
calendar, engines. The machine is read at DEPS_ROOT (default /), programs are
looked up on PATH, and the virtualenvs and engines are under DEPS_TARGET
(default this clone's target/), so crates/tidy/tests/install_steps.rs runs the
check against a made-up machine. `install` refuses to run apt for any
DEPS_ROOT but /: apt would change the real machine, not that one.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROOT = Path(os.environ.get("DEPS_ROOT") or "/")
TARGET = Path(os.environ.get("DEPS_TARGET") or REPO / "target")
PY_REQUIREMENTS = REPO / "tools/python/requirements.txt"
CALENDAR_REQUIREMENTS = REPO / "crates/calendar/tests/rig/requirements.txt"
ENGINES_PINS = REPO / "tools/engines"


@dataclass(frozen=True)
class Piece:
    """One thing a step's tests use.

    kind is program (looked up on PATH, then in `extra_dirs` under the root),
    file (an executable at `location`), python (`name` at `version` in the
    virtualenv at `location`) or npm (`name` at `version` in the node_modules
    folder `location`). manager says how its package is installed: apt, venv
    (python3 -m venv), pip or npm.
    """

    kind: str
    manager: str
    package: str
    what: str
    location: Path
    name: str = "-"
    version: str = "-"
    extra_dirs: tuple = ()

    def missing(self):
        """None when the piece is there, else what is wrong ("" when it is absent)."""
        if self.kind == "program":
            dirs = os.environ.get("PATH", "").split(os.pathsep)
            dirs += [str(under_root(d)) for d in self.extra_dirs]
            found = any(is_executable(Path(d) / self.name) for d in dirs if d)
            return None if found else ""
        if self.kind == "file":
            return None if is_executable(self.location) else ""
        if self.kind == "python":
            found = installed_python_version(self.location, self.name)
        else:
            found = installed_npm_version(self.location)
        if found == self.version:
            return None
        return "" if found is None else f"{found} there"


def is_executable(path):
    return path.is_file() and os.access(path, os.X_OK)


def under_root(path):
    return ROOT / str(path).lstrip("/")


def shown(path):
    """A path under this clone relative to it, any other whole."""
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def normalized(name):
    return re.sub(r"[-_.]+", "_", name).lower()


def installed_python_version(venv, name):
    wanted = normalized(name)
    for site in sorted(venv.glob("lib/python3*/site-packages")):
        for entry in site.glob("*.dist-info"):
            dist, _, version = entry.name[: -len(".dist-info")].partition("-")
            if normalized(dist) == wanted:
                return version
    return None


def installed_npm_version(folder):
    try:
        return json.loads((folder / "package.json").read_text()).get("version")
    except (OSError, ValueError):
        return None


def apt_program(package, name, extra_dirs=()):
    where = " or in " + ", ".join(extra_dirs) if extra_dirs else ""
    return Piece(
        "program", "apt", package, f"{name} on PATH{where}", Path(name), name, extra_dirs=extra_dirs
    )


def apt_file(package, path):
    return Piece("file", "apt", package, path, under_root(path))


def virtualenv(venv, requirements):
    """The interpreter, then each pinned package (`name==version` lines)."""
    python = venv / "bin/python"
    pieces = [Piece("file", "venv", f"virtualenv {shown(venv)}", shown(python), python)]
    for line in requirements.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep:
            raise SystemExit(f"{shown(requirements)}: {line!r} is not pinned with ==")
        name, version = name.strip(), version.strip()
        pieces.append(
            Piece(
                "python",
                "pip",
                f"{name}=={version}",
                f"{name} {version} in {shown(venv)}",
                venv,
                name,
                version,
            )
        )
    return pieces


def engines():
    """Each pinned CLI at its version and each command it puts in .bin."""
    modules = TARGET / "engines/node_modules"
    pins = json.loads((ENGINES_PINS / "package.json").read_text())["dependencies"]
    locked = json.loads((ENGINES_PINS / "package-lock.json").read_text())["packages"]
    pieces = []
    for name, version in pins.items():
        package = f"{name}@{version}"
        folder = modules / name
        pieces.append(
            Piece("npm", "npm", package, f"{name} {version} in {shown(modules)}", folder, name, version)
        )
        for command in locked.get(f"node_modules/{name}", {}).get("bin", {}):
            path = modules / ".bin" / command
            pieces.append(Piece("file", "npm", package, shown(path), path))
    return pieces


def pieces_of(step):
    if step == "git":
        return [apt_program("git", "git")]
    if step == "dbus":
        return [apt_program("dbus-daemon", "dbus-daemon")]
    if step == "ssh":
        return [
            apt_file("openssh-server", "/usr/sbin/sshd"),
            apt_program("openssh-client", "ssh"),
            apt_program("openssh-client", "ssh-keygen"),
        ]
    if step == "mail":
        # The rig's dovecot serves imap and lmtp: the master runs doveconf,
        # then a binary per service, each from the package of its protocol.
        # The rig finds dovecot itself on PATH or in /usr/sbin, which is not
        # on every user's PATH.
        core = ["/usr/bin/doveconf"] + [
            f"/usr/lib/dovecot/{service}" for service in ("anvil", "auth", "config", "log", "stats")
        ]
        return (
            [apt_program("dovecot-core", "dovecot", ("/usr/sbin", "/usr/local/sbin"))]
            + [apt_file("dovecot-core", path) for path in core]
            + [apt_file("dovecot-imapd", f"/usr/lib/dovecot/{s}") for s in ("imap", "imap-login")]
            + [apt_file("dovecot-lmtpd", "/usr/lib/dovecot/lmtp")]
        )
    if step == "e2e":
        # /usr/bin/chromium is a script that starts this binary.
        return [apt_program("chromium", "chromium"), apt_file("chromium", "/usr/lib/chromium/chromium")]
    if step == "py":
        return virtualenv(TARGET / "pyenv", PY_REQUIREMENTS)
    if step == "calendar":
        return virtualenv(TARGET / "radicale", CALENDAR_REQUIREMENTS)
    if step == "engines":
        return engines()
    raise SystemExit(f"tools/deps.py: no step {step!r} (see the docstring)")


def missing_pieces(step):
    return [(piece, wrong) for piece in pieces_of(step) if (wrong := piece.missing()) is not None]


def line(piece, wrong):
    return f"missing {piece.package} for {piece.what}" + (f" ({wrong})" if wrong else "")


def run(command, **options):
    print("+ " + " ".join(str(part) for part in command), flush=True)
    subprocess.run([str(part) for part in command], check=True, **options)


def as_root(command):
    return command if os.geteuid() == 0 else ["sudo", *command]


def apt_install(packages):
    if ROOT != Path("/"):
        raise SystemExit(
            f"tools/deps.py: not installing {' '.join(packages)} with apt: DEPS_ROOT is {ROOT}, "
            "and apt installs into the real machine"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(as_root(["apt-get", "update", "-qq"]), env=env)
    # --reinstall: a package can be installed yet miss a file (removed by hand).
    run(as_root(["apt-get", "install", "-y", "-qq", "--reinstall", *packages]), env=env)


def install(step):
    missing = missing_pieces(step)
    if not missing:
        return
    by_package = {}
    for piece, _ in missing:
        by_package.setdefault(piece.package, []).append(piece)
    for package, pieces in by_package.items():
        print(f"{step}-deps: installing {package} for {', '.join(p.what for p in pieces)}", flush=True)
    managers = {piece.manager: [] for piece, _ in missing}
    for package, pieces in by_package.items():
        managers[pieces[0].manager].append(pieces[0])
    if "apt" in managers:
        apt_install([piece.package for piece in managers["apt"]])
    if "venv" in managers:
        venv = managers["venv"][0].location.parent.parent
        # Debian's python3 makes virtualenvs only with its python3-venv package.
        if subprocess.run(["python3", "-c", "import ensurepip"], capture_output=True).returncode:
            print(f"{step}-deps: installing python3-venv for python3 -m venv", flush=True)
            apt_install(["python3-venv"])
        run(["python3", "-m", "venv", venv])
    if "pip" in managers:
        venv = managers["pip"][0].location
        requirements = PY_REQUIREMENTS if step == "py" else CALENDAR_REQUIREMENTS
        specs = [piece.package for piece in managers["pip"]]
        pip = [venv / "bin/pip", "install", "--quiet", "--disable-pip-version-check"]
        run(pip + ["-c", requirements, *specs])
    if "npm" in managers:
        install_engines([piece for piece, _ in missing if piece.manager == "npm"])
    still = missing_pieces(step)
    if still:
        print("\n".join(f"{step}-deps: still {line(p, w)}" for p, w in still), file=sys.stderr)
        raise SystemExit(1)


def install_engines(missing):
    """npm installs what the lock names and node_modules lacks, nothing else.

    Removing the missing packages' folders and npm's record of the tree
    (node_modules/.package-lock.json) makes npm read the folder as it is, so a
    half-present package or a lost .bin link is installed again.
    """
    folder = TARGET / "engines"
    modules = folder / "node_modules"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(ENGINES_PINS / name, folder / name)
    for piece in missing:
        if piece.kind == "npm":
            shutil.rmtree(piece.location, ignore_errors=True)
    (modules / ".package-lock.json").unlink(missing_ok=True)
    run(["npm", "install", "--no-audit", "--no-fund"], cwd=folder)
    # Claude Code's postinstall swaps its stub for the native binary; a stub
    # that was not swapped fails here, not in the conformance suite.
    for command in sorted((modules / ".bin").iterdir()):
        run([command, "--version"])


def main(argv):
    if len(argv) < 2 or argv[0] not in ("check", "install", "pieces"):
        raise SystemExit(__doc__)
    action, steps = argv[0], argv[1:]
    if action == "pieces":
        for step in steps:
            for p in pieces_of(step):
                print("\t".join([p.kind, p.package, p.what, str(p.location), p.name, p.version]))
        return 0
    if action == "install":
        for step in steps:
            install(step)
        return 0
    reports = [line(p, w) for step in steps for p, w in missing_pieces(step)]
    for report in reports:
        print(report)
    return 1 if reports else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
