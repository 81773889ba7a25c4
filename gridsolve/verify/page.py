"""The report page of ``verify --report DIR``: ``DIR/index.html``, a page per level and their
pictures, static files that open from the file system (or as a CI artifact) with no server and
no script from elsewhere (the sorting, filtering and stepping are inline JavaScript).

The index holds a summary, then with ``--compare`` what changed per level (the worst first),
then every level's thumbnail, name, verdict, plies, difficulty label, size, metrics and checks
(each pass or fail with the file's line and the measured value), sortable and filterable.  Each
level's page holds its full picture, its checks and metrics, every move's value and the
principal line stepped through.

The folder is the report's: a folder that holds a file the report did not write (the list of
those it wrote is kept in it, :data:`MANIFEST`) is refused, so nothing a user wrote is replaced.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import QueryError
from ..language.wording import counted, plies as plies_text
from .compare import Change, Earlier, level_changes, load_earlier
from .expect import METRIC_KEYS
from .reports import summary
from .verify import ERROR, FAIL, PASS, TIMED_OUT, UPDATED, BoardResult, Report, show
from .view import BoardView

MANIFEST = ".gridsolve-report"      # the files the report wrote, one a line (relative to the folder)
STATUSES = ("invalid", "fail", "timeout", "updated", "pass")    # a level's status, the worst first


@dataclass(frozen=True)
class ReportFolder:
    """The folder a report page will be written to, checked before any level is (and the
    earlier run to compare with, read then too)."""

    folder: Path
    earlier: Earlier | None = None

    @classmethod
    def prepare(cls, folder: Path, compare: Path | None = None) -> "ReportFolder":
        """Refuse a folder that holds files the report did not write, and read ``compare``."""
        folder = Path(folder)
        if folder.exists() and not folder.is_dir():
            raise QueryError(f"--report {folder}: a file, not a folder", "give a new or empty folder")
        foreign = _foreign_files(folder)
        if foreign:
            raise QueryError(f"--report {folder}: the folder holds {counted(len(foreign), 'file')} this report did "
                             f"not write (e.g. {foreign[0]})",
                             "give a new or empty folder, or one an earlier --report wrote; nothing is overwritten")
        return cls(folder, load_earlier(compare) if compare is not None else None)

    def write(self, report: Report) -> list[Path]:
        """Write the page (replacing an earlier report's files); returns the files written."""
        changes = level_changes(report, self.earlier) if self.earlier is not None else None
        files = _page_files(report, changes, self.earlier.path if self.earlier else None)
        _remove_earlier(self.folder)
        written = []
        try:
            for name, text in files.items():
                target = self.folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
                written.append(target)
            (self.folder / MANIFEST).write_text("".join(f"{name}\n" for name in files), encoding="utf-8")
        except OSError as exc:
            raise QueryError(f"--report {self.folder}: cannot write the page: {exc.strerror or exc}",
                             "give a folder you may write to") from exc
        return written


def _listed(folder: Path) -> set[str]:
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return set()
    return {line for line in manifest.read_text(encoding="utf-8").splitlines() if line}


def _foreign_files(folder: Path) -> list[str]:
    """The files under ``folder`` that no earlier report listed as its own, sorted."""
    if not folder.is_dir():
        return []
    listed = _listed(folder) | {MANIFEST}
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if not p.is_dir() and str(p.relative_to(folder)) not in listed)


def _remove_earlier(folder: Path) -> None:
    """Remove the files an earlier report wrote (and the folders it made, once empty)."""
    for name in sorted(_listed(folder)):
        (folder / name).unlink(missing_ok=True)
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)) \
            if folder.is_dir() else ():
        if not any(sub.iterdir()):
            sub.rmdir()


# - What the page says of a level ---

def level_status(board: BoardResult) -> str:
    """One of :data:`STATUSES`: invalid, a check timed out, failed (or could not be measured), all updated or passed."""
    statuses = {check.status for check in board.checks}
    if board.invalid:
        return "invalid"
    if statuses & {FAIL, ERROR}:
        return "fail"
    if TIMED_OUT in statuses:
        return "timeout"
    return "updated" if UPDATED in statuses else "pass"


def level_metrics(board: BoardResult) -> dict:
    """{metric: measured value} of the metrics the level's expect block writes."""
    return {check.key: check.measured for check in board.checks
            if check.key in METRIC_KEYS and check.measured is not None}


def _slug(index: int, board: BoardResult) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(board.path).stem).strip("-") or "level"
    return f"{index:03d}-{stem}"


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _size(board: BoardResult) -> str:
    view = board.view
    return f"{view.width}x{view.height}" if isinstance(view, BoardView) else ""


