/*
 * Helpers that drive the practice test the way a person would, reading
 * the right answers from the question bank the page prints
 * (li.option[data-correct]).
 */
'use strict';

const { assert, waitFor, waitText } = require('./lib.js');

const TEST_PAGE = 'quiz/weather/index.html';

/* The fixture test: 12 questions, by topic and difficulty. */
const FIXTURE = {
	topics: { clouds: 4, wind: 4, rain: 4 },
	levels: { easy: 5, medium: 4, hard: 3 }
};

async function openTest(page, base, query) {
	await page.goto(base + TEST_PAGE + (query || ''));
	await page.locator('#setup').waitFor({ state: 'visible' });
}

async function startTest(page) {
	await page.getByRole('button', { name: 'Start the test' }).click();
	await page.locator('#runner .run-question').waitFor();
}

/* The id of the question on screen and its right options (bank indexes). */
async function current(page) {
	const form = page.locator('#runner form.run-question');
	await form.waitFor();
	const id = await form.getAttribute('data-id');
	const info = await page.evaluate((qid) => {
		const a = document.querySelector('#questions article.question[data-id="' + CSS.escape(qid) + '"]');
		if (!a) return null;
		const correct = [];
		a.querySelectorAll('ol.options > li.option').forEach((li, i) => {
			if (li.getAttribute('data-correct') === 'true') correct.push(i);
		});
		return {
			topic: a.getAttribute('data-topic'),
			level: a.getAttribute('data-difficulty'),
			kind: a.getAttribute('data-kind'),
			correct
		};
	}, id);
	assert.ok(info, `question ${id} on screen is not in the bank`);
	return Object.assign({ id }, info);
}

/* The shown options' bank indexes, in screen order. */
async function shownOrder(page) {
	return page.locator('#runner input[name="answer"]').evaluateAll((inputs) => inputs.map((i) => Number(i.value)));
}

/* Chooses the right answer (every right option) or one wrong option. */
async function choose(page, right) {
	const q = await current(page);
	if (right) {
		for (const v of q.correct) await page.locator(`#runner input[name="answer"][value="${v}"]`).check();
	} else {
		const order = await shownOrder(page);
		const wrong = order.find((v) => !q.correct.includes(v));
		await page.locator(`#runner input[name="answer"][value="${wrong}"]`).check();
	}
	return q;
}

async function clickMain(page, name) {
	await page.locator('#runner .run-main').click();
	if (name) await waitText(page.locator('#runner .run-main'), name, 'main button');
}

/*
 * Answers a whole test, reveal "each": for every question choose right or
 * wrong as pattern says, Check, read the verdict, Next. Returns the
 * questions seen.
 */
async function runEach(page, pattern) {
	const seen = [];
	const total = pattern.length;
	for (let i = 0; i < total; i++) {
		await waitText(page.locator('#runner .run-count'), new RegExp(`^Question ${i + 1} of ${total}$`), 'question counter');
		const main = page.locator('#runner .run-main');
		await waitText(main, /^Check$/, 'main button');
		const q = await choose(page, pattern[i]);
		await main.click();
		const verdict = page.locator('#runner .run-verdict > .verdict');
		await waitText(verdict, pattern[i] ? /Correct/ : /Incorrect/, `verdict of ${q.id}`);
		await waitText(page.locator('#runner [role="status"]'), pattern[i] ? /^Correct\.$/ : /^Incorrect\. The right answer: /, 'live region');
		/* Which option was right, with a word beside the colour. */
		for (const v of q.correct) {
			await waitText(page.locator(`#runner li.run-option[data-option="${v}"] .run-tag`), /The right answer|Your answer: right/, 'right-option tag');
		}
		assert.ok(await page.locator('#runner .run-explanation a[href*="guide/"]').count() > 0, `no guide link in the explanation of ${q.id}`);
		await waitText(main, i === total - 1 ? /^See your results$/ : /^Next question$/, 'main button after Check');
		seen.push(q);
		await main.click();
	}
	await page.locator('#runner .run-results').waitFor();
	return seen;
}

/* Answers a test with reveal "end": no verdicts until the end. */
async function runEnd(page, pattern) {
	const seen = [];
	const total = pattern.length;
	for (let i = 0; i < total; i++) {
		await waitText(page.locator('#runner .run-count'), new RegExp(`^Question ${i + 1} of ${total}$`), 'question counter');
		const q = await choose(page, pattern[i]);
		assert.equal(await page.locator('#runner .run-verdict').count(), 0, 'a verdict showed before the end');
		await waitText(page.locator('#runner .run-main'), i === total - 1 ? /^Finish the test$/ : /^Next question$/, 'main button');
		seen.push(q);
		await page.locator('#runner .run-main').click();
	}
	await page.locator('#runner .run-results').waitFor();
	return seen;
}

/* The test's storage key on the open page: v2, with the site's identity. */
async function storeKey(page) {
	const site = await page.evaluate(() => document.body.getAttribute('data-site'));
	assert.match(site || '', /^[0-9a-f]{16}$/, 'the fixture (no site_id) has a hash as data-site');
	return `quizdeck:v2:${site}:test:weather`;
}

async function score(page) {
	return ((await page.locator('#runner .results-fraction').textContent()) || '').trim();
}

function countBy(list, key) {
	const c = {};
	for (const x of list) c[x[key]] = (c[x[key]] || 0) + 1;
	return c;
}

module.exports = { TEST_PAGE, FIXTURE, storeKey, openTest, startTest, current, shownOrder, choose, clickMain, runEach, runEnd, score, countBy, waitFor };
