"""The room's store under both databases: ``database`` is an SQLite file's path, then a fresh database on a
real PostgreSQL server (pg_kit, one server for the session); a test taking it runs once per backend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_kit import Postgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    server = Postgres()
    server.start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])   # a real server: slow
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if request.param == "sqlite":
        return tmp_path / "room.sqlite"
    server: Postgres = request.getfixturevalue("postgres")
    return server.database()
