"""A real Fieldline server for the client's tests: the compiled server (as `npm start` runs it) on a free
port with a temporary data dir, the embedded queue and the real engine; one account and one API token
created through the API, as a user would on the dashboard."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[3]
ENGINE_PYTHON = REPO / ".venv" / "bin" / "python"


@dataclass
class Account:
    origin: str
    email: str
    password: str
    cookie: str
    token: str

    def session(self) -> httpx.Client:
        return httpx.Client(base_url=self.origin, headers={"cookie": self.cookie}, timeout=60)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(extra_env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str, Path]:
    subprocess.run(["node", "scripts/build-server.mjs"], cwd=REPO, check=True)
    port = _free_port()
    data_dir = Path(tempfile.mkdtemp(prefix="fieldline-pyclient-"))
    origin = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DATA_DIR": str(data_dir),
        "PUBLIC_ORIGIN": origin,
        "LOG_LEVEL": "warn",
        "COMPUTE_BACKEND": "embedded",
        "JOB_SLOTS": "2",
        "FIELDLINE_THREADS": "1",
        # New accounts start at zero, so a 402 is reachable; the test account buys tokens (test-mode checkout).
        "WELCOME_GRANT_TOKENS": "0",
        # A 1 MB upload cap makes a 413 cheap to reach.
        "MAX_UPLOAD_MB": "1",
        **(extra_env or {}),
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen(
        ["node", "--enable-source-maps", "server/dist/main.js", "serve"], cwd=REPO, env=env, stdout=sys.stderr
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(f"{origin}/api/docs", timeout=2).status_code == 200:
                return proc, origin, data_dir
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    proc.terminate()
    raise RuntimeError("the server did not start in 90 s")


def stop_server(proc: subprocess.Popen[bytes], data_dir: Path) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    shutil.rmtree(data_dir, ignore_errors=True)


def register(origin: str) -> tuple[str, str, str]:
    """A new account through POST /api/auth/register; returns (email, password, cookie)."""
    tag = uuid.uuid4().hex[:10]
    email = f"engineer.{tag}@analytical-engines.com"
    password = "correct horse battery staple"
    reply = httpx.post(
        f"{origin}/api/auth/register",
        json={
            "name": "Script Engineer",
            "email": email,
            "username": f"py_{tag}",
            "password": password,
            "acceptedTerms": True,
        },
        timeout=60,
    )
    assert reply.status_code == 201, reply.text
    cookie = reply.headers["set-cookie"].split(";")[0]
    return email, password, cookie


def buy_tokens(origin: str, cookie: str, quantity: int = 10) -> None:
    """Buys tokens through the built-in test-mode checkout, as the Billing page does without Stripe."""
    headers = {"cookie": cookie}
    started = httpx.post(
        f"{origin}/api/purchase-tokens", json={"quantity": quantity}, headers=headers, timeout=30
    )
    assert started.status_code == 200, started.text
    checkout_id = started.json()["checkout_url"].rsplit("/", 1)[1]
    done = httpx.post(f"{origin}/api/checkout/local/{checkout_id}/complete", headers=headers, timeout=30)
    assert done.status_code == 200, done.text


def create_token(origin: str, cookie: str, scope: str = "run", name: str = "pytest") -> str:
    reply = httpx.post(
        f"{origin}/api/user/tokens",
        json={"name": name, "scope": scope},
        headers={"cookie": cookie},
        timeout=30,
    )
    assert reply.status_code == 201, reply.text
    token = reply.json()["token"]
    assert token.startswith("fl_")
    return str(token)


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    url = os.environ.get("FIELDLINE_TEST_URL")
    if url:  # an already running server (e.g. `npm start`), for quick iterations
        yield url
        return
    proc, origin, data_dir = start_server()
    try:
        yield origin
    finally:
        stop_server(proc, data_dir)


@pytest.fixture(scope="session")
def account(server: str) -> Account:
    email, password, cookie = register(server)
    buy_tokens(server, cookie)
    return Account(server, email, password, cookie, create_token(server, cookie))


@pytest.fixture()
def client(account: Account) -> Iterator[object]:
    from fieldline import Client

    with Client(account.origin, account.token) as c:
        yield c


@pytest.fixture(scope="session")
def models_dir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="fieldline-models-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
