/*
 * axe-core on every page kind, and on the runner and viewer in use: no
 * serious or critical violation. The axe run alone bypasses the page's
 * CSP so the script can be injected.
 */
'use strict';

const path = require('node:path');
const { assert, newPage } = require('./lib.js');
const h = require('./quiz-helpers.js');

const AXE = path.join(path.dirname(require.resolve('axe-core/package.json')), 'axe.min.js');

async function axe(page) {
	await page.addScriptTag({ path: AXE });
	const result = await page.evaluate(async () => {
		/* eslint-disable-next-line no-undef */
		const r = await axe.run(document, { resultTypes: ['violations'] });
		return r.violations.map((v) => ({
			id: v.id,
			impact: v.impact,
			nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))
		}));
	});
	return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

function report(where, bad) {
	assert.deepEqual(bad.map((v) => `${where}: ${v.id} (${v.impact}) at ${v.nodes.join(', ')}`), []);
}

async function eachScheme(env, fn) {
	for (const colorScheme of ['light', 'dark']) {
		const { context, page } = await newPage(env, { bypassCSP: true, colorScheme });
		try {
			await fn(page, colorScheme);
		} finally {
			await context.close();
		}
	}
}

/* A check per scheme, for pages with many states: each within the runner's time limit. */
function perScheme(name, fn) {
	for (const colorScheme of ['light', 'dark']) {
		exports[`${name}, ${colorScheme}`] = async (env) => {
			const { context, page } = await newPage(env, { bypassCSP: true, colorScheme });
			try {
				await fn(page, colorScheme, env);
			} finally {
				await context.close();
			}
		};
	}
}

perScheme('axe: home, guide contents, chapter and 404 pages', async (page, scheme, env) => {
	for (const rel of ['index.html', 'guide/index.html', 'guide/clouds-and-rain/index.html', '404.html']) {
		await page.goto(env.fileBase + rel);
		report(`${rel} (${scheme})`, await axe(page));
	}
});

perScheme('axe: a chapter\'s questions answered in place, wrong and right', async (page, scheme, env) => {
	await page.goto(env.fileBase + 'guide/clouds-and-rain/index.html');
	const choose = page.locator('article.question.embedded').first();
	await choose.getByRole('checkbox').first().check();
	await choose.getByRole('button', { name: 'Check' }).click();
	await choose.locator('.run-verdict .verdict').waitFor();
	const typed = page.locator('article.question.embedded').last();
	await typed.getByRole('textbox', { name: 'Your answer' }).fill('1 km');
	await typed.getByRole('button', { name: 'Check' }).click();
	await typed.locator('.run-verdict .verdict').waitFor();
	report(`chapter with answered questions (${scheme})`, await axe(page));
});

perScheme('axe: test page at set-up, mid-run with an answer revealed, and results', async (page, scheme, env) => {
	await h.openTest(page, env.fileBase, '?count=3');
	report(`set-up (${scheme})`, await axe(page));
	await h.startTest(page);
	await h.choose(page, false);
	await h.clickMain(page, /Next question/);
	report(`runner (${scheme})`, await axe(page));
	await h.clickMain(page);
	await h.choose(page, true);
	await h.clickMain(page, /Next question/);
	await h.clickMain(page);
	await h.choose(page, true);
	await h.clickMain(page, /See your results/);
	await h.clickMain(page);
	await page.locator('#runner .run-results').waitFor();
	report(`results (${scheme})`, await axe(page));
	await page.getByRole('button', { name: 'New test' }).click();
	report(`set-up with history (${scheme})`, await axe(page));
});

perScheme('axe: test page with a hint open, a verdict with feedback, Choose first, Leave asked, Resume offered and an unfinished attempt', async (page, scheme, env) => {
	/* Clouds without its sample: cirrus, nimbus (with a hint) and fog (feedback on a wrong option). */
	await h.openTest(page, env.fileBase, '?topic=clouds&count=3');
	await h.startTest(page);
	for (let i = 0; i < 3; i++) {
		const q = await h.current(page);
		if (q.id === 'nimbus') {
			await page.getByRole('button', { name: 'Show hint' }).click();
			report(`hint open (${scheme})`, await axe(page));
		}
		if (i === 0) {
			await page.getByRole('button', { name: 'Check' }).click();
			await page.locator('#runner .run-problem').waitFor();
			report(`choose first (${scheme})`, await axe(page));
		}
		if (q.id === 'fog') {
			await page.locator('#runner input[name="answer"][value="0"]').check();
			await page.getByRole('button', { name: 'Check' }).click();
			await page.locator('#runner .run-feedback-yours').waitFor();
			report(`verdict with feedback (${scheme})`, await axe(page));
		} else {
			await h.choose(page, true);
			await h.clickMain(page);
		}
		await page.locator('#runner .run-verdict').waitFor();
		if (i < 2) await h.clickMain(page);
	}
	await page.getByRole('button', { name: 'Leave the test' }).click();
	await page.getByRole('button', { name: 'Keep going' }).waitFor();
	report(`leave asked (${scheme})`, await axe(page));
	await h.openTest(page, env.fileBase);
	await page.getByRole('button', { name: /^Resume test/ }).waitFor();
	report(`resume offered (${scheme})`, await axe(page));
	await page.getByRole('button', { name: /^Resume test/ }).click();
	await page.getByRole('button', { name: 'Leave the test' }).click();
	await page.getByRole('button', { name: 'Yes, leave the test' }).click();
	await page.locator('#history .history-left').waitFor();
	report(`unfinished attempt in the history (${scheme})`, await axe(page));
});

