"""A throwaway PostgreSQL cluster, for the tests and benchmarks that run the service on PostgreSQL.

It uses Debian's PostgreSQL binaries (``apt-get install postgresql``), listens on 127.0.0.1 only,
and trades durability for speed. Not used by the server itself.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import URL
from sqlalchemy.pool import NullPool

PG_SETTINGS = {
    # A throwaway cluster: speed over durability.
    "listen_addresses": "'127.0.0.1'",
    "unix_socket_directories": "''",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "16MB",
    "max_connections": "100",
    "logging_collector": "off",
}


@dataclass
class PgServer:
    """A PostgreSQL server the tests may create and drop databases on."""

    admin_url: URL
    admin: Engine = field(init=False)

    def __post_init__(self) -> None:
        self.admin = create_engine(self.admin_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)

    def create_database(self) -> str:
        name = f"t_{uuid.uuid4().hex}"
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        with self.admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def url_for(self, database: str) -> str:
        return self.admin_url.set(database=database).render_as_string(hide_password=False)


def find_pg_bin() -> Path | None:
    """The directory with initdb and pg_ctl: the newest Debian install, else the PATH."""

    def version(path: str) -> tuple[int, ...]:
        parts = Path(path).parts[-3].split(".")
        return tuple(int(p) for p in parts if p.isdigit())

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    candidates = [Path(p).parent for p in reversed(found)]
    if which := shutil.which("initdb"):
        candidates.append(Path(which).parent)
    for d in candidates:
        if (d / "initdb").is_file() and (d / "pg_ctl").is_file():
            return d
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """A throwaway PostgreSQL cluster in a temporary directory, on 127.0.0.1 and a free port.

    PostgreSQL refuses to run as root, so as root the binaries run as the ``postgres`` user (or
    ``nobody``) through ``runuser``, in a directory under /tmp that user owns (pytest's own temporary
    directories are private to root).
    """

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.prefix: list[str] = []
        owner: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    owner = pwd.getpwnam(name)
                    break
                except KeyError:
                    continue
            if owner is None:
                raise RuntimeError("running as root and there is no postgres or nobody user to run as")
            self.prefix = ["runuser", "-u", owner.pw_name, "--"]
        self.base = Path(tempfile.mkdtemp(prefix="interboard-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.password = secrets.token_hex(16)
        pwfile = self.base / "password"
        pwfile.write_text(self.password + "\n")
        if owner is not None:
            for p in (self.base, pwfile):
                os.chown(p, owner.pw_uid, owner.pw_gid)
        self.port = 0
        self.started = False

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=120, check=False)

    def check(self, proc: subprocess.CompletedProcess[str], what: str) -> None:
        if proc.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{what} failed ({proc.returncode}): {' '.join(map(str, proc.args))}\n"
                f"{proc.stdout}{proc.stderr}{log}"
            )

    def start(self) -> URL:
        proc = self.run(
            str(self.bin_dir / "initdb"),
            "-D", str(self.data),
            "-U", "postgres",
            "--auth=scram-sha-256",
            f"--pwfile={self.base / 'password'}",
            "-E", "UTF8",
            "--locale=C",
            "--no-sync",
        )  # fmt: skip
        self.check(proc, "initdb")
        (self.base / "password").unlink()
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("\n# interboard throwaway cluster\n")
            conf.writelines(f"{k} = {v}\n" for k, v in PG_SETTINGS.items())
        for attempt in range(5):  # another process may take the free port before the server does
            self.port = free_port()
            proc = self.run(
                str(self.bin_dir / "pg_ctl"),
                "-D", str(self.data),
                "-l", str(self.log),
                "-o", f"-p {self.port}",
                "-w", "-t", "60",
                "start",
            )  # fmt: skip
            if proc.returncode == 0:
                self.started = True
                break
            if attempt == 4 or "already in use" not in self.log.read_text(errors="replace"):
                self.check(proc, "pg_ctl start")
        return URL.create(
            "postgresql+psycopg",
            username="postgres",
            password=self.password,
            host="127.0.0.1",
            port=self.port,
            database="postgres",
        )

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        try:
            if self.started:
                self.run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)
