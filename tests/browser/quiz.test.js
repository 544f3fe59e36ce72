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
		/* A retry is labelled as one, neither passed nor failed. */
		await waitText(page.locator('#runner .results-summary > .verdict'), /^A retry of the questions you missed, not a new test\.$/, 'retry verdict');

		/* History survives a reload. */
		await page.reload();
		await page.locator('#history').waitFor({ state: 'visible' });
		const items = await page.locator('#history .history-item').allTextContents();
		assert.equal(items.length, 2, 'history entries');
		assert.match(items[0], /All topics · retry of 2 missed\s*2 of 2 right$/);
		assert.doesNotMatch(items[0], /100%|✓/, 'a retry shows as a pass');
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

/* Waits for "Question n of total" and returns the question on screen. */
async function at(page, n, total) {
	await waitText(page.locator('#runner .run-count'), new RegExp(`^Question ${n} of ${total}$`), 'question counter');
	return h.current(page);
}

exports['practice test: a test in progress survives reload, Back and Forward, the guide and a new visit; Leave asks and keeps it'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=4');
		await h.startTest(page);
		const first = await h.choose(page, true);
		await h.clickMain(page, /^Next question$/);
		await h.clickMain(page);
		const second = await at(page, 2, 4);
		await h.choose(page, false);

		/* Reload: the same question, the answer still chosen. */
		await page.reload();
		assert.equal((await at(page, 2, 4)).id, second.id, 'reload showed another question');
		assert.equal(await page.locator('#runner input[name="answer"]:checked').count(), 1, 'the chosen answer was lost on reload');
		assert.ok(await page.locator('#setup').isHidden(), 'the set-up shows during the test');

		/* Back goes to the previous question, checked as it was; Forward returns. */
		await page.goBack();
		assert.equal((await at(page, 1, 4)).id, first.id, 'Back did not show question 1');
		await waitText(page.locator('#runner .run-verdict > .verdict'), /Correct/, 'question 1 verdict after Back');
		await page.goForward();
		assert.equal((await at(page, 2, 4)).id, second.id, 'Forward did not return to question 2');

		/* Back past the first question: the set-up, offering to resume. */
		await page.goBack();
		await at(page, 1, 4);
		await page.goBack();
		await page.locator('#setup').waitFor({ state: 'visible' });
		assert.ok(await page.getByRole('button', { name: 'Resume test (question 1 of 4)' }).isVisible(), 'no Resume offer after Back');
		await page.goForward();
		assert.equal((await at(page, 1, 4)).id, first.id, 'Forward from the set-up');

		/* Check question 2, follow the explanation into the guide, come back. */
		await h.clickMain(page);
		await at(page, 2, 4);
		await h.clickMain(page, /^Next question$/);
		await waitText(page.locator('#runner .run-verdict > .verdict'), /Incorrect/, 'question 2 verdict');
		await page.locator('#runner .run-explanation a[href*="guide/"]').first().click();
		await page.waitForURL(/\/guide\//);
		await page.goBack();
		assert.equal((await at(page, 2, 4)).id, second.id, 'Back from the guide did not show question 2');
		await waitText(page.locator('#runner .run-verdict > .verdict'), /Incorrect/, 'verdict after the guide');

		/* A new visit (no history): the set-up offers to resume, and does. */
		const again = await context.newPage();
		await h.openTest(again, env.fileBase);
		await again.getByRole('button', { name: 'Resume test (question 2 of 4)' }).click();
		assert.equal((await at(again, 2, 4)).id, second.id, 'Resume showed another question');

		/* Leave asks first; Keep going stays; leaving files it as unfinished. */
		await again.getByRole('button', { name: 'Leave the test' }).click();
		const ask = again.getByRole('group', { name: /^Leave this test\?/ });
		await ask.waitFor();
		assert.equal(await again.evaluate(() => document.activeElement.textContent), 'Keep going', 'focus in the question');
		await again.getByRole('button', { name: 'Keep going' }).click();
		assert.equal(await ask.count(), 0, 'the question stayed after Keep going');
		await at(again, 2, 4);
		await again.getByRole('button', { name: 'Leave the test' }).click();
		await again.getByRole('button', { name: 'Yes, leave the test' }).click();
		await again.locator('#setup').waitFor({ state: 'visible' });
		await waitText(again.locator('#history .history-item').first(), /All topics · steady · 4 questions\s*Unfinished: 2 of 4 answered, 1 right$/, 'unfinished attempt');
		assert.equal(await again.getByRole('button', { name: /^Resume test/ }).count(), 0, 'Resume offered after leaving');
		const saved = JSON.parse(await again.evaluate((k) => localStorage.getItem(k), await h.storeKey(again)));
		assert.equal(saved.current, null, 'the left test is still current');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test: starting a new test files the one in progress as unfinished'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.httpBase, '?count=3&reveal=end');
		await h.startTest(page);
		await h.choose(page, true);
		await h.clickMain(page);
		await at(page, 2, 3);
		await h.openTest(page, env.httpBase, '?count=2');
		assert.ok(await page.getByRole('button', { name: 'Resume test (question 2 of 3)' }).isVisible(), 'no Resume offer');
		await h.startTest(page);
		await at(page, 1, 2);
		await page.goBack();
		await page.locator('#setup').waitFor({ state: 'visible' });
		await waitText(page.locator('#history .history-item').first(), /3 questions\s*Unfinished: 1 of 3 answered, 1 right$/, 'the replaced test in the history');
		assert.ok(await page.getByRole('button', { name: 'Resume test (question 1 of 2)' }).isVisible(), 'the new test is not the one to resume');
		noProblems(context);
	} finally {
		await context.close();
	}
};

