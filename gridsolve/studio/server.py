"""``gridsolve studio``: the local web server of the level studio (Starlette, run by uvicorn).

The page (``assets/``: one HTML, one JS, one CSS file, no build step) asks the JSON API
below; every request passes the :class:`~gridsolve.studio.security.Guard` first.

* ``GET /api/boards``: the board files of the served folder;
* ``GET /api/board?board=NAME``: a board's level, roles, marks, picture and version;
* ``POST /api/answer``: the answer to a question on an edited level: at once from the warm
  game graph (:mod:`gridsolve.studio.live`) where it applies, else a job;
* ``POST /api/jobs``, ``GET``/``DELETE /api/jobs/ID``: critical walls, verify, generate and
  slow answers in worker processes, with progress, cancellable (:mod:`gridsolve.studio.jobs`);
* ``POST /api/save``: the level written back into its file (:mod:`gridsolve.studio.files`);
* ``POST /api/play``, ``GET``/``POST /api/play/ID``: playtests (:mod:`gridsolve.studio.playtest`).

Errors are JSON ``{"error": ..., "hint": ...}`` with a 4xx status, never a traceback.
"""
from __future__ import annotations

import json
import socket
import sys
import threading
import webbrowser
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import GridsolveError
from ..language.enemylist import kinds_of
from ..language.loader import load_board
from ..language.model import Board
from ..language.position import QUERY_KINDS, initial_position
from ..solve.common.answer import Question
from ..solve.common.capabilities import STUDIO, STUDIO_SCRIPTED, choose
from ..solve.common.limits import Limits
from ..svg import role_colours
from .answers import payload, picture, question
from .files import Folder, StudioError, save, version_of
from .jobs import Jobs
from .level import apply_level, level_of, optional_marks
from .live import LiveGraph, moves_from
from . import ruled
from .playtest import Playtests
from .security import Guard, hosts_for, new_token
from ..language.kinds import QueryKind

ASSETS = {"studio.js": "text/javascript", "studio.css": "text/css"}
MAX_BODY = 1_000_000
MAX_DEPTH = 32         # how deep a request's JSON may nest (a level's walls: 5)
GRAPHS_KEPT = 3        # warm game graphs kept (the boards opened last)
BOARDS_KEPT = 32       # boards read (a file's versions count apart)


def asset(name: str) -> str:
    return resources.files("gridsolve.studio").joinpath("assets", name).read_text(encoding="utf-8")


class Studio:
    """What one server keeps: the folder, the boards read, the warm graphs, jobs and playtests."""

    def __init__(self, root: Path, first: str | None = None, limits: Limits | None = None):
        self.folder = Folder(root)
        self.first = first
        self.limits = limits or Limits()       # every question's, here and in the jobs' workers
        self.jobs = Jobs(self.limits.memory)
        self.playtests = Playtests(self.limits)
        self.boards: dict[tuple, Board] = {}
        self.graphs: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def open(self, name) -> tuple[Path, str, Board]:
        """The board file ``name`` as it is on disk now: its path, its version and the board."""
        path, text = self.folder.read(name)
        version = version_of(text)
        with self.lock:
            board = self.boards.get((path, version))
        if board is None:
            board = load_board(path)
            with self.lock:
                self.boards[(path, version)] = board
                while len(self.boards) > BOARDS_KEPT:
                    del self.boards[next(iter(self.boards))]
        return path, version, board

    def graph(self, path: Path, version: str, board: Board) -> tuple[list, threading.Lock]:
        """The warm graph of the board file at ``version`` with ``board``'s marks: a holder
        ``[LiveGraph or None]`` and its lock (the graph is built under that lock, on first use,
        so that other requests do not wait for it)."""
        key = (path, version, tuple(sorted(board.marks.items())))
        with self.lock:
            if key in self.graphs:
                self.graphs.move_to_end(key)
                return self.graphs[key]
            entry = self.graphs[key] = ([None], threading.Lock())
            while len(self.graphs) > GRAPHS_KEPT:
                self.graphs.popitem(last=False)
            return entry


