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

function dashboard(page) {
	return page.getByRole('region', { name: 'Your progress' });
}

/* The dashboard's line for a label (a test's title, "Weakest topic", a deck's title: the fixture has two of each). */
function dashLine(page, label) {
	/* By the start of the line: "Weakest topic" names the test it is in. */
	const start = new RegExp('^\\s*' + label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return dashboard(page).getByRole('listitem').filter({ hasText: start });
}

async function siteKeys(page) {
	return page.evaluate(() => {
		const prefix = 'quizdeck:v2:' + document.body.getAttribute('data-site') + ':';
		const out = {};
		for (let i = 0; i < localStorage.length; i++) {
			const k = localStorage.key(i);
			if (k.startsWith(prefix)) out[k.slice(prefix.length)] = JSON.parse(localStorage.getItem(k));
		}
		return out;
	});
}

/* A 3-question test on clouds (its sample left out), every answer wrong: clouds is the weakest topic. */
async function failClouds(page, base) {
	await h.openTest(page, base, '?topic=clouds&count=3');
	await h.startTest(page);
	await h.runEach(page, [false, false, false]);
}

for (const [size, options] of SIZES) {
	exports[`dashboard, ${size}: a first visit is welcomed; after a test it shows the score, the weakest topic and the cards due`] = async (env) => {
		const { context, page } = await newPage(env, options);
		try {
			await page.goto(env.fileBase + 'index.html');
			await dashboard(page).waitFor();
			/* Before the introduction, after the page's title. */
			const order = await page.evaluate(() => {
				const d = document.getElementById('dashboard'), intro = document.querySelector('.intro');
				return !!(d.compareDocumentPosition(intro) & Node.DOCUMENT_POSITION_FOLLOWING);
			});
			assert.ok(order, 'the dashboard comes before the introduction');
			assert.match(await dashboard(page).textContent(), /Nothing yet/);
			assert.equal(await dashboard(page).getByRole('listitem').count(), 0, 'nothing to list on a first visit');
			assert.equal(await dashboard(page).getByRole('button', { name: 'Export progress' }).count(), 0, 'nothing to export');
			await dashboard(page).getByRole('button', { name: 'Import progress…' }).waitFor();

			await failClouds(page, env.fileBase);
			await page.goto(env.fileBase + 'index.html');
			await dashboard(page).waitFor();
			assert.match(await dashLine(page, 'Weather Basics').textContent(), /last score 0 of 3 \(0%\)/);
			const weakest = dashLine(page, 'Weakest topic');
			assert.match(await weakest.textContent(), /Clouds \(Weather Basics\): 0 of 3 questions last answered right/);
			/* A deck never opened: the day's new cards are due (the fixture's 8, under the limit of 20). */
			assert.match(await dashLine(page, 'Weather words').textContent(), /8 cards due/);
			const width = await page.evaluate(() => document.documentElement.scrollWidth);
			assert.ok(width <= (options.viewport ? options.viewport.width : 1280), `the page is ${width} px wide`);
			await weakest.getByRole('link', { name: 'Practise this topic' }).click();
			await page.locator('#setup').waitFor({ state: 'visible' });
			assert.equal(await page.getByRole('combobox', { name: 'Topic' }).inputValue(), 'clouds');
			noProblems(context);
		} finally {
			await context.close();
		}
	};
}

exports['dashboard: cards due count the deck\'s record as cards.js does'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.fileBase + 'cards/weather/index.html');
		await page.locator('#viewer .flashcard-front').waitFor();
		/* Two cards learnt today, due again in days: 8 - 2 new left, all under the limit. */
		for (let i = 0; i < 2; i++) {
			await page.getByRole('button', { name: 'Flip card' }).click();
			await page.getByRole('button', { name: /^Easy / }).click();
		}
		await page.goto(env.fileBase + 'index.html');
		await dashboard(page).waitFor();
		assert.match(await dashLine(page, 'Weather words').textContent(), /6 cards due/);
		/* A limit of 3 new cards a day, 2 used today: 1 left. */
		await page.evaluate(() => {
			const k = 'quizdeck:v2:' + document.body.getAttribute('data-site') + ':settings';
			const s = JSON.parse(localStorage.getItem(k) || '{}');
			s.newCardsPerDay = 3;
			localStorage.setItem(k, JSON.stringify(s));
		});
		await page.reload();
		assert.match(await dashLine(page, 'Weather words').textContent(), /1 card due/);
		noProblems(context);
	} finally {
		await context.close();
	}
};

