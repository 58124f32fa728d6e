// speedscope_app.js - opens a speedscope file tephra wrote in the speedscope app itself
// (the npm package's built index.html) in headless Chromium, and checks what it shows.
// Usage: node speedscope_app.js FILE.json DIR INDEX.html
//   DIR holds per thread TID TID.name, TID.periods, TID.folded (speedscope_lib.sh's
//   thread_oracles: perf script's names and periods, tephra fold's stacks).
// The file is loaded the way the package's own command line (`speedscope FILE`) does it:
// a script that calls speedscope.loadFileFromBase64(NAME, BASE64), named by the
// #localProfilePath= hash parameter.  Checks: no import error; the profile list is
// exactly perf script's threads, named "comm (pid/tid)", each with the total the app
// shows equal to the sum of its perf script periods (= tephra fold's total); per thread
// the Sandwich table's rows are the functions of tephra fold's stacks, each with the
// total and self weights tephra fold gives, as the app formats them.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");
const os = require("os");

const [jsonPath, dir, appHtml] = process.argv.slice(2);
// Only a bound on a hang (a loaded machine is slow, never wrong): every wait is for a
// DOM condition.
const WAIT_MS = 180000;
let failures = 0;
function check(cond, what) {
	console.log((cond ? "ok   " : "FAIL ") + what);
	if (!cond) failures++;
}

// The app's text for a weight in nanoseconds and for a percentage (speedscope 1.25.0's
// rules, as observed in its table cells: 2 decimals in the largest unit reached, minutes
// as m:ss; percentages 100%, >99%, <0.01%, else 2, 1 or 0 decimals below 1, 10, above).
function nanoseconds(v) {
	const s = v * 1e-9;
	if (s / 60 >= 1) {
		const m = Math.floor(s / 60);
		return m + ":" + String(Math.floor(s - m * 60)).padStart(2, "0");
	}
	if (s >= 1) return s.toFixed(2) + "s";
	if (s / 1e-3 >= 1) return (s / 1e-3).toFixed(2) + "ms";
	if (s / 1e-6 >= 1) return (s / 1e-6).toFixed(2) + "\u00b5s";
	return (s / 1e-9).toFixed(2) + "ns";
}
function percent(p) {
	if (p === 100) return "100%";
	if (p > 99) return ">99%";
	if (p < 0.01) return "<0.01%";
	if (p < 1) return p.toFixed(2) + "%";
	if (p < 10) return p.toFixed(1) + "%";
	return p.toFixed(0) + "%";
}
function cell(v, total) { return nanoseconds(v) + " (" + percent(100 * v / total) + ")"; }

// The oracles, per thread.
const threads = [];
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".name")).sort()) {
	const tid = f.slice(0, -5);
	const read = (ext) => fs.readFileSync(path.join(dir, tid + ext), "utf8");
	const periods = read(".periods").split("\n").filter((l) => l !== "").map(Number);
	const total = new Map(), self = new Map();
	let foldTotal = 0;
	for (const line of read(".folded").split("\n")) {
		if (line === "") continue;
		const sp = line.lastIndexOf(" ");
		const w = Number(line.slice(sp + 1)), frames = line.slice(0, sp).split(";");
		foldTotal += w;
		// A function's total counts a stack once however often it is on it.
		for (const name of new Set(frames)) total.set(name, (total.get(name) || 0) + w);
		const leaf = frames[frames.length - 1];
		self.set(leaf, (self.get(leaf) || 0) + w);
	}
	threads.push({ tid, name: read(".name").trim(), periodSum: periods.reduce((a, b) => a + b, 0),
		foldTotal, total, self });
}
if (threads.length < 2) { console.log("FAIL the recording has fewer than 2 threads"); process.exit(1); }
let doc;
try {
	doc = JSON.parse(fs.readFileSync(jsonPath, "utf8"));
} catch (e) {
	console.log("FAIL " + path.basename(jsonPath) + " is not JSON: " + e.message);
	process.exit(1);
}
if (!doc.profiles.every((p) => p.unit === "nanoseconds")) {
	console.log("FAIL the file's profiles are not in nanoseconds (a cpu-clock recording was expected)");
	process.exit(1);
}

