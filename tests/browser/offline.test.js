/*
 * A hosted site offline: the fixture site, built with its PDF, under a
 * sub-path of a plain static server (python3 -m http.server) on
 * 127.0.0.1. The worker takes control on the first visit; then the
 * server is stopped (the browser's offline switch does not cover a
 * worker's fetches) and pages reload, a test is taken and scored, cards
 * flip, and a file not saved yet (the PDF, a page the build never made)
 * leads to the offline page. From disk (file://) and under `quizdeck
 * serve` no worker registers. The manifest meets Chromium's installable
 * criteria.
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { assert, newContext, newPage, waitFor, waitText, noProblems } = require('./lib.js');
const h = require('./quiz-helpers.js');

const SUB = 'courses/weather/';

/* A process's first stdout/stderr line matching re, or an error after timeout ms. */
function lineOf(child, re, timeout) {
	return new Promise((resolve, reject) => {
		let seen = '';
		const timer = setTimeout(() => reject(new Error(`no line matching ${re} (saw ${JSON.stringify(seen.slice(-300))})`)), timeout);
		const look = (chunk) => {
			seen += chunk;
			const m = re.exec(seen);
			if (m) {
				clearTimeout(timer);
				resolve(m);
			}
		};
		child.stdout.on('data', look);
		child.stderr.on('data', look);
		child.on('exit', () => reject(new Error('exited: ' + seen.slice(-300))));
	});
}

function stop(child) {
	return new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once('exit', () => resolve());
		child.kill('SIGTERM');
	});
}

function build(env, src, out) {
	execFileSync(path.join(env.root, 'quizdeck'), ['build', '-q', '-C', src, '-o', out], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/* A copy of the fixture built with its PDF into <tmp>/www/SUB, served from <tmp>/www. */
async function hosted(env) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quizdeck-offline-'));
	const src = path.join(tmp, 'src');
	const out = path.join(tmp, 'www', SUB.replace(/\/$/, ''));
	fs.cpSync(path.join(__dirname, 'fixture-site'), src, { recursive: true });
	build(env, src, out);
	const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', path.join(tmp, 'www')],
		{ stdio: ['ignore', 'pipe', 'pipe'] });
	const m = await lineOf(server, /port (\d+)/, 10000);
	return { tmp, src, out, server, base: `http://127.0.0.1:${m[1]}/${SUB}` };
}

function controlled(page) {
	return waitFor(() => page.evaluate(() => !!navigator.serviceWorker.controller), 'the worker to control the page', 15000);
}

async function registrations(page) {
	return page.evaluate(async () => {
		if (!('serviceWorker' in navigator)) return [];
		try {
			return (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope);
		} catch (e) {
			return [];
		}
	});
}

async function offlinePage(page) {
	await waitFor(() => /\/offline\.html$/.test(page.url()), `the offline page (at ${page.url()})`);
	await waitText(page.getByRole('heading', { level: 1 }), /^You are offline$/, 'offline heading');
	/* Styled by the theme: its stylesheet came from the cache. */
	const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
	assert.match(font, /Serif/, 'the offline page has the theme\'s stylesheet');
}

