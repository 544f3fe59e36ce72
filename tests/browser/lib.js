/*
 * Shared helpers for the browser checks: the browser, the fixture site
 * (served over file:// and over a local HTTP server), and a few waits and
 * assertions that say what differed.
 */
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { chromium } = require('playwright-core');

const CHROMIUM = process.env.QD_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync'];

function launch() {
	return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

const TYPES = {
	'.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript',
	'.svg': 'image/svg+xml', '.png': 'image/png', '.xml': 'application/xml',
	'.pdf': 'application/pdf', '.woff2': 'font/woff2', '.txt': 'text/plain'
};

/* A static server for dir on 127.0.0.1 and an ephemeral port. */
function serve(dir) {
	const root = path.resolve(dir);
	const server = http.createServer((req, res) => {
		let rel;
		try {
			rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
		} catch (e) {
			res.writeHead(400).end();
			return;
		}
		let file = path.join(root, rel);
		if (!file.startsWith(root)) {
			res.writeHead(403).end();
			return;
		}
		if (file.endsWith('/')) file += 'index.html';
		fs.readFile(file, (err, body) => {
			if (err) {
				fs.readFile(path.join(root, '404.html'), (e2, nf) => {
					res.writeHead(404, { 'Content-Type': TYPES['.html'] }).end(e2 ? 'not found' : nf);
				});
				return;
			}
			res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
			res.end(body);
		});
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() });
		});
	});
}

/*
 * A fresh browser context for one check. Page errors and CSP refusals are
 * collected; ctx.problems() lists them so a check can fail on any.
 */
async function newContext(env, options) {
	const context = await env.browser.newContext(Object.assign({ viewport: { width: 1280, height: 900 } }, options || {}));
	const problems = [];
	context.on('page', (page) => watch(page, problems));
	context.problems = () => problems.slice();
	return context;
}

function watch(page, problems) {
	page.on('pageerror', (e) => problems.push('page error: ' + e.message));
	page.on('console', (m) => {
		const text = m.text();
		if (m.type() === 'error' && !/favicon|Failed to load resource.*404/.test(text)) problems.push('console: ' + text);
		else if (/Content Security Policy/i.test(text)) problems.push('CSP: ' + text);
	});
}

async function newPage(env, options) {
	const context = await newContext(env, options);
	const page = await context.newPage();
	return { context, page };
}

/* Polls fn until it returns a truthy value; throws with what it last saw. */
async function waitFor(fn, what, timeout) {
	const end = Date.now() + (timeout || 5000);
	let last;
	for (;;) {
		try {
			last = await fn();
			if (last) return last;
		} catch (e) {
			last = e.message;
		}
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}` + (last !== undefined ? ` (last: ${JSON.stringify(last)})` : ''));
		await new Promise((r) => setTimeout(r, 50));
	}
}

/* Waits until locator's text matches re. */
async function waitText(locator, re, what) {
	let seen = '';
	await waitFor(async () => {
		seen = (await locator.textContent({ timeout: 2000 })) || '';
		return re.test(seen.replace(/\s+/g, ' ').trim());
	}, `${what || 'text'} to match ${re} (saw ${JSON.stringify(seen.replace(/\s+/g, ' ').trim().slice(0, 200))})`);
}

const inLanguage = {};

/*
 * The fixture site built with `language = lang`, once a run (its folder
 * goes when the run ends): its file:// base.
 */
function fixtureIn(env, lang) {
	if (inLanguage[lang]) return inLanguage[lang];
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quizdeck-' + lang + '-'));
	process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
	const src = path.join(tmp, 'src');
	fs.cpSync(path.join(__dirname, 'fixture-site'), src, { recursive: true });
	const toml = path.join(src, 'site.toml');
	const text = fs.readFileSync(toml, 'utf8');
	assert.match(text, /^language = "en"$/m, 'the fixture names its language');
	fs.writeFileSync(toml, text.replace(/^language = "en"$/m, `language = "${lang}"`));
	execFileSync(path.join(env.root, 'quizdeck'), ['build', '--no-pdf', '-q', '-C', src, '-o', path.join(tmp, 'out')],
		{ stdio: ['ignore', 'pipe', 'pipe'] });
	inLanguage[lang] = 'file://' + path.join(tmp, 'out') + '/';
	return inLanguage[lang];
}

function noProblems(context) {
	const p = context.problems();
	assert.deepEqual(p, [], 'the page reported errors');
}

module.exports = { assert, launch, serve, newContext, newPage, waitFor, waitText, noProblems, fixtureIn, ARGS, CHROMIUM };
