"use strict";
// Interactive part of a tephra heatmap page (written for tephra).  The JSON in
// #profile holds the frame names, the stack tree as (parent + 1, frame) varint pairs,
// and per sample three varint streams: its time (zigzag delta from the previous one, ns,
// the first sample at 0), its leaf node + 1, its weight (zigzag delta).  A sample t ns
// after the earliest is in column floor(t / 1e9) and row floor((t mod 1e9) * rows / 1e9).
// A selection is kept in location.hash: sel=r,C1,R1,C2,R2 (the cells of that rectangle) or
// sel=t,C1,R1,C2,R2 (every cell from C1,R1 to C2,R2 in time order), color=samples|weight,
// rows=N, zoom=NODE (the frame the flame graph spans).  No hash: the whole profile.
var parseStart = performance.now();
var P = JSON.parse(document.getElementById("profile").textContent);
var parseMs = performance.now() - parseStart;
var NS = 1e9;
var rows, nCols, nodeParent, nodeFrame, times, stacks, weights, cells, children;
var state = { sel: null, color: "samples", zoom: 0 }, drag = null;
var heat, hctx, cellW, cellH, LEFT = 48, BOTTOM = 22, cellN, cellWt;
var flameW, frameH = 17;

function el(id) { return document.getElementById(id); }

function bytesOf(b64) {
	var s = atob(b64), a = new Uint8Array(s.length);
	for (var i = 0; i < s.length; i++) a[i] = s.charCodeAt(i);
	return a;
}

// Reads COUNT varints from the base64 text B64 into OUT; DELTA: each is a zigzag
// difference from the one before (arithmetic, not bit operations: values pass 2^32).
function readVarints(b64, count, out, delta) {
	var b = bytesOf(b64), pos = 0, prev = 0;
	for (var i = 0; i < count; i++) {
		var v = 0, m = 1, c;
		do { c = b[pos++]; v += (c & 127) * m; m *= 128; } while (c & 128);
		if (delta) { prev += v % 2 ? -(v + 1) / 2 : v / 2; v = prev; }
		out[i] = v;
	}
}

function decode() {
	var n = P.nr_nodes, pairs = new Float64Array(2 * n);
	readVarints(P.nodes, 2 * n, pairs, false);
	nodeParent = new Int32Array(n + 1); nodeFrame = new Int32Array(n + 1);
	for (var i = 0; i < n; i++) { nodeParent[i + 1] = pairs[2 * i]; nodeFrame[i + 1] = pairs[2 * i + 1]; }
	times = new Float64Array(P.samples); stacks = new Int32Array(P.samples);
	weights = new Float64Array(P.samples);
	readVarints(P.times, P.samples, times, true);
	readVarints(P.stacks, P.samples, stacks, false);
	readVarints(P.weights, P.samples, weights, true);
	// a sample older than the first (out of order) moves the start back: t >= 0
	var tmin = 0;
	for (i = 0; i < P.samples; i++) if (times[i] < tmin) tmin = times[i];
	if (tmin < 0) for (i = 0; i < P.samples; i++) times[i] -= tmin;
	// children sorted by name, as flame graphs order them
	children = [];
	for (i = 0; i <= n; i++) children.push([]);
	for (i = 1; i <= n; i++) children[nodeParent[i]].push(i);
	for (i = 0; i <= n; i++)
		if (children[i].length > 1)
			children[i].sort(function (a, b) {
				var x = P.frames[nodeFrame[a]], y = P.frames[nodeFrame[b]];
				return x < y ? -1 : x > y ? 1 : 0;
			});
}

function computeCells() {
	var last = P.samples ? times[P.samples - 1] : 0;
	for (var i = 0; i < P.samples; i++) if (times[i] > last) last = times[i];
	nCols = Math.floor(last / NS) + 1;
	cells = new Int32Array(P.samples);
	cellN = new Float64Array(nCols * rows); cellWt = new Float64Array(nCols * rows);
	for (i = 0; i < P.samples; i++) {
		var t = times[i], col = Math.floor(t / NS);
		var c = col * rows + Math.floor((t - col * NS) * rows / NS);
		cells[i] = c; cellN[c]++; cellWt[c] += weights[i];
	}
}

function fmtWeight(w) {
	if (!P.time_ns) return String(w) + (P.event ? " " + P.event : "");
	return w >= 1e9 ? (w / 1e9).toFixed(3) + " s" : (w / 1e6).toFixed(2) + " ms";
}