/*
 * One stored deck record, every kind of card in it: the home page counts
 * what the viewer's session of cards due holds (site.js's dueCards for
 * both). A card whose text changed and one whose record is damaged are
 * new again; a record of a card gone from the deck counts for nothing.
 */
exports['dashboard: cards due agree with the deck\'s viewer for changed, gone, damaged and learning cards'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.fileBase + 'cards/weather/index.html');
		await page.locator('#viewer .flashcard-front').waitFor();
		await page.evaluate(() => {
			const site = document.body.getAttribute('data-site');
			const cards = Array.from(document.querySelectorAll('#all-cards li.card')).map((li) =>
				({ id: li.getAttribute('data-id'), fp: li.getAttribute('data-fingerprint') }));
			const now = Date.now(), day = 86400000, min = 60000;
			const rec = (fp, state, due) => ({ fp, state, step: 0, s: 3, d: 5, due, last: now - 3 * day, ivl: 3, reps: 2, lapses: 0 });
			const d = new Date(now);
			const today = d.getFullYear() + '-' + ('0' + (d.getMonth() + 1)).slice(-2) + '-' + ('0' + d.getDate()).slice(-2);
			const recs = {};
			recs[cards[0].id] = rec(cards[0].fp, 2, now - day);           /* due: a review from yesterday */
			recs[cards[1].id] = rec('0000000000000000', 2, now - day);   /* new: its text changed */
			recs[cards[2].id] = rec(cards[2].fp, 1, now + 10 * min);     /* due: learning, within 20 minutes */
			recs[cards[3].id] = rec(cards[3].fp, 1, now + 30 * min);     /* not yet */
			recs[cards[4].id] = rec(cards[4].fp, 2, now + 5 * day);      /* not yet */
			recs[cards[5].id] = Object.assign(rec(cards[5].fp, 2, now - day), { d: undefined });   /* new: damaged */
			recs['gone-from-the-deck'] = rec('1111111111111111', 2, now - day);   /* no such card */
			localStorage.clear();
			localStorage.setItem('quizdeck:v2:' + site + ':deck:weather',
				JSON.stringify({ v: 2, cards: recs, day: today, newToday: 1, session: null, undo: null }));
			localStorage.setItem('quizdeck:v2:' + site + ':settings', JSON.stringify({ newCardsPerDay: 3 }));
			return cards.length;
		});
		/* 2 due; new: the changed, the damaged and the 2 never seen, 3 - 1 of them left today. */
		const want = /^\s*4 cards due\s*$/;
		await page.goto(env.fileBase + 'index.html');
		await dashboard(page).waitFor();
		assert.match(await dashLine(page, 'Weather words').locator('.dashboard-value').textContent(), want, 'the home page');
		await page.goto(env.fileBase + 'cards/weather/index.html');
		await page.locator('#viewer .flashcard-front').waitFor();
		assert.match(await page.locator('#viewer .viewer-due').textContent(), want, 'the viewer');
		assert.match(await page.locator('#viewer .viewer-position').textContent(), /^Card 1 of 4$/, 'the session holds them');
		await page.goto(env.fileBase + 'index.html');
		assert.match(await dashLine(page, 'Weather words').locator('.dashboard-value').textContent(), want,
			'the home page after the viewer saved the record');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['dashboard: absent without JavaScript, the page whole'] = async (env) => {
	const { context, page } = await newPage(env, { javaScriptEnabled: false });
	try {
		await page.goto(env.fileBase + 'index.html');
		assert.equal(await page.getByRole('heading', { name: 'Your progress' }).count(), 0);
		await page.getByRole('heading', { level: 2, name: 'Practice tests' }).waitFor();
		/* An answer's control says what it does with no script: Reveal, then Hide. */
		await page.goto(env.fileBase + 'quiz/weather/index.html');
		const first = page.locator('#questions details.answer').first();
		assert.equal((await first.locator('summary').innerText()).trim(), 'Reveal answer');
		await first.locator('summary').click();
		assert.equal((await first.locator('summary').innerText()).trim(), 'Hide answer');
		/* The description is there, folded under "About this test". */
		await page.getByText('About this test').click();
		assert.ok(await page.locator('#test-about .lede').isVisible(), 'the description opens');
	} finally {
		await context.close();
	}
};

