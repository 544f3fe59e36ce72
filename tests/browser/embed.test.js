/*
 * A question shown in a guide chapter (the fixture's clouds-and-rain:
 * sea-breeze, choose all that apply; beaufort, one answer; thunder, a
 * typed number): answered right and wrong in place, the verdict, the
 * feedback, the explanation opened with its link followed; nothing
 * written to the test's saved state; without JavaScript the answer waits
 * in a details element; axe on the answered questions.
 */
'use strict';

const { assert, newPage, newContext, waitText, noProblems } = require('./lib.js');

const PAGE = 'guide/clouds-and-rain/index.html';

function article(page, stem) {
	return page.locator('article.question.embedded').filter({ has: page.locator('.stem', { hasText: stem }) });
}

exports['embedded question: choose all that apply, wrong then right, feedback and explanation link'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.fileBase + PAGE);
		const q = article(page, 'Which are true of a sea breeze?');
		const group = q.getByRole('group', { name: 'Which are true of a sea breeze?' });
		await group.waitFor();
		await q.getByRole('button', { name: 'Check' }).click();
		await waitText(q.locator('.run-problem'), /Choose an answer first/, 'nothing chosen');
		assert.equal(await q.locator('details.answer').getAttribute('open'), null, 'the answer opened before an answer');
		await group.getByRole('checkbox', { name: 'It blows from sea to land' }).check();
		await group.getByRole('checkbox', { name: 'It blows from land to sea at noon' }).check();
		await q.getByRole('button', { name: 'Check' }).click();
		await waitText(q.locator('.run-verdict .verdict'), /^✗ Incorrect$/, 'verdict');
		await waitText(q.locator('.run-option.is-wrong'), /That is a land breeze, at night/, 'feedback on the wrong option');
		assert.equal(await q.locator('.run-option.is-correct').count(), 2, 'both right options marked');
		assert.ok(await q.locator('details.answer').getAttribute('open') !== null, 'the answer and explanation open');
		assert.ok(await q.locator('.explanation').isVisible(), 'explanation shown');
		await q.getByRole('button', { name: 'Try again' }).click();
		await group.getByRole('checkbox', { name: 'It blows from sea to land' }).check();
		await group.getByRole('checkbox', { name: 'It is strongest on sunny afternoons' }).check();
		await q.getByRole('button', { name: 'Check' }).click();
		await waitText(q.locator('.run-verdict .verdict'), /^✓ Correct$/, 'verdict');
		/* The explanation's link leads on to the chapter it names. */
		await q.locator('.explanation').getByRole('link', { name: 'local winds' }).click();
		await page.waitForURL(/guide\/wind\/index\.html#local-winds$/);
		/* An answer in a chapter is no test's: nothing was saved. */
		const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => /:test:/.test(k)));
		assert.deepEqual(keys, [], 'a chapter wrote the test\'s saved state');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['embedded question: one answer, right, then a typed number wrong and right'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.httpBase + PAGE);
		const one = article(page, 'Force 8 on the Beaufort scale');
		await one.getByRole('radio', { name: 'Gale' }).check();
		await one.getByRole('button', { name: 'Check' }).click();
		await waitText(one.locator('.run-verdict .verdict'), /^✓ Correct$/, 'verdict');
		await waitText(one.locator('.run-option.is-correct'), /Your answer: right/, 'the chosen option');

		const typed = article(page, 'How far does sound travel in 3 seconds?');
		const box = typed.getByRole('textbox', { name: 'Your answer' });
		assert.ok(await box.getAttribute('aria-describedby'), 'the box is described by what it accepts');
		await box.fill('lots');
		await typed.getByRole('button', { name: 'Check' }).click();
		await waitText(typed.locator('.run-problem'), /not a number/, 'an unreadable number');
		await box.fill('3 km');
		await typed.getByRole('button', { name: 'Check' }).click();
		await waitText(typed.locator('.run-verdict .verdict'), /^✗ Incorrect$/, 'verdict');
		const said = (await typed.locator('.run-verdict').textContent()).replace(/\s+/g, ' ');
		assert.match(said, /about a third of a kilometre each second/, 'the foreseen wrong answer\'s feedback');
		assert.match(said, /The right answer: 1 km ± 10 %/, 'the right answer');
		assert.ok(await typed.locator('.explanation').isVisible(), 'explanation shown');
		await typed.getByRole('button', { name: 'Try again' }).click();
		await box.fill('1000 m');
		await typed.getByRole('button', { name: 'Check' }).click();
		await waitText(typed.locator('.run-verdict .verdict'), /^✓ Correct$/, 'verdict');

		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['embedded question: without JavaScript, the question with its answer in a details element'] = async (env) => {
	const context = await newContext(env, { javaScriptEnabled: false });
	try {
		const page = await context.newPage();
		await page.goto(env.fileBase + PAGE);
		const q = article(page, 'Which are true of a sea breeze?');
		assert.equal(await q.locator('ol.options > li').count(), 4, 'the options listed');
		assert.equal(await q.getByRole('checkbox').count(), 0, 'no form without script');
		const details = q.locator('details.answer');
		assert.equal(await details.getAttribute('open'), null, 'the answer starts hidden');
		await details.locator('summary').click();
		await waitText(details.locator('.answer-key'), /Answers: A It blows from sea to land; B It is strongest on sunny afternoons/, 'answer key');
		assert.ok(await details.locator('.explanation').isVisible(), 'explanation');
		await waitText(page.locator('.embed-source').first(), /Check yourself: sea breezes/, 'the link to the test, as written');
	} finally {
		await context.close();
	}
};
