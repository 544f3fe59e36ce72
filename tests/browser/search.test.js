/*
 * The search box in every page's header (search.js over the index
 * quizdeck writes, assets/search-index.js): found by role and name,
 * from file:// as from http, by keyboard alone; axe clean with its
 * results open; absent without JavaScript.
 */
'use strict';

const path = require('node:path');
const { assert, newPage, waitFor, noProblems } = require('./lib.js');

const AXE = path.join(path.dirname(require.resolve('axe-core/package.json')), 'axe.min.js');

function box(page) {
	return page.getByRole('combobox', { name: 'Search guide, questions and cards' });
}

/* The name a screen reader hears, from Chromium's accessibility tree. */
async function accessibleName(locator) {
	const snap = await locator.ariaSnapshot();
	const m = /option "(.*)"/.exec(snap);
	assert.ok(m, 'an option in ' + snap);
	return m[1];
}

function results(page) {
	return page.getByRole('listbox', { name: 'Search results' });
}

exports['search: from file://, a word of a question finds it and Enter goes to it'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.fileBase + 'guide/wind/index.html');
		const input = box(page);
		await input.fill('Bergeron');
		const option = results(page).getByRole('option', { name: /^Question\s*:\s*In the Bergeron process/ });
		await option.waitFor();
		/* Says its kind and where it is: the test and the topic. */
		assert.match(await accessibleName(option), /^Question\s*:\s*In the Bergeron process.*\bin Weather .+ › Rain$/);
		assert.equal(await input.getAttribute('aria-expanded'), 'true');
		await input.press('Enter');
		await waitFor(() => page.url().endsWith('quiz/weather/index.html#bergeron'), 'the question\'s URL');
		assert.ok(page.url().startsWith('file://'), 'stays on disk: ' + page.url());
		await page.locator('#bergeron').waitFor();
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['search: "/" focuses the box; arrows choose, Enter opens, Escape closes'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.httpBase + 'index.html');
		await page.locator('body').press('/');
		const input = box(page);
		await waitFor(() => input.evaluate((el) => el === document.activeElement), 'the box to have focus');
		assert.equal(await input.inputValue(), '', 'the "/" is not typed into the box');
		await page.keyboard.type('beaufort');
		const options = results(page).getByRole('option');
		await waitFor(async () => (await options.count()) >= 3, 'three results or more');
		/* Each kind is there: a guide section, a question, a card. */
		const names = [];
		for (let i = 0; i < await options.count(); i++) names.push(await accessibleName(options.nth(i)));
		for (const kind of ['Guide section', 'Question', 'Card'])
			assert.ok(names.some((n) => new RegExp(`^${kind}\\s*:`).test(n)), `a result of kind ${kind} in ${JSON.stringify(names)}`);
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowDown');
		const second = options.nth(1);
		assert.equal(await second.getAttribute('aria-selected'), 'true');
		assert.equal(await input.getAttribute('aria-activedescendant'), await second.getAttribute('id'));
		await page.keyboard.press('Escape');
		assert.equal(await results(page).isVisible(), false, 'Escape closes the list');
		assert.equal(await input.getAttribute('aria-expanded'), 'false');
		await page.keyboard.press('ArrowDown');
		await page.keyboard.press('ArrowUp');
		const last = options.nth((await options.count()) - 1);
		const want = await accessibleName(last);
		const url = await page.evaluate(() => window.location.href);
		await page.keyboard.press('Enter');
		await waitFor(async () => page.url() !== url, 'a new page');
		const kind = want.split(':')[0].trim();
		const re = { 'Guide section': /guide\/wind\/index\.html#/, Question: /quiz\/weather\/index\.html#/, Card: /cards\/weather\/index\.html#/ }[kind];
		assert.match(page.url(), re, `the last result (${want}) opened`);
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['search: no match is said and shown; axe clean with results open, light and dark'] = async (env) => {
	for (const colorScheme of ['light', 'dark']) {
		const { context, page } = await newPage(env, { bypassCSP: true, colorScheme });
		try {
			await page.goto(env.fileBase + 'cards/weather/index.html');
			const input = box(page);
			await input.fill('zzqx');
			await page.getByRole('status').filter({ hasText: 'No results' }).waitFor();
			assert.equal(await results(page).isVisible(), false);
			await input.fill('cloud');
			await results(page).getByRole('option').first().waitFor();
			await input.press('ArrowDown');
			await page.addScriptTag({ path: AXE });
			const bad = await page.evaluate(async () => {
				/* eslint-disable-next-line no-undef */
				const r = await axe.run(document, { resultTypes: ['violations'] });
				return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
					.map((v) => `${v.id} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
			});
			assert.deepEqual(bad, [], `axe (${colorScheme})`);
		} finally {
			await context.close();
		}
	}
};

exports['search: without JavaScript the box is not shown'] = async (env) => {
	const { context, page } = await newPage(env, { javaScriptEnabled: false });
	try {
		await page.goto(env.fileBase + 'index.html');
		assert.equal(await page.getByRole('combobox').count(), 0);
		assert.equal(await page.locator('#site-search').isVisible(), false);
	} finally {
		await context.close();
	}
};

/* The placeholder names "/" only while "/" works, and follows each page's switch at once, without a reload. */
exports['search: the placeholder drops and regains "/" as soon as a single-key switch is turned'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		const pages = [
			['quiz/weather/index.html', page.locator('#setup')],
			['cards/weather/index.html', page.locator('#viewer')],
			['index.html', page.locator('#dashboard')]
		];
		for (const [rel, scope] of pages) {
			await page.goto(env.fileBase + rel);
			const input = box(page);
			const sw = scope.getByRole('checkbox', { name: 'Single-key shortcuts' });
			assert.equal(await input.getAttribute('placeholder'), 'Search  /', `${rel}: "/" named while on`);
			await sw.uncheck();
			await waitFor(async () => (await input.getAttribute('placeholder')) === 'Search', `${rel}: the placeholder without "/"`);
			await sw.check();
			await waitFor(async () => (await input.getAttribute('placeholder')) === 'Search  /', `${rel}: the placeholder with "/" again`);
		}
		noProblems(context);
	} finally {
		await context.close();
	}
};
