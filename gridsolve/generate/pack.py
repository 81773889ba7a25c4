"""A pack of generated levels: the levels ordered from the easiest to the hardest, an index
(PREFIX-index.md: one table of their metrics) and the difficulty curve (PREFIX-curve.svg).

The order: by the difficulty label (easy, medium, hard), then by how often the careful greedy
players lose it (``greedy_win`` and ``lookahead_win``, gridsolve/analysis/metrics.py; where the
metrics are measured); else by the share of the role's moves along the principal line that
lose the win; else as written.  The curve draws, for each level of the pack in that order,
the plies of its forced win (bars) and its hardness (a line: the label, 0 to 2, plus the
careful greedy players' mean loss probability; or the share of losing moves along the line),
in the style of :mod:`gridsolve.svg`.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..svg import ROLE_COLOURS, SVG_NS, sub_element
from .levelfile import scalar, write_new
from ..analysis.metrics import DIFFICULTY

WIDTH, HEIGHT, MARGIN = 520, 260, 48


def hardness(board) -> float:
    """How hard a written level is, for ordering a pack (higher: harder)."""
    if board.metrics is not None:
        metrics = board.metrics
        return DIFFICULTY.index(metrics.difficulty) + 1 - (metrics.greedy_win + metrics.lookahead_win) / 2
    if board.difficulty is not None:
        return board.difficulty.losing_share
    return 0.0


def ordered(boards: list) -> list:
    """The boards from the easiest to the hardest (ties: as written)."""
    return sorted(boards, key=hardness)


def index_text(boards: list, title: str, curve: str) -> str:
    """The index: a Markdown table of the pack's levels and their metrics, easiest first."""
    names = []
    for board in boards:
        for name in (board.metrics.as_dict() if board.metrics is not None else {}):
            if name not in names:
                names.append(name)
    lines = [f"# {title}", "", f"Levels from the easiest to the hardest; the curve: [{curve}]({curve}).", ""]
    head = ["#", "level", *(["difficulty"] if names else []), *names, "measured"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for number, board in enumerate(boards, 1):
        metrics = board.metrics.as_dict() if board.metrics is not None else {}
        measured = ", ".join(f"{k} {scalar(v)}" for k, v in board.expect.items() if k not in metrics)
        row = [str(number), f"[{board.path.name}]({board.path.name})",
               *([board.metrics.difficulty if board.metrics is not None else ""] if names else []),
               *[str(metrics.get(name, "")) for name in names], measured]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def curve_svg(boards: list, title: str) -> str:
    """The difficulty curve: plies as bars, hardness as a line, one step per level."""
    ET.register_namespace("", SVG_NS)
    svg = ET.Element("svg", xmlns=SVG_NS, width=str(WIDTH), height=str(HEIGHT),
                     viewBox=f"0 0 {WIDTH} {HEIGHT}", **{"font-family": "sans-serif", "font-size": "12"})
    sub_element(svg, "rect", x="0", y="0", width=str(WIDTH), height=str(HEIGHT), fill="white")
    sub_element(svg, "text", title, x=str(MARGIN), y="20", **{"font-size": "14", "font-weight": "bold"})
    left, right, top, bottom = MARGIN, WIDTH - MARGIN, 40, HEIGHT - MARGIN
    sub_element(svg, "line", x1=str(left), y1=str(bottom), x2=str(right), y2=str(bottom), stroke="black")
    sub_element(svg, "line", x1=str(left), y1=str(top), x2=str(left), y2=str(bottom), stroke="black")
    n = max(len(boards), 1)
    step = (right - left) / n
    plies = [_plies(b) for b in boards]
    most_plies = max([p for p in plies if p] or [1])
    hard = [hardness(b) for b in boards]
    most_hard = max(hard + [1e-9])
    points = []
    for i, board in enumerate(boards):
        x = left + (i + 0.5) * step
        if plies[i]:
            h = (bottom - top) * plies[i] / most_plies
            sub_element(svg, "rect", x=f"{x - step * 0.3:.1f}", y=f"{bottom - h:.1f}", width=f"{step * 0.6:.1f}",
                 height=f"{h:.1f}", fill="#c9d7f2")
            sub_element(svg, "text", str(plies[i]), x=f"{x:.1f}", y=f"{bottom - h - 4:.1f}", **{"text-anchor": "middle"})
        points.append(f"{x:.1f},{bottom - (bottom - top) * hard[i] / most_hard:.1f}")
        sub_element(svg, "text", str(i + 1), x=f"{x:.1f}", y=str(bottom + 16), **{"text-anchor": "middle"})
    if points:
        sub_element(svg, "polyline", points=" ".join(points), fill="none", stroke=ROLE_COLOURS[1], **{"stroke-width": "2"})
        for point in points:
            cx, cy = point.split(",")
            sub_element(svg, "circle", cx=cx, cy=cy, r="3.5", fill=ROLE_COLOURS[1])
    measure = ("label 0-2 plus the careful players' loss probability" if any(b.metrics for b in boards)
               else "share of losing moves along the line")
    sub_element(svg, "text", f"bars: plies of the forced win; line: difficulty ({measure}); levels easiest first",
         x=str(left), y=str(HEIGHT - 10), fill="#444")
    return ET.tostring(svg, encoding="unicode") + "\n"


def _plies(board) -> int | None:
    plies = board.expect.get("plies")
    return plies if isinstance(plies, int) else None


def write_pack(boards: list, index: Path, curve: Path, title: str, force: bool) -> tuple[Path, Path]:
    """Write the index (PREFIX-index.md) and the curve (PREFIX-curve.svg) of ``boards``."""
    levels = ordered(boards)
    write_new(curve, curve_svg(levels, title), force)
    write_new(index, index_text(levels, title, curve.name), force)
    return index, curve