(async () => {
	const loader = path.resolve(dir, "load-profile.js");
	fs.writeFileSync(loader, "speedscope.loadFileFromBase64(" + JSON.stringify(path.basename(jsonPath)) +
		", " + JSON.stringify(fs.readFileSync(jsonPath).toString("base64")) + ")\n");
	// Tall enough that the Sandwich table (a list drawn for what is in view) shows every row.
	const rows = Math.max(...threads.map((t) => t.total.size));
	const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "tephra-chromium-"));
	const ctx = await chromium.launchPersistentContext(profileDir, {
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync"],
		viewport: { width: 1400, height: 400 + 40 * rows },
	});
	try {
		await run(ctx, loader);
	} finally {
		await ctx.close();
		fs.rmSync(profileDir, { recursive: true, force: true });
	}
	console.log(failures ? failures + " check(s) failed" : "all checks passed");
	process.exit(failures ? 1 : 0);
})().catch((e) => { console.log("FAIL " + (e.stack || e)); process.exit(1); });

async function run(ctx, loader) {
	// Nothing may leave the machine: the app and the profile are local files.
	await ctx.route(/^(?!file:)/, (route) => { check(false, "no network request: " + route.request().url()); route.abort(); });
	const page = await ctx.newPage();
	page.setDefaultTimeout(WAIT_MS);
	const errors = [];
	let erred;
	const anError = new Promise((resolve) => { erred = resolve; });
	const error = (what) => { errors.push(what); erred(); };
	page.on("pageerror", (e) => error(e.message));
	page.on("console", (m) => { if (m.type() === "error") error(m.text()); });
	page.on("dialog", (d) => { error("dialog: " + d.message()); d.dismiss(); });
	await page.goto("file://" + path.resolve(appHtml) + "#localProfilePath=" + encodeURIComponent(loader));
	// Imported: the profile list has its rows; or the app says it failed, or threw.
	await Promise.race([anError, page.waitForFunction(() => document.querySelector("tr[title]") ||
		/Something went wrong/.test(document.body.innerText), null, { timeout: WAIT_MS })]);
	if (await page.evaluate(() => /Something went wrong/.test(document.body.innerText)))
		errors.push("the app says \"Something went wrong\"");
	check(errors.length === 0 && await page.$("tr[title]") !== null,
		"the app imports " + path.basename(jsonPath) + (errors.length ? ": " + errors.join("; ") : ""));
	if (!await page.$("tr[title]")) return;

	// The title, "NAME (I/N)": clicking it opens the profile list (a table), as a person does.
	const titleIs = (want) => page.waitForFunction((want) => {
		const idx = [...document.querySelectorAll("span > span")].find((s) => /^\(\d+\/\d+\)$/.test(s.textContent));
		return idx && idx.parentElement.textContent === want;
	}, want);
	const openList = async () => {
		await page.locator("span > span", { hasText: /^\(\d+\/\d+\)$/ }).click();
		await page.waitForFunction(() => [...document.querySelectorAll("tr[title]")].every((r) => r.offsetParent !== null));
	};
	const n = threads.length;
	await openList();
	const listed = await page.$$eval("tr[title]", (trs) => trs.map((tr) => ({
		name: tr.querySelector("td:nth-child(2)").textContent, total: tr.querySelector("td:nth-child(3)").textContent })));
	const want = threads.map((t) => t.name).sort(), got = listed.map((r) => r.name).sort();
	check(JSON.stringify(want) === JSON.stringify(got),
		"the profiles listed are perf script's " + n + " threads: " + JSON.stringify(got) +
		(JSON.stringify(want) === JSON.stringify(got) ? "" : ", perf script: " + JSON.stringify(want)));
	for (const t of threads) {
		const row = listed.find((r) => r.name === t.name);
		if (!row) continue;
		check(t.periodSum === t.foldTotal && row.total === nanoseconds(t.periodSum),
			t.name + ": the list shows " + row.total + "; perf script's periods sum to " + t.periodSum +
			" ns (" + nanoseconds(t.periodSum) + "), tephra fold's to " + t.foldTotal + " ns");
	}

	// Each thread's Sandwich table (the view stays when another profile is chosen).
	let fullyCompared = 0, sandwich = false;
	const shown = () => page.evaluate(() => [...document.querySelectorAll("tr:not([title])")]
		.filter((tr) => tr.children.length === 3 && tr.children[0].tagName === "TD")
		.map((tr) => ({ total: tr.children[0].textContent, self: tr.children[1].textContent,
			name: tr.children[2].textContent })));
	for (const t of threads) {
		const index = listed.findIndex((r) => r.name === t.name);
		if (index < 0) continue;
		if (!await page.isVisible("tr[title]")) await openList();
		await page.click("tr[title=" + JSON.stringify(t.name) + "]");
		await titleIs(t.name + " (" + (index + 1) + "/" + listed.length + ")");
		if (!sandwich) {
			await page.click("xpath=//div[text()=\"Sandwich\"]"); // the tab (an emoji, then its name)
			sandwich = true;
		}
		// The table is the chosen thread's once its rows are that thread's functions (no
		// two threads of the workload have the same set: the main thread's start-up,
		// spin_a's, spin_b's); a wrong table shows as a time-out with the difference below.
		const names = [...t.total.keys()].sort();
		try {
			await page.waitForFunction((names) => {
				const rows = [...document.querySelectorAll("tr:not([title])")]
					.filter((tr) => tr.children.length === 3 && tr.children[0].tagName === "TD")
					.map((tr) => tr.children[2].textContent);
				return JSON.stringify([...new Set(rows)].sort()) === JSON.stringify(names);
			}, names, { timeout: WAIT_MS });
		} catch (e) {
			const rows = await shown();
			check(false, t.name + ": the Sandwich table's functions are tephra fold's: " + rows.length + " rows; missing " +
				JSON.stringify(names.filter((x) => !rows.some((r) => r.name === x)).slice(0, 5)) + ", extra " +
				JSON.stringify(rows.map((r) => r.name).filter((x) => !t.total.has(x)).slice(0, 5)));
			continue;
		}
		const rows = await shown();
		const count = new Map();
		for (const r of rows) count.set(r.name, (count.get(r.name) || 0) + 1);
		let bad = [], compared = 0;
		for (const r of rows) {
			// One function in two source files is two rows in the app and one name in
			// tephra fold: only that it is there can be checked.
			if (count.get(r.name) > 1) continue;
			compared++;
			const total = cell(t.total.get(r.name), t.foldTotal), self = cell(t.self.get(r.name) || 0, t.foldTotal);
			if (r.total !== total || r.self !== self)
				bad.push(r.name + ": app " + r.total + " / " + r.self + ", tephra fold " + total + " / " + self);
		}
		const dup = [...count].filter(([, c]) => c > 1).map(([name]) => name);
		check(bad.length === 0, t.name + ": Sandwich total and self of " + compared + " functions are tephra fold's" +
			(dup.length ? " (not compared, one name on several rows: " + dup.join(", ") + ")" : "") +
			(bad.length ? "; differ: " + bad.slice(0, 5).join("; ") : ""));
		if (bad.length === 0 && dup.length === 0) fullyCompared++;
	}
	check(fullyCompared >= 1, fullyCompared + " thread(s) with every Sandwich row compared");
	check(errors.length === 0, "no page errors" + (errors.length ? ": " + errors.join("; ") : ""));
}
