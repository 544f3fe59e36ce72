/*
 * The guide's figures, on the default site (content/, built here with
 * its diagrams): every diagram's smallest label renders at 11 CSS px or
 * more at 390 and 1280 px, a diagram wider than a phone scrolls inside
 * its figure (by keyboard too) rather than the page, and a figure opens
 * full size: a plain link without script, a full-screen view with it.
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { assert, newPage, waitFor, noProblems } = require('./lib.js');

const AXE = path.join(path.dirname(require.resolve('axe-core/package.json')), 'axe.min.js');
const MIN_LABEL_PX = 11;

let built = null;

/* axe's violations of at least the given impacts ('minor' for every one), as lines. */
async function axeViolations(page, impacts) {
	await page.addScriptTag({ path: AXE });
	const found = await page.evaluate(async () => {
		/* eslint-disable-next-line no-undef */
		const r = await axe.run(document, { resultTypes: ['violations'] });
		return r.violations.map((v) => ({ impact: v.impact,
			line: v.id + ' (' + v.impact + ') at ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ') }));
	});
	return found.filter((v) => impacts.includes(v.impact)).map((v) => v.line);
}

/* Serious and critical axe violations. */
async function axeBad(page) {
	return axeViolations(page, ['serious', 'critical']);
}

/* The default site, built once for these checks; its folder is removed at exit. */
function defaultSite(env) {
	if (built) return built;
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quizdeck-figures-'));
	process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
	execFileSync(path.join(env.root, 'quizdeck'), ['build', '-q', '--no-pdf', '-C', env.root, '-o', tmp],
		{ stdio: ['ignore', 'pipe', 'pipe'] });
	const chapters = fs.readdirSync(path.join(tmp, 'guide')).filter((d) =>
		fs.existsSync(path.join(tmp, 'guide', d, 'index.html')) &&
		fs.readFileSync(path.join(tmp, 'guide', d, 'index.html'), 'utf8').includes('class="figure"'));
	built = { base: 'file://' + tmp + '/', chapters: chapters.sort() };
	return built;
}

/* The smallest font size among an SVG's <text>, and its viewBox width, read from the file itself. */
async function svgLabels(page, url) {
	await page.goto(url);
	return page.evaluate(() => {
		const svg = document.documentElement;
		const sizes = Array.from(svg.querySelectorAll('text')).map((t) => parseFloat(getComputedStyle(t).fontSize));
		return { min: Math.min.apply(null, sizes), count: sizes.length, box: svg.viewBox.baseVal.width };
	});
}

