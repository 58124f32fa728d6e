"use strict";
// Interactive behaviour of a tephra flame graph.  C (the configuration written by the
// renderer before this script) gives the geometry.  Every frame is a <g o=".." w="..">
// whose o and w are its exact offset and weight in samples, so zooming and the matched
// percentage are computed from the numbers, not from rounded pixel positions.
var frames = [], byKey = {}, zoomed = null, searchText = null, ignoreCase = false;
var details, matched, searchBtn, icBtn, unzoomBtn;

function el(id) { return document.getElementById(id); }

function depthOf(rect) {
	return Math.round(Math.abs(parseFloat(rect.getAttribute("y")) - C.y0) / C.fh);
}

function init() {
	details = el("details"); matched = el("matched");
	searchBtn = el("search"); icBtn = el("ignorecase"); unzoomBtn = el("unzoom");
	var gs = el("frames").children;
	for (var i = 0; i < gs.length; i++) {
		var g = gs[i], r = g.getElementsByTagName("rect")[0];
		var info = g.getElementsByTagName("title")[0].textContent;
		var f = { g: g, r: r, t: g.getElementsByTagName("text")[0] || null,
			os: g.getAttribute("o"), o: parseFloat(g.getAttribute("o")),
			w: parseFloat(g.getAttribute("w")), x: parseFloat(r.getAttribute("x")),
			width: parseFloat(r.getAttribute("width")), fill: r.getAttribute("fill"),
			info: info, name: info.slice(0, info.lastIndexOf(" (")), depth: depthOf(r) };
		g.setAttribute("data-i", i);
		frames.push(f);
		byKey[f.depth + "," + f.os] = f;
	}
	document.documentElement.addEventListener("click", onClick);
	document.documentElement.addEventListener("mouseover", onOver);
	document.documentElement.addEventListener("mouseout", onOut);
	window.addEventListener("keydown", onKey);
	window.addEventListener("hashchange", restore);
	restore();
}

function frameOf(node) {
	for (; node && node.getAttribute; node = node.parentNode)
		if (node.hasAttribute("data-i"))
			return frames[+node.getAttribute("data-i")];
	return null;
}

function onOver(e) {
	var f = frameOf(e.target);
	if (f)
		details.textContent = C.nametype + " " + f.info;
}

function onOut(e) {
	if (frameOf(e.target))
		details.textContent = " ";
}

function onClick(e) {
	var id = e.target.id;
	if (id === "unzoom") { unzoom(); return; }
	if (id === "search") { if (searchText !== null) resetSearch(); else askSearch(); return; }
	if (id === "ignorecase") { toggleCase(); return; }
	var f = frameOf(e.target);
	if (f) zoom(f);
}

function onKey(e) {
	if (e.key === "F3" || ((e.ctrlKey || e.metaKey) && (e.key === "f" || e.key === "F"))) {
		e.preventDefault();
		askSearch();
	} else if (e.key === "Escape") {
		if (searchText !== null) resetSearch();
		else if (zoomed) unzoom();
	}
}

// The label that fits: the whole name, or its start and "..", or nothing.
function label(name, px) {
	var chars = Math.floor(px / (C.fontsize * 0.59));
	var cps = Array.from(name);
	if (chars < 3) return "";
	if (cps.length <= chars) return name;
	return cps.slice(0, chars - 2).join("") + "..";
}

function place(f, x, w) {
	f.r.setAttribute("x", x.toFixed(1));
	f.r.setAttribute("width", w.toFixed(1));
	var text = label(f.name, w);
	if (!f.t && text === "") return;
	if (!f.t) {
		f.t = document.createElementNS("http://www.w3.org/2000/svg", "text");
		f.t.setAttribute("y", (parseFloat(f.r.getAttribute("y")) + C.texty).toFixed(1));
		f.g.appendChild(f.t);
	}
	f.t.setAttribute("x", (x + 3).toFixed(1));
	f.t.textContent = text;
}

function zoom(z) {
	zoomed = z;
	var scale = C.plotw / z.w, end = z.o + z.w;
	for (var i = 0; i < frames.length; i++) {
		var f = frames[i], fend = f.o + f.w;
		if (f.depth < z.depth && f.o <= z.o && fend >= end) {
			place(f, C.xpad, C.plotw);
			f.g.setAttribute("class", "parent");
		} else if (f.depth >= z.depth && f.o >= z.o && fend <= end) {
			place(f, C.xpad + (f.o - z.o) * scale, f.w * scale);
			f.g.removeAttribute("class");
		} else {
			f.g.setAttribute("class", "hide");
		}
	}
	unzoomBtn.removeAttribute("class");
	updateUrl();
}