exports['export and import: a file of every key of the site; import asks, then replaces or merges; a wrong file is refused'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await failClouds(page, env.fileBase);
		await page.goto(env.fileBase + 'index.html');
		const before = await siteKeys(page);
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			dashboard(page).getByRole('button', { name: 'Export progress' }).click()
		]);
		assert.match(download.suggestedFilename(), /^progress-[0-9a-f]{16}-\d{4}-\d\d-\d\d\.json$/);
		const file = JSON.parse(require('node:fs').readFileSync(await download.path(), 'utf8'));
		assert.equal(file.quizdeck, 'progress');
		assert.equal(file.version, 1);
		assert.deepEqual(file.keys, before, 'the file holds every key of the site, as stored');
		assert.ok(file.keys['test:weather'], 'the test\'s record is in it');
		await dashboard(page).getByRole('status').filter({ hasText: 'Progress exported' }).waitFor();

		/* Another browser: empty; the import asks first, and Cancel changes nothing. */
		await page.evaluate(() => localStorage.clear());
		await page.reload();
		const input = page.locator('#dashboard input[type="file"]');
		const payload = { name: 'progress.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) };
		await input.setInputFiles(payload);
		const ask = page.getByRole('alertdialog');
		await ask.waitFor();
		assert.match(await ask.textContent(), /progress on 1 test and 0 decks/);
		await waitFor(() => ask.getByRole('button', { name: 'Merge' }).evaluate((e) => e === document.activeElement),
			'the question to take the focus');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Tab');
		await page.keyboard.press('Enter');
		assert.deepEqual(await siteKeys(page), {}, 'Cancel (by keyboard) imports nothing');
		assert.equal(await page.getByRole('alertdialog').count(), 0, 'the question is gone');
		await waitFor(() => dashboard(page).getByRole('button', { name: 'Import progress…' }).evaluate((e) => e === document.activeElement),
			'the focus back on Import progress…');

		await input.setInputFiles(payload);
		await page.getByRole('alertdialog').getByRole('button', { name: 'Replace' }).click();
		await dashboard(page).getByRole('status').filter({ hasText: 'Progress imported' }).waitFor();
		assert.deepEqual(await siteKeys(page), before, 'Replace restores what was exported');
		assert.match(await dashLine(page, 'Weather Basics').textContent(), /last score 0 of 3/);

		/* Merge: a later attempt here and the file's are both kept. */
		await failClouds(page, env.fileBase);
		await page.goto(env.fileBase + 'index.html');
		await input.setInputFiles(payload);
		await page.getByRole('alertdialog').getByRole('button', { name: 'Merge' }).click();
		await dashboard(page).getByRole('status').filter({ hasText: 'merged' }).waitFor();
		const merged = await siteKeys(page);
		assert.equal(merged['test:weather'].attempts.length, 2, 'both attempts kept, each once');

		/* Not JSON, and JSON of something else: refused, nothing changed. */
		await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
		await dashboard(page).getByRole('status').filter({ hasText: 'Not imported: notes.txt is not JSON.' }).waitFor();
		await input.setInputFiles({ name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"keys":{}}') });
		await dashboard(page).getByRole('status').filter({ hasText: 'it is not a quizdeck progress export' }).waitFor();
		assert.deepEqual(await siteKeys(page), merged);
		assert.equal(await page.getByRole('alertdialog').count(), 0, 'no question for a refused file');
		noProblems(context);
	} finally {
		await context.close();
	}
};

