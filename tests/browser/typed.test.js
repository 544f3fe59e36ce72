/*
 * Typed answers (the fixture's quiz/typed test: a percentage, a length
 * with alternatives in two units, a word, a program's output): the
 * reader and scorer in answer.js on its own, then each kind answered
 * right and wrong in the practice test: the score, the feedback, the
 * right answer shown, the review, the history, a reload mid-test, the
 * page without JavaScript, and axe on the input box.
 */
'use strict';

const path = require('node:path');
const { assert, newPage, waitText, noProblems } = require('./lib.js');

const PAGE = 'quiz/typed/index.html';

/* What a person types, by question id. */
const RIGHT = { oktas: '75%', thunder: '0.95 km', cumulonimbus: '  CUMULONIMBUS ', forecast: 'mon rain   \ntue rain\n\n' };
const WRONG = { oktas: '6', thunder: '3 km', cumulonimbus: 'Cumulus', forecast: 'mon rain' };
/* The feedback a wrong answer above brings, or null. */
const WRONG_FEEDBACK = {
	oktas: /an okta is an eighth of the sky/,
	thunder: /about a third of a kilometre each second/,
	cumulonimbus: /cumulus grows into cumulonimbus/,
	forecast: null
};
const RIGHT_ANSWER = { oktas: /75 % ± 1/, thunder: /1 km ± 10 %.*also accepted: 1000 m ± 10 %/, cumulonimbus: /cumulonimbus.*also accepted: Cb/, forecast: /mon rain\s*tue rain/ };

exports['typed answers: answer.js reads numbers, text and output as documented (Node)'] = async (env) => {
	const a = require(path.join(env.root, 'themes/default/assets/answer.js'));
	const n = (s, comma) => { const r = a.readNumber(s, comma); return r && [r.value, r.unit]; };
	assert.deepEqual(n('0.20'), [0.2, '']);
	assert.deepEqual(n('.2'), [0.2, '']);
	assert.deepEqual(n('2e-1'), [0.2, '']);
	assert.deepEqual(n('−3'), [-3, ''], 'U+2212 minus');
	assert.deepEqual(n('14GB'), [14, 'GB']);
	assert.deepEqual(n(' 38 % '), [38, '%']);
	assert.deepEqual(n('GB / s 1'), null, 'no number first');
	assert.equal(n('0,2'), null, 'a decimal comma where the language writes a point');
	assert.deepEqual(n('0,2', true), [0.2, ''], 'a decimal comma where the language writes one');
	assert.deepEqual(n('0.2', true), [0.2, ''], 'a point still reads where the language writes a comma');
	assert.equal(n('1,000.5', true), null, 'no thousands separators');
	assert.deepEqual(n('10 000'), [10000, ''], 'digits grouped in threes by a space');
	assert.deepEqual(n('1\u00a0234\u2009567\u202f890,5 GB', true), [1234567890.5, 'GB'],
		'by a no-break, thin or narrow no-break space');
	assert.equal(n('1000 000'), null, 'a first group of four is not grouping');
	assert.equal(n('10 00'), null, 'nor a group of two');
	assert.equal(n('10 0000'), null, 'nor of four');
	assert.equal(n('1  000'), null, 'nor two spaces');
	assert.equal(n('1.2.3'), null);

	const num = { kind: 'number', answers: [
		{ correct: true, answer: '14 GB ± 5 %', min: 13.3, max: 14.7, unit: 'GB' },
		{ correct: true, answer: '14000 MB', min: 14000, max: 14000, unit: 'MB' },
		{ correct: false, answer: '28 GB', min: 28, max: 28, unit: 'GB' }] };
	assert.deepEqual(a.score(num, '14.7 GB'), { right: true, match: 0, problem: null }, 'the top of the range');
	assert.deepEqual(a.score(num, '14.8'), { right: false, match: -1, problem: null }, 'just outside');
	assert.deepEqual(a.score(num, '14 gb'), { right: false, match: -1, problem: null }, 'a unit typed must be the same');
	assert.deepEqual(a.score(num, '14000'), { right: true, match: 1, problem: null }, 'an alternative, unit left out');
	assert.deepEqual(a.score(num, '28'), { right: false, match: 2, problem: null }, 'a foreseen wrong answer');
	assert.deepEqual(a.score(num, 'lots'), { right: false, match: -1, problem: 'not-a-number' });
	assert.deepEqual(a.score(num, '  '), { right: false, match: -1, problem: 'empty' });
	assert.deepEqual(a.score(num, '14 000 MB'), { right: true, match: 1, problem: null }, 'grouped digits');
	const third = { kind: 'number', answers: [{ correct: true, answer: '0.3', min: 0.3, max: 0.3, unit: '' }] };
	assert.equal(a.score(third, '0.30000000000000004').right, true, 'rounding is not a wrong answer');

	const text = { kind: 'text', answers: [{ correct: true, answer: 'Straße  am  Meer' }] };
	assert.equal(a.score(text, 'STRASSE am meer').right, true, 'case folded, spaces collapsed');
	assert.equal(a.score(text, 'Strasse am Meer!').right, false);
	const nfc = { kind: 'text', answers: [{ correct: true, answer: 'caf\u00e9' }] };
	assert.equal(a.score(nfc, 'cafe\u0301').right, true, 'NFC');
	const exact = { kind: 'text', exact: true, answers: [{ correct: true, answer: 'git stash' }] };
	assert.equal(a.score(exact, ' git stash ').right, true, '.exact trims the ends');
	assert.equal(a.score(exact, 'Git stash').right, false, '.exact counts capitals');
	assert.equal(a.score(exact, 'git  stash').right, false, '.exact counts spaces');
	const choices = [{ correct: true }, { correct: false }, { correct: true }];
	assert.equal(a.scoreChoice(choices, [2, 0]), true, 'every right option, in any order');
	assert.equal(a.scoreChoice(choices, [0]), false, 'one right option of two is not the answer');
	assert.equal(a.scoreChoice(choices, [0, 1, 2]), false, 'a wrong option with the right ones');
	const out = { kind: 'output', answers: [{ correct: true, answer: 'a\n  b' }] };
	assert.equal(a.score(out, 'a  \r\n  b\t\n\n').right, true, 'trailing spaces and empty last lines ignored');
	assert.equal(a.score(out, 'a\nb').right, false, 'leading spaces count');
	assert.equal(a.score(out, 'A\n  b').right, false, 'case counts');
};

