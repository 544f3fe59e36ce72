/*
 * The flashcard viewer: flip, move, know/again, the missed pass, the
 * progress bar, shuffle, reset, the deep link, storage.
 */
'use strict';

const { assert, newPage, waitFor, waitText, noProblems } = require('./lib.js');

const DECK_PAGE = 'cards/weather/index.html';
const KEY = 'quizdeck:v1:deck:weather';

/* The fixture deck in order: id and front text, read from the page's list. */
async function deck(page) {
	return page.locator('#all-cards li.card').evaluateAll((lis) => lis.map((li) => ({
		id: li.dataset.id,
		front: li.querySelector('.card-front').textContent.trim(),
		back: li.querySelector('.card-back').textContent.replace(/\s+/g, ' ').trim()
	})));
}

async function shows(page, n, total, card) {
	await waitText(page.locator('#viewer .viewer-position'), new RegExp(`^Card ${n} of ${total}$`), 'position');
	if (card) await waitText(page.locator('#viewer .flashcard-front'), new RegExp('^' + card.front.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$'), 'front');
}

async function flashcardFlow(env, base) {
	const { context, page } = await newPage(env);
	try {
		await page.goto(base + DECK_PAGE);
		const viewer = page.getByRole('region', { name: 'Flashcard viewer' });
		await viewer.waitFor();
		const cards = await deck(page);
		assert.equal(cards.length, 8);
		await shows(page, 1, 8, cards[0]);
		const bar = page.getByRole('progressbar', { name: 'Cards you know' });
		assert.equal(await bar.getAttribute('value'), '0');

		/* Flip with the button, back with a click on the card, again with Space. */
		const flip = page.getByRole('button', { name: 'Flip card' });
		await flip.click();
		await waitText(page.locator('#viewer .flashcard-back'), new RegExp('^' + cards[0].back.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'back');
		assert.equal(await flip.getAttribute('aria-pressed'), 'true');
		await page.locator('#viewer .flashcard').click();
		await shows(page, 1, 8, cards[0]);
		await page.keyboard.press('Space');
		await page.locator('#viewer .flashcard-back').waitFor();
		await page.keyboard.press('Space');
		await page.locator('#viewer .flashcard-front').waitFor();

		/* Move with the buttons and the arrow keys. */
		await page.getByRole('button', { name: 'Next card' }).click();
		await shows(page, 2, 8, cards[1]);
		await page.keyboard.press('ArrowRight');
		await shows(page, 3, 8, cards[2]);
		await page.keyboard.press('ArrowLeft');
		await shows(page, 2, 8, cards[1]);
		await page.getByRole('button', { name: 'Previous card' }).click();
		await shows(page, 1, 8, cards[0]);

		/* Know it on 1 and 2, Again on 3 and 4. */
		await page.getByRole('button', { name: 'Know it' }).click();
		await shows(page, 2, 8, cards[1]);
		await page.getByRole('button', { name: 'Know it' }).click();
		await page.getByRole('button', { name: 'Again' }).click();
		await shows(page, 4, 8, cards[3]);
		await page.keyboard.press('a');
		await shows(page, 5, 8, cards[4]);
		await waitFor(async () => (await bar.getAttribute('value')) === '2', 'progress value 2');
		await waitText(page.locator('#viewer .viewer-progress-text'), /^2 of 8 known$/);

		/* The missed pass holds exactly the two "again" cards. */
		await page.getByRole('button', { name: 'Study the ones I missed (2)' }).click();
		await shows(page, 1, 2, cards[2]);
		await page.getByRole('button', { name: 'Know it' }).click();
		await shows(page, 2, 2, cards[3]);
		await page.getByRole('button', { name: 'Again' }).click();
		await waitText(page.locator('#viewer .viewer-end'), /You went through every card/, 'end of the pass');
		await waitText(page.locator('#viewer .viewer-progress-text'), /^3 of 8 known$/);
		await page.getByRole('button', { name: 'Study the 1 I missed' }).click();
		await shows(page, 1, 1, cards[3]);

		/* The state survives a reload; the Leitner box shows on the card. */
		await page.reload();
		await shows(page, 1, 8, cards[0]);
		await waitText(page.locator('#viewer .viewer-progress-text'), /^3 of 8 known$/);
		await waitText(page.locator('#viewer .flashcard-box'), /^Known · box 2 of 5$/);
		assert.equal(await page.getByRole('button', { name: 'Study the ones I missed (1)' }).count(), 1);
		const saved = JSON.parse(await page.evaluate((k) => localStorage.getItem(k), KEY));
		assert.deepEqual(Object.keys(saved.cards).sort(), [cards[0].id, cards[1].id, cards[2].id, cards[3].id].sort());
		assert.equal(saved.cards[cards[3].id].last, 'again');

		/* Reset. */
		await page.getByRole('button', { name: 'Reset progress' }).click();
		await waitText(page.locator('#viewer .viewer-progress-text'), /^0 of 8 known$/);
		assert.equal(await page.getByRole('button', { name: /Study the ones I missed/ }).count(), 0);
		noProblems(context);
	} finally {
		await context.close();
	}
}

exports['flashcards from file://: flip, next, arrows, know it / again, study missed, progress, reload, reset'] =
	(env) => flashcardFlow(env, env.fileBase);

exports['flashcards over http: the same flow'] = (env) => flashcardFlow(env, env.httpBase);

exports['flashcards: a deep link #id opens that card'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.fileBase + DECK_PAGE + '#dew-point');
		const cards = await deck(page);
		const at = cards.findIndex((c) => c.id === 'dew-point');
		await shows(page, at + 1, 8, cards[at]);
		await waitFor(() => page.evaluate(() => {
			const r = document.getElementById('viewer').getBoundingClientRect();
			return r.top >= -1 && r.top < innerHeight / 2;
		}), 'the viewer in view');
		/* A later hash change opens another card. */
		await page.evaluate(() => { location.hash = '#isobar'; });
		const iso = cards.findIndex((c) => c.id === 'isobar');
		await shows(page, iso + 1, 8, cards[iso]);
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['flashcards: shuffle keeps every card once; off returns to deck order'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.fileBase + DECK_PAGE);
		const cards = await deck(page);
		const shuffle = page.getByRole('button', { name: 'Shuffle' });
		await shuffle.click();
		assert.equal(await shuffle.getAttribute('aria-pressed'), 'true');
		const seen = [];
		for (let i = 0; i < 8; i++) {
			await waitText(page.locator('#viewer .viewer-position'), new RegExp(`^Card ${i + 1} of 8$`));
			seen.push(await page.locator('#viewer .flashcard').getAttribute('data-id'));
			await page.keyboard.press('ArrowRight');
		}
		assert.deepEqual(seen.slice().sort(), cards.map((c) => c.id).sort(), 'shuffled pass');
		await shuffle.click();
		assert.equal(await shuffle.getAttribute('aria-pressed'), 'false');
		await shows(page, 1, 8, cards[0]);
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['flashcards: changed cards start afresh; broken storage never breaks the viewer'] = async (env) => {
	{
		const { context, page } = await newPage(env);
		try {
			await page.goto(env.fileBase + DECK_PAGE);
			const fps = await page.locator('#all-cards li.card').evaluateAll((l) => l.map((li) => [li.dataset.id, li.dataset.fingerprint]));
			const state = { cards: {} };
			/* Two cards known with their current text, one whose text changed. */
			state.cards[fps[0][0]] = { fp: fps[0][1], box: 3, last: 'know' };
			state.cards[fps[1][0]] = { fp: fps[1][1], box: 2, last: 'know' };
			state.cards[fps[2][0]] = { fp: 'ffffffffffffffff', box: 1, last: 'again' };
			state.cards.bogus = { fp: 'x', box: 99, last: 'maybe' };
			await page.evaluate(([k, s]) => localStorage.setItem(k, s), [KEY, JSON.stringify(state)]);
			await page.reload();
			await waitText(page.locator('#viewer .viewer-progress-text'), /^2 of 8 known$/);
			await waitText(page.locator('#viewer .flashcard-box'), /^Known · box 3 of 5$/);
			assert.equal(await page.getByRole('button', { name: /Study the ones I missed/ }).count(), 0, 'a changed card counted as missed');
			await page.evaluate((k) => localStorage.setItem(k, 'not json {'), KEY);
			await page.reload();
			await waitText(page.locator('#viewer .viewer-progress-text'), /^0 of 8 known$/);
			noProblems(context);
		} finally {
			await context.close();
		}
	}
	{
		const { context, page } = await newPage(env);
		try {
			await context.addInitScript(() => {
				Storage.prototype.getItem = () => { throw new DOMException('denied', 'SecurityError'); };
				Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
				Storage.prototype.removeItem = () => { throw new DOMException('denied', 'SecurityError'); };
			});
			await page.goto(env.fileBase + DECK_PAGE);
			await waitText(page.locator('#viewer .viewer-position'), /^Card 1 of 8$/);
			await page.getByRole('button', { name: 'Again' }).click();
			await waitText(page.locator('#viewer .viewer-position'), /^Card 2 of 8$/);
			await page.getByRole('button', { name: 'Reset progress' }).click();
			noProblems(context);
		} finally {
			await context.close();
		}
	}
};

exports['flashcards: respects prefers-reduced-motion'] = async (env) => {
	const { context, page } = await newPage(env, { reducedMotion: 'reduce' });
	try {
		await page.goto(env.fileBase + DECK_PAGE);
		await page.getByRole('button', { name: 'Flip card' }).click();
		await page.locator('#viewer .flashcard-back').waitFor();
		const anim = await page.locator('#viewer .flashcard').evaluate((e) => getComputedStyle(e).animationName);
		assert.equal(anim, 'none', 'the card still animates');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['flashcards: without JavaScript every card shows, front and back'] = async (env) => {
	const { context, page } = await newPage(env, { javaScriptEnabled: false });
	try {
		await page.goto(env.fileBase + DECK_PAGE);
		assert.ok(await page.locator('#viewer').isHidden(), 'empty viewer shown without JS');
		assert.equal(await page.locator('#all-cards li.card').count(), 8);
		assert.ok(await page.locator('#all-cards .card-back').first().isVisible(), 'card backs hidden');
	} finally {
		await context.close();
	}
};
