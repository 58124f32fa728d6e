// check.js - drives headless Chromium over tephra SVGs and checks what a person sees.
// Usage: node check.js DIR   (DIR holds the SVGs made by flamegraph.test.sh)
//        node check.js --screenshot SVG PNG [WIDTH HEIGHT]
// Expected numbers are worked out by hand from the folded inputs in flamegraph.test.sh.
"use strict";
const { chromium } = require("playwright-core");
const path = require("path");
const fs = require("fs");
const os = require("os");

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync"];

let failures = 0;
function check(cond, what) {
	console.log((cond ? "ok   " : "FAIL ") + what);
	if (!cond) failures++;
}
function near(a, b) { return Math.abs(a - b) < 0.06; }

async function launch() {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), "tephra-chromium-"));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		headless: true,
		args: FLAGS, // the fresh profile directory is passed as --user-data-dir by playwright
	});
	// Nothing may leave the machine: the SVG is self-contained.
	await ctx.route(/^(?!file:)/, (route) => { failures++; console.log("FAIL network request " + route.request().url()); route.abort(); });
	return { ctx, profile };
}

// The geometry of every frame, keyed by "name@depth" (first one wins).
async function frames(page) {
	return page.evaluate(() => {
		const out = {};
		for (const g of document.querySelectorAll("#frames > g")) {
			const t = g.querySelector("title").textContent;
			const r = g.querySelector("rect");
			const name = t.slice(0, t.lastIndexOf(" ("));
			const depth = Math.round(Math.abs(parseFloat(r.getAttribute("y")) - C.y0) / C.fh);
			const key = name + "@" + depth;
			if (key in out) continue;
			out[key] = { x: parseFloat(r.getAttribute("x")), w: parseFloat(r.getAttribute("width")),
				fill: r.getAttribute("fill"), cls: g.getAttribute("class") || "",
				shown: getComputedStyle(g).display !== "none",
				label: (g.querySelector("text") || { textContent: "" }).textContent };
		}
		return out;
	});
}

async function open(ctx, file, hash) {
	const page = await ctx.newPage();
	const errors = [];
	page.on("pageerror", (e) => errors.push(e.message));
	page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
	await page.goto("file://" + path.resolve(file) + (hash || ""));
	await page.waitForFunction(() => typeof frames !== "undefined" && document.readyState === "complete");
	page.__errors = errors;
	return page;
}

async function clickFrame(page, name, depth) {
	const box = await page.evaluate(([name, depth]) => {
		for (const g of document.querySelectorAll("#frames > g")) {
			const t = g.querySelector("title").textContent;
			const r = g.querySelector("rect");
			const d = Math.round(Math.abs(parseFloat(r.getAttribute("y")) - C.y0) / C.fh);
			if (t.slice(0, t.lastIndexOf(" (")) === name && d === depth) {
				const b = r.getBoundingClientRect();
				return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
			}
		}
		return null;
	}, [name, depth]);
	if (!box) throw new Error("no frame " + name + "@" + depth);
	await page.mouse.click(box.x, box.y);
	return box;
}

async function matchedText(page) {
	return page.evaluate(() => document.getElementById("matched").textContent);
}