function escapeHtml(s) {
	return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// ---- the heatmap ----

function cellColor(f) {
	if (f <= 0) return "#f2f2f2";
	return "hsl(" + Math.round(55 - 55 * f) + ",100%," + Math.round(88 - 50 * f) + "%)";
}

function drawHeat() {
	var avail = Math.max(600, (document.documentElement.clientWidth || 1200) - 40) - LEFT;
	cellW = Math.max(2, Math.min(24, Math.floor(avail / nCols)));
	cellH = Math.max(2, Math.floor(400 / rows));
	heat.width = LEFT + nCols * cellW + 1; heat.height = rows * cellH + BOTTOM;
	var v = state.color === "weight" ? cellWt : cellN, max = 0, i;
	for (i = 0; i < v.length; i++) if (v[i] > max) max = v[i];
	hctx.fillStyle = "#fff"; hctx.fillRect(0, 0, heat.width, heat.height);
	for (var c = 0; c < nCols; c++)
		for (var r = 0; r < rows; r++) {
			hctx.fillStyle = cellColor(max ? v[c * rows + r] / max : 0);
			hctx.fillRect(LEFT + c * cellW, r * cellH, cellW - (cellW > 4 ? 1 : 0), cellH - (cellH > 4 ? 1 : 0));
		}
	hctx.fillStyle = "#000"; hctx.font = "11px sans-serif"; hctx.textBaseline = "middle";
	var rstep = Math.max(1, Math.ceil(14 / cellH));
	for (r = 0; r < rows; r += rstep)
		hctx.fillText(Math.round(r * 1000 / rows) + " ms", 2, r * cellH + cellH / 2);
	var cstep = Math.max(1, Math.ceil(40 / cellW));
	hctx.textBaseline = "top";
	for (c = 0; c < nCols; c += cstep)
		hctx.fillText(c + " s", LEFT + c * cellW, rows * cellH + 4);
	drawSelection();
}

function selBox(s) {
	if (!s) return null;
	if (s.kind === "r")
		return [[Math.min(s.c1, s.c2), Math.min(s.r1, s.r2), Math.max(s.c1, s.c2), Math.max(s.r1, s.r2)]];
	// time range: up to three rectangles (first column's tail, middle columns, last's head)
	var a = s.c1 * rows + s.r1, b = s.c2 * rows + s.r2, lo = Math.min(a, b), hi = Math.max(a, b);
	var c1 = Math.floor(lo / rows), r1 = lo % rows, c2 = Math.floor(hi / rows), r2 = hi % rows;
	if (c1 === c2) return [[c1, r1, c2, r2]];
	var out = [[c1, r1, c1, rows - 1]];
	if (c2 > c1 + 1) out.push([c1 + 1, 0, c2 - 1, rows - 1]);
	out.push([c2, 0, c2, r2]);
	return out;
}

function drawSelection() {
	var boxes = selBox(drag ? drag.sel : state.sel);
	if (!boxes) return;
	hctx.strokeStyle = "#0050ff"; hctx.lineWidth = 2;
	for (var i = 0; i < boxes.length; i++) {
		var b = boxes[i];
		hctx.strokeRect(LEFT + b[0] * cellW + 1, b[1] * cellH + 1, (b[2] - b[0] + 1) * cellW - 2, (b[3] - b[1] + 1) * cellH - 2);
	}
}

function inSelection(s) {
	if (!s) return function () { return true; };
	if (s.kind === "t") {
		var a = s.c1 * rows + s.r1, b = s.c2 * rows + s.r2, lo = Math.min(a, b), hi = Math.max(a, b);
		return function (cell) { return cell >= lo && cell <= hi; };
	}
	var c1 = Math.min(s.c1, s.c2), c2 = Math.max(s.c1, s.c2), r1 = Math.min(s.r1, s.r2), r2 = Math.max(s.r1, s.r2);
	return function (cell) {
		var c = Math.floor(cell / rows), r = cell - c * rows;
		return c >= c1 && c <= c2 && r >= r1 && r <= r2;
	};
}

// The cell under a mouse event, or null; on the seconds axis the whole column (row -1).
function cellAt(e) {
	var box = heat.getBoundingClientRect();
	var x = e.clientX - box.left - LEFT, y = e.clientY - box.top;
	var c = Math.floor(x / cellW), r = Math.floor(y / cellH);
	if (c < 0 || c >= nCols || y < 0) return null;
	return { c: c, r: r >= rows ? -1 : r };
}

function describeCell(p) {
	if (!p || p.r < 0) return;
	var i = p.c * rows + p.r;
	el("details").textContent = "second " + p.c + ", " + Math.round(p.r * 1000 / rows) + "-" +
		Math.round((p.r + 1) * 1000 / rows) + " ms: " + cellN[i] + " samples, " + fmtWeight(cellWt[i]);
}

function selOf(a, b, timeRange) {
	if (a.r < 0 || b.r < 0) return { kind: "r", c1: a.c, r1: 0, c2: b.c, r2: rows - 1 };
	return { kind: timeRange ? "t" : "r", c1: a.c, r1: a.r, c2: b.c, r2: b.r };
}

function onDown(e) {
	var p = cellAt(e);
	if (!p) return;
	drag = { from: p, time: e.shiftKey, sel: selOf(p, p, e.shiftKey) };
	e.preventDefault();
}

function onMove(e) {
	var p = cellAt(e);
	describeCell(p);
	if (!drag || !p) return;
	if (drag.from.r < 0) p.r = -1;
	else if (p.r < 0) p.r = rows - 1;
	drag.sel = selOf(drag.from, p, drag.time);
	drawHeat();
}

function onUp() {
	if (!drag) return;
	state.sel = drag.sel; state.zoom = 0; drag = null;
	save();
}

// ---- the flame graph of the selection ----

function hashName(s) {
	var h = 0;
	for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
	return h;
}

function frameColor(name) {
	var h = hashName(name);
	return "rgb(" + (205 + h % 50) + "," + (60 + (h >>> 8) % 150) + "," + (40 + (h >>> 16) % 40) + ")";
}

function drawFlame() {
	var t0 = performance.now();
	var n = P.nr_nodes, tot = new Float64Array(n + 1), cnt = new Float64Array(n + 1);
	var take = inSelection(state.sel), i;
	for (i = 0; i < P.samples; i++)
		if (take(cells[i])) { tot[stacks[i]] += weights[i]; cnt[stacks[i]]++; }
	// a parent's node id is below its children's: one backward pass sums the subtrees
	for (i = n; i >= 1; i--) { tot[nodeParent[i]] += tot[i]; cnt[nodeParent[i]] += cnt[i]; }
	var zoom = state.zoom > 0 && state.zoom <= n && tot[state.zoom] > 0 ? state.zoom : 0;
	var chain = [];
	for (var z = zoom; z > 0; z = nodeParent[z]) chain.unshift(z);
	var base = zoom ? tot[zoom] : tot[0], scale = base > 0 ? flameW / base : 0;
	var html = [], maxDepth = 0, minW = 0.5;
	function box(node, x, w, depth, name) {
		if (depth > maxDepth) maxDepth = depth;
		var pct = tot[0] > 0 ? (100 * tot[node] / tot[0]).toFixed(2) : "0";
		var info = escapeHtml(name) + " (" + cnt[node] + " samples, " + escapeHtml(fmtWeight(tot[node])) + ", " + pct + "%)";
		html.push('<div class="f" data-node="' + node + '" data-depth="' + depth + '" style="left:' +
			x.toFixed(1) + "px;width:" + Math.max(w - 1, 0.5).toFixed(1) + "px;bottom:" + depth * frameH +
			"px;background:" + (node ? frameColor(name) : "#ddd") + '" title="' + info + '">' +
			(w > 30 ? escapeHtml(name) : "") + "</div>");
	}
	box(0, 0, flameW, 0, "all");
	for (i = 0; i < chain.length; i++)
		box(chain[i], 0, flameW, i + 1, P.frames[nodeFrame[chain[i]]]);
	var todo = [[zoom, 0, chain.length]];
	while (todo.length) {
		var t = todo.pop(), kids = children[t[0]], x = t[1];
		for (i = 0; i < kids.length; i++) {
			var k = kids[i], w = tot[k] * scale;
			if (tot[k] <= 0) continue;
			if (w >= minW) {
				box(k, x, w, t[2] + 1, P.frames[nodeFrame[k]]);
				todo.push([k, x, t[2] + 1]);
			}
			x += w;
		}
	}
	var f = el("flame");
	f.style.height = (maxDepth + 1) * frameH + "px"; f.style.width = flameW + "px";
	f.innerHTML = html.join("");
	var what = state.sel ? "selection" : "whole profile";
	var info = el("selinfo");
	info.setAttribute("data-samples", String(cnt[0]));
	info.setAttribute("data-weight", String(tot[0]));
	info.textContent = what + ": " + cnt[0] + " samples, " + fmtWeight(tot[0]) +
		(state.sel ? " of " + P.samples + " samples" : "") + (zoom ? " (zoomed: click 'all' to unzoom)" : "");
	document.body.setAttribute("data-flame-ms", (performance.now() - t0).toFixed(1));
}

function onFlameClick(e) {
	var t = e.target;
	if (!t.classList || !t.classList.contains("f")) return;
	state.zoom = parseInt(t.getAttribute("data-node"), 10) || 0;
	save();
}

function onFlameOver(e) {
	var t = e.target;
	if (t.classList && t.classList.contains("f")) el("details").textContent = t.getAttribute("title");
}

// ---- URL state ----

function save() {
	var parts = [];
	if (state.sel) {
		var s = state.sel;
		parts.push("sel=" + [s.kind, s.c1, s.r1, s.c2, s.r2].join(","));
	}
	if (state.color !== "samples") parts.push("color=" + state.color);
	if (rows !== P.rows) parts.push("rows=" + rows);
	if (state.zoom) parts.push("zoom=" + state.zoom);
	var h = parts.length ? "#" + parts.join("&") : "";
	if (location.hash !== h) {
		if (h) location.hash = h;
		else history.replaceState(null, "", location.pathname + location.search);
	}
	render();
}

function restore() {
	var q = {}, h = location.hash.replace(/^#/, "").split("&");
	for (var i = 0; i < h.length; i++) {
		var eq = h[i].indexOf("=");
		if (eq > 0) q[h[i].slice(0, eq)] = decodeURIComponent(h[i].slice(eq + 1));
	}
	var r = parseInt(q.rows, 10);
	var newRows = r >= 1 && r <= 1000 ? r : P.rows;
	if (newRows !== rows) { rows = newRows; computeCells(); }
	state.color = q.color === "weight" ? "weight" : "samples";
	state.zoom = parseInt(q.zoom, 10) || 0;
	state.sel = null;
	var m = /^([rt]),(\d+),(\d+),(\d+),(\d+)$/.exec(q.sel || "");
	if (m) state.sel = { kind: m[1], c1: +m[2], r1: Math.min(+m[3], rows - 1), c2: +m[4], r2: Math.min(+m[5], rows - 1) };
	el("color").value = state.color;
	var sel = el("rows");
	if (!sel.querySelector('option[value="' + rows + '"]')) {
		var o = document.createElement("option");
		o.value = o.textContent = String(rows);
		sel.appendChild(o);
	}
	sel.value = String(rows);
	render();
}

function render() {
	var t0 = performance.now();
	drawHeat();
	document.body.setAttribute("data-heat-ms", (performance.now() - t0).toFixed(1));
	drawFlame();
}

function init() {
	var t0 = performance.now();
	decode();
	document.body.setAttribute("data-decode-ms", (performance.now() - t0).toFixed(1));
	heat = el("heat"); hctx = heat.getContext("2d");
	if (P.time_ns) el("color").options[1].textContent = "time";
	flameW = Math.max(600, (document.documentElement.clientWidth || 1200) - 40);
	var d = 0;
	for (var i = 0; i < times.length; i++) if (times[i] > d) d = times[i];
	el("info").textContent = P.samples + " samples" + (P.event ? " of " + P.event : "") + ", " +
		fmtWeight(Number(P.total)) + ", over " + (d / NS).toFixed(3) + " s.  Drag over cells to select " +
		"a rectangle, shift-drag for a time range, drag along the seconds axis for whole columns.";
	heat.addEventListener("mousedown", onDown);
	window.addEventListener("mousemove", onMove);
	window.addEventListener("mouseup", onUp);
	el("flame").addEventListener("click", onFlameClick);
	el("flame").addEventListener("mouseover", onFlameOver);
	el("all").addEventListener("click", function () { state.sel = null; state.zoom = 0; save(); });
	el("color").addEventListener("change", function () { state.color = el("color").value; save(); });
	el("rows").addEventListener("change", function () {
		rows = parseInt(el("rows").value, 10) || P.rows; computeCells(); state.sel = null; save();
	});
	window.addEventListener("hashchange", restore);
	rows = 0;
	restore();
	// the figures docs/flamegraph.md quotes: JSON.parse, decoding, drawing, and the
	// time from the start of navigation to a drawn page
	document.body.setAttribute("data-parse-ms", parseMs.toFixed(1));
	document.body.setAttribute("data-ready-ms", performance.now().toFixed(1));
}

init();
