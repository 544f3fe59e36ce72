/*
 * The practice test: set-up, both reveal modes, scoring, retry, history,
 * the shared URL, the keyboard, and storage that fails.
 */
'use strict';

const { assert, newPage, waitFor, waitText, noProblems } = require('./lib.js');
const h = require('./quiz-helpers.js');

/* A full run from disk: the default set-up, reveal after each, a known
 * pattern of answers, the results, a retry of the missed, history. */
async function fullRunEach(env, base) {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, base);
		/* The defaults come from site.toml: 6 questions, reveal after each. */
		assert.equal(await page.locator('#setup-count').inputValue(), '6');
		assert.ok(await page.getByRole('radio', { name: 'After each question' }).isChecked(), 'reveal default is not "each"');
		assert.ok(await page.getByRole('radio', { name: 'Steady' }).isChecked(), 'mix default is not steady');
		/* The two samples, answered on the page, are not in the pool. */
		await waitText(page.locator('#setup-mix'), /^2 easy · 2 medium · 2 hard$/, 'mix note');
		await waitText(page.locator('#setup-estimate'), /^10 in this pool \(2 samples left out\) · about 5 min$/, 'estimate');
		assert.ok(await page.locator('#history').isHidden(), 'history shows before any attempt');

		await h.startTest(page);
		assert.ok(await page.locator('#questions').isHidden(), 'the answered bank stays visible during the test');
		const pattern = [true, false, true, true, false, true];
		const seen = await h.runEach(page, pattern);
		assert.deepEqual(h.countBy(seen, 'level'), { easy: 2, medium: 2, hard: 2 }, 'drawn difficulties');
		assert.equal(new Set(seen.map((q) => q.id)).size, 6, 'a question came twice');

		assert.equal(await h.score(page), '4 of 6');
		await waitText(page.locator('#runner .results-score'), /67%/, 'percent');
		await waitText(page.locator('#runner .results-summary > .verdict'), /Not passed yet: the pass mark is 70%/, 'pass verdict');
		/* Breakdown by topic and difficulty: a row each, values as text. */
		const rows = await page.locator('#runner .results-chart').nth(1).locator('.chart-row').evaluateAll((l) =>
			l.map((r) => r.querySelector('.chart-label').textContent + ' ' + r.querySelector('.chart-value').textContent));
		const byLevel = {};
		seen.forEach((q, i) => {
			byLevel[q.level] = byLevel[q.level] || [0, 0];
			byLevel[q.level][1]++;
			if (pattern[i]) byLevel[q.level][0]++;
		});
		const want = ['easy', 'medium', 'hard'].filter((l) => byLevel[l]).map((l) =>
			`${l} ${byLevel[l][0]} of ${byLevel[l][1]} (${Math.round(100 * byLevel[l][0] / byLevel[l][1])}%)`);
		assert.deepEqual(rows, want, 'chart by difficulty');
		const topicRows = await page.locator('#runner .results-chart').first().locator('.chart-value').allTextContents();
		const sums = topicRows.map((t) => /^(\d+) of (\d+)/.exec(t)).reduce((a, m) => [a[0] + Number(m[1]), a[1] + Number(m[2])], [0, 0]);
		assert.deepEqual(sums, [4, 6], 'chart by topic adds up to the score');

		/* The review lists every question; the missed ones are open. */
		assert.equal(await page.locator('#runner .review-item').count(), 6);
		assert.equal(await page.locator('#runner .review-item.is-wrong details[open]').count(), 2);

		/* Go deeper: the guide sections behind the missed questions. */
		const missed = seen.filter((q, i) => !pattern[i]);
		const wantLinks = await page.evaluate((ids) => {
			const hrefs = [];
			ids.forEach((id) => {
				document.querySelectorAll('#questions article[data-id="' + CSS.escape(id) + '"] .explanation a[href*="guide/"]')
					.forEach((a) => { if (!hrefs.includes(a.getAttribute('href'))) hrefs.push(a.getAttribute('href')); });
			});
			return hrefs;
		}, missed.map((q) => q.id));
		const gotLinks = await page.locator('#runner .results-deeper a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
		assert.deepEqual(gotLinks, wantLinks, 'go-deeper links');

		/* Retry the ones I missed: exactly those, then all right. */
		await page.getByRole('button', { name: 'Retry the ones I missed (2)' }).click();
		const retried = await h.runEach(page, [true, true]);
		assert.deepEqual(retried.map((q) => q.id).sort(), missed.map((q) => q.id).sort(), 'retry asked other questions');
		assert.equal(await h.score(page), '2 of 2');
		await waitText(page.locator('#runner .results-summary > .verdict'), /^✓ Passed/, 'retry verdict');

		/* History survives a reload. */
		await page.reload();
		await page.locator('#history').waitFor({ state: 'visible' });
		const items = await page.locator('#history .history-item').allTextContents();
		assert.equal(items.length, 2, 'history entries');
		assert.match(items[0], /2 of 2 \(100%\)/);
		assert.match(items[0], /retry/);
		assert.match(items[1], /All topics · steady · 6 questions/);
		assert.match(items[1], /4 of 6 \(67%\)/);
		await waitText(page.locator('#history .history-known'), /^Last answered right: 6 of 12 questions/, 'known count');

		/* Reset clears it. */
		await page.getByRole('button', { name: 'Clear my history' }).click();
		await waitText(page.locator('#history'), /History cleared/, 'history after reset');
		assert.equal(await page.locator('#history .history-item').count(), 0);
		assert.equal(await page.evaluate((k) => localStorage.getItem(k), await h.storeKey(page)), null);
		noProblems(context);
	} finally {
		await context.close();
	}
}

