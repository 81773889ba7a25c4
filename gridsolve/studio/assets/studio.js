// gridsolve studio: the page.  It keeps the level being edited (walls, pieces, marks, gates) with its
// undo and redo history, sends it with every question to the local server, and draws the
// answer over the board picture the server draws (the same drawing as `gridsolve show --svg`).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const state = {
  board: null, info: null, level: null, undo: [], redo: [], role: null, kind: "value",
  answer: null, step: null, sequence: 0, answerJob: null, jobs: {}, critical: null, game: null,
};
const $ = (id) => document.getElementById(id);

// - Talking to the server ---
async function api(method, url, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `${response.status} ${response.statusText}` }; }
  if (!response.ok) {
    const error = new Error(data.error + (data.hint ? `. ${data.hint}` : ""));
    error.status = response.status;
    throw error;
  }
  return data;
}

function say(text, isError) {
  const box = $("message");
  box.textContent = text || "";
  box.className = isError ? "error" : "";
  layoutBoard();      // (a message of two lines leaves the board less room)
}

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

// - The level and its history ---
const copy = (x) => JSON.parse(JSON.stringify(x));
const same = (a, b) => a[0] === b[0] && a[1] === b[1];

function edit(change) {
  const next = copy(state.level);
  if (change(next) === false) return;
  state.undo.push(state.level);
  state.redo = [];
  state.level = next;
  levelChanged();
}

function undo() {
  if (!state.undo.length) return;
  state.redo.push(state.level);
  state.level = state.undo.pop();
  levelChanged();
}

function redo() {
  if (!state.redo.length) return;
  state.undo.push(state.level);
  state.level = state.redo.pop();
  levelChanged();
}

function levelChanged() {
  state.critical = null;
  drawOptional();
  drawEnemies();
  layoutBoard();
  $("walls-result").textContent = "";
  $("verify-result").textContent = "";
  writeLink();
  updateButtons();
  refresh();
}

function updateButtons() {
  $("undo").disabled = !state.undo.length;
  $("redo").disabled = !state.redo.length;
}

const indexOf = (list, x, y) => list.findIndex((c) => c[0] === x && c[1] === y);

function edgeMode() {
  const chosen = document.querySelector('input[name="edge-mode"]:checked');
  return state.level.gates && chosen ? chosen.value : "wall";
}

// An edge click adds or removes a wall, or a gate (rules with a gate): an edge holds one of them.
function toggleEdge(x, y, side) {
  const kind = edgeMode() === "gate" ? "gates" : "walls";
  edit((level) => {
    const list = level[kind][side];
    const at = indexOf(list, x, y);
    if (at >= 0) { list.splice(at, 1); return; }
    list.push([x, y]);
    const rival = level[kind === "gates" ? "walls" : "gates"];
    if (rival && indexOf(rival[side], x, y) >= 0) rival[side].splice(indexOf(rival[side], x, y), 1);
  });
}

// Every piece of the level by name: the pieces, and the listed enemies as KIND + place (mummy1).
function piecesOf(level) {
  const out = { ...level.pieces };
  (level.enemies || []).forEach((enemy, i) => { out[enemy.kind + (i + 1)] = enemy.at; });
  return out;
}

function pieceColour(name) {
  return state.info.colours[name] || "#555";
}

// A cell that holds no piece and no mark (the first from the top left), for a piece or mark added.
function freeCell(level) {
  const taken = new Set([...Object.values(piecesOf(level)), ...Object.values(level.marks).flat()].map((c) => c.join(",")));
  for (const c of state.info.solid) taken.add(c.join(","));
  for (let y = state.info.height; y >= 1; y--) {
    for (let x = 1; x <= state.info.width; x++) if (!taken.has(`${x},${y}`)) return [x, y];
  }
  return null;
}

function optionalButton(box, text, data, change) {
  const button = document.createElement("button");
  button.textContent = text;
  Object.assign(button.dataset, data);
  button.addEventListener("click", () => { if (!state.game) edit(change); });
  box.appendChild(button);
}

// The pieces and marks the rules let a board leave out: added on a free cell (then dragged), or removed.
function drawOptional() {
  const box = $("optional"), info = state.info;
  const pieces = info.optional_pieces || [], marks = info.optional_marks || [];
  box.textContent = "";
  box.hidden = !pieces.length && !marks.length;
  $("edges-mode").hidden = !info.gates;
  showEditTools();
  if (box.hidden) return;
  box.append("Optional: ");
  for (const piece of pieces) {
    const on = piece in state.level.pieces;
    optionalButton(box, `${on ? "remove" : "add"} ${piece}`, { testid: "optional-piece", piece, present: on ? "yes" : "no" },
      (level) => {
        if (on) { delete level.pieces[piece]; return; }
        const cell = freeCell(level);
        if (!cell) return false;
        level.pieces[piece] = cell;
      });
  }
  for (const mark of marks) {
    const cells = state.level.marks[mark] || [];
    optionalButton(box, `add ${mark}`, { testid: "optional-mark", mark, change: "add" }, (level) => {
      const cell = freeCell(level);
      if (!cell) return false;
      level.marks[mark] = [...(level.marks[mark] || []), cell];
    });
    if (cells.length) {
      optionalButton(box, `remove ${mark}`, { testid: "optional-mark", mark, change: "remove" }, (level) => {
        level.marks[mark].pop();
        if (!level.marks[mark].length) delete level.marks[mark];
      });
    }
  }
}