for (const width of [390, 1280]) exports[`figures: every default diagram's labels render at 11 px or more at ${width} px`] = async (env) => {
	const site = defaultSite(env);
	const svgs = fs.readdirSync(path.join(env.root, 'content', 'guide')).filter((f) => f.endsWith('.svg'));
	assert.ok(svgs.length > 0, 'the default guide has diagrams');
	const { context, page } = await newPage(env);
	try {
		const seen = new Set();
		const labels = {};
		await page.setViewportSize({ width, height: 900 });
		for (const ch of site.chapters) {
			await page.goto(site.base + 'guide/' + ch + '/index.html');
			const figs = await page.locator('.chapter .figure').evaluateAll((l) => l.map((f) => {
				const img = f.querySelector('img');
				return { src: img.src, width: img.getBoundingClientRect().width, loaded: img.complete && img.naturalWidth > 0 };
			}));
			const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
			assert.ok(pageWidth <= 0, `${ch} at ${width} px: the page is ${pageWidth} px wider than the screen`);
			for (const f of figs) {
				assert.ok(f.loaded, `${ch}: ${f.src} did not load`);
				if (!labels[f.src]) {
					const probe = await context.newPage();
					labels[f.src] = await svgLabels(probe, f.src);
					await probe.close();
				}
				const l = labels[f.src];
				assert.ok(l.count > 0 && l.box > 0, `${f.src}: no labels or no viewBox`);
				const px = l.min * f.width / l.box;
				assert.ok(px >= MIN_LABEL_PX, `${path.basename(f.src)} at ${width} px: its smallest label renders at ` +
					`${px.toFixed(1)} px (font-size ${l.min} in a ${l.box}-unit viewBox drawn ${f.width.toFixed(0)} px wide)`);
				seen.add(path.basename(f.src));
			}
		}
		assert.deepEqual([...seen].sort(), svgs.sort(), 'every diagram of content/guide appears as a figure');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['figures: at 390 px a wide diagram scrolls in its figure, by keyboard too, with a cue until its end'] = async (env) => {
	const site = defaultSite(env);
	const { context, page } = await newPage(env, { viewport: { width: 390, height: 844 } });
	try {
		await page.goto(site.base + 'guide/pipeline/index.html');
		const link = page.locator('.chapter .figure a.figure-link').first();
		const fig = page.locator('.chapter .figure').first();
		await link.scrollIntoViewIfNeeded();
		assert.ok(await link.evaluate((a) => a.scrollWidth > a.clientWidth), 'the diagram is wider than the figure');
		const cue = () => fig.evaluate((f) => getComputedStyle(f, '::after').content);
		assert.notEqual(await cue(), 'none', 'the fade at the right edge shows there is more');
		await link.focus();
		const name = await link.evaluate((a) => a.querySelector('img').alt);
		assert.ok(name.length > 20, 'the scrolling link is named by the diagram\'s alt text');
		await page.keyboard.press('ArrowRight');
		await waitFor(() => link.evaluate((a) => a.scrollLeft > 0), 'ArrowRight to scroll the figure');
		await link.evaluate((a) => { a.scrollLeft = a.scrollWidth; });
		await waitFor(() => fig.evaluate((f) => f.classList.contains('figure-end')), 'the figure to say it is at its end');
		assert.equal(await cue(), 'none', 'no fade once scrolled to the end');
		assert.equal(await page.evaluate(() => scrollX), 0, 'the page itself did not scroll sideways');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['figures: without script a diagram\'s link opens the picture itself'] = async (env) => {
	const site = defaultSite(env);
	const { context, page } = await newPage(env, { javaScriptEnabled: false });
	try {
		await page.goto(site.base + 'guide/collectives/index.html');
		const link = page.getByRole('link', { name: /^Ring all-reduce on four GPUs/ });
		assert.equal(await link.getAttribute('href'), '../ring-all-reduce.svg');
		await link.click();
		await page.waitForURL(/\/guide\/ring-all-reduce\.svg$/);
		assert.equal(await page.evaluate(() => document.documentElement.localName), 'svg');
	} finally {
		await context.close();
	}
};

for (const colorScheme of ['light', 'dark']) {
	exports[`figures: a diagram opens full screen, closes by Escape and by Close, the focus back on it, axe clean, ${colorScheme}`] = async (env) => {
		const site = defaultSite(env);
		const { context, page } = await newPage(env, { bypassCSP: true, colorScheme, viewport: { width: 390, height: 844 } });
		try {
			await page.goto(site.base + 'guide/collectives/index.html');
			const link = page.getByRole('link', { name: /^Ring all-reduce on four GPUs/ });
			assert.deepEqual(await axeBad(page), [], 'axe on the chapter with its scrolling figure');
			await link.click();
			const view = page.getByRole('dialog');
			await view.waitFor();
			assert.equal(page.url(), site.base + 'guide/collectives/index.html', 'the page stays');
			const close = view.getByRole('button', { name: 'Close' });
			assert.ok(await close.evaluate((b) => b === document.activeElement), 'the focus is on Close');
			const big = await view.locator('img').evaluate((i) => ({ w: i.width, n: i.naturalWidth }));
			assert.equal(Math.round(big.w), big.n, 'the picture is drawn at its own size');
			assert.deepEqual(await axeBad(page), [], 'axe with the view open');
			await page.keyboard.press('Escape');
			await view.waitFor({ state: 'detached' });
			assert.ok(await link.evaluate((a) => a === document.activeElement), 'Escape: the focus is back on the figure');
			await page.keyboard.press('Enter');
			await view.waitFor();
			await close.click();
			await view.waitFor({ state: 'detached' });
			assert.ok(await link.evaluate((a) => a === document.activeElement), 'Close: the focus is back on the figure');
			/* axe reads the stylesheets by XHR, which file:// refuses: its own complaint, not the page's. */
			assert.deepEqual(context.problems().filter((m) => !/XMLHttpRequest|Failed to load resource/.test(m)), [],
				'the page reported errors');
		} finally {
			await context.close();
		}
	};
}

exports['tables: at 390 px a wide table is a named region that scrolls by the arrow keys, axe without any violation'] = async (env) => {
	const site = defaultSite(env);
	const { context, page } = await newPage(env, { bypassCSP: true, viewport: { width: 390, height: 844 } });
	try {
		await page.goto(site.base + 'guide/collectives/index.html');
		const region = page.getByRole('region', { name: 'Table: Collective, Before, After, Bytes sent per GPU (ring), Where it appears' });
		await region.scrollIntoViewIfNeeded();
		assert.ok(await region.evaluate((d) => d.scrollWidth > d.clientWidth), 'the table is wider than its block at 390 px');
		assert.equal(await region.locator('table').count(), 1, 'the region holds the table');
		/* Reached by Tab from the element before it in the tab order. */
		await page.evaluate(() => {
			const wrap = document.querySelector('.table-wrap');
			const all = Array.from(document.querySelectorAll('a[href], button, input, select, [tabindex="0"]'));
			all[all.indexOf(wrap) - 1].focus();
		});
		await page.keyboard.press('Tab');
		assert.ok(await region.evaluate((d) => d === document.activeElement), 'Tab lands on the table\'s region');
		await page.keyboard.press('ArrowRight');
		await waitFor(() => region.evaluate((d) => d.scrollLeft > 0), 'ArrowRight to scroll the table');
		await page.keyboard.press('End');
		assert.equal(await page.evaluate(() => scrollX), 0, 'the page itself did not scroll sideways');
		const names = await page.locator('.table-wrap').evaluateAll((l) => l.map((d) => d.getAttribute('aria-label')));
		assert.equal(new Set(names).size, names.length, 'each table of the chapter has its own name: ' + names.join(' | '));
		assert.deepEqual(await axeViolations(page, ['minor', 'moderate', 'serious', 'critical']), [],
			'axe on the chapter with its scrolling tables, every impact');
	} finally {
		await context.close();
	}
};