/* Whether a locator's box lies within the viewport. */
async function inView(locator) {
	return locator.evaluate((e) => {
		const r = e.getBoundingClientRect();
		return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
	});
}

exports['practice test at 390 px: after Check the verdict and the chosen option\'s feedback are in view; "Choose an answer first" shows'] = async (env) => {
	const { context, page } = await newPage(env, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
	try {
		/* Wind without its sample: three questions, each with feedback on a wrong option. */
		await h.openTest(page, env.fileBase, '?topic=wind&count=3');
		await h.startTest(page);
		for (let i = 0; i < 3; i++) {
			const q = await at(page, i + 1, 3);
			await page.getByRole('button', { name: 'Check' }).click();
			const problem = page.locator('#runner .run-problem');
			await waitText(problem, /^! Choose an answer first\.$/, 'visible message');
			assert.ok(await problem.isVisible() && await inView(problem), 'the message is not in view');
			const withFeedback = await page.evaluate((id) => {
				const lis = document.querySelectorAll('#questions article[data-id="' + CSS.escape(id) + '"] li.option');
				for (let k = 0; k < lis.length; k++)
					if (lis[k].dataset.correct === 'false' && lis[k].querySelector('.option-feedback')) return k;
				return -1;
			}, q.id);
			assert.ok(withFeedback >= 0, `${q.id} has no wrong option with feedback`);
			await page.locator(`#runner input[name="answer"][value="${withFeedback}"]`).check();
			assert.ok(await problem.isHidden(), 'the message stays after choosing');
			await page.getByRole('button', { name: 'Check' }).click();
			const verdict = page.locator('#runner .run-verdict > .verdict');
			await waitText(verdict, /Incorrect/, 'verdict');
			await page.waitForTimeout(100);
			assert.ok(await inView(verdict), `${q.id}: the verdict is out of view`);
			const feedback = page.locator('#runner .run-feedback-yours');
			assert.ok(await inView(feedback), `${q.id}: the chosen option's feedback is out of view`);
			const want = await page.evaluate(([id, k]) => document.querySelectorAll('#questions article[data-id="' + CSS.escape(id) + '"] li.option')[k]
				.querySelector('.option-feedback').textContent.trim(), [q.id, withFeedback]);
			await waitText(feedback, new RegExp(want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the chosen option\'s feedback');
			await page.getByRole('button', { name: i === 2 ? 'See your results' : 'Next question' }).click();
		}
		await page.locator('#runner .run-results').waitFor();
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test: the samples answered on the page are never drawn, and stay in the full list'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=10&reveal=end');
		const samples = await page.locator('#questions article[data-sample="true"]').evaluateAll((l) => l.map((a) => a.dataset.id));
		assert.deepEqual(samples.sort(), ['cumulus', 'direction'], 'the bank marks the samples');
		assert.equal(await page.locator('#samples article.sample').count(), 2, 'the samples section');
		await h.startTest(page);
		const seen = await h.runEnd(page, Array(10).fill(true));
		assert.deepEqual(seen.filter((q) => samples.includes(q.id)), [], 'a sample was drawn');
		assert.equal(new Set(seen.map((q) => q.id)).size, 10, 'every other question once');
		await page.getByRole('button', { name: 'New test' }).click();
		assert.equal(await page.locator('#questions article.question').count(), 12, 'the full list lost questions');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test: storage keyed by the site; v1 progress carried over once; a moved folder keeps it, another site does not see it'] = async (env) => {
	const fs = require('node:fs');
	const path = require('node:path');
	const os = require('node:os');
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quizdeck-sites-'));
	const { context, page } = await newPage(env);
	try {
		for (const rel of ['index.html', 'cards/weather/index.html', 'guide/wind/index.html', '404.html', h.TEST_PAGE]) {
			const html = fs.readFileSync(path.join(env.siteDir, rel), 'utf8');
			assert.match(html, /<body class="page-[a-z0-9]+" data-site="[0-9a-f]{16}">/, `${rel}: no data-site on body`);
		}
		await page.goto(env.fileBase + h.TEST_PAGE);
		const key = await h.storeKey(page);
		const v1 = { attempts: [{ at: '2025-01-02T03:04:05.000Z', topic: 'wind', mix: 'steady', count: 3, reveal: 'each', retry: false, score: 2, total: 3 }], seen: {} };
		await page.evaluate(([k, s]) => { localStorage.clear(); localStorage.setItem(k, s); }, ['quizdeck:v1:test:weather', JSON.stringify(v1)]);
		await h.openTest(page, env.fileBase);
		await waitText(page.locator('#history .history-item'), /Wind · steady · 3 questions.*2 of 3 \(67%\)/, 'v1 attempt carried over');
		const keys = await page.evaluate(() => Object.keys(localStorage).sort());
		assert.deepEqual(keys, [key], 'v1 key not replaced by the v2 one');
		/* Cleared v2 history stays cleared: v1 is not carried over twice. */
		await page.getByRole('button', { name: 'Clear my history' }).click();
		await h.openTest(page, env.fileBase);
		assert.ok(await page.locator('#history').isHidden(), 'v1 progress came back');

		/* The same site moved to another folder keeps its progress; another site (its own data-site) has none. */
		await h.startTest(page);
		await h.runEach(page, [true, true, false, true, true, true]);
		const moved = path.join(tmp, 'moved');
		const other = path.join(tmp, 'other');
		fs.cpSync(env.siteDir, moved, { recursive: true });
		fs.cpSync(env.siteDir, other, { recursive: true });
		const otherPage = path.join(other, h.TEST_PAGE);
		fs.writeFileSync(otherPage, fs.readFileSync(otherPage, 'utf8').replace(/data-site="[0-9a-f]+"/, 'data-site="other-site"'));
		await h.openTest(page, 'file://' + moved + '/');
		await waitText(page.locator('#history .history-item'), /5 of 6/, 'history in the moved folder');
		await h.openTest(page, 'file://' + other + '/');
		assert.ok(await page.locator('#history').isHidden(), 'another site shows this site\'s history');
		noProblems(context);
	} finally {
		await context.close();
		fs.rmSync(tmp, { recursive: true, force: true });
	}
};

exports['practice test: the hint waits behind "Show hint"; an opened answer says "Hide answer"'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?topic=clouds&count=3&reveal=end');
		await h.startTest(page);
		let found = false;
		for (let i = 0; i < 3; i++) {
			const q = await at(page, i + 1, 3);
			if (q.id === 'nimbus') {
				found = true;
				const show = page.getByRole('button', { name: 'Show hint' });
				assert.equal(await show.getAttribute('aria-expanded'), 'false');
				assert.ok(await page.locator('#runner').getByText('Think of the clouds you see on a wet day.').isHidden(), 'the hint shows before asked');
				await show.click();
				assert.ok(await page.locator('#runner').getByText('Think of the clouds you see on a wet day.').isVisible(), 'the hint does not show');
				const hide = page.getByRole('button', { name: 'Hide hint' });
				assert.equal(await hide.getAttribute('aria-expanded'), 'true');
				/* Kept across a reload, as part of the test in progress. */
				await page.reload();
				await at(page, i + 1, 3);
				assert.ok(await page.getByRole('button', { name: 'Hide hint' }).isVisible(), 'the open hint was not kept');
			} else {
				assert.equal(await page.getByRole('button', { name: 'Show hint' }).count(), 0, `${q.id} has no hint`);
			}
			await h.choose(page, true);
			await h.clickMain(page);
		}
		assert.ok(found, 'the question with a hint was not drawn');
		await page.locator('#runner .run-results').waitFor();

		await page.getByRole('button', { name: 'New test' }).click();
		const first = page.locator('#questions details.answer').first();
		/* What is shown (innerText leaves out the wording hidden for the state). */
		const said = async () => (await first.locator('summary').innerText()).trim();
		await first.getByText('Reveal answer').click();
		await waitFor(async () => await said() === 'Hide answer', 'the open answer\'s control to say "Hide answer"');
		await first.locator('summary').click();
		await waitFor(async () => await said() === 'Reveal answer', 'the closed answer\'s control to say "Reveal answer"');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test at the end: a question navigator, flag for review, Finish asks about unanswered and flagged questions'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=4&reveal=end');
		await h.startTest(page);
		const nav = page.getByRole('navigation', { name: 'Questions' });
		assert.equal(await nav.getByRole('button').count(), 4, 'a button per question');
		assert.equal(await nav.getByRole('button', { name: 'Question 1, not answered' }).getAttribute('aria-current'), 'step');
		/* Answer 1, flag 2 without answering, jump to 4 and answer it. */
		await h.choose(page, true);
		await nav.getByRole('button', { name: 'Question 1, answered' }).waitFor();
		await h.clickMain(page);
		await at(page, 2, 4);
		const flag = page.getByRole('button', { name: 'Flag for review' });
		assert.equal(await flag.getAttribute('aria-pressed'), 'false');
		await flag.click();
		assert.equal(await flag.getAttribute('aria-pressed'), 'true');
		await nav.getByRole('button', { name: 'Question 2, not answered, flagged' }).waitFor();
		await nav.getByRole('button', { name: 'Question 4, not answered' }).click();
		await at(page, 4, 4);
		await h.choose(page, true);

		/* Finish asks, naming the unanswered and the flagged, and goes to the first. */
		await page.getByRole('button', { name: 'Finish the test' }).click();
		const ask = page.getByRole('group', { name: /^2 questions are not answered \(2, 3\); 1 flagged for review \(2\)\. Finish anyway\?$/ });
		await ask.waitFor();
		await page.getByRole('button', { name: 'Go to question 2' }).click();
		await at(page, 2, 4);
		/* The flag survives a reload, as part of the test in progress. */
		await page.reload();
		await at(page, 2, 4);
		assert.equal(await page.getByRole('button', { name: 'Flag for review' }).getAttribute('aria-pressed'), 'true', 'the flag was lost');
		await h.choose(page, true);
		await page.getByRole('button', { name: 'Flag for review' }).click();
		await page.getByRole('navigation', { name: 'Questions' }).getByRole('button', { name: 'Question 4, answered' }).click();
		await page.getByRole('button', { name: 'Finish the test' }).click();
		await page.getByRole('group', { name: /^1 question is not answered \(3\)\. Finish anyway\?$/ }).waitFor();
		await page.getByRole('button', { name: 'Finish anyway' }).click();
		await page.locator('#runner .run-results').waitFor();
		assert.equal(await h.score(page), '3 of 4');
		assert.equal(await page.locator('#runner .review-item').nth(2).locator('summary .verdict').textContent(), '✗ Not answered');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test: a guide page opened from a question offers "Back to question N", which goes on with the test'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=3');
		await h.startTest(page);
		await h.choose(page, true);
		await h.clickMain(page);
		await h.clickMain(page);
		const second = await at(page, 2, 3);
		await h.choose(page, false);
		await h.clickMain(page, /^Next question$/);
		await page.locator('#runner .run-explanation a[href*="guide/"]').first().click();
		await page.waitForURL(/\/guide\//);
		/* Further into the guide, Back no longer reaches the test: the link does. */
		await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Guide' }).click();
		await page.waitForURL(/\/guide\//);
		const back = page.getByRole('link', { name: 'Back to question 2 of 3 in Weather Basics' });
		await back.click();
		assert.equal((await at(page, 2, 3)).id, second.id, 'the link showed another question');
		await waitText(page.locator('#runner .run-verdict > .verdict'), /Incorrect/, 'the checked answer');
		assert.equal(await page.evaluate(() => location.hash), '', '#resume stays in the address');

		/* Once the test is left, guide pages offer nothing. */
		await page.getByRole('button', { name: 'Leave the test' }).click();
		await page.getByRole('button', { name: 'Yes, leave the test' }).click();
		await page.goto(env.fileBase + 'guide/wind/index.html');
		assert.equal(await page.getByRole('link', { name: /^Back to question/ }).count(), 0, 'offered after leaving');
		noProblems(context);
	} finally {
		await context.close();
	}
};
