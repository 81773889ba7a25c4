"""Longer computations in worker processes: each shows its progress and can be cancelled.

A job runs one task of :mod:`gridsolve.studio.tasks` in a fresh Python process
(``python -m gridsolve.studio.worker``: the server's threads are never forked), which reads its
parameters as JSON on standard input and writes one JSON message a line: progress, then the
result or the error.  The page polls :meth:`Jobs.get` and may :meth:`Jobs.cancel` a job, which
ends its process: the server never waits on a long computation, and the page never freezes.
"""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path

from .files import StudioError, found

MAX_RUNNING = 3          # jobs running at once (the machine's cores are few)
KEEP_FINISHED = 50       # finished jobs whose results are kept for the page to read
TASK_NAMES = ("answer", "walls", "verify", "generate")


class Job:
    def __init__(self, kind: str, params: dict):
        self.kind = kind
        self.id = secrets.token_hex(8)
        self.state = "running"                  # running, done, error, cancelled
        self.progress: list[str] = []
        self.fraction: float | None = None
        self.result = None
        self.error: dict | None = None
        self.started = time.monotonic()
        self.seconds = 0.0
        self.lock = threading.Lock()
        env = dict(os.environ)
        package_parent = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen([sys.executable, "-m", "gridsolve.studio.worker"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                        encoding="utf-8", env=env)
        self.process.stdin.write(json.dumps({"task": kind, "params": params}))
        self.process.stdin.close()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                kind, payload = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                if self.state != "running":
                    break
                if kind == "progress":
                    text, fraction = payload
                    if text:
                        self.progress = (self.progress + [text])[-20:]
                    if fraction is not None:
                        self.fraction = fraction
                elif kind == "done":
                    self.state, self.result = "done", payload
                else:
                    self.state, self.error = "error", payload
        code = self.process.wait()
        with self.lock:
            if self.state == "running":
                self.state, self.error = "error", {"error": f"the worker process ended without an answer "
                                                            f"(exit code {code})"}
            self.seconds = self.seconds or time.monotonic() - self.started

    def cancel(self) -> None:
        with self.lock:
            if self.state != "running":
                return
            self.state, self.seconds = "cancelled", time.monotonic() - self.started
        self.process.terminate()

    def as_dict(self) -> dict:
        with self.lock:
            return {"id": self.id, "kind": self.kind, "state": self.state, "progress": list(self.progress),
                    "fraction": self.fraction, "seconds": round(self.seconds or time.monotonic() - self.started, 2),
                    "result": self.result, "error": self.error}


class Jobs:
    """The jobs of one studio server."""

    def __init__(self, memory: int):
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.memory = memory        # the memory limit, passed to every job's worker with its params

    def start(self, kind: str, params: dict) -> Job:
        if kind not in TASK_NAMES:
            raise StudioError(f"no job named '{str(kind)[:40]}'", f"jobs are: {', '.join(TASK_NAMES)}", 404)
        with self.lock:
            running = [j for j in self.jobs.values() if j.state == "running"]
            if len(running) >= MAX_RUNNING:
                raise StudioError(f"{len(running)} computations are running already",
                                  "wait for one to finish, or cancel one", 429)
            job = Job(kind, {**params, "memory": self.memory})
            self.jobs[job.id] = job
            finished = [j for j in self.jobs.values() if j.state != "running"]
            for old in finished[:-KEEP_FINISHED]:
                del self.jobs[old.id]
            return job

    def get(self, job_id: str) -> Job:
        return found(self.jobs, job_id, "job", "it finished long ago or never started")

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        job.cancel()
        return job

    def shutdown(self) -> None:
        for job in list(self.jobs.values()):
            job.cancel()
