/*
 * The practice test in the site's language: the fixture built with
 * language = "de" and with "ar". The set-up, the runner, the verdicts,
 * the results, the history and the tab's title are German or Arabic, with
 * counts in the language's plural forms and shares as it writes them;
 * the Arabic page runs right to left; a chapter's question answered in
 * place speaks German. No control or heading the test page's scripts and
 * template write reads as its English string. axe stays clean on the
 * Arabic page.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { assert, newPage, waitFor, waitText, noProblems, fixtureIn } = require('./lib.js');
const h = require('./quiz-helpers.js');

/* The fixture site built in lang (lib.js). */
const site = fixtureIn;

/* The English strings of quiz.js, embed.js and test.html that hold no placeholder. */
function englishStrings(env) {
	const list = new Set();
	let section = '';
	for (const line of fs.readFileSync(path.join(env.root, 'i18n/en.toml'), 'utf8').split('\n')) {
		const head = /^\[([a-z.-]+)\]/.exec(line);
		if (head) section = head[1];
		const m = /^[a-z-]+ = "(.*)"$/.exec(line);
		if (m && /^(quiz|embed|test)$/.test(section) && !/\{/.test(m[1]) && /[a-z]{2}/i.test(m[1])) list.add(m[1].trim());
	}
	return list;
}

/* The words of the page's own controls, headings and messages left in English. */
async function englishLeft(page, english) {
	const texts = await page.evaluate(() => {
		const out = [];
		const own = 'button, h2, h3, label, legend, summary, .run-instruction, .verdict, .run-tag, .run-problem, ' +
			'.run-keys, .resume-what, .resume-note, .mix-note, .history-known, .mastery-note, strong, [role="status"]';
		document.querySelectorAll('#setup, #runner, #samples-title, #deeper-title, article.question.embedded form').forEach((root) => {
			root.querySelectorAll(own).forEach((e) => out.push(e.textContent));
			if (root.matches(own)) out.push(root.textContent);
			root.querySelectorAll('[aria-label]').forEach((e) => out.push(e.getAttribute('aria-label')));
		});
		return out;
	});
	return texts.map((t) => t.replace(/[✓✗⚑!]/g, '').replace(/\s+/g, ' ').trim()).filter((t) => english.has(t));
}

/* Text as the eye reads it: no direction marks, spaces of any kind as one. */
function plainText(s) {
	return String(s).replace(/[\u200e\u200f\u061c]/g, '').replace(/\s+/g, ' ').trim();
}

exports['practice test in German: the set-up and the runner in German'] = async (env) => {
	const base = site(env, 'de');
	const english = englishStrings(env);
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, base);
		assert.equal(await page.locator('html').getAttribute('lang'), 'de');
		const plain = await page.title();
		await page.getByRole('heading', { name: 'Stell deinen Test zusammen' }).waitFor();
		assert.ok(await page.getByRole('radio', { name: 'Ausgewogen' }).isChecked(), 'mix "Ausgewogen"');
		assert.ok(await page.getByRole('radio', { name: 'Nach jeder Frage' }).isChecked(), 'reveal "Nach jeder Frage"');
		await page.getByRole('radio', { name: 'Am Ende' }).waitFor();
		await page.getByRole('combobox', { name: 'Thema' }).waitFor();
		await page.getByRole('heading', { name: 'Beispielfragen mit Antworten' }).waitFor();
		await waitText(page.locator('#setup-mix'), /^2 leicht · 2 mittel · 2 schwer$/, 'mix note');
		await waitText(page.locator('#setup-estimate'), /^10 Fragen zur Auswahl \(2 Beispiele ausgelassen\) · etwa 5 Min\.$/, 'estimate');
		await page.getByRole('checkbox', { name: 'Kurzbefehle mit einer Taste' }).waitFor();
		await page.getByRole('spinbutton', { name: 'Fragen' }).fill('2');
		await waitText(page.locator('#setup-mix'), /^1 leicht · 1 mittel$/, 'mix note for 2');
		assert.deepEqual(await englishLeft(page, english), [], 'English on the set-up');

		await page.getByRole('button', { name: 'Test starten' }).click();
		await page.getByRole('heading', { name: 'Frage 1 von 2' }).waitFor();
		await waitFor(async () => await page.title() === 'Frage 1 von 2 · ' + plain, 'the tab\'s title in German');
		await page.getByRole('button', { name: 'Prüfen' }).click();
		await waitText(page.locator('#runner .run-problem'), /^! Wähle zuerst eine Antwort\.$/, 'nothing chosen');
		await waitText(page.locator('#runner [role="status"]'), /^Wähle zuerst eine Antwort\.$/, 'live region, nothing chosen');
		await waitText(page.locator('#runner .run-instruction'), /^Wähle (eine Antwort|alle Antworten, die zutreffen)\.$/, 'instruction');
		await waitText(page.locator('#runner .run-keys'), /^Tasten: 1–\d wählen, Enter prüft\.$/, 'keys before Check');
		await h.choose(page, false);
		await page.getByRole('button', { name: 'Prüfen' }).click();
		await waitText(page.locator('#runner .run-verdict > .verdict'), /^✗ Falsch$/, 'verdict');
		await waitText(page.locator('#runner [role="status"]'), /^Falsch\. Die richtige Antwort: .+\.$/, 'live region');
		await waitText(page.locator('#runner .run-keys'), /^Tasten: 1–\d wählen, Enter geht weiter\.$/, 'keys after Check');
		await page.locator('#runner .run-tag').filter({ hasText: 'Die richtige Antwort' }).first().waitFor();
		await page.locator('#runner .run-tag').filter({ hasText: 'Deine Antwort: falsch' }).waitFor();
		await page.getByRole('heading', { name: 'Warum' }).waitFor();
		await page.getByRole('button', { name: 'Test verlassen' }).waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English on a question answered');
		await page.getByRole('button', { name: 'Nächste Frage' }).click();
		await page.getByRole('heading', { name: 'Frage 2 von 2' }).waitFor();
		await page.getByRole('button', { name: 'Vorherige Frage' }).waitFor();
		await page.getByRole('button', { name: 'Test verlassen' }).click();
		await waitText(page.locator('#run-confirm-text'), /^Diesen Test verlassen\? /, 'leave asks');
		await page.getByRole('button', { name: 'Weitermachen' }).waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English when leaving');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test in German: results and history in German, numbers as German writes them'] = async (env) => {
	const base = site(env, 'de');
	const english = englishStrings(env);
	const { context, page } = await newPage(env);
	try {
		await h.openTest(page, base, '?topic=&mix=steady&count=3&reveal=end');
		const plain = await page.title();
		await page.getByRole('button', { name: 'Test starten' }).click();
		for (const right of [true, false, true]) {
			await h.choose(page, right);
			await page.locator('#runner .run-main').click();
		}
		await page.getByRole('heading', { name: 'Dein Ergebnis' }).waitFor();
		assert.equal(await h.score(page), '2 von 3');
		assert.match(await page.locator('#runner .results-percent').textContent(), /^67\s%$/, 'a German percent');
		await waitText(page.locator('#runner .results-score'), /^2 von 3 richtig · 67\s%$/, 'score line');
		await waitText(page.locator('#runner .results-summary > .verdict'), /^✗ Noch nicht bestanden: Zum Bestehen brauchst du 70\s%\.$/, 'pass verdict');
		await waitText(page.locator('#runner [role="status"]'), /^Test beendet: 2 von 3 richtig\.$/, 'live region at the end');
		await waitFor(async () => await page.title() === 'Ergebnis: 2 von 3 · ' + plain, 'the results\' title in German');
		for (const name of ['Nach Thema', 'Nach Schwierigkeit', 'Lernstand nach Thema', 'Alle Fragen durchgehen'])
			await page.getByRole('heading', { name, exact: true }).waitFor();
		const levels = await page.locator('#runner .results-chart').nth(1).locator('.chart-label').allTextContents();
		assert.deepEqual(levels, ['leicht', 'mittel', 'schwer'], 'the difficulties named in German');
		await page.getByRole('button', { name: 'Frage 2 zeigen' }).waitFor();
		await page.getByRole('button', { name: 'Die falsch beantworteten wiederholen (1)' }).waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English on the results');

		await page.getByRole('button', { name: 'Neuer Test' }).click();
		await page.getByRole('heading', { name: 'Deine bisherigen Versuche' }).waitFor();
		const item = page.locator('#history .history-item').first();
		await waitText(item, /Alle Themen · ausgewogen · 3 Fragen/, 'history set-up');
		await waitText(item.locator('.history-score'), /^✗ 2 von 3 \(67\s%\)$/, 'history score');
		const when = await item.locator('time').evaluate((t) => [t.textContent, new Date(t.getAttribute('datetime'))
			.toLocaleDateString('de-u-nu-latn', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })]);
		assert.equal(when[0], when[1], 'the date as German writes it');
		await waitText(page.locator('#history .history-known'), /^Zuletzt richtig beantwortet: 2 von 12 Fragen\./, 'known count');
		await page.getByRole('button', { name: 'Meinen Verlauf löschen' }).waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English in the history');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['embedded question in German: Check, the verdict and Try again in German'] = async (env) => {
	const base = site(env, 'de');
	const english = englishStrings(env);
	const { context, page } = await newPage(env);
	try {
		await page.goto(base + 'guide/clouds-and-rain/index.html');
		const q = page.locator('article.question.embedded').filter({ has: page.locator('.stem', { hasText: 'Which are true of a sea breeze?' }) });
		await q.getByRole('button', { name: 'Prüfen' }).click();
		await waitText(q.locator('.run-problem'), /^! Wähle zuerst eine Antwort\.$/, 'nothing chosen');
		await waitText(q.locator('.run-instruction'), /^Wähle alle Antworten, die zutreffen\.$/, 'instruction');
		await q.getByRole('checkbox', { name: 'It blows from land to sea at noon' }).check();
		await q.getByRole('button', { name: 'Prüfen' }).click();
		await waitText(q.locator('.run-verdict .verdict'), /^✗ Falsch$/, 'verdict');
		await q.locator('.run-tag').filter({ hasText: 'Deine Antwort: falsch' }).waitFor();
		await q.locator('.run-tag').filter({ hasText: 'Die richtige Antwort' }).first().waitFor();
		await q.getByRole('button', { name: 'Noch einmal' }).waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English in the chapter\'s question');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['practice test in Arabic: right to left, Arabic words and plural forms, at the end with the navigator'] = async (env) => {
	const base = site(env, 'ar');
	const english = englishStrings(env);
	const { context, page } = await newPage(env, { viewport: { width: 390, height: 844 } });
	try {
		await h.openTest(page, base, '?topic=&mix=steady&count=3&reveal=end');
		assert.equal(await page.locator('html').getAttribute('lang'), 'ar');
		assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
		const plain = await page.title();
		await page.getByRole('heading', { name: 'جهّز اختبارك' }).waitFor();
		assert.ok(await page.getByRole('radio', { name: 'في النهاية' }).isChecked(), 'reveal at the end, from the URL');
		await waitText(page.locator('#setup-mix'), /^سهل: 1 · متوسط: 1 · صعب: 1$/, 'mix note');
		/* 10: few; 2 samples: two; 3 minutes: few. */
		await waitText(page.locator('#setup-estimate'), /^10 أسئلة في هذه المجموعة \(استُبعد مثالان\) · نحو 3 دقائق$/, 'estimate');
		assert.deepEqual(await englishLeft(page, english), [], 'English on the set-up');

		await page.getByRole('button', { name: 'ابدأ الاختبار' }).click();
		await page.getByRole('heading', { name: 'السؤال 1 من 3' }).waitFor();
		assert.equal(await page.locator('#runner').evaluate((r) => getComputedStyle(r).direction), 'rtl');
		await waitFor(async () => await page.title() === 'السؤال 1 من 3 · ' + plain, 'the tab\'s title in Arabic');
		const nav = page.getByRole('navigation', { name: 'الأسئلة' });
		await nav.getByRole('button', { name: 'السؤال 1، لم يُجب عنه' }).waitFor();
		await page.getByRole('button', { name: 'علّمه للمراجعة' }).click();
		await h.choose(page, true);
		await nav.getByRole('button', { name: 'السؤال 1، أُجيب عنه، معلَّم للمراجعة' }).waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English on question 1');
		await page.getByRole('button', { name: 'السؤال التالي' }).click();
		await page.getByRole('heading', { name: 'السؤال 2 من 3' }).waitFor();
		await page.getByRole('button', { name: 'السؤال التالي' }).click();
		await page.getByRole('button', { name: 'أنهِ الاختبار' }).click();
		await waitText(page.locator('#runner .run-finish-ask p'),
			/^سؤالان دون إجابة \(2، 3\)؛ سؤال واحد معلَّم للمراجعة \(1\)\. أتنهي الاختبار على أي حال؟$/, 'finish asks');
		await page.getByRole('button', { name: 'انتقل إلى السؤال 2' }).waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English when finishing');
		await page.getByRole('button', { name: 'أنهِ على أي حال' }).click();

		await page.getByRole('heading', { name: 'نتيجتك' }).waitFor();
		assert.equal(await h.score(page), '1 من 3');
		assert.equal(plainText(await page.locator('#runner .results-summary > .verdict').textContent()),
			'✗ لم تنجح بعد: درجة النجاح 70%.', 'pass verdict');
		await waitFor(async () => await page.title() === 'النتيجة: 1 من 3 · ' + plain, 'the results\' title in Arabic');
		await page.getByRole('button', { name: 'أعد الأسئلة التي أخطأت فيها (2)' }).waitFor();
		await page.locator('#runner .review-summary').filter({ hasText: 'لم تُجب عنه' }).first().waitFor();
		assert.deepEqual(await englishLeft(page, english), [], 'English on the results');
		noProblems(context);
	} finally {
		await context.close();
	}
};

/* axe on the Arabic page as quiz.js fills it: no serious or critical violation. */
exports['axe: the Arabic test page at set-up, after Check and at the results'] = async (env) => {
	const base = site(env, 'ar');
	const AXE = path.join(path.dirname(require.resolve('axe-core/package.json')), 'axe.min.js');
	const { context, page } = await newPage(env, { bypassCSP: true });
	const axe = async (where) => {
		await page.addScriptTag({ path: AXE });
		const bad = await page.evaluate(async () => {
			/* eslint-disable-next-line no-undef */
			const r = await axe.run(document, { resultTypes: ['violations'] });
			return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
				.map((v) => `${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
		});
		assert.deepEqual(bad.map((b) => `${where}: ${b}`), []);
	};
	try {
		await h.openTest(page, base, '?topic=&mix=steady&count=2&reveal=each');
		await axe('set-up');
		await page.getByRole('button', { name: 'ابدأ الاختبار' }).click();
		await h.choose(page, false);
		await page.getByRole('button', { name: 'تحقّق' }).click();
		await page.locator('#runner .run-verdict').waitFor();
		await axe('after Check');
		await page.getByRole('button', { name: 'السؤال التالي' }).click();
		await h.choose(page, true);
		await page.getByRole('button', { name: 'تحقّق' }).click();
		await page.getByRole('button', { name: 'اعرض نتيجتك' }).click();
		await page.getByRole('heading', { name: 'نتيجتك' }).waitFor();
		await axe('results');
	} finally {
		await context.close();
	}
};