async function plain(ctx, dir) {
	const file = path.join(dir, "plain.svg");
	let page = await open(ctx, file);
	let f = await frames(page);
	// 100 samples over 1180 px: 11.8 px per sample, plot starting at x = 10.
	const want = { "all@0": [10, 1180], "main@1": [10, 944], "other@1": [954, 236],
		"alpha@2": [10, 472], "beta@2": [482, 472], "leaf@3": [10, 354],
		"gamma@3": [482, 236] };
	for (const k in want)
		check(f[k] && near(f[k].x, want[k][0]) && near(f[k].w, want[k][1]),
			`plain: ${k} at x=${want[k][0]} width=${want[k][1]} (got ${f[k] ? f[k].x + "," + f[k].w : "none"})`);
	const count = await page.evaluate(() => document.querySelectorAll("#frames > g").length);
	check(count === 8, `plain: 8 frames drawn: all, main, alpha, leaf, beta, gamma, leaf, other (got ${count})`);

	// Hover shows name, weight and percentage.
	const a = await page.evaluate(() => { const r = [...document.querySelectorAll("#frames rect")][3].getBoundingClientRect(); return [r.x + 2, r.y + 2]; });
	await page.mouse.move(a[0], a[1]);
	const det = await page.evaluate(() => document.getElementById("details").textContent);
	check(/^Function: \S+ \(\d+ samples, [\d.]+%\)$/.test(det), `hover: details line "${det}"`);
	await clickFrame(page, "alpha", 2);
	await page.mouse.move(1, 1);
	await page.waitForTimeout(50);
	const det2 = await page.evaluate(() => document.getElementById("details").textContent);
	check(det2.trim() === "", "hover: details cleared on leaving");

	// Zoom into beta (depth 2, 40 samples starting at sample 40).
	await page.goto("file://" + path.resolve(file));
	await page.waitForFunction(() => typeof frames !== "undefined" && frames.length > 0);
	await clickFrame(page, "beta", 2);
	f = await frames(page);
	check(near(f["beta@2"].x, 10) && near(f["beta@2"].w, 1180), "zoom: clicked beta is full width");
	check(near(f["gamma@3"].x, 10) && near(f["gamma@3"].w, 590), "zoom: beta's child gamma is half width");
	check(f["main@1"].cls === "parent" && near(f["main@1"].w, 1180), "zoom: ancestor main is full width and faded");
	check(!f["alpha@2"].shown && !f["other@1"].shown, "zoom: alpha and other are hidden");
	const hash = await page.evaluate(() => location.hash);
	check(hash === "#x=2,40", `zoom: URL fragment is #x=2,40 (got ${hash})`);
	const unzoomShown = await page.evaluate(() => getComputedStyle(document.getElementById("unzoom")).display !== "none");
	check(unzoomShown, "zoom: Reset Zoom is shown");
	await page.keyboard.press("Escape");
	f = await frames(page);
	check(near(f["beta@2"].x, 482) && near(f["beta@2"].w, 472) && f["alpha@2"].shown, "reset zoom (Escape): original layout back");
	check(await page.evaluate(() => location.hash) === "", "reset zoom: fragment cleared");
	await page.close();

	// A link reopens the zoom.
	page = await open(ctx, file, "#x=2,40");
	f = await frames(page);
	check(near(f["beta@2"].w, 1180) && !f["alpha@2"].shown, "URL: #x=2,40 reopens zoomed into beta");
	await page.click("#unzoom");
	f = await frames(page);
	check(near(f["beta@2"].w, 472) && f["alpha@2"].shown, "Reset Zoom button: original layout back");
	await page.close();

	// Search: "leaf" matches 30 + 20 = 50 of 100 samples.
	page = await open(ctx, file);
	page.once("dialog", (d) => d.accept("leaf"));
	await page.click("#search");
	f = await frames(page);
	check(await matchedText(page) === "Matched: 50.00% (50 samples)", `search leaf: Matched: 50.00% (got ${await matchedText(page)})`);
	check(f["leaf@3"].fill === "#e600e6" && f["gamma@3"].fill !== "#e600e6", "search leaf: leaf highlighted, gamma not");
	check(await page.evaluate(() => location.hash) === "#s=leaf", "search: URL fragment #s=leaf");
	// Nested matches count once: main (80) contains alpha (40).
	await page.click("#search"); // "Reset Search"
	check((await matchedText(page)).trim() === "", "search: reset clears the percentage");
	page.once("dialog", (d) => d.accept("^(main|alpha)$"));
	await page.keyboard.press("Control+f");
	check(await matchedText(page) === "Matched: 80.00% (80 samples)", `Ctrl-F nested search: 80.00% counted once (got ${await matchedText(page)})`);
	// Case: "LEAF" does not match until ic is toggled.
	await page.click("#search");
	page.once("dialog", (d) => d.accept("LEAF"));
	await page.click("#search");
	check(await matchedText(page) === "Matched: 0.00% (0 samples)", "search LEAF, case-sensitive: 0.00%");
	await page.click("#ignorecase");
	check(await matchedText(page) === "Matched: 50.00% (50 samples)", "search LEAF, ignoring case: 50.00%");
	const h2 = await page.evaluate(() => location.hash);
	check(h2 === "#s=LEAF&ic=1", `URL keeps search and case (${h2})`);
	await page.close();

	page = await open(ctx, file, "#x=2,40&s=LEAF&ic=1");
	f = await frames(page);
	check(await matchedText(page) === "Matched: 50.00% (50 samples)" && near(f["beta@2"].w, 1180) && f["leaf@3"].fill === "#e600e6",
		"URL: zoom + case-insensitive search reopen together");
	check(page.__errors.length === 0, "no script errors " + page.__errors.join("; "));
	await page.close();
}