// The panel's section of the edges' mode, the optional pieces and the enemies: shown when one is.
function showEditTools() {
  $("edit-tools").hidden = ["edges-mode", "optional", "enemies"].every((id) => $(id).hidden);
}

// The enemies of rules with kinds, in the order they move: each moved up the order or removed;
// one of each kind added on a free cell (then dragged).
function drawEnemies() {
  const box = $("enemies"), kinds = state.info.enemy_kinds || [];
  box.textContent = "";
  box.hidden = !kinds.length;
  showEditTools();
  if (box.hidden) return;
  box.append("Enemies, in the order they move: ");
  (state.level.enemies || []).forEach((enemy, i) => {
    const entry = document.createElement("span");
    entry.className = "enemy";
    entry.append(`${i + 1}. ${enemy.kind} (${enemy.at.join(",")}) `);
    box.append(entry, " ");
    if (i > 0) {
      optionalButton(entry, "earlier", { testid: "enemy-earlier", place: i + 1 }, (level) => {
        const [moved] = level.enemies.splice(i, 1);
        level.enemies.splice(i - 1, 0, moved);
      });
    }
    optionalButton(entry, "remove", { testid: "enemy-remove", place: i + 1 }, (level) => { level.enemies.splice(i, 1); });
  });
  box.append(" Add: ");
  for (const kind of kinds) {
    optionalButton(box, kind, { testid: "enemy-add", kind }, (level) => {
      const cell = freeCell(level);
      if (!cell) return false;
      level.enemies = [...(level.enemies || []), { kind, at: cell }];
    });
  }
}

function moveThing(kind, name, from, to) {
  if (same(from, to)) return;
  edit((level) => {
    if (kind === "piece") { level.pieces[name] = to; return; }
    if (kind === "enemy") { level.enemies.find((e, i) => e.kind + (i + 1) === name).at = to; return; }
    const cells = level.marks[name];
    if (cells.some((c) => same(c, to))) return false;
    const at = cells.findIndex((c) => same(c, from));
    cells.splice(at, 1, to);
  });
}

