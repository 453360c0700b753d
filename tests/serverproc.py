"""Start a real ``cardtable serve`` process on a free loopback port (for server/e2e tests)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """A server subprocess; ``url`` is its base URL."""

    def __init__(
        self,
        data: Path,
        env: Mapping[str, str] | None = None,
        port: int | None = None,
        module: str = "cardtable.cli.main",
    ):
        self.data = data
        self.module = module
        data.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "CARDTABLE_DATA": str(data),
            "CARDTABLE_BOT_DELAY": "0",
            "CARDTABLE_LEAVE_GRACE": "1",
            **(env or {}),
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", self.module, "serve", "--port", str(self.port)],
            env=self.env,
            stdout=(self.data / "server.log").open("ab"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = (self.data / "server.log").read_text()
                raise RuntimeError(f"server exited: {out}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Player:
    """A player (a cookie token) talking to a server over HTTP and websockets."""

    def __init__(self, server: ServerProcess, token: str) -> None:
        self.server = server
        self.token = token

    def create(self, **body: Any) -> str:
        """Create a table; its id."""
        data = json.dumps(body).encode()
        req = urllib.request.Request(
            self.server.url + "/api/tables",
            data=data,
            headers={"Content-Type": "application/json", "Cookie": f"ct_player={self.token}"},
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return str(json.loads(r.read())["id"])

    def connect(self, table_id: str, lang: str = "en") -> Socket:
        """A websocket to a table."""
        from websockets.sync.client import connect

        stack = contextlib.ExitStack()
        ws = stack.enter_context(
            connect(
                f"ws://127.0.0.1:{self.server.port}/ws/{table_id}?lang={lang}",
                additional_headers={"Cookie": f"ct_player={self.token}"},
                open_timeout=10,
            )
        )
        return Socket(ws, stack)


class Socket:
    """A websocket client that keeps every frame it received."""

    def __init__(self, ws: Any, stack: contextlib.ExitStack) -> None:
        self.ws = ws
        self.stack = stack
        self.frames: list[str] = []
        self.last: dict[str, Any] = {}

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        self.frames.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] in ("state", "update"):
            self.last = msg
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such message")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def hello(self, version: int | None = None) -> dict[str, Any]:
        self.send({"type": "hello", "version": version})
        return self.until(lambda m: m["type"] in ("state", "update"))

    def error(self, message: Any) -> dict[str, Any]:
        """Send something that must be rejected; the error."""
        self.send(message)
        return self.until(lambda m: m["type"] == "error")

    def close(self) -> None:
        self.stack.close()