# - The files ---

def _page_files(report: Report, changes: dict | None, earlier: str | None) -> dict[str, str]:
    files: dict[str, str] = {}
    slugs = [_slug(i + 1, board) for i, board in enumerate(report.boards)]
    for slug, board in zip(slugs, report.boards):
        view = board.view if isinstance(board.view, BoardView) else None
        if view is not None:
            files[f"svg/{slug}.svg"] = view.picture
            files[f"svg/{slug}-thumb.svg"] = view.thumbnail
        files[f"levels/{slug}.html"] = _level_page(board, slug, view, (changes or {}).get(board.path), earlier)
    files["index.html"] = _index(report, slugs, changes, earlier)
    return files


STYLE = """
body{font-family:system-ui,sans-serif;margin:1.2em;color:#222}
h1{font-size:1.4em;margin:.2em 0}
.summary span{display:inline-block;margin:.2em .6em .2em 0;padding:.3em .7em;border-radius:4px;background:#eee}
.summary .fail,.status-fail,.status-invalid,.status-timeout{background:#f8d0cc}
.summary .pass,.status-pass{background:#d3efd0}
.status-updated{background:#f6e7b0}
table{border-collapse:collapse}
th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
th.sortable{cursor:pointer;text-decoration:underline dotted}
td.status{font-weight:bold}
ul.checks{margin:0;padding-left:1.1em;font-size:.9em}
details.passed summary{cursor:pointer;color:#276a22;font-size:.9em}
li.fail,li.error,li.timeout{color:#a11}
.changes{border:2px solid #c8281e;padding:.4em 1em;margin:1em 0;background:#fff6f5}
.changes li.worse{color:#a11;font-weight:bold}
.filters label{margin-right:1em}
.metrics{font-size:.85em;color:#555}
.where{color:#666;font-size:.9em}
img.thumb{width:190px;height:auto;border:1px solid #ccc}
td.verdict{max-width:14em}
.panels{display:grid;grid-template-columns:repeat(auto-fit,minmax(380px,1fr));gap:1.5em;align-items:start}
.panels h2{margin-top:0}
.panels img{width:100%;max-height:78vh;object-fit:contain;object-position:left top;border:1px solid #ccc}
ol.line{max-height:14em;overflow:auto;font-size:.9em;list-style:none;padding-left:.5em}
ol.line li{cursor:pointer}
ol.line li.current{background:#e3ecfb;font-weight:bold}
.note{color:#a11}
"""

INDEX_SCRIPT = """
(function(){
  var rows=Array.prototype.slice.call(document.querySelectorAll('#levels tbody tr'));
  var body=document.querySelector('#levels tbody');
  function value(id){return document.getElementById(id).value;}
  function apply(){
    var status=value('f-status'),label=value('f-label'),size=value('f-size');
    var lo=parseInt(value('f-plies-min'),10),hi=parseInt(value('f-plies-max'),10),text=value('f-name').toLowerCase();
    var shown=0;
    rows.forEach(function(r){
      var p=r.dataset.plies===''?NaN:parseInt(r.dataset.plies,10);
      var ok=(!status||r.dataset.status===status)&&(!label||r.dataset.label===label)&&(!size||r.dataset.size===size)
        &&(isNaN(lo)||(!isNaN(p)&&p>=lo))&&(isNaN(hi)||(!isNaN(p)&&p<=hi))
        &&(!text||r.dataset.name.toLowerCase().indexOf(text)>=0);
      r.hidden=!ok; if(ok){shown++;}
    });
    document.getElementById('shown').textContent=shown+' of '+rows.length+' levels shown';
  }
  ['f-status','f-label','f-size','f-plies-min','f-plies-max','f-name'].forEach(function(id){
    document.getElementById(id).addEventListener('input',apply);});
  var order={};
  document.querySelectorAll('#levels th.sortable').forEach(function(th){
    th.addEventListener('click',function(){
      var key=th.dataset.key,numeric=th.dataset.numeric==='1',dir=order[key]=-(order[key]||-1);
      rows.sort(function(a,b){
        var x=a.dataset[key],y=b.dataset[key];
        if(numeric){x=x===''?Infinity:parseFloat(x);y=y===''?Infinity:parseFloat(y);}
        return (x<y?-1:x>y?1:0)*dir;});
      rows.forEach(function(r){body.appendChild(r);});
    });
  });
  apply();
})();
"""