perScheme('axe: test page at the end: the navigator, a flagged question, Finish asking, a retry\'s results', async (page, scheme, env) => {
	await h.openTest(page, env.fileBase, '?count=2&reveal=end');
	await h.startTest(page);
	await page.getByRole('button', { name: 'Flag for review' }).click();
	await h.choose(page, false);
	report(`navigator, flagged (${scheme})`, await axe(page));
	await h.clickMain(page);
	await page.getByRole('button', { name: 'Finish the test' }).click();
	await page.getByRole('button', { name: 'Finish anyway' }).waitFor();
	report(`finish asked (${scheme})`, await axe(page));
	await page.getByRole('button', { name: 'Finish anyway' }).click();
	await page.getByRole('button', { name: /^Retry the ones I missed/ }).click();
	await h.runEnd(page, [true, true].slice(0, await page.locator('#runner .run-nav-item').count()));
	report(`retry results (${scheme})`, await axe(page));
});

perScheme('axe: home page dashboard, empty, filled, and asking how to import', async (page, scheme, env) => {
	await page.goto(env.fileBase + 'index.html');
	await page.getByRole('region', { name: 'Your progress' }).waitFor();
	report(`dashboard empty (${scheme})`, await axe(page));
	/* A record as quiz.js writes it (the results with mastery are checked above, with the test page's states). */
	await page.evaluate(() => localStorage.setItem('quizdeck:v2:' + document.body.getAttribute('data-site') + ':test:weather',
		JSON.stringify({ attempts: [{ at: '2026-01-01T10:00:00.000Z', topic: 'clouds', mix: 'steady', count: 3, reveal: 'each',
			retry: false, score: 1, total: 3 }], seen: {},
		mastery: [{ topic: 'clouds', title: 'Clouds', right: 1, seen: 3, total: 3 }] })));
	await page.reload();
	await page.getByRole('link', { name: 'Practise this topic' }).waitFor();
	report(`dashboard filled (${scheme})`, await axe(page));
	await page.locator('#dashboard input[type="file"]').setInputFiles({ name: 'p.json', mimeType: 'application/json',
		buffer: Buffer.from(JSON.stringify({ quizdeck: 'progress', version: 1, site: 'x', keys: {} })) });
	await page.getByRole('alertdialog').waitFor();
	report(`import asked (${scheme})`, await axe(page));
});

perScheme('axe: a guide page offering "Back to question N"', async (page, scheme, env) => {
	await h.openTest(page, env.fileBase, '?count=2');
	await h.startTest(page);
	await h.choose(page, true);
	await h.clickMain(page, /^Next question$/);
	await page.locator('#runner .run-explanation a[href*="guide/"]').first().click();
	await page.getByRole('link', { name: /^Back to question 1 of 2/ }).waitFor();
	report(`guide with the way back (${scheme})`, await axe(page));
});

exports['axe: deck page: front, back, after a rating, the reset confirmation with keys off, the end of the session; light and dark'] = (env) => eachScheme(env, async (page, scheme) => {
	await page.goto(env.fileBase + 'cards/weather/index.html');
	await page.locator('#viewer .flashcard-front').waitFor();
	report(`deck front (${scheme})`, await axe(page));
	await page.getByRole('button', { name: 'Flip card' }).click();
	await page.locator('#viewer .flashcard-back').waitFor();
	/* The turn fades the card in from 40% opacity: axe would judge its contrast mid-turn. */
	await page.locator('#viewer .flashcard').evaluate((el) =>
		Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
	report(`deck back (${scheme})`, await axe(page));
	await page.getByRole('button', { name: /^Easy / }).click();
	report(`deck after a rating, undo on (${scheme})`, await axe(page));
	await page.getByRole('checkbox', { name: 'Single-key shortcuts' }).uncheck();
	await page.getByRole('button', { name: 'Reset progress…' }).click();
	await page.getByRole('alertdialog').waitFor();
	report(`deck reset confirmation, keys off (${scheme})`, await axe(page));
	await page.getByRole('button', { name: 'Keep my progress' }).click();
	await page.getByRole('spinbutton', { name: 'New cards a day' }).fill('0');
	await page.getByRole('spinbutton', { name: 'New cards a day' }).press('Tab');
	await page.locator('#viewer .viewer-end').waitFor();
	report(`deck end of the session (${scheme})`, await axe(page));
});
