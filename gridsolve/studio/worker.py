"""The worker process of a studio job: ``python -m gridsolve.studio.worker`` reads
``{"task": NAME, "params": {...}}`` on standard input and writes JSON lines
``["progress", [text, fraction]]``, then ``["done", result]`` or ``["error", {"error": ...}]``."""
from __future__ import annotations

import json
import sys


def main() -> None:
    from .tasks import run_task
    request = json.loads(sys.stdin.read())

    def put(message) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()
    run_task(request["task"], request["params"], put)


if __name__ == "__main__":
    main()
