/*
 * The hostile site in a browser (tests/suites/hostile.sh): every page of
 * tests/fixtures/hostile, built, opened from disk in headless Chromium.
 *
 *   node tests/browser/hostile.js SAFE_OUT UNSAFE_OUT
 *
 * SAFE_OUT is the fixture as it is; UNSAFE_OUT the same with
 * [markdown] unsafe_html = true. Every injection attempt in the fixture
 * calls qdpwn(); an init script defines it to record the call. Checks,
 * one line each (`ok hostile ...` / `not ok hostile ...: why`):
 *
 *  - each page of SAFE_OUT with the page's CSP switched off (bypassCSP),
 *    so nothing but the escaping stands between the content and the
 *    browser: no dialog, no qdpwn() call, and in the live DOM no event
 *    attribute, no inline or foreign script, no frame, object, embed,
 *    svg, math, base or style element, no javascript:/vbscript:/data:
 *    link; the CSP meta is in the head;
 *  - each page of SAFE_OUT with the CSP on: no policy violation at all
 *    (nothing the theme does inline depends on the CSP being absent);
 *  - the practice test run through to its results and the card viewer
 *    flipped through every card (the scripts copy content around: it
 *    must stay text), with the same checks after;
 *  - each page of UNSAFE_OUT, where the raw HTML is the author's on
 *    purpose, with the CSP on: still no dialog and no qdpwn() call, and
 *    at least one violation reported (the policy did the blocking).
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const lib = require('./lib.js');

const WANT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";

const INIT = `
	window.__qd = { pwned: [], violations: [] };
	window.qdpwn = function (x) { window.__qd.pwned.push(String(x)); };
	['alert', 'confirm', 'prompt', 'print'].forEach(function (f) {
		window[f] = function (x) { window.__qd.pwned.push(f + ':' + String(x)); };
	});
	document.addEventListener('securitypolicyviolation', function (e) {
		window.__qd.violations.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || ''));
	});
`;

function say(line) {
	process.stdout.write(line + '\n');
}

function oneLine(s) {
	return String(s).replace(/\s+/g, ' ').trim().slice(0, 400);
}

function pages(dir) {
	const out = [];
	(function walk(d) {
		for (const name of fs.readdirSync(d).sort()) {
			const p = path.join(d, name);
			if (fs.statSync(p).isDirectory()) walk(p);
			else if (name.endsWith('.html')) out.push(p);
		}
	})(dir);
	return out;
}

/* What the live DOM holds that it must not (evaluated in the page). */
function domProblems(cssom) {
	const bad = [];
	const forbidden = ['iframe', 'frame', 'object', 'embed', 'svg', 'math', 'base', 'style', 'template', 'noscript', 'applet'];
	document.querySelectorAll('*').forEach(function (el) {
		const tag = el.tagName.toLowerCase();
		if (forbidden.indexOf(tag) >= 0) bad.push('element <' + tag + '>');
		for (const a of Array.from(el.attributes)) {
			const n = a.name.toLowerCase();
			if (n.indexOf('on') === 0) bad.push('attribute ' + n + ' on <' + tag + '>');
			/* The scripts may size things through el.style (CSSOM), which the CSP allows. */
			if ((n === 'style' && !cssom) || n === 'srcdoc') bad.push(n + ' on <' + tag + '>');
		}
		if (tag === 'script' && !/(^|\/)assets\/[a-z0-9]+(-[a-z0-9]+)*\.js$/.test(el.getAttribute('src') || ''))
			bad.push('script ' + JSON.stringify(el.getAttribute('src') || el.textContent.slice(0, 40)));
		if (tag === 'meta' && el.httpEquiv && el.httpEquiv.toLowerCase() !== 'content-security-policy')
			bad.push('meta http-equiv ' + el.httpEquiv);
		['href', 'src', 'action', 'formaction', 'poster', 'data'].forEach(function (n) {
			if (!el.hasAttribute(n)) return;
			let proto = '';
			try {
				proto = new URL(el.getAttribute(n), document.baseURI).protocol;
			} catch (e) {
				return;
			}
			if (proto === 'javascript:' || proto === 'vbscript:' ||
			    (proto === 'data:' && !(tag === 'img' && /^data:image\/(png|gif|jpeg|webp)/i.test(el.getAttribute(n)))))
				bad.push(proto + ' URL in ' + n + ' on <' + tag + '>');
		});
	});
	const csp = document.head ? document.head.querySelectorAll('meta[http-equiv="Content-Security-Policy" i]') : [];
	if (csp.length !== 1) bad.push(csp.length + ' CSP metas in the head');
	return { bad: bad, csp: csp.length ? csp[0].getAttribute('content') : null, pwned: window.__qd.pwned,
		violations: window.__qd.violations };
}

async function openPage(context, file, dialogs) {
	const page = await context.newPage();
	page.on('dialog', (d) => {
		dialogs.push(d.type() + ': ' + d.message());
		d.dismiss().catch(() => {});
	});
	await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
	await page.waitForTimeout(100);
	return page;
}

