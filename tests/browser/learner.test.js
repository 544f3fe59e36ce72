/*
 * The learner's way around the site: the guide's contents page, the home
 * page's dashboard, the test page's first screen, its changing <title>,
 * mastery per topic, export and import of progress. By role and
 * accessible name, at 390 and 1280 px.
 */
'use strict';

const { assert, newPage, waitFor, noProblems } = require('./lib.js');
const h = require('./quiz-helpers.js');

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const SIZES = [['1280 px', {}], ['390 px', PHONE]];

function siteNav(page) {
	return page.getByRole('navigation', { name: 'Site' });
}

for (const [size, options] of SIZES) {
	exports[`guide contents, ${size}: the nav's Guide opens a page listing every chapter and its sections`] = async (env) => {
		const { context, page } = await newPage(env, options);
		try {
			await page.goto(env.fileBase + 'index.html');
			await siteNav(page).getByRole('link', { name: 'Guide', exact: true }).click();
			await waitFor(() => page.url().endsWith('/guide/index.html'), 'the contents page\'s URL');
			await page.getByRole('heading', { level: 1, name: 'Guide' }).waitFor();
			assert.equal(await siteNav(page).getByRole('link', { name: 'Guide', exact: true }).getAttribute('aria-current'),
				'page', 'Guide is the current page');
			assert.match(await page.title(), /^Guide · /);
			/* Every chapter of the fixture, in the guide's order, each a heading with its link. */
			const chapters = page.getByRole('main').getByRole('heading', { level: 2 });
			assert.deepEqual(await chapters.allTextContents(), ['Clouds and rain', 'Wind']);
			/* A section link goes to its heading in the chapter. */
			const section = page.getByRole('main').getByRole('link', { name: 'Measuring rain', exact: true });
			assert.match(await section.getAttribute('href'), /^clouds-and-rain\/index\.html#measuring-rain$/);
			const width = await page.evaluate(() => document.documentElement.scrollWidth);
			assert.ok(width <= (options.viewport ? options.viewport.width : 1280), `the page is ${width} px wide`);
			await page.getByRole('main').getByRole('link', { name: 'Wind', exact: true }).click();
			await waitFor(() => page.url().endsWith('/guide/wind/index.html'), 'the chapter');
			/* In a chapter, Guide is the part of the site the page is in. */
			assert.equal(await siteNav(page).getByRole('link', { name: 'Guide', exact: true }).getAttribute('aria-current'), 'true');
			noProblems(context);
		} finally {
			await context.close();
		}
	};
}