// - A link that carries the level ---
function encodeLevel(level) {
  return btoa(unescape(encodeURIComponent(JSON.stringify(level)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeLevel(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(decodeURIComponent(escape(atob(b64))));
}

function writeLink() {
  const url = new URL(location.href);
  url.searchParams.delete("token");
  url.searchParams.set("board", state.board);
  url.hash = state.undo.length ? "level=" + encodeLevel(state.level) : "";
  history.replaceState(null, "", url.toString());
}

// - Opening a board ---
async function openBoard(name, level) {
  cancelAnswerJob();
  const info = await api("GET", "/api/board?board=" + encodeURIComponent(name));
  state.board = info.board;
  state.info = info;
  state.level = level || info.level;
  state.undo = level ? [info.level] : [];
  state.redo = [];
  state.critical = null;
  $("board-picker").value = info.board;
  fillSelect($("role"), info.roles, state.role && info.roles.includes(state.role) ? state.role : info.roles[0]);
  fillSelect($("play-role"), info.roles, info.roles[0]);
  fillSelect($("kind"), info.kinds, state.kind);
  state.role = $("role").value;
  $("walls-result").textContent = "";
  $("verify-result").textContent = "";
  $("generate-result").textContent = "";
  drawOptional();
  drawEnemies();
  layoutBoard();
  document.title = `${info.name} - gridsolve studio`;
  writeLink();
  updateButtons();
  await refresh();
}

function fillSelect(select, values, chosen) {
  select.textContent = "";
  for (const v of values) {
    const option = document.createElement("option");
    option.value = option.textContent = v;
    select.appendChild(option);
  }
  if (chosen !== undefined && values.includes(chosen)) select.value = chosen;
}

// - The answer ---
async function refresh() {
  const sequence = ++state.sequence;
  cancelAnswerJob();
  const verdict = $("verdict");
  verdict.className = "verdict busy";
  verdict.textContent = "computing...";
  let data;
  try {
    data = await api("POST", "/api/answer", { board: state.board, level: state.level, role: state.role, kind: state.kind });
  } catch (error) {
    if (sequence !== state.sequence) return;
    verdict.textContent = "no answer";
    say(error.message, true);
    drawBoard({ svg: state.info.svg, geometry: state.info.geometry });
    return;
  }
  if (sequence !== state.sequence) return;
  say("");
  drawBoard(data);
  if (data.answer) {
    showAnswer(data.answer);
  } else if (data.job) {
    state.answerJob = data.job.id;
    showAnswer(null);
    verdict.textContent = "computing (the solver, in a worker process)...";
    watchJob(data.job, "answer", (result) => {
      if (sequence === state.sequence) showAnswer(result);
    }, () => { if (sequence === state.sequence) verdict.textContent = "no answer (cancelled or failed)"; });
  }
}

function cancelAnswerJob() {
  if (state.answerJob) {
    api("DELETE", "/api/jobs/" + state.answerJob).catch(() => {});
    state.answerJob = null;
  }
}

function colourOf(move) {
  const answer = state.answer;
  if (move.value === null || move.value === undefined) return move.survives ? "#b9e4b0" : "#f4b6b0";
  const scores = state.info.scores[answer.role] || [0, 100];
  const low = scores[0], high = scores[scores.length - 1];
  const t = high === low ? 1 : (move.value - low) / (high - low);
  return `hsl(${Math.round(120 * t)}, 70%, 75%)`;
}

function movePlies(move) {
  const plies = state.answer.kind === "survive" ? move.doom_plies : move.plies;
  return plies === null || plies === undefined ? "-" : String(plies);
}

function showAnswer(answer) {
  state.answer = answer;
  const verdict = $("verdict");
  const moves = $("moves");
  const line = $("line");
  moves.textContent = "";
  line.textContent = "";
  $("answer-extra").textContent = "";
  $("puzzle").textContent = answer && answer.puzzle ? answer.puzzle : "";
  if (!answer) { drawOverlay(); return; }
  verdict.textContent = answer.verdict;
  verdict.className = "verdict " + (answer.holds && (answer.kind !== "value" || answer.win) ? "good" : (answer.kind === "value" && !answer.win ? "bad" : (answer.holds ? "good" : "bad")));
  const parts = [];
  if (answer.value !== null) parts.push(`value ${answer.value}`);
  parts.push(`win ${answer.win === null ? "?" : answer.win ? "yes" : "no"}`);
  parts.push(`survive ${answer.survives ? "yes" : "no"}`);
  if (answer.win_moves !== null && answer.win_moves !== undefined) parts.push(`win in ${answer.win_moves} own moves`);
  if (answer.hidden) parts.push("robust answer: the role does not see the secret marks");
  parts.push(answer.position);
  $("answer-extra").textContent = parts.join("; ");
  for (const move of answer.moves) {
    const item = document.createElement("li");
    item.dataset.testid = "move";
    item.dataset.move = move.move;
    item.dataset.value = move.value === null ? "" : String(move.value);
    item.dataset.plies = movePlies(move);
    item.style.background = colourOf(move);
    item.textContent = `${move.move}: ${move.value === null ? (move.survives ? "survives" : "doomed") : "value " + move.value}, plies ${movePlies(move)}`;
    item.title = `${answer.side.join("+")} ${move.move}`;
    moves.appendChild(item);
  }
  answer.line.forEach((ply, i) => {
    const item = document.createElement("li");
    const number = document.createElement("span");
    number.className = "ply-number";
    number.textContent = `${i + 1}.`;
    item.append(number, `${ply.side.join("+")} ${ply.move}`);
    item.dataset.testid = "ply";
    item.title = `step to ply ${i + 1}`;
    item.addEventListener("click", () => { state.step = i + 1; drawOverlay(); });
    line.appendChild(item);
  });
  state.step = answer.line.length;
  fitLine();
  drawOverlay();
}

// The line's box reaches down to the panel's bottom (the panel at its top), so that a long line
// scrolls in its box within the window; at least a quarter of the window high.
function fitLine() {
  const list = $("line"), panel = $("right");
  if (getComputedStyle(document.querySelector("main")).flexWrap === "wrap") { list.style.maxHeight = ""; return; }
  const top = list.getBoundingClientRect().top + panel.scrollTop;
  const room = panel.getBoundingClientRect().bottom - top - 8;
  list.style.maxHeight = `${Math.max(window.innerHeight / 4, room)}px`;
}

function stepTo(step) {
  if (!state.answer) return;
  state.step = Math.max(0, Math.min(state.answer.line.length, step));
  drawOverlay();
  const current = $("line").querySelector("li.current");     // stepped to: its entry in the window too
  if (current) current.scrollIntoView({ block: "nearest" });
}

// - The board: the server's picture with the page's layer over it ---
let geometry = null;

function drawBoard(view) {
  const wrap = $("board-wrap");
  wrap.innerHTML = view.svg;
  geometry = view.geometry;
  drawLegend(view.legend || []);
  const svg = wrap.querySelector("svg");
  svg.setAttribute("viewBox", geometry.frame.join(" "));     // the board and its coordinates, no title
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  layoutBoard();
  drawOverlay();
}

function drawLegend(entries) {
  const box = $("legend");
  box.textContent = "";
  for (const [text, colour] of entries) {
    const entry = document.createElement("span");
    entry.textContent = text;
    entry.style.color = colour;
    box.appendChild(entry);
  }
}

// The board as large as its column allows: the column's height less what sits under the board
// (the legend and the help, which wrap to the board's width: measured again until the board fits),
// and the window's width less the panel's least width.  A narrow window (the board above the
// panel) gives it the width.
const PANEL_LEAST = 340, COLUMN_LEAST = 300;

function layoutBoard() {
  const svg = document.querySelector("#board-wrap svg");
  if (!svg || !geometry) return;
  const [, , frameWidth, frameHeight] = geometry.frame;
  const main = document.querySelector("main"), left = $("left"), wrap = $("board-wrap");
  const style = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const stacked = style.flexWrap === "wrap";
  const width = stacked ? inner : inner - parseFloat(style.columnGap || 0) - PANEL_LEAST;
  const place = (scale) => {
    svg.style.width = `${Math.floor(frameWidth * scale)}px`;
    svg.style.height = `${Math.floor(frameHeight * scale)}px`;
    left.style.width = `${Math.max(COLUMN_LEAST, Math.floor(frameWidth * scale))}px`;
  };
  const fitting = () => {
    svg.style.width = svg.style.height = "0px";
    wrap.style.flex = "1 1 auto";          // (the room the column has; then the legend follows the board)
    const height = stacked ? window.innerHeight * 0.85 : wrap.clientHeight;
    return Math.max(0.2, Math.min(width / frameWidth, height / frameHeight));
  };
  let scale = width / frameWidth;
  for (let pass = 0; pass < 6; pass++) {      // (a narrower column only makes the rows under it taller)
    place(scale);
    const fits = fitting();
    if (fits >= scale - 0.001) break;
    scale = fits;
  }
  place(scale);
  wrap.style.flex = "0 0 auto";
}

function centre(cell) {
  const g = geometry;
  return [g.left + (cell[0] - 0.5) * g.cell, g.top + (g.height - cell[1] + 0.5) * g.cell];
}

// The cell under the pointer; with ``edges``, also a cell just outside an edge of the border
// (a mark dropped there is an exit edge).
function cellAt(svg, event, edges) {
  const point = svg.createSVGPoint();
  point.x = event.clientX; point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const g = geometry;
  const x = Math.floor((p.x - g.left) / g.cell) + 1;
  const y = g.height - Math.floor((p.y - g.top) / g.cell);
  const inX = x >= 1 && x <= g.width, inY = y >= 1 && y <= g.height;
  if (inX && inY) return [x, y];
  const outside = (x === 0 || x === g.width + 1) && inY || (y === 0 || y === g.height + 1) && inX;
  return edges && outside ? [x, y] : null;
}

function drawOverlay() {
  const svg = document.querySelector("#board-wrap svg");
  if (!svg || !geometry) return;
  const old = svg.querySelector("#studio-layer");
  if (old) old.remove();
  const layer = svgEl("g", { id: "studio-layer" }, svg);
  const playing = !!state.game;
  const ruled = svg.querySelector("#principal-line");
  if (ruled) ruled.remove();
  if (!playing && state.answer) drawAnswer(layer);
  if (!playing && state.critical) drawCritical(layer);
  if (!playing) drawEdges(layer, svg);
  if (playing) drawPlayMoves(layer);
  drawGates(svg);
  updateStepper();
}

function drawEdges(layer, svg) {
  const g = geometry, info = state.info;
  const solid = new Set(info.solid.map((c) => c.join(",")));
  const free = (x, y) => x >= 1 && y >= 1 && x <= g.width && y <= g.height && !solid.has(`${x},${y}`);
  const edges = svgEl("g", { id: "edges" }, layer);
  for (let y = 1; y <= g.height; y++) {
    for (let x = 1; x <= g.width; x++) {
      if (!free(x, y)) continue;
      const left = g.left + (x - 1) * g.cell, top = g.top + (g.height - y) * g.cell;
      if (free(x, y + 1)) addEdge(edges, x, y, "north", left + 6, top - 5, g.cell - 12, 10);
      if (free(x + 1, y)) addEdge(edges, x, y, "east", left + g.cell - 5, top + 6, 10, g.cell - 12);
    }
  }
  // drag and drop: pieces and marks to other cells
  const things = [];
  for (const [role, cell] of Object.entries(state.level.pieces)) things.push(["piece", role, cell]);
  for (const [name, cell] of Object.entries(piecesOf(state.level))) {
    if (!(name in state.level.pieces)) things.push(["enemy", name, cell]);
  }
  for (const [mark, cells] of Object.entries(state.level.marks)) for (const cell of cells) things.push(["mark", mark, cell]);
  const handles = svgEl("g", { id: "handles" }, layer);
  const placed = new Set();
  for (const [kind, name, cell] of things) {
    const key = cell.join(",");
    if (placed.has(key)) continue;      // a piece on a mark: the piece is dragged first
    placed.add(key);
    const [cx, cy] = centre(cell);
    const handle = svgEl("rect", { x: cx - g.cell * 0.32, y: cy - g.cell * 0.32, width: g.cell * 0.64, height: g.cell * 0.64,
      class: "cell-hit draggable", "data-drag": `${kind}:${name}:${key}` }, handles);
    svgEl("title", {}, handle).textContent = `${name} at (${key}): drag to another cell`;
    handle.addEventListener("pointerdown", (event) => startDrag(event, svg, kind, name, cell, handle));
  }
}

function addEdge(parent, x, y, side, left, top, width, height) {
  const present = indexOf(state.level.walls[side], x, y) >= 0;
  const gate = !!state.level.gates && indexOf(state.level.gates[side], x, y) >= 0;
  const edge = svgEl("rect", { x: left, y: top, width, height, rx: 3,
    class: "edge " + (present ? "present" : "absent") + (gate ? " gate-present" : ""),
    "data-edge": `${x},${y},${side}`, "data-wall": present ? "yes" : "no" }, parent);
  if (state.level.gates) edge.setAttribute("data-gate", gate ? "yes" : "no");
  const what = edgeMode() === "gate" ? "gate" : "wall";
  const there = what === "gate" ? gate : present;
  svgEl("title", {}, edge).textContent = `${there ? "remove" : "add"} the ${what} ${side} of (${x},${y})`;
  edge.addEventListener("click", () => { if (!state.game) toggleEdge(x, y, side); });
}

function startDrag(event, svg, kind, name, cell, handle) {
  if (state.game) return;
  event.preventDefault();
  handle.classList.add("dragging");
  const up = (e) => {
    svg.removeEventListener("pointerup", up);
    document.removeEventListener("pointerup", cancel);
    handle.classList.remove("dragging");
    const target = cellAt(svg, e, kind === "mark" && state.info.exit_edges);
    if (target && !state.info.solid.some((c) => same(c, target))) moveThing(kind, name, cell, target);
  };
  const cancel = () => {
    svg.removeEventListener("pointerup", up);
    document.removeEventListener("pointerup", cancel);
    handle.classList.remove("dragging");
  };
  svg.addEventListener("pointerup", up);
  document.addEventListener("pointerup", cancel);
}

function arrow(layer, path, colour, label, faded) {
  const points = path.map(centre);
  if (points.length === 1) {
    svgEl("circle", { cx: points[0][0], cy: points[0][1], r: geometry.cell * 0.36, fill: "none", stroke: colour,
      "stroke-width": 1.5, "stroke-dasharray": "3 2", opacity: faded ? 0.35 : 1 }, layer);
  } else {
    svgEl("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: colour,
      "stroke-width": 3, "stroke-opacity": faded ? 0.3 : 0.85, "marker-end": `url(#arrow-${label.role})` }, layer);
  }
  if (label.text) {
    const at = points[points.length - 1];
    svgEl("circle", { cx: at[0] + 12, cy: at[1] - 12, r: 8, fill: "white", stroke: colour, opacity: faded ? 0.4 : 1 }, layer);
    svgEl("text", { x: at[0] + 12, y: at[1] - 9, "font-size": 9, "text-anchor": "middle", fill: colour,
      "font-weight": "bold", opacity: faded ? 0.4 : 1 }, layer).textContent = label.text;
  }
}

function drawAnswer(layer) {
  const answer = state.answer;
  if ($("show-values").checked) {
    const moves = svgEl("g", { id: "move-values" }, layer);
    for (const move of answer.moves) {
      for (const [role, path] of Object.entries(move.paths)) {
        const end = centre(path[path.length - 1]);
        const box = svgEl("rect", { x: end[0] - 20, y: end[1] + 8, width: 40, height: 12, rx: 3, fill: colourOf(move),
          stroke: "#555", "stroke-width": 0.5, opacity: 0.95 }, moves);
        svgEl("title", {}, box).textContent = `${role} ${move.move}: value ${move.value}, plies ${movePlies(move)}`;
        svgEl("text", { x: end[0], y: end[1] + 17.5, "font-size": 8.5, "text-anchor": "middle", fill: "#111" }, moves)
          .textContent = `${move.value === null ? (move.survives ? "ok" : "x") : move.value}/${movePlies(move)}`;
      }
    }
  }
  if ($("show-arrows").checked) {
    const arrows = svgEl("g", { id: "line-arrows" }, layer);
    let at = piecesOf(state.level);      // where the pieces stand after the plies shown
    answer.line.forEach((ply, i) => {
      if (i >= state.step) return;
      for (const [role, path] of Object.entries(ply.paths)) {     // (pieces moved by rule: unnumbered)
        arrow(arrows, path, pieceColour(role), { role, text: ply.side.includes(role) ? String(i + 1) : "" }, i < state.step - 1);
        at[role] = path[path.length - 1];
      }
      if (ply.after) at = copy(ply.after.pieces);      // (a piece that left the board is null)
    });
    if (state.step > 0 && state.step < answer.line.length) {
      const ghosts = svgEl("g", { id: "line-position" }, layer);
      for (const [role, cell] of Object.entries(at)) {
        if (!cell) continue;
        const [cx, cy] = centre(cell);
        const ghost = svgEl("circle", { cx, cy, r: geometry.cell * 0.3, fill: pieceColour(role), opacity: 0.35,
          stroke: pieceColour(role), "stroke-width": 2, "data-ghost": role }, ghosts);
        svgEl("title", {}, ghost).textContent = `${role} after ply ${state.step}`;
      }
    }
  }
}

function drawCritical(layer) {
  const g = geometry;
  const group = svgEl("g", { id: "critical" }, layer);
  for (const wall of state.critical) {
    const [x, y] = wall.cell;
    const left = g.left + (x - 1) * g.cell, top = g.top + (g.height - y) * g.cell;
    const attrs = wall.side === "north" ? { x1: left, y1: top, x2: left + g.cell, y2: top }
      : { x1: left + g.cell, y1: top, x2: left + g.cell, y2: top + g.cell };
    const line = svgEl("line", { ...attrs, class: "critical-" + wall.change, "data-critical": `${x},${y},${wall.side}` }, group);
    svgEl("title", {}, line).textContent = `${wall.change} the wall ${wall.side} of (${x},${y}): ${wall.outcome}`;
  }
}

// The gates' state at the ply shown (null: the board has no gates): the start's, or after the ply.
function gatesNow() {
  const answer = state.answer;
  if (!answer || !answer.start || !answer.start.gates) return null;
  const ply = state.step > 0 ? answer.line[state.step - 1] : null;
  return ply && ply.after ? ply.after.gates : answer.start.gates;
}

// The server draws the gates as they are at the start; stepping the line redraws them as they are then.
function drawGates(svg) {
  const now = state.game ? null : gatesNow();
  const label = $("line-gates");
  label.textContent = now ? `gate ${now}` : "";
  label.dataset.state = now || "";
  if (!now) return;
  for (const bar of svg.querySelectorAll("#gates line")) {
    bar.setAttribute("stroke-width", now === "open" ? 1.5 : 5);
    bar.setAttribute("stroke-dasharray", now === "open" ? "2 4" : "6 3");
    bar.dataset.state = now;
    const title = bar.querySelector("title");
    if (title) title.textContent = title.textContent.replace(/(open|closed)$/, now);
  }
}

function updateStepper() {
  const answer = state.answer;
  const total = answer ? answer.line.length : 0;
  $("line-ply").textContent = answer ? `ply ${state.step} of ${total}` : "-";
  const list = $("line");
  list.querySelectorAll("li").forEach((li, i) => {
    li.classList.toggle("done", i < state.step);
    li.classList.toggle("current", i === state.step - 1);
  });
  const current = list.querySelector("li.current");
  if (current) scrollWithin(list, current);
}

// Scrolls ``list`` (only it, not the page) so that ``item`` shows.
function scrollWithin(list, item) {
  const top = item.offsetTop - list.offsetTop, bottom = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

// - Jobs: critical walls, verify, generate, slow answers ---
function watchJob(job, title, onDone, onFail) {
  const box = document.createElement("div");
  box.className = "job";
  box.dataset.testid = "job";
  box.dataset.kind = job.kind;
  const text = document.createElement("span");
  const bar = document.createElement("progress");
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  cancel.dataset.testid = "cancel";
  box.append(`${title}: `, bar, " ", text, " ", cancel);
  $("jobs").appendChild(box);
  state.jobs[job.id] = box;
  let stopped = false;
  cancel.addEventListener("click", async () => {
    stopped = true;
    try { await api("DELETE", "/api/jobs/" + job.id); } catch (e) { /* already over */ }
    box.remove();
    say(`${title}: cancelled`);
    if (onFail) onFail();
  });
  const poll = async () => {
    if (stopped) return;
    let now;
    try { now = await api("GET", "/api/jobs/" + job.id); } catch (error) { box.remove(); say(error.message, true); return; }
    if (now.fraction !== null) bar.value = now.fraction; else bar.removeAttribute("value");
    text.textContent = `${now.seconds} s ${now.progress.length ? now.progress[now.progress.length - 1] : ""}`;
    if (now.state === "running") { setTimeout(poll, 300); return; }
    box.remove();
    if (now.state === "done") onDone(now.result);
    else {
      if (now.state === "error") say(`${title}: ${now.error.error}`, true);
      if (onFail) onFail();
    }
  };
  poll();
}

async function startJob(kind, title, extra, onDone) {
  try {
    const job = await api("POST", "/api/jobs", { job: kind, board: state.board, level: state.level, role: state.role,
      kind: state.kind, ...extra });
    watchJob(job, title, onDone);
  } catch (error) { say(error.message, true); }
}

function criticalWalls() {
  const levelAsked = state.level;
  startJob("walls", "critical walls", {}, (result) => {
    if (state.level !== levelAsked) return;
    state.critical = result.walls;
    const box = $("walls-result");
    box.textContent = "";
    const head = document.createElement("p");
    head.textContent = `${result.tried} interior edges tried (${result.method}); ${result.walls.length} change the answer (now: ${result.now})` + (result.walls.length ? ":" : ": none.");
    box.appendChild(head);
    const list = document.createElement("ul");
    for (const wall of result.walls) {
      const item = document.createElement("li");
      item.dataset.testid = "critical-wall";
      item.textContent = `${wall.change} the wall ${wall.side} of (${wall.cell.join(",")}): ${wall.outcome}`;
      list.appendChild(item);
    }
    box.appendChild(list);
    drawOverlay();
  });
}

function verify() {
  startJob("verify", "verify", {}, (result) => {
    const box = $("verify-result");
    box.textContent = "";
    const head = document.createElement("p");
    head.dataset.testid = "verify-summary";
    head.textContent = result.passed ? `every expectation holds (${result.checks.length} checks)`
      : `${result.failed.length} of ${result.checks.length} checks fail`;
    box.appendChild(head);
    const table = document.createElement("table");
    table.innerHTML = "<tr><th>check</th><th>line</th><th>expected</th><th>measured</th><th>status</th></tr>";
    for (const check of result.checks) {
      const row = table.insertRow();
      row.className = check.status === "pass" ? "pass" : "fail";
      row.dataset.testid = "check";
      row.dataset.status = check.status;
      for (const v of [check.name, check.line || "", check.expected, check.measured, check.status + (check.message ? ": " + check.message : "")]) {
        row.insertCell().textContent = v;
      }
    }
    box.appendChild(table);
  });
}

function generate(event) {
  event.preventDefault();
  const options = { ...Object.fromEntries(new FormData($("generate-form")).entries()), role: state.role };
  startJob("generate", "generate", { options }, (result) => {
    const box = $("generate-result");
    box.textContent = "";
    const head = document.createElement("pre");
    head.textContent = result.summary + (result.error ? "\n" + result.error : "");
    box.appendChild(head);
    for (const name of result.boards) {
      const button = document.createElement("button");
      button.textContent = "open " + name;
      button.dataset.testid = "open-generated";
      button.addEventListener("click", () => loadBoards(name));
      box.appendChild(button);
    }
  });
}

// - Saving ---
async function save() {
  try {
    const result = await api("POST", "/api/save", { board: state.board, version: state.info.version, level: state.level });
    state.info.version = result.version;
    say(`saved ${result.board}`);
  } catch (error) { say("not saved: " + error.message, true); }
}

// - Playtests: the same opponent as `gridsolve play` ---
async function startPlay() {
  try {
    const game = await api("POST", "/api/play", { board: state.board, level: state.level, as: [$("play-role").value],
      seed: Number($("play-seed").value) || 0 });
    state.game = game;
    $("edit-panel").hidden = true;
    $("play-panel").hidden = false;
    showGame(game);
  } catch (error) { say(error.message, true); }
}

function showGame(game) {
  if (!state.game || state.game.id !== game.id) return;
  state.game = game;
  $("play-state").textContent = `(${game.state})`;
  $("play-state").dataset.state = game.state;
  const transcript = $("play-transcript");
  transcript.textContent = game.transcript.join("\n");
  transcript.scrollTop = transcript.scrollHeight;
  if (game.view) drawBoard(game.view);
  const moves = $("play-moves");
  moves.textContent = "";
  $("play-place").hidden = true;
  const prompt = game.prompt;
  $("play-prompt").textContent = game.state === "over" ? `Game over: ${game.result ? game.result.end : ""}` :
    game.state === "error" ? game.result.error : prompt ? (prompt.kind === "move" ? `${prompt.role}: your move` :
      `${prompt.role}: place ${prompt.count} ${prompt.mark} cells in secret`) : "the solver thinks...";
  if (game.state === "waiting" && prompt.kind === "move") {
    for (const m of prompt.moves) {
      const button = document.createElement("button");
      button.textContent = `${m.move} (${m.to.join(",")})`;
      button.dataset.testid = "play-move";
      button.dataset.move = m.move;
      button.addEventListener("click", () => sendPlay(m.move));
      moves.appendChild(button);
    }
  }
  if (game.state === "waiting" && prompt.kind === "placement") $("play-place").hidden = false;
  $("play-undo").hidden = !(game.state === "waiting" && prompt.kind === "move" && prompt.can_undo);
  if (game.state === "thinking") setTimeout(pollGame, 300);
}

function drawPlayMoves(layer) {
  const game = state.game;
  if (!game || game.state !== "waiting" || !game.prompt || game.prompt.kind !== "move") return;
  for (const m of game.prompt.moves) {
    const [cx, cy] = centre(m.to);
    const spot = svgEl("circle", { cx, cy, r: 9, fill: "rgba(31,95,191,0.25)", stroke: "#1f5fbf", class: "draggable",
      "data-play-move": m.move }, layer);
    svgEl("title", {}, spot).textContent = m.move;
    spot.addEventListener("click", () => sendPlay(m.move));
  }
}

async function pollGame() {
  if (!state.game) return;
  try { showGame(await api("GET", "/api/play/" + state.game.id)); } catch (error) { say(error.message, true); }
}

async function sendPlay(line) {
  if (!state.game) return;
  try { showGame(await api("POST", "/api/play/" + state.game.id, { input: line })); } catch (error) { say(error.message, true); }
}

function stopPlay() {
  if (state.game && state.game.state !== "over") sendPlay("quit");
  state.game = null;
  $("edit-panel").hidden = false;
  $("play-panel").hidden = true;
  refresh();     // the level as it was: playtests leave the history alone
}

// - Start ---
async function loadBoards(open) {
  const data = await api("GET", "/api/boards");
  fillSelect($("board-picker"), data.boards);
  const params = new URLSearchParams(location.search);
  const wanted = open || params.get("board") || data.first || data.boards[0];
  let level = null;
  if (!open && location.hash.startsWith("#level=")) {
    try { level = decodeLevel(location.hash.slice(7)); } catch (e) { say("the link's level cannot be read", true); }
  }
  if (!wanted) { $("verdict").textContent = "No board files in " + data.folder; return; }
  try { await openBoard(wanted, level); } catch (error) { say(error.message, true); }
}

function setup() {
  $("board-picker").addEventListener("change", (e) => openBoard(e.target.value).catch((err) => say(err.message, true)));
  $("role").addEventListener("change", (e) => { state.role = e.target.value; state.critical = null; refresh(); });
  $("kind").addEventListener("change", (e) => { state.kind = e.target.value; state.critical = null; refresh(); });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("save").addEventListener("click", save);
  $("link").addEventListener("click", async () => {
    writeLink();
    try { await navigator.clipboard.writeText(location.href); say("link copied: " + location.href); }
    catch (e) { say("link: " + location.href); }
  });
  $("line-first").addEventListener("click", () => stepTo(0));
  $("line-back").addEventListener("click", () => stepTo(state.step - 1));
  $("line-next").addEventListener("click", () => stepTo(state.step + 1));
  $("line-last").addEventListener("click", () => stepTo(Infinity));
  $("show-arrows").addEventListener("change", drawOverlay);
  $("show-values").addEventListener("change", drawOverlay);
  for (const radio of document.querySelectorAll('input[name="edge-mode"]')) radio.addEventListener("change", drawOverlay);
  $("walls").addEventListener("click", criticalWalls);
  $("verify").addEventListener("click", verify);
  $("generate-form").addEventListener("submit", generate);
  $("play").addEventListener("click", startPlay);
  $("play-hint").addEventListener("click", () => sendPlay("hint"));
  $("play-undo").addEventListener("click", () => sendPlay("undo"));
  $("play-quit").addEventListener("click", () => sendPlay("quit"));
  $("play-back").addEventListener("click", stopPlay);
  $("play-place").addEventListener("submit", (e) => { e.preventDefault(); sendPlay($("play-cells").value); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); undo(); }
    if ((e.ctrlKey || e.metaKey) && (e.key === "y" || (e.shiftKey && e.key === "Z"))) { e.preventDefault(); redo(); }
    if (e.key === "ArrowLeft") stepTo(state.step - 1);
    if (e.key === "ArrowRight") stepTo(state.step + 1);
  });
  window.addEventListener("resize", () => { layoutBoard(); fitLine(); });
  loadBoards().catch((error) => say(error.message, true));
}

document.addEventListener("DOMContentLoaded", setup);
