"""An arena run's journal: every finished game written down, so a stopped run resumes.

A long run (100 deals of ``expert`` against ``hard`` takes hours) can be stopped — a
reboot, a killed session, Ctrl-C — and started again with the same command: the jobs
already in the journal are read back instead of played again.  Jobs are pure functions of
their description (seeded deals, seeded bots), so a resumed run gives exactly the results
of an uninterrupted one.

The file is JSON lines.  The first line says what the results belong to: the arena's
configuration and a **fingerprint of the code** (the cardtable version and a hash of its
Python sources), because the same seeds played by other code give other games.  A
journal of another configuration or other code is refused, never mixed in.  Every other
line is one finished job: the job's description and its result.  A line cut short by a
crash (the last one) is ignored; the job is played again.

>>> import tempfile, pathlib
>>> from cardtable.arena.core import ArenaConfig, plan, run_job
>>> cfg = ArenaConfig("royal-casino", ("random", "medium"), deals=1, seed=3)
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.jsonl"
>>> journal = Journal.open(path, cfg, plan(cfg))
>>> len(journal.done)
0
>>> for job in plan(cfg):
...     journal.record(job, run_job(job))
>>> again = Journal.open(path, cfg, plan(cfg))
>>> sorted(again.done) == [j.index for j in plan(cfg)]
True
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from cardtable.arena.core import ArenaConfig, GameResult, Job
from cardtable.core.errors import InvalidOptionError

__all__ = ["FORMAT", "Journal", "code_fingerprint"]

FORMAT = 1
"""The journal format version, written in its first line."""

_FINGERPRINT: str | None = None


def code_fingerprint() -> str:
    """The cardtable version and a SHA-256 of every Python source file of the package.

    Compiled (mypyc) and pure builds of the same sources share a fingerprint: they play
    the same games (the test suite checks it).
    """
    global _FINGERPRINT
    if _FINGERPRINT is None:
        root = Path(__file__).resolve().parent.parent
        digest = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
        try:
            version = metadata.version("cardtable")
        except metadata.PackageNotFoundError:
            version = "unknown"
        _FINGERPRINT = f"{version}+{digest.hexdigest()[:16]}"
    return _FINGERPRINT


def _header(cfg: ArenaConfig) -> dict[str, Any]:
    return {"journal": FORMAT, "config": cfg.to_json(), "code": code_fingerprint()}


def _job_json(job: Job) -> dict[str, Any]:
    return {"index": job.index, "seed": job.seed, "seats": list(job.seats)}


def _result_from_json(data: dict[str, Any]) -> GameResult:
    return GameResult(
        int(data["index"]),
        int(data["deal"]),
        int(data["rotation"]),
        tuple(str(s) for s in data["seats"]),
        tuple(int(e) for e in data["entrant_of_seat"]),
        tuple(tuple(int(x) for x in side) for side in data["sides"]),
        tuple(int(x) for x in data["scores"]),
        tuple(int(x) for x in data["winners"]),
        int(data["units"]),
        int(data["actions"]),
    )


def _result_json(result: GameResult) -> dict[str, Any]:
    return {**result.to_json(), "entrant_of_seat": list(result.entrant_of_seat)}


@dataclass
class Journal:
    """An open journal: the results read back (``done``, by job index) and the file that
    each newly finished job is appended to (:meth:`record`)."""

    path: Path
    done: dict[int, GameResult] = field(default_factory=dict)
    _file: IO[str] | None = None

    @classmethod
    def open(cls, path: Path, cfg: ArenaConfig, jobs: Sequence[Job]) -> Journal:
        """Read the journal at ``path`` (created when missing) for this configuration and
        open it to record more jobs.

        Raises :class:`InvalidOptionError` when the file belongs to another configuration
        or to other code, or is not a journal.
        """
        journal = cls.read(path, cfg, jobs)
        if path.exists() and path.stat().st_size > 0:
            cut_short = not path.read_bytes().endswith(b"\n")
            journal._file = path.open("a", encoding="utf-8")
            if cut_short:
                journal._file.write("\n")  # end a line cut short, so the next one is whole
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            journal._file = path.open("w", encoding="utf-8")
            journal._write(_header(cfg))
        return journal

    @classmethod
    def read(cls, path: Path, cfg: ArenaConfig, jobs: Sequence[Job]) -> Journal:
        """The results recorded at ``path`` for this configuration, without opening the
        file for writing (a run may be appending to it); empty when there is no file."""
        header = _header(cfg)
        by_index = {job.index: job for job in jobs}
        journal = cls(path)
        if not path.exists() or path.stat().st_size == 0:
            return journal
        lines = path.read_text(encoding="utf-8").split("\n")
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError:
            first = None
        if not isinstance(first, dict) or first.get("journal") != FORMAT:
            raise InvalidOptionError(f"{path} is not an arena journal")
        if first.get("config") != header["config"]:
            raise InvalidOptionError(
                f"{path} is the journal of another run ({first.get('config')}); name another file"
            )
        if first.get("code") != header["code"]:
            raise InvalidOptionError(
                f"{path} was written by other code ({first.get('code')}, this is "
                f"{header['code']}): its games would not be these; name another file"
            )
        for line in lines[1:]:
            if not line:
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a crash: that job is played again
            job = by_index.get(int(entry["job"]["index"]))
            if job is None or entry["job"] != _job_json(job):
                raise InvalidOptionError(f"{path}: a job that this run does not plan")
            journal.done[job.index] = _result_from_json(entry["result"])
        return journal

    def _write(self, data: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def record(self, job: Job, result: GameResult) -> None:
        """Append one finished job (written through to the disk before returning)."""
        self._write({"job": _job_json(job), "result": _result_json(result)})
        self.done[job.index] = result

    def close(self) -> None:
        """Close the file (results already recorded stay)."""
        if self._file is not None:
            self._file.close()
            self._file = None
