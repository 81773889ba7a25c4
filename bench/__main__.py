"""The runner: ``python -m bench --list`` names the benchmarks, ``python -m bench NAME [options]``
runs one (its module as a script, with those options).  Run it from the repository's folder."""
from __future__ import annotations

import runpy
import sys

from .cases import case_of, cases


def listing() -> str:
    found = cases()
    width = max(map(len, found))
    lines = []
    for name, case in found.items():
        lines.append(f"{name:<{width}}  {case.measures}")
        more = [f"-> {case.results}" if case.results else "prints its table",
                f"quickest: python -m bench {name} {case.quick}".rstrip()]
        if case.needs:
            more.append(f"needs {case.needs}")
        lines.append(f"{'':<{width}}  " + "; ".join(more))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip().replace("``", "`") + "\n\n" + listing())
        return 0 if argv else 2
    if argv[0] == "--list":
        print(listing())
        return 0
    name, options = argv[0], argv[1:]
    if case_of(name) is None:
        print(f"python -m bench: no benchmark '{name}'; `python -m bench --list` names them", file=sys.stderr)
        return 2
    sys.argv = [f"python -m bench {name}", *options]
    sys.modules.pop(f"bench.{name}")          # (run afresh as __main__, as `python -m bench.NAME` runs it)
    runpy.run_module(f"bench.{name}", run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
