/*
 * Follows every relative link of a built site in Chromium, from disk
 * (file://), the way a reader would: odd file names (spaces, '#', '?',
 * '%', ':', quotes, non-Latin scripts, a leading dash) must survive the
 * percent-encoding of the hrefs.
 *
 *   node tests/browser/follow-links.js OUTDIR NAME
 *
 * Every page is opened (it must load with a title); every href and src
 * is resolved by the browser itself and must name a file of the site.
 * Prints `ok NAME opens PAGE`, `ok NAME follows PAGE -> HREF` (once per
 * target) or `not ok ...: why`.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL, fileURLToPath } = require('node:url');
const lib = require('./lib.js');

function say(line) {
	process.stdout.write(line + '\n');
}

async function main() {
	const [dir, name] = process.argv.slice(2);
	const root = path.resolve(dir);
	const browser = await lib.launch();
	try {
		const context = await browser.newContext();
		const page = await context.newPage();
		const pages = [];
		const seen = new Set();
		(function walk(d) {
			for (const n of fs.readdirSync(d).sort()) {
				const p = path.join(d, n);
				if (fs.statSync(p).isDirectory()) walk(p);
				else if (n.endsWith('.html')) pages.push(p);
			}
		})(root);
		for (const file of pages) {
			const rel = path.relative(root, file);
			await page.goto(pathToFileURL(file).href);
			const title = await page.title();
			say(title ? `ok ${name} opens ${rel}` : `not ok ${name} opens ${rel}: no title`);
			const hrefs = await page.evaluate(() => Array.from(document.querySelectorAll('a[href], img[src], link[href], script[src]'))
				.map((el) => [el.getAttribute('href') || el.getAttribute('src'), el.href || el.src]));
			for (const [raw, abs] of hrefs) {
				if (!abs.startsWith('file:') || raw.startsWith('#')) continue;
				const target = fileURLToPath(abs.split('#')[0]);
				const inside = target === root || target.startsWith(root + path.sep);
				if (!inside) say(`not ok ${name} follows ${rel} -> ${raw}: leaves the site (${target})`);
				else if (!fs.existsSync(target) || fs.statSync(target).isDirectory())
					say(`not ok ${name} follows ${rel} -> ${raw}: the browser asks for ${path.relative(root, target)}, which is not a file`);
				else if (!seen.has(target)) {
					/* Each page is opened above; a link counts once per target. */
					seen.add(target);
					say(`ok ${name} follows ${rel} -> ${raw}`);
				}
			}
		}
	} finally {
		await browser.close();
	}
}

main().catch((e) => say('not ok follow-links: ' + String(e.message).replace(/\s+/g, ' ').slice(0, 300)));