async def body(request: Request) -> dict:
    """The request's JSON object; a body that is too large (413), is not UTF-8 JSON, is not an
    object or nests deeper than MAX_DEPTH is a StudioError that says what is wrong (400)."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise StudioError("the request is too large", status=413)
    hint = "send a JSON object"
    try:
        data = json.loads(raw or b"{}")
        deep = _nesting(data) > MAX_DEPTH
    except RecursionError:         # nested past Python's recursion limit: json cannot read it
        deep = True
    except UnicodeDecodeError as exc:
        raise StudioError(f"the request body is not UTF-8 text ({exc.reason} at byte {exc.start})", hint) from None
    except ValueError as exc:
        raise StudioError(f"the request body is not JSON ({exc})", hint) from None
    if deep:
        raise StudioError(f"the request body nests arrays and objects more than {MAX_DEPTH} deep",
                          f"{hint} nested at most {MAX_DEPTH} deep")
    if not isinstance(data, dict):
        raise StudioError("the request body must be a JSON object", hint)
    return data


def _nesting(data) -> int:
    """How deep ``data`` nests lists and dicts (1 for a flat one; counted without recursion,
    and no further than one past MAX_DEPTH)."""
    deepest, todo = 0, [(data, 1)]
    while todo and deepest <= MAX_DEPTH:
        value, depth = todo.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            todo += [(inner, depth + 1) for inner in (value.values() if isinstance(value, dict) else value)]
    return deepest


def _choice(value, allowed, what: str, default=None):
    if value is None:
        return default
    if value not in allowed:
        raise StudioError(f"{what}: {str(value)[:40]} is not one of {', '.join(allowed)}")
    return value


def _board_info(studio: Studio, name: str) -> dict:
    path, version, board = studio.open(name)
    rules = board.rules
    return {"board": studio.folder.relative(path), "name": board.name, "version": version,
            "level": level_of(board), "roles": list(rules.roles), "marks": sorted(board.marks),
            "pieces": list(rules.pieces), "chasers": list(rules.chasers), "optional_pieces":
                [p for p in rules.pieces if p in rules.optional], "optional_marks": optional_marks(board),
            "gates": rules.gate_key is not None, "enemy_kinds": list(kinds_of(board)),
            "exit_edges": rules.one_mover_script,
            "kinds": list(QUERY_KINDS), "unplaced": dict(board.unplaced),
            "glyphs": {k: v for k, v in board.legend.items()}, "width": board.width, "height": board.height,
            "solid": sorted(list(c) for c in board.solid),
            "scores": {role: rules.scores_of(role) for role in rules.roles},
            "colours": role_colours(board),
            **picture(board, initial_position(board))}


def _edited(studio: Studio, data: dict) -> tuple[Path, str, Board, Board]:
    path, version, original = studio.open(data.get("board"))
    return path, version, original, apply_level(original, data.get("level"))


def answer(studio: Studio, data: dict) -> dict:
    path, version, original, board = _edited(studio, data)
    role = _choice(data.get("role"), board.rules.roles, "role", board.rules.roles[0])
    kind = QueryKind(_choice(data.get("kind"), QUERY_KINDS, "kind", QueryKind.VALUE))
    query = question(board, role, kind)
    view = picture(board, query.position)
    chosen = choose(Question(board, query, studio.limits), STUDIO)     # in the request, else in a worker
    if chosen == STUDIO_SCRIPTED:
        return {**view, "answer": payload(board, query, *ruled.answer(board, query, studio.limits))}
    if chosen is None:
        job = studio.jobs.start("answer", {"path": str(path), "level": data.get("level"), "role": role, "kind": kind})
        return {**view, "job": job.as_dict()}
    holder, lock = studio.graph(path, version, board)
    with lock:
        if holder[0] is None:
            holder[0] = LiveGraph(board, [])
        graph = holder[0]
        graph.set_walls(board.north, board.east)
        found = graph.answer(query)
        moves_to = moves_from(graph, query)
    return {**view, "answer": payload(board, query, found, moves_to)}


def start_job(studio: Studio, data: dict) -> dict:
    kind = data.get("job")
    path, version, original, board = _edited(studio, data)
    params = {"path": str(path), "name": studio.folder.relative(path), "level": data.get("level"),
              "role": _choice(data.get("role"), board.rules.roles, "role", board.rules.roles[0]),
              "kind": QueryKind(_choice(data.get("kind"), QUERY_KINDS, "kind", QueryKind.VALUE))}
    if kind == "generate":
        options = data.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(v, (str, int, float, type(None)))
                                                    for v in options.values()):
            raise StudioError("options: expected an object of plain values")
        out = options.get("out") or "generated"
        target = studio.folder.resolve(f"{out}/x.yaml", must_exist=False).parent
        params.update(out=str(target), options={k: v for k, v in options.items() if k != "out"})
    return studio.jobs.start(kind if isinstance(kind, str) else "", params).as_dict()


def job_view(studio: Studio, job) -> dict:
    out = job.as_dict()
    if job.kind == "generate" and job.state == "done":
        out["result"] = {**job.result, "boards": [studio.folder.relative(Path(p)) for p in job.result["boards"]]}
    return out


def play(studio: Studio, data: dict) -> dict:
    path, version, original, board = _edited(studio, data)
    roles = data.get("as") or [board.rules.roles[0]]
    if not isinstance(roles, list) or not roles or any(r not in board.rules.roles for r in roles):
        raise StudioError("as: expected a list of roles", f"roles are: {', '.join(board.rules.roles)}")
    seed = data.get("seed", 1)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise StudioError("seed: expected a whole number")
    return studio.playtests.start(board, set(roles), seed, initial_position(board)).as_dict()


def create_app(root: Path, token: str, hosts: set[str], first: str | None = None,
               limits: Limits | None = None) -> Guard:
    """The studio serving ``root`` behind its guard (``token``; ``hosts``: the allowed Host
    headers); ``limits`` bound every question it asks."""
    studio = Studio(root, first, limits)

    async def page(request: Request):
        return Response(asset("studio.html"), media_type="text/html",
                        headers={"Cache-Control": "no-store", "X-Frame-Options": "DENY",
                                 "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                                            "style-src 'self' 'unsafe-inline'"})

    async def static(request: Request):
        name = request.path_params["name"]
        if name not in ASSETS:
            raise StudioError(f"no asset {name[:40]}", status=404)
        return Response(asset(name), media_type=ASSETS[name])

    async def boards(request: Request):
        return JSONResponse({"folder": str(studio.folder.root), "boards": studio.folder.boards(),
                             "first": studio.first})

    def board(request: Request):
        return JSONResponse(_board_info(studio, request.query_params.get("board")))

    async def answer_route(request: Request):
        data = await body(request)
        return JSONResponse(await run_in_threadpool(answer, studio, data))

    async def jobs_route(request: Request):
        data = await body(request)
        return JSONResponse(await run_in_threadpool(start_job, studio, data))

    def job_route(request: Request):
        job_id = request.path_params["job"]
        job = studio.jobs.cancel(job_id) if request.method == "DELETE" else studio.jobs.get(job_id)
        return JSONResponse(job_view(studio, job))

    async def save_route(request: Request):
        data = await body(request)

        def run():
            path, version, original = studio.open(data.get("board"))
            edited = apply_level(original, data.get("level"))
            given = data.get("version")
            if not isinstance(given, str):
                raise StudioError("version: the version of the file the page opened is missing")
            _, new_version = save(studio.folder, studio.folder.relative(path), given, edited, original)
            return {"board": studio.folder.relative(path), "version": new_version}
        return JSONResponse(await run_in_threadpool(run))

    async def play_route(request: Request):
        data = await body(request)
        return JSONResponse(await run_in_threadpool(play, studio, data))

    async def game_route(request: Request):
        game = studio.playtests.get(request.path_params["game"])
        if request.method == "POST":
            data = await body(request)
            line = data.get("input")
            if not isinstance(line, str) or not line.strip() or len(line) > 200 or "\n" in line:
                raise StudioError("input: expected one line: a move, hint, quit or the cells to place")
            game.send(line.strip())
        return JSONResponse(game.as_dict())

    async def studio_error(request: Request, exc: StudioError):
        return JSONResponse({"error": exc.message, "hint": exc.hint}, status_code=exc.status)

    async def gridsolve_error(request: Request, exc: GridsolveError):
        return JSONResponse({"error": str(exc), "hint": None}, status_code=400)

    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": exc.detail, "hint": None}, status_code=exc.status_code)

    async def internal_error(request: Request, exc: Exception):
        return JSONResponse({"error": f"internal error ({type(exc).__name__}); please report it", "hint": None},
                            status_code=500)

    async def no_icon(request: Request):
        return Response(status_code=204)

    routes = [Route("/", page), Route("/favicon.ico", no_icon), Route("/assets/{name}", static), Route("/api/boards", boards),
              Route("/api/board", board), Route("/api/answer", answer_route, methods=["POST"]),
              Route("/api/jobs", jobs_route, methods=["POST"]),
              Route("/api/jobs/{job}", job_route, methods=["GET", "DELETE"]),
              Route("/api/save", save_route, methods=["POST"]), Route("/api/play", play_route, methods=["POST"]),
              Route("/api/play/{game}", game_route, methods=["GET", "POST"])]
    app = Starlette(routes=routes, exception_handlers={StudioError: studio_error, GridsolveError: gridsolve_error,
                                                       HTTPException: http_error, Exception: internal_error})
    app.state.studio = studio
    return Guard(app, token, hosts)


def serve(target: Path, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True,
          echo=print, limits: Limits | None = None) -> None:
    """Serve the folder ``target`` (or the folder of the board file ``target``, opened first)
    until interrupted; prints the address with the run's token."""
    import uvicorn
    target = Path(target)
    if target.is_file():
        root, first = target.resolve().parent, target.name
        if target.suffix.lower() not in (".yaml", ".yml"):
            raise StudioError(f"{target}: not a .yaml or .yml board file")
    elif target.is_dir():
        root, first = target.resolve(), None
    else:
        raise StudioError(f"{target}: no such file or folder", "give a board file or a folder of boards")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)        # before the address is printed: a browser opened at once is answered
    except OSError as exc:
        sock.close()
        raise StudioError(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                          "choose another --port (0: any free port)") from None
    port = sock.getsockname()[1]
    token = new_token()
    app = create_app(root, token, hosts_for(host, port), first, limits)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/?token={token}" + (f"&board={quote(first)}" if first else "")
    echo(f"gridsolve studio: serving {root}")
    echo(f"open {url}")
    echo("(stop with Ctrl+C)")
    sys.stdout.flush()
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        app.app.state.studio.jobs.shutdown()
