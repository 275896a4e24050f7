"""A throwaway PostgreSQL server for the tests of the PostgreSQL store: its own cluster in a temporary
folder, on a free loopback port, stopped and deleted at the end of the run.

Debian's ``postgresql`` package provides the programs (``initdb``, ``pg_ctl``; `.ci/run`
installs it where it is missing). PostgreSQL refuses to run as root, so as root the
cluster runs as the ``postgres`` user the package creates. Where no programs or no such
user are found, `start_cluster` says why, and the tests that need it are skipped with that reason.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

WAIT = 60.0  # seconds the cluster may take to start


class ClusterUnavailable(Exception):
    """Why no PostgreSQL server can be started here (the skip's reason)."""


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))  # Debian keeps them out of PATH
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One running PostgreSQL server; `database` makes an empty database and returns its URL."""

    def __init__(self) -> None:
        initdb, self.pg_ctl = _program("initdb"), _program("pg_ctl")
        if initdb is None or self.pg_ctl is None:
            raise ClusterUnavailable(
                "PostgreSQL's initdb and pg_ctl are not installed (Debian: apt-get install postgresql)"
            )
        self.user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise ClusterUnavailable("running as root and there is no postgres user to run PostgreSQL as") from None
            self.user = "postgres"
        self.root = Path(tempfile.mkdtemp(prefix="tapete-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.count = 0
        if self.user is not None:
            shutil.chown(self.root, self.user)
        self._run(initdb, "-D", str(self.data), "-A", "trust", "-U", "tapete", "--no-sync", "-E", "UTF8")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off -c max_connections=200"
        self._run(self.pg_ctl, "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "start")

    def _run(self, *cmd: str) -> None:
        full = ["runuser", "-u", self.user, "--", *cmd] if self.user else list(cmd)
        done = subprocess.run(full, capture_output=True, text=True, timeout=WAIT, check=False)
        if done.returncode != 0:
            raise ClusterUnavailable(f"{Path(cmd[0]).name} failed: {(done.stderr or done.stdout).strip()[-300:]}")

    @property
    def base(self) -> str:
        return f"postgresql://tapete@127.0.0.1:{self.port}"

    def database(self) -> str:
        """A new, empty database of its own (one per test)."""
        import psycopg

        self.count += 1
        name = f"t{self.count}"
        with psycopg.connect(f"{self.base}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"{self.base}/{name}"

    def restart(self) -> None:
        """Stop and start the server again (every connection to it breaks)."""
        self._run(self.pg_ctl, "-D", str(self.data), "-l", str(self.root / "log"), "-m", "fast", "-w", "restart")

    def stop(self) -> None:
        try:
            self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except ClusterUnavailable:
            pass
        deadline = time.monotonic() + 5
        while (self.data / "postmaster.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        shutil.rmtree(self.root, ignore_errors=True)


def start_cluster() -> Cluster:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise ClusterUnavailable("psycopg is not installed (pip install 'tapete[postgres]')") from None
    return Cluster()
