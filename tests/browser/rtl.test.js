/*
 * A site in Arabic: the fixture built with language = "ar" reads right to
 * left at 390 and 1280 px. The test, the card viewer and a guide chapter
 * are mirrored (headings and the nav start at the right, an option's
 * control sits to the right of its text), nothing runs past the screen,
 * and the arrow keys move the way the page reads.
 */
'use strict';

const { assert, newPage, waitFor, noProblems, fixtureIn } = require('./lib.js');

/* The fixture in Arabic (lib.js). */
function arabic(env) {
	return fixtureIn(env, 'ar');
}

const SIZES = [
	['390 px', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
	['1280 px', { viewport: { width: 1280, height: 900 } }]
];

/* dir and lang on <html>, nothing wider than the screen. */
async function rtlPage(page, where) {
	const r = await page.evaluate(() => ({
		dir: document.documentElement.getAttribute('dir'),
		lang: document.documentElement.getAttribute('lang'),
		scroll: document.documentElement.scrollWidth,
		inner: innerWidth
	}));
	assert.equal(r.dir, 'rtl', `${where}: <html dir>`);
	assert.equal(r.lang, 'ar', `${where}: <html lang>`);
	assert.ok(r.scroll <= r.inner, `${where}: the page is ${r.scroll} px wide on a ${r.inner} px screen`);
}

/* The element's text starts at the right: its right edge is at its column's, its left edge is not. */
async function startsRight(page, selector, where) {
	const r = await page.locator(selector).first().evaluate((e) => {
		const range = document.createRange();
		range.selectNodeContents(e);
		const text = range.getBoundingClientRect();
		const box = e.getBoundingClientRect();
		return { textLeft: text.left, textRight: text.right, boxLeft: box.left, boxRight: box.right };
	});
	assert.ok(Math.abs(r.boxRight - r.textRight) < 2, `${where}: ${selector} text ends ${Math.round(r.boxRight - r.textRight)} px from the right`);
	assert.ok(r.textLeft - r.boxLeft > 8, `${where}: ${selector} text reaches the left edge, as if it were left-aligned`);
}

for (const [size, options] of SIZES) {
	exports[`right to left (${size}): the test's set-up and a question are mirrored`] = async (env) => {
		const { context, page } = await newPage(env, options);
		try {
			await page.goto(arabic(env) + 'quiz/weather/index.html');
			await page.locator('#setup').waitFor({ state: 'visible' });
			await rtlPage(page, 'set-up');
			await startsRight(page, '#setup-title', 'set-up');
			await page.locator('#quiz-form button[type=submit]').click();
			const option = page.locator('#runner .run-option-label').first();
			await option.waitFor();
			await rtlPage(page, 'question');
			const r = await option.evaluate((label) => {
				const input = label.querySelector('input');
				const text = label.querySelector('.run-option-text') || label.lastElementChild;
				return { input: input.getBoundingClientRect().left, text: text.getBoundingClientRect().left };
			});
			assert.ok(r.input > r.text, `question: the option's control (x ${Math.round(r.input)}) is not right of its text (x ${Math.round(r.text)})`);
			noProblems(context);
		} finally {
			await context.close();
		}
	};

	exports[`right to left (${size}): the card viewer is mirrored and the arrows follow the page`] = async (env) => {
		const { context, page } = await newPage(env, options);
		try {
			await page.goto(arabic(env) + 'cards/weather/index.html');
			const position = page.locator('#viewer .viewer-position, #viewer [class*="position"]').first();
			await position.waitFor();
			await rtlPage(page, 'viewer');
			const first = await position.textContent();
			/* Right to left, the next card lies to the left: ArrowRight does not go on from card 1. */
			await page.locator('body').press('ArrowLeft');
			const second = await waitFor(async () => {
				const t = await position.textContent();
				return t !== first && t;
			}, 'ArrowLeft to move to the next card');
			assert.match(second, /2/, 'ArrowLeft moves to card 2');
			await page.locator('body').press('ArrowRight');
			await waitFor(async () => (await position.textContent()) === first, 'ArrowRight to move back to card 1');
			noProblems(context);
		} finally {
			await context.close();
		}
	};

	exports[`right to left (${size}): a guide chapter is mirrored`] = async (env) => {
		const { context, page } = await newPage(env, options);
		try {
			await page.goto(arabic(env) + 'guide/wind/index.html');
			await rtlPage(page, 'chapter');
			await startsRight(page, 'main p', 'chapter');
			const nav = await page.evaluate(() => {
				const title = document.querySelector('.site-title').getBoundingClientRect();
				return { title: title.right, inner: innerWidth };
			});
			assert.ok(nav.title > nav.inner / 2, 'the site title sits at the right of the header');
			/* The contents' rule is on its start side: the right. */
			const rule = await page.locator('.toc').evaluate((e) => {
				const s = getComputedStyle(e);
				return { left: s.borderLeftWidth, right: s.borderRightWidth };
			});
			assert.deepEqual(rule, { left: '0px', right: '3px' }, 'the contents rule is on the right');
			noProblems(context);
		} finally {
			await context.close();
		}
	};
}
