/*
 * A tiny runner for the browser checks. Builds the fixture site with
 * quizdeck (or takes a built one from QD_BROWSER_SITE), serves it on
 * 127.0.0.1, starts Debian's Chromium once, runs every check exported by
 * the *.test.js files beside this one, and prints one line per check:
 *
 *   ok browser <what>
 *   not ok browser <what>: <why>
 *
 * Exits 0 when it could run; the lines carry the verdicts (tests/run
 * counts them). Optional arguments filter checks by substring.
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const HERE = __dirname;
const ROOT = path.resolve(HERE, '..', '..');
const CHECK_TIMEOUT = 45000;

function say(line) {
	process.stdout.write(line + '\n');
}

function oneLine(s) {
	return String(s).replace(/\u001b\[[0-9;]*m/g, '').replace(/\s+/g, ' ').trim().slice(0, 400);
}

function buildSite() {
	if (process.env.QD_BROWSER_SITE) return { dir: path.resolve(process.env.QD_BROWSER_SITE), tmp: null };
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quizdeck-browser-'));
	const out = path.join(tmp, 'site');
	execFileSync(path.join(ROOT, 'quizdeck'),
		['build', '--no-pdf', '-C', path.join(HERE, 'fixture-site'), '-o', out],
		{ stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
	return { dir: out, tmp };
}

async function main() {
	const filters = process.argv.slice(2);
	const started = Date.now();
	let lib;
	try {
		lib = require('./lib.js');
	} catch (e) {
		say('not ok browser setup: cannot load playwright-core (run npm ci in tests/browser): ' + oneLine(e.message));
		return;
	}

	let site;
	try {
		site = buildSite();
	} catch (e) {
		say('not ok browser fixture site builds: ' + oneLine((e.stderr || '') + ' ' + e.message));
		return;
	}
	say('ok browser fixture site builds');

	const files = fs.readdirSync(HERE).filter((f) => f.endsWith('.test.js')).sort();
	const checks = [];
	for (const f of files) {
		const mod = require(path.join(HERE, f));
		for (const name of Object.keys(mod)) {
			if (!filters.length || filters.some((s) => name.includes(s))) checks.push({ name, fn: mod[name] });
		}
	}

	let browser, server;
	try {
		browser = await lib.launch();
		server = await lib.serve(site.dir);
	} catch (e) {
		say('not ok browser chromium starts: ' + oneLine(e.message));
		if (server) server.close();
		return;
	}

	const env = {
		browser,
		fileBase: 'file://' + site.dir + '/',
		httpBase: server.url,
		siteDir: site.dir,
		root: ROOT
	};
	let failed = 0;
	for (const check of checks) {
		const t0 = Date.now();
		let timer;
		try {
			await Promise.race([
				check.fn(env),
				new Promise((_, reject) => {
					timer = setTimeout(() => reject(new Error(`took over ${CHECK_TIMEOUT / 1000} s`)), CHECK_TIMEOUT);
				})
			]);
			say(`ok browser ${check.name}`);
		} catch (e) {
			failed++;
			say(`not ok browser ${check.name}: ${oneLine(e.message)}`);
		} finally {
			clearTimeout(timer);
		}
		if (process.env.QD_BROWSER_VERBOSE) process.stderr.write(`  ${check.name}: ${Date.now() - t0} ms\n`);
	}

	await browser.close();
	server.close();
	if (site.tmp) fs.rmSync(site.tmp, { recursive: true, force: true });
	process.stderr.write(`browser: ${checks.length} checks, ${failed} failed, ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

main().catch((e) => {
	say('not ok browser runner: ' + oneLine(e.stack || e.message));
}).finally(() => process.exit(0));
