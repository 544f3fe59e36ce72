/*
 * Cloze and reversed cards in the flashcard viewer and on the deck page:
 * a cloze card's front shows its blank (with its hint) and never its
 * answer, its back the whole text with the answer marked, then the extra;
 * a reversed card asks with the back; each card counted and scheduled
 * under its own id; without JavaScript the list shows both sides.
 */
'use strict';

const { assert, newPage, waitText, noProblems } = require('./lib.js');

const DECK_PAGE = 'cards/recall/index.html';

async function saved(page) {
	const key = await page.evaluate(() => 'quizdeck:v2:' + (document.body.getAttribute('data-site') || '') + ':deck:recall');
	return JSON.parse(await page.evaluate((k) => localStorage.getItem(k), key));
}

function grade(page, word) {
	return page.getByRole('group', { name: 'How well did you remember it?' }).getByRole('button', { name: new RegExp('^' + word + ' ') });
}

exports['card kinds: cloze blank then answer, reversed card, counts and ids'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await page.goto(env.fileBase + DECK_PAGE);
		const viewer = page.getByRole('region', { name: 'Flashcard viewer' });
		await viewer.waitFor();
		/* Two cloze cards and a card asked both ways: four cards, counted everywhere. */
		assert.equal(await page.getByRole('heading', { level: 2, name: 'All 4 cards in this deck' }).count(), 1, 'the list title');
		assert.equal(await page.locator('#all-cards li.card').count(), 4);
		await waitText(page.locator('#viewer .viewer-due'), /^4 cards due$/, 'due count');
		await waitText(page.locator('#viewer .viewer-position'), /^Card 1 of 4$/, 'position');

		/* Cloze 1: its blank on the front, the other deletion as text, no answer anywhere visible. */
		const front = viewer.getByRole('heading', { level: 2 });
		assert.equal(await front.textContent(), '[\u2026] clouds are thin and wispy, cumulus clouds are heaped');
		assert.ok(!(await viewer.locator('.face-front').innerText()).includes('Cirrus'), 'the answer shows on the front');
		assert.match(await viewer.locator('.flashcard-label').innerText(), /Clouds \(cloze 1\)/);
		await page.getByRole('button', { name: 'Flip card' }).click();
		await waitText(viewer.locator('.face-back mark'), /^Cirrus$/, 'the answer, marked');
		assert.equal((await viewer.locator('.face-back .flashcard-question').innerText()).trim(),
			'Cirrus clouds are thin and wispy, cumulus clouds are heaped');
		await waitText(viewer.locator('.flashcard-back'), /^Both names are Latin/, 'the extra');
		await grade(page, 'Easy').click();

		/* Cloze 2: its hint in the blank, the first deletion now as text. */
		await waitText(page.locator('#viewer .viewer-position'), /^Card 2 of 4$/, 'position');
		assert.equal(await front.textContent(), 'Cirrus clouds are thin and wispy, [a kind] clouds are heaped');
		await page.getByRole('button', { name: 'Flip card' }).click();
		await waitText(viewer.locator('.face-back mark'), /^cumulus$/, 'the second answer, marked');
		await grade(page, 'Easy').click();

		/* The basic card, then its reverse: the definition asks, the term answers. */
		await waitText(page.locator('#viewer .viewer-position'), /^Card 3 of 4$/, 'position');
		assert.equal(await front.textContent(), 'Isobar');
		await page.getByRole('button', { name: 'Flip card' }).click();
		await grade(page, 'Easy').click();
		await waitText(page.locator('#viewer .viewer-position'), /^Card 4 of 4$/, 'position');
		assert.equal(await front.count(), 0, 'a reversed front is not a heading');
		await waitText(viewer.locator('.face-front .flashcard-front'), /^A line on a weather map joining places of equal pressure\.$/, 'reversed front');
		assert.match(await viewer.locator('.flashcard-label').innerText(), /Isobar \(reversed\)/);
		await page.getByRole('button', { name: 'Flip card' }).click();
		await waitText(viewer.locator('.face-back .flashcard-back'), /^Isobar$/, 'reversed back');
		await grade(page, 'Easy').click();

		/* Each card is scheduled under its own id. */
		const s = await saved(page);
		assert.deepEqual(Object.keys(s.cards).sort(), ['clouds-c1', 'clouds-c2', 'isobar', 'isobar-r']);
		for (const id of Object.keys(s.cards)) assert.equal(s.cards[id].state, 2, id + ' not in review after Easy');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['card kinds: without JavaScript the list shows the blank, the marked answer and the reversed card'] = async (env) => {
	const { context, page } = await newPage(env, { javaScriptEnabled: false });
	try {
		await page.goto(env.fileBase + DECK_PAGE);
		const items = page.locator('#all-cards li.card');
		assert.equal(await items.count(), 4);
		assert.equal((await items.nth(0).locator('.card-front').innerText()).trim(),
			'[\u2026] clouds are thin and wispy, cumulus clouds are heaped');
		assert.equal(await items.nth(0).locator('.card-answer mark').innerText(), 'Cirrus');
		assert.ok(await items.nth(0).locator('.card-answer').isVisible(), 'the answer is hidden');
		assert.equal((await items.nth(3).locator('.card-front').innerText()).trim(),
			'A line on a weather map joining places of equal pressure.');
		assert.equal((await items.nth(3).locator('.card-back').innerText()).trim(), 'Isobar');
		/* A link to the cloze heading's id lands on its first card. */
		assert.equal(await page.locator('#clouds').count(), 1, 'no element with the heading id');
		assert.equal(await page.locator('li#clouds-c1 #clouds').count(), 1, 'the heading id is not on the first cloze card');
	} finally {
		await context.close();
	}
};