async function start(page, base, reveal) {
	await page.goto(base + PAGE + '?topic=&mix=steady&count=4&reveal=' + reveal);
	await page.locator('#setup').waitFor({ state: 'visible' });
	await page.getByRole('button', { name: 'Start the test' }).click();
	await page.locator('#runner .run-question').waitFor();
}

async function currentId(page) {
	return page.locator('#runner form.run-question').getAttribute('data-id');
}

function box(page, id) {
	return page.getByRole('textbox', { name: id === 'forecast' ? 'What the program prints' : 'Your answer' });
}

/* Answers the four questions from answers, checking each verdict; returns the ids in order. */
async function answerEach(page, answers, right) {
	const ids = [];
	for (let i = 0; i < 4; i++) {
		const id = await currentId(page);
		ids.push(id);
		const input = box(page, id);
		if (id === 'thunder' && !right) {
			/* A number the page cannot read is not scored: it says how to write one. */
			await input.fill('1,5 km');
			await page.getByRole('button', { name: 'Check' }).click();
			await waitText(page.locator('#runner .run-problem'), /not a number this test can read: write it like 0\.25 or 2\.5e-1/, 'problem');
			assert.equal(await page.locator('#runner .run-verdict').count(), 0, 'an unreadable number was scored');
		}
		assert.ok(await input.getAttribute('aria-describedby'), `${id}: the box is not described by what it accepts`);
		await input.fill(answers[id]);
		await page.getByRole('button', { name: 'Check' }).click();
		const verdict = page.locator('#runner .run-verdict');
		await waitText(verdict.locator('.verdict'), right ? /^✓ Correct$/ : /^✗ Incorrect$/, `${id} verdict`);
		const said = (await verdict.textContent()).replace(/\s+/g, ' ');
		assert.ok(said.includes('Your answer: ' + answers[id].replace(/\s+/g, ' ').trim()) ||
			said.includes('Your answer: ' + answers[id].replace(/\s+/g, ' ')), `${id}: the verdict does not show what was typed: ${said}`);
		if (!right) {
			assert.match(said, new RegExp('The right answer: .*' + RIGHT_ANSWER[id].source), `${id}: the right answer`);
			if (WRONG_FEEDBACK[id]) assert.match(said, WRONG_FEEDBACK[id], `${id}: the feedback on the wrong answer`);
			else assert.doesNotMatch(said, /On your answer/, `${id}: feedback where none was written`);
		} else {
			assert.doesNotMatch(said, /The right answer/, `${id}: a right answer shown after a right one`);
		}
		assert.ok(await page.locator('#runner .run-explanation').isVisible(), `${id}: no explanation`);
		assert.equal(await input.getAttribute('readonly'), '', `${id}: the box stays editable after Check`);
		await page.locator('#runner .run-main').click();
	}
	return ids;
}