async function icicle(ctx, dir) {
	const page = await open(ctx, path.join(dir, "icicle.svg"));
	const f = await frames(page);
	const ys = await page.evaluate(() => [...document.querySelectorAll("#frames rect")].map((r) => parseFloat(r.getAttribute("y"))));
	check(ys[0] === Math.min(...ys), "icicle: root frame at the top");
	check(near(f["beta@2"].w, 472), "icicle: widths as in the flame graph");
	await page.close();
}

async function awkward(ctx, dir) {
	const page = await open(ctx, path.join(dir, "names.svg"));
	const names = await page.evaluate(() => frames.map((f) => f.name));
	check(names.includes('a<b&"c\'') && names.includes("bad\\xffbyte") && names.includes("ünï"),
		"escaping: <, &, quotes, a non-UTF-8 byte and UTF-8 names survive (" + names.join(" | ") + ")");
	check(page.__errors.length === 0, "escaping: the SVG parses without errors");
	await page.close();
}

async function diff(ctx, dir) {
	const page = await open(ctx, path.join(dir, "diff.svg"));
	const f = await frames(page);
	const rgb = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
	const grew = rgb(f["grows@3"].fill), shrank = rgb(f["shrinks@3"].fill), same = rgb(f["same@3"].fill);
	check(grew[0] === 255 && grew[1] < 100 && grew[2] < 100, `diff: grown frame is red (${f["grows@3"].fill})`);
	check(shrank[2] === 255 && shrank[0] < 255, `diff: shrunk frame is blue (${f["shrinks@3"].fill})`);
	check(same[0] === 255 && same[1] === 255 && same[2] === 255, "diff: unchanged frame is white");
	// after: grows 60, shrinks 10, same 30 => 100; widths from "after".
	check(near(f["grows@3"].w, 708), `diff: grown frame width from the second profile (${f["grows@3"].w})`);
	await page.close();
}

async function screenshot(ctx, svg, png, w, h) {
	const page = await ctx.newPage();
	await page.setViewportSize({ width: w || 1200, height: h || 600 });
	await page.goto("file://" + path.resolve(svg));
	await page.waitForTimeout(200);
	await page.screenshot({ path: png });
	await page.close();
}

(async () => {
	const { ctx, profile } = await launch();
	try {
		if (process.argv[2] === "--screenshot") {
			await screenshot(ctx, process.argv[3], process.argv[4], +process.argv[5], +process.argv[6]);
		} else {
			const dir = process.argv[2];
			await plain(ctx, dir);
			await icicle(ctx, dir);
			await awkward(ctx, dir);
			await diff(ctx, dir);
		}
	} catch (e) {
		console.log("FAIL " + (e.stack || e));
		failures++;
	} finally {
		await ctx.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
	console.log(failures ? failures + " check(s) failed" : "all checks passed");
	process.exit(failures ? 1 : 0);
})();