function unzoom() {
	zoomed = null;
	for (var i = 0; i < frames.length; i++) {
		var f = frames[i];
		place(f, f.x, f.width);
		f.g.removeAttribute("class");
	}
	unzoomBtn.setAttribute("class", "hide");
	updateUrl();
}

// A count in the graph's unit, as the titles write it: "12.35 ms", "1234 cycles".
function amount(v) {
	if (C.unit === "ns")
		return Math.abs(v) >= 1e9 ? (v / 1e9).toFixed(2) + " s" : (v / 1e6).toFixed(2) + " ms";
	return (v === Math.floor(v) ? v.toFixed(0) : v.toFixed(2)) + " " + C.unit;
}

function askSearch() {
	var re = window.prompt("Search (regular expression)", searchText || "");
	if (re !== null && re !== "") search(re);
}

// Highlights the frames whose name matches RE and reports the share of all samples
// they cover; a sample under two nested matches is counted once.
function search(re) {
	var rx;
	try {
		rx = new RegExp(re, ignoreCase ? "i" : "");
	} catch (err) {
		matched.textContent = "Bad expression: " + err.message;
		return;
	}
	searchText = re;
	var hits = [];
	for (var i = 0; i < frames.length; i++) {
		var f = frames[i];
		if (rx.test(f.name)) {
			f.r.setAttribute("fill", C.matchcolor);
			hits.push(f);
		} else {
			f.r.setAttribute("fill", f.fill);
		}
	}
	hits.sort(function (a, b) { return a.o - b.o || b.w - a.w; });
	var sum = 0, reach = -Infinity;
	for (var j = 0; j < hits.length; j++) {
		var h = hits[j], hend = h.o + h.w;
		if (h.o >= reach) { sum += h.w; reach = hend; }
		else if (hend > reach) { sum += hend - reach; reach = hend; }
	}
	var pct = C.total > 0 ? 100 * sum / C.total : 0;
	matched.textContent = "Matched: " + pct.toFixed(2) + "% (" + amount(sum) + ")";
	matched.setAttribute("data-pct", pct);
	searchBtn.textContent = "Reset Search";
	searchBtn.setAttribute("class", "active");
	updateUrl();
}

function resetSearch() {
	searchText = null;
	for (var i = 0; i < frames.length; i++)
		frames[i].r.setAttribute("fill", frames[i].fill);
	matched.textContent = " ";
	matched.removeAttribute("data-pct");
	searchBtn.textContent = "Search";
	searchBtn.removeAttribute("class");
	updateUrl();
}

function toggleCase() {
	ignoreCase = !ignoreCase;
	icBtn.setAttribute("class", ignoreCase ? "active" : "");
	if (searchText !== null) search(searchText);
	else updateUrl();
}

// The view lives in the fragment: #x=DEPTH,OFFSET&s=REGEX&ic=1
function updateUrl() {
	var p = [];
	if (zoomed) p.push("x=" + zoomed.depth + "," + zoomed.os);
	if (searchText !== null) p.push("s=" + encodeURIComponent(searchText));
	if (ignoreCase) p.push("ic=1");
	var h = p.length ? "#" + p.join("&") : "";
	if (location.hash === h || (h === "" && location.hash === "")) return;
	try {
		history.replaceState(null, "", location.href.replace(/#.*$/, "") + h);
	} catch (err) {
		location.hash = h;
	}
}

function restore() {
	var q = {}, parts = location.hash.replace(/^#/, "").split("&");
	for (var i = 0; i < parts.length; i++) {
		var k = parts[i].indexOf("=");
		if (k > 0) q[parts[i].slice(0, k)] = decodeURIComponent(parts[i].slice(k + 1));
	}
	ignoreCase = q.ic === "1";
	icBtn.setAttribute("class", ignoreCase ? "active" : "");
	var z = q.x !== undefined ? byKey[q.x] : null;
	if (z) zoom(z); else if (zoomed) unzoom();
	if (q.s !== undefined && q.s !== "") search(q.s); else if (searchText !== null) resetSearch();
}

window.addEventListener("load", init);