for (const [size, options] of SIZES) {
	exports[`test page, ${size}: it starts with the set-up; the description is folded below it`] = async (env) => {
		const { context, page } = await newPage(env, options);
		try {
			await h.openTest(page, env.fileBase);
			const setupTop = await page.getByRole('heading', { name: 'Set up your test' }).evaluate((e) => e.getBoundingClientRect().top);
			const start = await page.getByRole('button', { name: 'Start the test' }).evaluate((e) => e.getBoundingClientRect().top);
			assert.ok(setupTop < 450, `the set-up's heading is ${Math.round(setupTop)} px down`);
			assert.ok(options.viewport || start < 900, `Start the test is ${Math.round(start)} px down at 1280`);
			const about = page.locator('#test-about');
			assert.equal(await about.evaluate((e) => e.open), false, 'the description is folded');
			const after = await page.evaluate(() => !!(document.getElementById('setup').compareDocumentPosition(
				document.getElementById('test-about')) & Node.DOCUMENT_POSITION_FOLLOWING));
			assert.ok(after, 'the description comes after the set-up');
			await h.startTest(page);
			assert.ok(await about.isHidden(), 'hidden while a test runs');
			noProblems(context);
		} finally {
			await context.close();
		}
	};
}

exports['test page: the tab\'s title says the question, then the result, then the page again'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=2');
		const plain = await page.title();
		await h.startTest(page);
		await waitFor(async () => await page.title() === 'Question 1 of 2 · ' + plain, 'the title of question 1');
		await h.choose(page, true);
		await h.clickMain(page, /Next question/);
		await h.clickMain(page);
		await waitFor(async () => await page.title() === 'Question 2 of 2 · ' + plain, 'the title of question 2');
		await page.goBack();
		await waitFor(async () => await page.title() === 'Question 1 of 2 · ' + plain, 'Back: the title of question 1');
		await page.goForward();
		await h.choose(page, false);
		await h.clickMain(page, /See your results/);
		await h.clickMain(page);
		await waitFor(async () => await page.title() === 'Result: 1 of 2 · ' + plain, 'the results\' title');
		await page.getByRole('button', { name: 'New test' }).click();
		await waitFor(async () => await page.title() === plain, 'the page\'s own title');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['mastery: per topic on the results and the history; "Practise this topic" starts a test on it'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await failClouds(page, env.fileBase);
		const mastery = page.getByRole('region', { name: 'Mastery by topic' }).or(
			page.locator('#runner section.mastery'));
		await mastery.first().waitFor();
		const clouds = page.locator('#runner .mastery-row').filter({ hasText: 'Clouds' });
		assert.match(await clouds.textContent(), /0 of 3 \(0%\)/);
		assert.equal(await page.locator('#runner .mastery-row').filter({ hasText: 'Wind' }).count(), 0, 'the results list the topics tried');
		await page.getByRole('button', { name: 'New test' }).click();
		assert.match(await page.locator('#history .mastery-row').filter({ hasText: 'Wind' }).textContent(), /not tried/);
		assert.equal(await page.getByRole('button', { name: 'Practise this topic: Wind' }).count(), 0, 'an untried topic is not called weak');
		const inHistory = page.locator('#history .mastery-row').filter({ hasText: 'Clouds' });
		assert.match(await inHistory.textContent(), /0 of 3/);
		await inHistory.getByRole('button', { name: 'Practise this topic: Clouds' }).click();
		for (let i = 0; i < 3; i++) {
			const q = await h.current(page);
			assert.equal(q.topic, 'clouds', 'a practice of clouds asks about clouds');
			await h.choose(page, true);
			await h.clickMain(page);
			await h.clickMain(page);
		}
		await page.locator('#runner .run-results').waitFor();
		assert.match(await page.locator('#runner .mastery-row').filter({ hasText: 'Clouds' }).textContent(), /3 of 3 \(100%\)/);
		assert.equal(await page.getByRole('button', { name: 'Practise this topic: Clouds' }).count(), 0, 'a mastered topic needs no practice');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['single-key shortcuts: the switch turns off 1-9 and "/", and is remembered'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=2');
		const sw = page.getByRole('checkbox', { name: 'Single-key shortcuts' });
		assert.equal(await sw.isChecked(), true, 'on at first');
		await sw.uncheck();
		await page.reload();
		await page.locator('#setup').waitFor({ state: 'visible' });
		assert.equal(await sw.isChecked(), false, 'remembered');
		await h.startTest(page);
		await page.locator('#runner h2.run-count').focus().catch(() => {});
		await page.keyboard.press('1');
		assert.equal(await page.locator('#runner input[name="answer"]:checked').count(), 0, '"1" chose nothing');
		await page.locator('body').press('/');
		const box = page.getByRole('combobox', { name: 'Search guide, questions and cards' });
		assert.equal(await box.evaluate((e) => e === document.activeElement), false, '"/" did not take the focus');
		/* The home page's switch is the same setting. */
		await page.goto(env.fileBase + 'index.html');
		const home = dashboard(page).getByRole('checkbox', { name: 'Single-key shortcuts' });
		assert.equal(await home.isChecked(), false);
		await home.check();
		await page.evaluate(() => document.activeElement.blur());
		await page.keyboard.press('/');
		await waitFor(() => box.evaluate((e) => e === document.activeElement), 'the box to take the focus once on');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['unanswered and unfinished: neither changes "last answered right"'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, env.fileBase, '?count=2&reveal=end');
		const key = await h.storeKey(page);
		await h.startTest(page);
		await h.choose(page, true);
		await h.clickMain(page);
		await page.getByRole('button', { name: 'Finish the test' }).click();
		await page.getByRole('button', { name: 'Finish anyway' }).click();
		await page.locator('#runner .run-results').waitFor();
		let seen = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)).seen, key);
		assert.equal(Object.keys(seen).length, 1, 'only the answered question is recorded: ' + JSON.stringify(seen));
		/* A test left after one answer: its answer is not recorded either. */
		await page.getByRole('button', { name: 'New test' }).click();
		await h.startTest(page);
		await h.choose(page, false);
		await page.getByRole('button', { name: 'Leave the test' }).click();
		await page.getByRole('button', { name: 'Yes, leave the test' }).click();
		await page.locator('#history .history-left').waitFor();
		const after = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)).seen, key);
		assert.deepEqual(after, seen, 'the left test changed nothing');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['forced colours: the results\' bars keep their fill'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.emulateMedia({ forcedColors: 'active' });
		await h.openTest(page, env.fileBase, '?topic=clouds&count=3');
		await h.startTest(page);
		await h.runEach(page, [true, true, false]);
		const fill = await page.locator('#runner .chart-fill').first().evaluate((e) => {
			const f = getComputedStyle(e), bar = getComputedStyle(e.parentNode);
			return { fill: f.backgroundColor, bar: bar.backgroundColor, width: e.getBoundingClientRect().width };
		});
		assert.ok(fill.width > 0, 'the fill has a width');
		assert.notEqual(fill.fill, fill.bar, 'the fill differs from its bar: ' + JSON.stringify(fill));
		assert.notEqual(fill.fill, 'rgba(0, 0, 0, 0)', 'the fill is painted');
		noProblems(context);
	} finally {
		await context.close();
	}
};