exports['practice test from file://: defaults, reveal after each, known score, review, go deeper, retry missed, history'] =
	(env) => fullRunEach(env, env.fileBase);

exports['practice test over http: the same full run'] = (env) => fullRunEach(env, env.httpBase);

exports['practice test: topic, confident mix and count honoured; reveal at the end; back to change an answer'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.httpBase);
		await page.getByRole('combobox', { name: 'Topic' }).selectOption('wind');
		await page.getByRole('radio', { name: 'Confident' }).check();
		await page.getByRole('spinbutton', { name: 'Questions' }).fill('3');
		await page.getByRole('radio', { name: 'At the end' }).check();
		await waitText(page.locator('#setup-mix'), /^2 medium · 1 hard$/, 'mix note');
		await waitText(page.locator('#setup-estimate'), /^3 in this pool \(1 sample left out\) · about 3 min$/, 'estimate');
		/* The URL carries the set-up. */
		const search = await page.evaluate(() => location.search);
		assert.equal(search, '?topic=wind&mix=confident&count=3&reveal=end');

		await h.startTest(page);
		/* Answer 1 right, 2 wrong, then go back to 2 and fix it, 3 right. */
		const first = await h.choose(page, true);
		await h.clickMain(page);
		await waitText(page.locator('#runner .run-count'), /^Question 2 of 3$/);
		const second = await h.choose(page, false);
		await h.clickMain(page);
		await waitText(page.locator('#runner .run-count'), /^Question 3 of 3$/);
		await page.getByRole('button', { name: 'Previous question' }).click();
		await waitText(page.locator('#runner .run-count'), /^Question 2 of 3$/);
		assert.equal((await h.current(page)).id, second.id, 'Previous showed another question');
		assert.equal(await page.locator('#runner input[name="answer"]:checked').count(), 1, 'the earlier answer was not kept');
		if (second.kind === 'multi') await page.locator('#runner input[name="answer"]:checked').uncheck();
		assert.equal(await page.locator('#runner input[type="checkbox"]').count() > 0, second.kind === 'multi', 'input type for the kind');
		await h.choose(page, true);
		await h.clickMain(page);
		const third = await h.choose(page, true);
		await waitText(page.locator('#runner .run-main'), /^Finish the test$/);
		await h.clickMain(page);
		await page.locator('#runner .run-results').waitFor();

		const seen = [first, second, third];
		assert.deepEqual(seen.map((q) => q.topic), ['wind', 'wind', 'wind'], 'topic');
		/* Both medium wind questions come, so the multi-answer one too, as check boxes. */
		assert.ok(seen.some((q) => q.kind === 'multi'), 'the multi-answer question was not asked');
		assert.deepEqual(h.countBy(seen, 'level'), { medium: 2, hard: 1 }, 'difficulties for "confident"');
		assert.equal(await h.score(page), '3 of 3');
		await waitText(page.locator('#runner .results-summary > .verdict'), /^✓ Passed/, 'verdict');
		assert.equal(await page.getByRole('button', { name: /Retry the ones I missed/ }).count(), 0, 'retry offered with nothing missed');

		/* New test returns to the set-up with the same choices. */
		await page.getByRole('button', { name: 'New test' }).click();
		await page.locator('#setup').waitFor({ state: 'visible' });
		assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'wind');
		assert.ok(await page.locator('#samples').isVisible(), 'samples hidden after the test');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test: a shared URL restores the set-up'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?topic=rain&mix=warming-up&count=2&reveal=end');
		assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'rain');
		assert.ok(await page.getByRole('radio', { name: 'Warming up' }).isChecked(), 'mix');
		assert.equal(await page.getByRole('spinbutton', { name: 'Questions' }).inputValue(), '2');
		assert.ok(await page.getByRole('radio', { name: 'At the end' }).isChecked(), 'reveal');
		await waitText(page.locator('#setup-mix'), /^1 easy · 1 medium$/, 'mix note');
		await h.startTest(page);
		const seen = await h.runEnd(page, [true, false]);
		assert.deepEqual(seen.map((q) => q.topic), ['rain', 'rain']);
		assert.deepEqual(h.countBy(seen, 'level'), { easy: 1, medium: 1 });
		assert.equal(await h.score(page), '1 of 2');

		/* Changing the set-up rewrites the query, from disk too. */
		await page.getByRole('button', { name: 'New test' }).click();
		await page.getByRole('radio', { name: 'Confident' }).check();
		await waitFor(async () => (await page.evaluate(() => location.search)) === '?topic=rain&mix=confident&count=2&reveal=end', 'the query to follow the form');

		/* Nonsense in the query is ignored, the count is clamped to the pool. */
		await h.openTest(page, env.fileBase, '?topic=nope&mix=wild&count=99&reveal=later');
		assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), '');
		assert.ok(await page.getByRole('radio', { name: 'Steady' }).isChecked(), 'mix fell back');
		assert.equal(await page.getByRole('spinbutton', { name: 'Questions' }).inputValue(), '10', 'count clamped to the pool without samples');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test: keyboard only, 1-9 and Enter, visible focus'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=4');
		/* Tab to the start button, checking each stop shows its focus. */
		let onStart = false;
		for (let i = 0; i < 40 && !onStart; i++) {
			await page.keyboard.press('Tab');
			const f = await page.evaluate(() => {
				const a = document.activeElement;
				const s = getComputedStyle(a);
				return {
					text: (a.textContent || '').trim(),
					tag: a.tagName,
					visible: a.matches(':focus-visible') && (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 || s.boxShadow !== 'none')
				};
			});
			if (f.tag !== 'BODY') assert.ok(f.visible, `no visible focus on ${f.tag} "${f.text.slice(0, 40)}"`);
			onStart = f.tag === 'BUTTON' && f.text === 'Start the test';
		}
		assert.ok(onStart, 'Tab never reached "Start the test"');
		await page.keyboard.press('Enter');
		for (let i = 0; i < 4; i++) {
			await waitText(page.locator('#runner .run-count'), new RegExp(`^Question ${i + 1} of 4$`));
			const q = await h.current(page);
			const order = await h.shownOrder(page);
			for (const v of q.correct) await page.keyboard.press(String(order.indexOf(v) + 1));
			const checked = await page.locator('#runner input[name="answer"]:checked').evaluateAll((l) => l.map((x) => Number(x.value)));
			assert.deepEqual(checked.sort(), q.correct.slice().sort(), 'digit keys did not pick the options');
			await page.keyboard.press('Enter');
			await waitText(page.locator('#runner .run-verdict > .verdict'), /Correct/);
			const focused = await page.evaluate(() => document.activeElement.className);
			assert.match(focused, /run-verdict/, 'focus did not move to the verdict');
			await page.keyboard.press('Enter');
		}
		await page.locator('#runner .run-results').waitFor();
		assert.equal(await h.score(page), '4 of 4');
		assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Your result', 'focus after the test');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test: corrupt, disabled and stale storage never break the page'] = async (env) => {
	/* Corrupt JSON: discarded, then replaced by a good record. */
	{
		const { context, page } = await newPage(env);
		try {
			await page.goto(env.fileBase + h.TEST_PAGE);
			const KEY = await h.storeKey(page);
			await page.evaluate((k) => localStorage.setItem(k, '{"attempts": [ {"at": 5}, oops'), KEY);
			await h.openTest(page, env.fileBase, '?count=2');
			assert.ok(await page.locator('#history').isHidden(), 'corrupt history shown');
			await h.startTest(page);
			await h.runEach(page, [true, true]);
			const saved = JSON.parse(await page.evaluate((k) => localStorage.getItem(k), KEY));
			assert.equal(saved.attempts.length, 1);
			/* Well-formed JSON of the wrong shape is ignored too. */
			await page.evaluate((k) => localStorage.setItem(k, '[1,2,3]'), KEY);
			await h.openTest(page, env.fileBase);
			assert.ok(await page.locator('#history').isHidden(), 'wrong-shape history shown');
			noProblems(context);
		} finally {
			await context.close();
		}
	}
	/* Storage that throws on every call (disabled, or full). */
	{
		const { context, page } = await newPage(env);
		try {
			await context.addInitScript(() => {
				const fail = () => { throw new DOMException('denied', 'SecurityError'); };
				Storage.prototype.getItem = fail;
				Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
				Storage.prototype.removeItem = fail;
			});
			await h.openTest(page, env.fileBase, '?count=3');
			await h.startTest(page);
			await h.runEach(page, [true, false, true]);
			assert.equal(await h.score(page), '2 of 3');
			await page.getByRole('button', { name: 'New test' }).click();
			await page.locator('#setup').waitFor({ state: 'visible' });
			noProblems(context);
		} finally {
			await context.close();
		}
	}
	/* A question whose text changed does not inherit its old answer. */
	{
		const { context, page } = await newPage(env);
		try {
			await page.goto(env.fileBase + h.TEST_PAGE);
			const KEY = await h.storeKey(page);
			const fps = await page.evaluate(() => {
				const m = {};
				document.querySelectorAll('#questions article.question').forEach((a) => { m[a.dataset.id] = a.dataset.fingerprint; });
				return m;
			});
			const ids = Object.keys(fps);
			const seen = {};
			ids.forEach((id, i) => { seen[id] = { fp: i < 5 ? fps[id] : '0000000000000000', right: true }; });
			const state = { attempts: [{ at: '2025-01-02T03:04:05.000Z', topic: '', mix: 'steady', count: 12, reveal: 'each', retry: false, score: 12, total: 12 }], seen };
			await page.evaluate(([k, s]) => localStorage.setItem(k, s), [KEY, JSON.stringify(state)]);
			await h.openTest(page, env.fileBase);
			await waitText(page.locator('#history .history-known'), /^Last answered right: 5 of 12 questions/, 'known count with changed questions');
			/* A new test draws, in each difficulty, the questions not yet right first. */
			await page.getByRole('spinbutton', { name: 'Questions' }).fill('7');
			await h.startTest(page);
			const drawn = [];
			for (let i = 0; i < 7; i++) {
				drawn.push(await h.current(page));
				await h.choose(page, true);
				await h.clickMain(page, /Next question|See your results/);
				await h.clickMain(page);
			}
			await page.locator('#runner .run-results').waitFor();
			const levels = await page.evaluate(() => {
				const m = {};
				document.querySelectorAll('#questions article.question').forEach((a) => { m[a.dataset.id] = a.dataset.difficulty; });
				return m;
			});
			const fresh = new Set(ids.slice(5));
			for (const level of ['easy', 'medium', 'hard']) {
				const got = drawn.filter((q) => q.level === level);
				const freshThere = ids.filter((id) => levels[id] === level && fresh.has(id)).length;
				const freshDrawn = got.filter((q) => fresh.has(q.id)).length;
				assert.equal(freshDrawn, Math.min(got.length, freshThere),
					`${level}: drew ${got.map((q) => q.id)} with ${freshThere} not yet right`);
			}
			noProblems(context);
		} finally {
			await context.close();
		}
	}
};

exports['practice test: without JavaScript the page shows every question and answer'] = async (env) => {
	const { context, page } = await newPage(env, { javaScriptEnabled: false });
	try {
		await page.goto(env.fileBase + h.TEST_PAGE);
		assert.ok(await page.locator('#setup').isHidden(), 'set-up shown without JS');
		assert.ok(await page.locator('#samples').isVisible(), 'samples hidden');
		assert.equal(await page.locator('#questions article.question').count(), 12);
		assert.ok(await page.locator('#samples .option.correct').first().isVisible(), 'sample answer not shown');
		await page.locator('#questions details.answer summary').first().click();
		assert.ok(await page.locator('#questions .explanation').first().isVisible(), 'explanation not reachable');
	} finally {
		await context.close();
	}
};