STEP_SCRIPT = """
(function(){
  var items=Array.prototype.slice.call(document.querySelectorAll('ol.line li'));
  var picture=document.getElementById('step-picture'),caption=document.getElementById('step-caption');
  var slider=document.getElementById('step'),now=0;
  function show(k){
    now=Math.max(0,Math.min(items.length-1,k));
    var item=items[now];
    if(item.dataset.src){picture.src=item.dataset.src;}
    caption.textContent=item.textContent;
    slider.value=now;
    items.forEach(function(i,j){i.classList.toggle('current',j===now);});
  }
  document.getElementById('step-back').addEventListener('click',function(){show(now-1);});
  document.getElementById('step-next').addEventListener('click',function(){show(now+1);});
  slider.addEventListener('input',function(){show(parseInt(slider.value,10));});
  items.forEach(function(item,j){item.addEventListener('click',function(){show(j);});});
  show(0);
})();
"""


def _document(title: str, body: str, script: str = "") -> str:
    tail = f"<script>{script}</script>\n" if script else ""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{_e(title)}</title>\n'
            f"<style>{STYLE}</style>\n</head>\n<body>\n{body}\n{tail}</body>\n</html>\n")


def _verdict(board: BoardResult, view: BoardView | None) -> str:
    if board.invalid:
        return next((c.message for c in board.checks if c.key == "schema"), "invalid")
    if view is None:
        return f"no answer: {board.stopped or 'the board was not answered'}"
    return view.verdict or f"no answer: {view.note}"


def _check_item(board: BoardResult, check) -> str:
    """A check in the index: its status, name and expected value, its line, the measured value."""
    mark = {PASS: "pass", FAIL: "FAIL", ERROR: "error", TIMED_OUT: "timeout", UPDATED: "updated"}.get(
        check.status, check.status)
    where = f"line {check.line}" if check.file == board.path and check.line else check.location
    measured = "" if check.status == TIMED_OUT else f", measured {_e(show(check.measured))}"
    message = f" &mdash; {_e(check.message)}" if check.status != PASS and check.message else ""
    return (f'<li class="{_e(check.status)}">{mark}: {_e(check.name)} {_e(show(check.expected))} '
            f'<span class="where">({_e(where)})</span>{measured}{message}</li>')


def _checks_cell(board: BoardResult, checks: list) -> str:
    """The checks that did not pass in full, then those that passed folded under one line."""
    passed = [c for c in checks if c.status == PASS]
    others = [c for c in checks if c.status != PASS]
    cell = f'<ul class="checks">{"".join(_check_item(board, c) for c in others)}</ul>' if others else ""
    if passed:
        cell += (f'<details class="passed"><summary>{counted(len(passed), "check")} passed</summary>'
                 f'<ul class="checks">{"".join(_check_item(board, c) for c in passed)}</ul></details>')
    return cell


def _short_verdict(board: BoardResult, view: BoardView | None) -> str:
    """win, value and plies in a few words (the level's page says it in full)."""
    if board.invalid or view is None or not view.verdict:
        return _verdict(board, view)
    plies = "nothing forced" if view.plies is None else f"{view.plies} plies"
    return f"{view.role}: {'win' if view.win else 'no win'}, value {show(view.value)}, {plies}"


def _metrics_line(metrics: dict) -> str:
    return ", ".join(f"{name} {show(value)}" for name, value in metrics.items())


def _changes_list(changes: list[Change]) -> str:
    return "".join(f'<li class="{"worse" if c.worse else ""}">{_e(c.text)}</li>' for c in changes)