exports['typed answers: each kind right, score, review and history'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await start(page, env.fileBase, 'each');
		await answerEach(page, RIGHT, true);
		await waitText(page.locator('#runner .results-fraction'), /^4 of 4$/, 'score');
		const review = page.locator('#runner .results-review');
		await waitText(review, /Your answer: 75%/, 'review of the percentage');
		await waitText(review, /Your answer: 0.95 km/, 'review of the length');
		await page.getByRole('button', { name: 'New test' }).click();
		await waitText(page.locator('#history .history-item').first(), /4 of 4 \(100%\)/, 'history');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['typed answers: each kind wrong, feedback, the right answer, review and history'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await start(page, env.httpBase, 'each');
		const ids = await answerEach(page, WRONG, false);
		await waitText(page.locator('#runner .results-fraction'), /^0 of 4$/, 'score');
		const items = page.locator('#runner .review-item');
		for (let i = 0; i < 4; i++) {
			const text = (await items.nth(i).textContent()).replace(/\s+/g, ' ');
			assert.match(text, /Incorrect/, `review ${ids[i]}`);
			assert.match(text, new RegExp('The right answer: .*' + RIGHT_ANSWER[ids[i]].source), `review ${ids[i]}: right answer`);
			if (WRONG_FEEDBACK[ids[i]]) assert.match(text, WRONG_FEEDBACK[ids[i]], `review ${ids[i]}: feedback`);
		}
		const forecast = items.nth(ids.indexOf('forecast'));
		assert.equal(await forecast.locator('.review-yours pre').textContent(), 'mon rain', 'the typed output, as a block');
		await page.getByRole('button', { name: /Retry the ones I missed \(4\)/ }).click();
		await page.locator('#runner .run-question').waitFor();
		assert.equal(await box(page, await currentId(page)).inputValue(), '', 'a retry starts with an empty box');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['typed answers: at the end, what was typed survives Back, a reload and the review'] = async (env) => {
	const { context, page } = await newPage(env);
	try {
		await start(page, env.fileBase, 'end');
		const first = await currentId(page);
		await box(page, first).fill(RIGHT[first]);
		await page.locator('#runner .run-main').click();
		const second = await currentId(page);
		await box(page, second).fill(WRONG[second]);
		await page.reload();
		await page.locator('#runner .run-question').waitFor();
		assert.equal(await currentId(page), second, 'a reload lands on the question left');
		assert.equal(await box(page, second).inputValue(), WRONG[second], 'a reload keeps what was typed');
		await page.goBack();
		await page.locator(`#runner form.run-question[data-id="${first}"]`).waitFor();
		assert.equal(await box(page, first).inputValue(), RIGHT[first], 'Back shows what was typed');
		assert.equal(await page.locator('#runner .run-verdict').count(), 0, 'at the end: no verdict before finishing');
		await page.locator('#runner .run-main').click();
		for (let i = 1; i < 4; i++) await page.locator('#runner .run-main').click();
		await page.getByRole('button', { name: 'Finish anyway' }).click();
		await waitText(page.locator('#runner .results-fraction'), /^1 of 4$/, 'score');
		const review = page.locator('#runner .results-review');
		await waitText(review, new RegExp('Your answer: ' + RIGHT[first].trim().replace(/[.*+?%]/g, '\\$&').replace(/\s+/g, '\\s+')), 'review of the first');
		await waitText(review, /Not answered/, 'the unanswered ones');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['typed answers: without JavaScript the answer waits behind Reveal answer'] = async (env) => {
	const { context, page } = await newPage(env, { javaScriptEnabled: false });
	try {
		await page.goto(env.fileBase + PAGE);
		const q = page.locator('#questions article#thunder');
		assert.match(await q.locator('.typed-prompt').textContent(), /Type a number in km or m, like 0\.25, \.25 or 2\.5e-1; the unit may be left out/);
		assert.ok(!(await q.locator('.typed-answers').isVisible()), 'the answer shows before Reveal answer');
		await q.getByText('Reveal answer').click();
		assert.ok(await q.locator('.typed-answers').isVisible(), 'Reveal answer shows no answer');
		assert.match((await q.locator('.typed-answers').textContent()).replace(/\s+/g, ' '),
			/Answer: 1 km ± 10 % .*Also accepted: 1000 m ± 10 % .*Wrong: 3 km ?Sound is slower/);
	} finally {
		await context.close();
	}
};

const AXE = path.join(path.dirname(require.resolve('axe-core/package.json')), 'axe.min.js');

async function axeSerious(page) {
	await page.addScriptTag({ path: AXE });
	const found = await page.evaluate(async () => {
		/* eslint-disable-next-line no-undef */
		const r = await axe.run(document, { resultTypes: ['violations'] });
		return r.violations.map((v) => ({ id: v.id, impact: v.impact, at: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
	});
	return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} at ${v.at.join(', ')}`);
}

for (const colorScheme of ['light', 'dark']) {
	exports[`typed answers: axe on the box, a wrong answer's verdict and the review, ${colorScheme}`] = async (env) => {
		const { context, page } = await newPage(env, { bypassCSP: true, colorScheme });
		try {
			await start(page, env.fileBase, 'each');
			assert.deepEqual(await axeSerious(page), [], 'the input box');
			for (let i = 0; i < 4; i++) {
				const id = await currentId(page);
				await box(page, id).fill(WRONG[id]);
				await page.getByRole('button', { name: 'Check' }).click();
				await page.locator('#runner .run-verdict').waitFor();
				if (i === 0) assert.deepEqual(await axeSerious(page), [], `the verdict on ${id}`);
				await page.locator('#runner .run-main').click();
			}
			await page.locator('#runner .results-review').waitFor();
			assert.deepEqual(await axeSerious(page), [], 'the results and review');
		} finally {
			await context.close();
		}
	};
}

/* A site in German: the page marks its numbers as taking a decimal comma, and 0,2 is read as 0.2. */
exports['typed answers: a decimal comma where the language writes one'] = async (env) => {
	const fs = require('node:fs');
	const os = require('node:os');
	const { execFileSync } = require('node:child_process');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quizdeck-comma-'));
	const { context, page } = await newPage(env);
	try {
		fs.mkdirSync(path.join(dir, 'src/content/quiz'), { recursive: true });
		fs.writeFileSync(path.join(dir, 'src/site.toml'), 'title = "Komma"\nlanguage = "de"\n');
		fs.writeFileSync(path.join(dir, 'src/content/quiz/blase.md'), '+++\ntitle = "Blase"\n+++\n' +
			'## Welcher Anteil ist Leerlauf? {#anteil .sample}\n\n- [x] = 1\n\nAlles.\n\n' +
			'## Welcher Anteil der Zeit ist die Blase? {#blase}\n\n- [x] = 0.2 ± 0.01\n\nEin Fünftel.\n');
		execFileSync(path.join(env.root, 'quizdeck'), ['build', '--no-pdf', '-C', path.join(dir, 'src'), '-o', path.join(dir, 'out')],
			{ stdio: ['ignore', 'pipe', 'pipe'] });
		await page.goto('file://' + path.join(dir, 'out/quiz/blase/index.html') + '?topic=&mix=steady&count=1&reveal=each');
		assert.equal(await page.locator('#questions article#blase').getAttribute('data-decimal-comma'), 'true');
		assert.match(await page.locator('#questions article#blase .typed-prompt').textContent(), /\(oder mit Komma: 0,25\)/);
		/* The site is in German, so is the test. */
		await page.getByRole('button', { name: 'Test starten' }).click();
		await page.getByRole('textbox', { name: 'Deine Antwort' }).fill('0,2');
		await page.getByRole('button', { name: 'Prüfen' }).click();
		await waitText(page.locator('#runner .run-verdict .verdict'), /^✓ Richtig$/, 'verdict on 0,2');
		noProblems(context);
	} finally {
		await context.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
};
