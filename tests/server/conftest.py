"""Databases for the server tests: SQLite always; PostgreSQL from ``TEST_DATABASE_URL``.

A PostgreSQL test gets a database of its own (created and dropped here).  Without
``TEST_DATABASE_URL`` (or ``TEST_REDIS_URL`` for the Redis tests) the test is skipped on a
developer's machine and FAILS in CI, where ``.ci/run`` starts both services.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def need(variable: str) -> str:
    value = os.environ.get(variable)
    if not value:
        message = f"{variable} is not set (.ci/run starts PostgreSQL and Redis and sets it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return value


def _postgres(admin_url: str) -> Iterator[str]:
    import psycopg

    name = "ct_" + secrets.token_hex(6)
    admin = admin_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base, _, _ = admin.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        _drop(admin, name)


def _drop(admin: str, name: str, attempts: int = 50) -> None:
    """Drop a test database.  ``WITH (FORCE)`` ends the tests' own connections, but not an
    autovacuum worker that happens to be in the new database (it belongs to the server's
    superuser, not to the test role): the drop then fails with InsufficientPrivilege
    until the worker leaves, which takes a moment.  Retried for up to ten seconds, then
    the error stands."""
    import psycopg

    for attempt in range(attempts):
        try:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except psycopg.errors.InsufficientPrivilege:
            if attempt == attempts - 1:
                raise
            time.sleep(0.2)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The same tests on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ct.sqlite3'}"
        return
    yield from _postgres(need("TEST_DATABASE_URL"))


@pytest.fixture
def redis_url() -> str:
    return need("TEST_REDIS_URL")


@pytest.fixture
def redis_prefix() -> str:
    """A Redis key prefix of this test's own (``CARDTABLE_REDIS_PREFIX``): tests that run
    at the same time share one Redis, and derived table ids (daily deals, rematches) are
    the same in each, so their processes must not hear one another."""
    return "ct-test-" + secrets.token_hex(4)


@pytest.fixture
def shared_database_url(tmp_path: Path) -> Iterator[str]:
    """PostgreSQL for the multi-process tests."""
    yield from _postgres(need("TEST_DATABASE_URL"))