def _index(report: Report, slugs: list[str], changes: dict | None, earlier: str | None) -> str:
    boards = report.boards
    statuses = [level_status(board) for board in boards]
    counts = {status: statuses.count(status) for status in STATUSES}
    parts = [f'<span class="pass">{counts["pass"]} passed</span>',
             f'<span class="{"fail" if counts["fail"] else ""}">{counts["fail"]} failed</span>',
             f'<span class="{"fail" if counts["invalid"] else ""}">{counts["invalid"]} invalid</span>']
    parts += [f'<span class="fail">{counts["timeout"]} timed out</span>'] if counts["timeout"] else []
    parts += [f'<span>{counts["updated"]} updated</span>'] if counts["updated"] else []
    parts.append(f"<span>{report.time_s:.1f} s</span>")
    labels = [board.difficulty for board in boards if board.difficulty]
    parts += [f'<span class="label">{counted(labels.count(label), label + " level")}</span>'
              for label in dict.fromkeys(sorted(labels, key=_label_order))]
    body = [f"<h1>gridsolve verify: {counted(len(boards), 'level')}</h1>",
            f'<p class="summary" id="summary">{"".join(parts)}</p>',
            f'<p class="where">{_e(summary(report))}</p>']
    if changes is not None:
        body.append(_changes_section(boards, slugs, changes, earlier))
    labels = sorted(set(labels), key=_label_order)
    sizes = sorted({_size(board) for board in boards if _size(board)}, key=lambda s: tuple(map(int, s.split("x"))))
    body.append(_filters(labels, sizes))
    rows = []
    shown = sorted(zip(slugs, boards, statuses), key=lambda row: STATUSES.index(row[2]))   # the worst first
    for slug, board, status in shown:
        view = board.view if isinstance(board.view, BoardView) else None
        plies = "" if view is None or view.plies is None else str(view.plies)
        picture = f'<img class="thumb" src="svg/{slug}-thumb.svg" loading="lazy" alt="{_e(board.name)}">' if view else ""
        metrics = level_metrics(board)
        checks = [c for c in board.checks if c.key != "schema" or c.status != PASS]
        rows.append(
            f'<tr id="level-{slug}" data-status="{status}" data-label="{_e(board.difficulty or "")}" '
            f'data-size="{_size(board)}" data-area="{view.width * view.height if view else ""}" '
            f'data-plies="{plies}" data-name="{_e(board.name)} {_e(board.path)}" '
            f'data-order="{STATUSES.index(status)}" data-time="{board.time_s:.3f}">'
            f'<td><a href="levels/{slug}.html">{picture}</a></td>'
            f'<td><a class="level" href="levels/{slug}.html">{_e(board.name)}</a><br>'
            f'<span class="where">{_e(board.path)}</span></td>'
            f'<td class="status status-{status}">{status}</td>'
            f'<td class="verdict">{_e(_short_verdict(board, view))}</td><td>{plies}</td><td>{_e(board.difficulty or "")}</td>'
            f'<td>{_size(board)}</td>'
            f'<td>{_checks_cell(board, checks)}'
            f'<div class="metrics">{_e(_metrics_line(metrics))}</div></td>'
            f'<td>{board.time_s:.2f} s</td></tr>')
    head = "".join(f'<th class="sortable" data-key="{key}" data-numeric="{numeric}">{title}</th>' if key else
                   f"<th>{title}</th>" for title, key, numeric in (
                       ("picture", "", 0), ("level", "name", 0), ("status", "order", 1), ("verdict", "", 0),
                       ("plies", "plies", 1), ("label", "label", 0), ("size", "area", 1),
                       ("checks and metrics", "", 0), ("time", "time", 1)))
    body.append(f'<table id="levels"><thead><tr>{head}</tr></thead><tbody>\n' + "\n".join(rows) +
                "\n</tbody></table>")
    return _document(f"gridsolve verify: {len(boards)} levels", "\n".join(body), INDEX_SCRIPT)


def _label_order(label: str) -> tuple:
    """easy, medium, hard first in that order, then any other label a rule set declares."""
    order = ("easy", "medium", "hard")
    return (order.index(label) if label in order else len(order), label)


def _changes_section(boards, slugs: list[str], changes: dict, earlier: str | None) -> str:
    where = {board.path: slug for board, slug in zip(boards, slugs)}
    if not changes:
        return f'<section class="changes" id="changes"><h2>Nothing changed since {_e(earlier)}</h2></section>'
    ordered = sorted(changes.items(), key=lambda item: (not any(c.kind == "lost its win" for c in item[1]),
                                                        not any(c.worse for c in item[1]), item[0]))
    items = []
    for path, found in ordered:
        name = f'<a href="levels/{where[path]}.html">{_e(path)}</a>' if path in where else _e(path)
        items.append(f"<li>{name}<ul>{_changes_list(found)}</ul></li>")
    return (f'<section class="changes" id="changes"><h2>What changed since {_e(earlier)}: '
            f'{counted(len(changes), "level")}</h2><ul>{"".join(items)}</ul></section>')


def _filters(labels: list[str], sizes: list[str]) -> str:
    def select(ident: str, title: str, options) -> str:
        inner = '<option value="">all</option>' + "".join(f'<option value="{_e(o)}">{_e(o)}</option>' for o in options)
        return f'<label>{title} <select id="{ident}">{inner}</select></label>'
    return ('<p class="filters">' + select("f-status", "status", STATUSES) + select("f-label", "label", labels) +
            select("f-size", "size", sizes) +
            '<label>plies from <input id="f-plies-min" type="number" min="0" style="width:5em"></label>'
            '<label>to <input id="f-plies-max" type="number" min="0" style="width:5em"></label>'
            '<label>name <input id="f-name" type="search"></label>'
            '<span id="shown"></span></p>')


