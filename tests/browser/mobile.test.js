/*
 * Both flows on a 390 px wide phone screen, by touch: nothing wider than
 * the screen, every control big enough to hit.
 */
'use strict';

const { assert, newPage, waitText, noProblems } = require('./lib.js');
const h = require('./quiz-helpers.js');

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

async function fitsWidth(page, where) {
	const r = await page.evaluate(() => {
		const wide = [];
		document.querySelectorAll('#runner *, #setup *, #viewer *').forEach((e) => {
			const b = e.getBoundingClientRect();
			if (b.width && b.right > innerWidth + 1) wide.push(e.tagName + '.' + e.className);
		});
		return { scroll: document.documentElement.scrollWidth, inner: innerWidth, wide: wide.slice(0, 5) };
	});
	assert.ok(r.scroll <= r.inner, `${where}: page is ${r.scroll} px wide on a ${r.inner} px screen`);
	assert.deepEqual(r.wide, [], `${where}: elements past the right edge`);
}

async function targetsBigEnough(page, scope, where) {
	const small = await page.locator(scope + ' button:visible, ' + scope + ' .run-option-label:visible').evaluateAll((l) =>
		l.map((e) => [e.textContent.trim().slice(0, 30), Math.round(e.getBoundingClientRect().height)]).filter(([, hgt]) => hgt < 40));
	assert.deepEqual(small, [], `${where}: touch targets under 40 px high`);
}

exports['390 px: the practice test by touch, set-up to results'] = async (env) => {
	const { context, page } = await newPage(env, PHONE);
	try {
		await h.openTest(page, env.fileBase, '?count=4');
		await fitsWidth(page, 'set-up');
		await page.getByRole('button', { name: 'Start the test' }).tap();
		for (let i = 0; i < 4; i++) {
			await waitText(page.locator('#runner .run-count'), new RegExp(`^Question ${i + 1} of 4$`));
			const q = await h.current(page);
			const order = await h.shownOrder(page);
			/* Tap the option's label, as a thumb would. */
			const pick = i % 2 === 0 ? q.correct : [order.find((v) => !q.correct.includes(v))];
			for (const v of pick) await page.locator(`#runner li.run-option[data-option="${v}"] .run-option-label`).tap();
			await targetsBigEnough(page, '#runner', `question ${i + 1}`);
			await page.locator('#runner .run-main').tap();
			await page.locator('#runner .run-verdict').waitFor();
			await fitsWidth(page, `question ${i + 1} answered`);
			await page.locator('#runner .run-main').tap();
		}
		await page.locator('#runner .run-results').waitFor();
		assert.equal(await h.score(page), '2 of 4');
		await fitsWidth(page, 'results');
		await targetsBigEnough(page, '#runner .results-actions', 'results');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['390 px: the flashcards by touch'] = async (env) => {
	const { context, page } = await newPage(env, PHONE);
	try {
		await page.goto(env.fileBase + 'cards/weather/index.html');
		await waitText(page.locator('#viewer .viewer-position'), /^Card 1 of 8$/);
		await fitsWidth(page, 'viewer');
		await targetsBigEnough(page, '#viewer', 'viewer');
		await page.locator('#viewer .flashcard').tap();
		await page.locator('#viewer .flashcard-back').waitFor();
		await fitsWidth(page, 'card back');
		await targetsBigEnough(page, '#viewer', 'card back');
		await page.getByRole('button', { name: /^Again / }).tap();
		await waitText(page.locator('#viewer .viewer-position'), /^Card 2 of 9$/);
		await page.locator('#viewer .flashcard').tap();
		await page.getByRole('button', { name: /^Easy / }).tap();
		await waitText(page.locator('#viewer .viewer-position'), /^Card 3 of 9$/);
		await page.getByRole('button', { name: 'Undo last rating' }).tap();
		await waitText(page.locator('#viewer .viewer-position'), /^Card 2 of 9$/);
		await fitsWidth(page, 'after undo');
		noProblems(context);
	} finally {
		await context.close();
	}
};