async function verdict(page, dialogs, opts) {
	const r = await page.evaluate(domProblems, !!opts.cssom);
	const problems = [];
	if (dialogs.length) problems.push('dialogs: ' + dialogs.join(', '));
	if (r.pwned.length) problems.push('injected code ran: ' + r.pwned.join(', '));
	if (opts.dom) problems.push(...r.bad);
	if (opts.dom && r.csp !== WANT_CSP) problems.push('CSP is ' + JSON.stringify(r.csp));
	if (opts.noViolations && r.violations.length) problems.push('CSP violations: ' + r.violations.slice(0, 3).join(' | '));
	return { problems, violations: r.violations.length };
}

async function check(name, fn) {
	try {
		const problems = await fn();
		if (problems.length) say(`not ok hostile ${name}: ${oneLine(problems.slice(0, 6).join('; '))}`);
		else say(`ok hostile ${name}`);
	} catch (e) {
		say(`not ok hostile ${name}: ${oneLine(e.message)}`);
	}
}

async function runQuiz(page) {
	await page.locator('#setup').waitFor({ state: 'visible' });
	await page.getByRole('button', { name: 'Start the test' }).click();
	for (let i = 0; i < 40; i++) {
		if (await page.locator('#runner .run-results').count()) return;
		const answers = page.locator('#runner input[name="answer"]');
		if (await answers.count() && !(await page.locator('#runner input[name="answer"]:checked').count()))
			await answers.first().check();
		await page.locator('#runner .run-main').click();
		await page.waitForTimeout(30);
	}
	throw new Error('the practice test did not reach its results');
}

async function runCards(page) {
	await page.locator('#viewer .flashcard').waitFor();
	const n = await page.locator('#all-cards li.card').count();
	for (let i = 0; i < n; i++) {
		await page.keyboard.press('Space');
		await page.locator('#viewer .flashcard-back').waitFor();
		await page.getByRole('button', { name: /^Easy / }).click();
		await page.waitForTimeout(30);
	}
	return n;
}

async function main() {
	const [safeDir, unsafeDir] = process.argv.slice(2);
	let browser;
	try {
		browser = await lib.launch();
	} catch (e) {
		say('not ok hostile browser starts: ' + oneLine(e.message));
		return;
	}
	try {
		const bypass = await browser.newContext({ bypassCSP: true });
		await bypass.addInitScript(INIT);
		const strict = await browser.newContext();
		await strict.addInitScript(INIT);

		for (const file of pages(safeDir)) {
			const rel = path.relative(safeDir, file);
			await check(`${rel}: no script runs with the CSP off, nothing injected`, async () => {
				const dialogs = [];
				const page = await openPage(bypass, file, dialogs);
				/* Hover and focus everything: an injected handler would fire. */
				await page.evaluate(() => document.querySelectorAll('body *').forEach((el) => {
					['mouseover', 'mouseenter', 'focus', 'click', 'toggle'].forEach((t) => {
						if (t !== 'click' || el.tagName !== 'A') el.dispatchEvent(new Event(t));
					});
				}));
				const v = await verdict(page, dialogs, { dom: true });
				await page.close();
				return v.problems;
			});
			await check(`${rel}: with the CSP on, no violation`, async () => {
				const dialogs = [];
				const page = await openPage(strict, file, dialogs);
				const v = await verdict(page, dialogs, { dom: true, noViolations: true });
				await page.close();
				return v.problems;
			});
		}

		for (const [context, how, opts] of [[bypass, 'CSP off', {}], [strict, 'CSP on', { noViolations: true }]]) {
			await check(`practice test run to its results (${how}), content stays text`, async () => {
				const dialogs = [];
				const page = await openPage(context, path.join(safeDir, 'quiz/hostile/index.html'), dialogs);
				await runQuiz(page);
				await page.locator('#runner details').evaluateAll((ds) => ds.forEach((d) => { d.open = true; }));
				const v = await verdict(page, dialogs, Object.assign({ dom: true, cssom: true }, opts));
				const review = await page.locator('#runner .review-item').count();
				await page.close();
				return review > 0 ? v.problems : v.problems.concat(['no review items in the results']);
			});
			await check(`card viewer through every card (${how}), content stays text`, async () => {
				const dialogs = [];
				const page = await openPage(context, path.join(safeDir, 'cards/deck/index.html'), dialogs);
				const n = await runCards(page);
				const v = await verdict(page, dialogs, Object.assign({ dom: true, cssom: true }, opts));
				await page.close();
				return n >= 3 ? v.problems : v.problems.concat([`only ${n} cards`]);
			});
		}

		let blocked = 0;
		for (const file of pages(unsafeDir)) {
			const rel = path.relative(unsafeDir, file);
			await check(`unsafe_html ${rel}: the CSP stops the author's raw scripts`, async () => {
				const dialogs = [];
				const page = await openPage(strict, file, dialogs);
				const v = await verdict(page, dialogs, { dom: false });
				blocked += v.violations;
				await page.close();
				return v.problems;
			});
		}
		await check('unsafe_html: the raw scripts were there and the CSP reported blocking them', async () =>
			blocked > 0 ? [] : ['no CSP violation at all: the unsafe build carried no raw script?']);
	} finally {
		await browser.close();
	}
}

main().catch((e) => {
	say('not ok hostile: ' + oneLine(e.stack || e.message));
});