def _level_page(board: BoardResult, slug: str, view: BoardView | None, changes: list[Change] | None,
                earlier: str | None) -> str:
    status = level_status(board)
    body = ['<p><a href="../index.html">&larr; all levels</a></p>', f"<h1>{_e(board.name)}</h1>",
            f'<p class="where">{_e(board.path)}</p>',
            f'<p><span class="status status-{status}" id="status">{status}</span> '
            f'<span id="verdict">{_e(_verdict(board, view))}</span>'
            + (f'; difficulty <span id="label">{_e(board.difficulty)}</span>' if board.difficulty else "") + "</p>"]
    if changes:
        body.append(f'<section class="changes" id="changes"><h2>Changed since {_e(earlier)}</h2>'
                    f"<ul>{_changes_list(changes)}</ul></section>")
    if view is not None and view.note:
        body.append(f'<p class="note">{_e(view.note)}</p>')
    script = ""
    if view is not None:
        panels = [f'<div><h2>The whole line</h2><img id="picture" src="../svg/{slug}.svg" '
                  f'alt="{_e(board.name)} with its principal line"></div>']
        if view.steps:
            panels.append(_stepper(slug, view))
            script = STEP_SCRIPT
        body.append(f'<div class="panels">{"".join(panels)}</div>')
    rows = "".join(f'<tr class="{_e(c.status)}"><td>{_e(c.name)}</td><td>{_e(c.location)}</td>'
                   f"<td>{_e(show(c.expected))}</td><td>{'' if c.status == TIMED_OUT else _e(show(c.measured))}</td>"
                   f'<td class="status status-{_e(c.status)}">{_e(c.status)}</td><td>{_e(c.message)}</td></tr>'
                   for c in board.checks)
    body.append("<h2>Checks</h2><table id=\"checks\"><thead><tr><th>check</th><th>where</th><th>expected</th>"
                f"<th>measured</th><th>status</th><th>what is wrong</th></tr></thead><tbody>{rows}</tbody></table>")
    metrics = level_metrics(board)
    if metrics:
        body.append("<h2>Metrics</h2><table id=\"metrics\"><tbody>" + "".join(
            f"<tr><td>{_e(name)}</td><td>{_e(show(value))}</td></tr>" for name, value in metrics.items()) +
            "</tbody></table>")
    if view is not None and view.moves:
        body.append(f"<h2>The moves of {_e(view.role)}'s side</h2><table id=\"moves\"><thead><tr><th>move</th>"
                    f"<th>value for {_e(view.role)}</th><th>plies after it</th><th>keeps a win</th></tr></thead>"
                    "<tbody>" + "".join(
                        f"<tr><td>{_e(m.move)}</td><td>{_e(_dash(m.value))}</td><td>{_e(_dash(m.plies))}</td>"
                        f"<td>{'yes' if m.win else 'no'}</td></tr>" for m in view.moves) + "</tbody></table>")
    return _document(f"{board.name}: gridsolve verify", "\n".join(body), script)


def _dash(value) -> str:
    return "-" if value is None else str(value)


def _stepper(slug: str, view: BoardView) -> str:
    """The principal line stepped through: the level's picture at each ply (its ``#step-K``), chosen
    by buttons, a slider or the list."""
    items = [f'<li data-src="../svg/{slug}.svg#step-0">the initial position</li>'] + [
        f'<li{_step_src(slug, step)}>ply {step.index}: {_e(step.move)}</li>' for step in view.steps]
    return (f'<div class="stepper"><h2>The principal line: {plies_text(len(view.steps))}</h2>'
            '<p><button id="step-back">&larr; back</button> '
            f'<input id="step" type="range" min="0" max="{len(view.steps)}" value="0"> '
            '<button id="step-next">next &rarr;</button> <span id="step-caption"></span></p>'
            f'<img id="step-picture" src="../svg/{slug}.svg#step-0" alt="the position along the line">'
            f'<ol class="line" start="0">{"".join(items)}</ol></div>')


def _step_src(slug: str, step) -> str:
    """The picture of the position after the step; past STEP_PICTURES plies, the whole line's."""
    return f' data-src="../svg/{slug}.svg#step-{step.index}"' if step.pictured else \
        f' data-src="../svg/{slug}.svg"'