module.exports = {
	async 'offline: a hosted site keeps working with its server stopped'(env) {
		const site = await hosted(env);
		const context = await newContext(env);
		try {
			const page = await context.newPage();
			await page.goto(site.base + 'index.html');
			await controlled(page);
			assert.deepEqual(await registrations(page), [site.base], 'one worker, scoped to the sub-path');
			/* Everything but the PDF was saved at install. */
			const saved = await page.evaluate(async () => {
				const names = await caches.keys();
				const c = await caches.open(names[0]);
				return { names, urls: (await c.keys()).map((r) => r.url) };
			});
			assert.equal(saved.names.length, 1, 'one cache');
			assert.ok(saved.urls.includes(site.base + h.TEST_PAGE), 'the test page is saved');
			assert.ok(!saved.urls.some((u) => u.endsWith('.pdf')), 'a PDF was saved before it was opened');

			await stop(site.server);
			await assert.rejects(fetch(site.base + 'index.html'), 'the server still answers');

			await page.reload();
			await waitText(page.getByRole('heading', { level: 1 }), /Fixture Weather/, 'home heading after reload');

			/* A test, from the link on the home page, answered and scored. */
			await page.getByRole('link', { name: 'Weather Basics' }).first().click();
			await page.locator('#setup').waitFor({ state: 'visible' });
			await page.reload();
			await page.locator('#setup').waitFor({ state: 'visible' });
			await page.locator('#setup-count').fill('3');
			await h.startTest(page);
			await h.runEach(page, [true, false, true]);
			assert.equal(await h.score(page), '2 of 3');

			/* Cards flip. */
			await page.goto(site.base + 'cards/weather/index.html');
			const flip = page.getByRole('button', { name: 'Flip card' });
			await flip.click();
			await page.getByRole('group', { name: 'How well did you remember it?' }).waitFor();

			/* A guide chapter in a folder, asked for as the folder. */
			await page.goto(site.base + 'guide/wind/');
			await waitText(page.getByRole('heading', { level: 1 }), /\S/, 'chapter heading');
			assert.ok(!/offline/.test(page.url()), 'a saved chapter led to the offline page');

			/* Not saved yet: the PDF (on demand), and a page the build never made. */
			await page.goto(site.base + 'print/weather.pdf');
			await offlinePage(page);
			await page.goto(site.base + 'guide/nowhere/');
			await offlinePage(page);
			await page.getByRole('link', { name: 'Go to the home page' }).click();
			await waitText(page.getByRole('heading', { level: 1 }), /Fixture Weather/, 'home from the offline page');
			const problems = context.problems().filter((p) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(p));
			assert.deepEqual(problems, [], 'the pages reported errors');
		} finally {
			await context.close();
			await stop(site.server);
			fs.rmSync(site.tmp, { recursive: true, force: true });
		}
	},

	async 'offline: a rebuilt site replaces the old cache'(env) {
		const site = await hosted(env);
		const context = await newContext(env);
		try {
			const page = await context.newPage();
			await page.goto(site.base + 'index.html');
			await controlled(page);
			const version = () => /"version": "([0-9a-f]+)"/.exec(fs.readFileSync(path.join(site.out, 'sw.js'), 'utf8'))[1];
			const before = await page.evaluate(() => caches.keys());
			const old = version();
			assert.equal(before.length, 1);
			assert.ok(before[0] === `quizdeck ${site.base} ${old}`, 'the cache is named for the scope and version: ' + before[0]);
			/* A card added and the site built again: a new worker, a new cache, the old one gone. */
			fs.appendFileSync(path.join(site.src, 'content/cards/weather.md'), '\n## What is the dew point? {#dew}\n\nThe temperature at which air is saturated.\n');
			build(env, site.src, site.out);
			const now = version();
			assert.notEqual(now, old, 'the version did not change');
			await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
			await waitFor(async () => {
				const names = await page.evaluate(() => caches.keys());
				return names.length === 1 && names[0] === `quizdeck ${site.base} ${now}`;
			}, 'the new cache alone', 15000);
			await page.goto(site.base + 'cards/weather/index.html');
			await waitFor(() => page.locator('#all-cards li.card').filter({ hasText: 'dew point' }).count(), 'the new card on the page');
		} finally {
			await context.close();
			await stop(site.server);
			fs.rmSync(site.tmp, { recursive: true, force: true });
		}
	},

	async 'offline: installable by Chromium\'s criteria'(env) {
		const site = await hosted(env);
		const { context, page } = await newPage(env);
		try {
			await page.goto(site.base + 'quiz/weather/index.html');
			await controlled(page);
			const cdp = await context.newCDPSession(page);
			const manifest = await cdp.send('Page.getAppManifest');
			assert.deepEqual(manifest.errors, [], 'manifest errors');
			assert.equal(manifest.url, site.base + 'manifest.webmanifest');
			const parsed = JSON.parse(manifest.data);
			assert.equal(parsed.display, 'standalone');
			assert.equal(new URL(parsed.start_url, manifest.url).href, site.base + 'index.html', 'start_url');
			const sizes = parsed.icons.filter((i) => i.purpose === 'any').map((i) => i.sizes);
			assert.deepEqual(sizes, ['192x192', '512x512'], 'icons for any purpose');
			/* Each icon loads, at the size it claims. */
			for (const icon of parsed.icons) {
				const got = await page.evaluate((src) => new Promise((resolve) => {
					const img = new Image();
					img.onload = () => resolve(img.naturalWidth + 'x' + img.naturalHeight);
					img.onerror = () => resolve('error');
					img.src = src;
				}), new URL(icon.src, manifest.url).href);
				assert.equal(got, icon.sizes, icon.src);
			}
			const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
			/* A test's browser context is incognito, where Chromium installs nothing: that one is the harness's. */
			assert.deepEqual(installabilityErrors.filter((e) => e.errorId !== 'in-incognito'), [], 'installability errors');
			noProblems(context);
		} finally {
			await context.close();
			await stop(site.server);
			fs.rmSync(site.tmp, { recursive: true, force: true });
		}
	},

	async 'offline: from disk (file://) no worker registers'(env) {
		const { context, page } = await newPage(env);
		try {
			await page.goto(env.fileBase + 'index.html');
			assert.equal(await page.locator('script[src$="assets/offline.js"]').count(), 1, 'the page loads offline.js');
			await page.waitForLoadState('load');
			await page.waitForTimeout(500);
			assert.deepEqual(await registrations(page), []);
			noProblems(context);
		} finally {
			await context.close();
		}
	},

	async 'offline: pages of quizdeck serve register no worker'(env) {
		const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quizdeck-offline-serve-'));
		const port = await new Promise((resolve) => {
			const probe = require('node:net').createServer().listen(0, '127.0.0.1', () => {
				const p = probe.address().port;
				probe.close(() => resolve(p));
			});
		});
		const serve = spawn(path.join(env.root, 'quizdeck'), ['serve', '-C', path.join(__dirname, 'fixture-site'), '--port', String(port)],
			{ stdio: ['ignore', 'pipe', 'pipe'], env: Object.assign({}, process.env, { TMPDIR: tmp }) });
		const { context, page } = await newPage(env);
		try {
			const base = `http://127.0.0.1:${port}/`;
			await waitFor(async () => (await fetch(base)).ok, 'serve to answer', 20000);
			await page.goto(base + 'cards/weather/index.html');
			await page.waitForLoadState('load');
			await page.waitForTimeout(500);
			assert.equal(await page.locator('script[src$="offline.js"], link[rel="manifest"]').count(), 0, 'serve\'s page links the worker');
			assert.deepEqual(await registrations(page), []);
			assert.equal((await fetch(base + 'sw.js')).status, 404, 'serve has a sw.js');
		} finally {
			await context.close();
			await stop(serve);
			fs.rmSync(tmp, { recursive: true, force: true });
		}
	}
};
