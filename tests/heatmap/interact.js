// interact.js - drives a tephra heatmap page in headless Chromium with the mouse and
// checks that what is selected is what was dragged over, and that the URL keeps it.
// Usage: node interact.js PAGE   (playwright-core from tests/browser/node_modules)
"use strict";
const { chromium } = require("playwright-core");
const path = require("path");
const fs = require("fs");
const os = require("os");

let failures = 0;
function check(cond, what) {
	console.log((cond ? "ok   " : "FAIL ") + what);
	if (!cond) failures++;
}

(async () => {
	const page_path = path.resolve(process.argv[2]);
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), "tephra-heatmap-"));
	const ctx = await chromium.launchPersistentContext(profile, {
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--disable-background-networking", "--disable-component-update"],
		viewport: { width: 1300, height: 1000 },
	});
	await ctx.route(/^(?!file:)/, (route) => { failures++; console.log("FAIL network request " + route.request().url()); route.abort(); });
	const page = await ctx.newPage();
	page.on("pageerror", (e) => { failures++; console.log("FAIL script error: " + e.message); });
	const url = "file://" + page_path;
	await page.goto(url);
	const g = await page.evaluate(() => {
		const b = document.getElementById("heat").getBoundingClientRect();
		return { left: b.left, top: b.top, LEFT, cellW, cellH, rows, nCols };
	});
	// the middle of cell (c, r); r = -1: the seconds axis under column c
	const at = (c, r) => [g.left + g.LEFT + c * g.cellW + g.cellW / 2,
		g.top + (r < 0 ? g.rows * g.cellH + 8 : r * g.cellH + g.cellH / 2)];
	async function drag(from, to, shift) {
		if (shift) await page.keyboard.down("Shift");
		await page.mouse.move(...at(...from));
		await page.mouse.down();
		await page.mouse.move(...at(...to), { steps: 4 });
		await page.mouse.up();
		if (shift) await page.keyboard.up("Shift");
	}
	const info = () => page.evaluate(() => {
		const s = document.getElementById("selinfo");
		return [s.getAttribute("data-samples"), s.getAttribute("data-weight")];
	});
	// what opening URL + HASH afresh shows
	async function fresh(hash) {
		const p = await ctx.newPage();
		await p.goto(url + hash);
		const r = await p.evaluate(() => {
			const s = document.getElementById("selinfo");
			return [s.getAttribute("data-samples"), s.getAttribute("data-weight")];
		});
		await p.close();
		return r;
	}
	const whole = await info();
	const c2 = Math.min(1, g.nCols - 1), r1 = 3, r2 = Math.min(g.rows - 1, 40);

	await drag([0, r2], [c2, r1], false);
	let h = await page.evaluate(() => location.hash);
	check(h === `#sel=r,0,${r2},${c2},${r1}`, `drag over cells: a rectangle in the URL (${h})`);
	let got = await info();
	check(JSON.stringify(got) === JSON.stringify(await fresh(h)), `the URL reopens the same selection (${got})`);
	check(+got[0] > 0 && +got[0] < +whole[0], `a rectangle selects part of the samples (${got[0]} of ${whole[0]})`);

	await drag([0, r1], [c2, r2], true);
	h = await page.evaluate(() => location.hash);
	check(h === `#sel=t,0,${r1},${c2},${r2}`, `shift-drag: a time range in the URL (${h})`);
	got = await info();
	check(JSON.stringify(got) === JSON.stringify(await fresh(h)), `the URL reopens the same time range (${got})`);

	await drag([c2, -1], [c2, -1], false);
	h = await page.evaluate(() => location.hash);
	check(h === `#sel=r,${c2},0,${c2},${g.rows - 1}`, `a click on the seconds axis: the whole column (${h})`);

	// a frame click zooms and the URL says so; going back restores the selection alone
	const node = await page.evaluate(() => {
		const f = [...document.querySelectorAll("#flame .f")].find((e) => e.getAttribute("data-depth") === "2");
		return f ? f.getAttribute("data-node") : null;
	});
	if (node) {
		await page.click(`#flame .f[data-node="${node}"]`);
		h = await page.evaluate(() => location.hash);
		check(h === `#sel=r,${c2},0,${c2},${g.rows - 1}&zoom=${node}`, `a frame click zooms, kept in the URL (${h})`);
		const w = await page.evaluate((n) => document.querySelector(`#flame .f[data-node="${n}"]`).style.width, node);
		const all = await page.evaluate(() => document.querySelector('#flame .f[data-node="0"]').style.width);
		check(w === all, `the zoomed frame spans the graph (${w}, ${all})`);
		await page.goBack();
		h = await page.evaluate(() => location.hash);
		check(h === `#sel=r,${c2},0,${c2},${g.rows - 1}`, `Back returns to the unzoomed selection (${h})`);
	}

	await page.click("#all");
	h = await page.evaluate(() => location.hash);
	got = await info();
	check(h === "" && JSON.stringify(got) === JSON.stringify(whole), `"whole profile" clears the URL and selects everything (${got})`);

	await page.selectOption("#color", "weight");
	h = await page.evaluate(() => location.hash);
	check(h === "#color=weight", `the colouring is kept in the URL (${h})`);
	await page.selectOption("#rows", "10");
	h = await page.evaluate(() => location.hash);
	const rowsNow = await page.evaluate(() => rows);
	check(h === "#color=weight&rows=10" && rowsNow === 10, `rows per second in the URL (${h})`);

	await ctx.close();
	fs.rmSync(profile, { recursive: true, force: true });
	console.log(failures ? `${failures} check(s) failed` : "all checks passed");
	process.exit(failures ? 1 : 0);
})().catch((e) => { console.log("FAIL " + e.stack); process.exit(1); });
