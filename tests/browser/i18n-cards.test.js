/*
 * The viewer, the home page's dashboard and search in a German and an
 * Arabic build: a copy of the fixture site with `language = "de"` or
 * "ar". Every control reads in the site's language, counts take the
 * language's plural forms (German 1 Karte / 2 Karten; Arabic two, few
 * and many for 2, 3 and 11), and an Arabic page is right to left.
 */
'use strict';

const { assert, newPage, waitText, noProblems, fixtureIn } = require('./lib.js');

const DECK_PAGE = 'cards/weather/index.html';
/* The fixture site built in lang (lib.js). */
const site = fixtureIn;

/* Empties this site's storage and sets the daily limit of new cards (and a deck's record). */
async function setUp(page, perDay, deckRecord) {
	await page.evaluate(([n, rec]) => {
		const site = document.body.getAttribute('data-site');
		localStorage.clear();
		localStorage.setItem('quizdeck:v2:' + site + ':settings', JSON.stringify({ newCardsPerDay: n }));
		if (rec) localStorage.setItem('quizdeck:v2:' + site + ':deck:weather', JSON.stringify(rec));
	}, [perDay, deckRecord || null]);
	await page.reload();
}

/* The weather deck's cards as the home page lists them: [id, fingerprint] each. */
async function weatherPrints(page) {
	const s = await page.locator('li[data-deck="weather"]').getAttribute('data-card-prints');
	return s.split(' ').map((p) => [p.slice(0, p.lastIndexOf(':')), p.slice(p.lastIndexOf(':') + 1)]);
}

/*
 * A deck record holding the first n of prints as review cards due
 * yesterday: the dashboard counts them as the viewer does (site.js's
 * dueCards), so they must be the deck's own cards.
 */
function dueRecord(n, prints) {
	const now = Date.now(), cards = {};
	for (let i = 0; i < n; i++) {
		cards[prints[i][0]] = { fp: prints[i][1], state: 2, step: 0, s: 3, d: 5, due: now - 86400000,
			last: now - 4 * 86400000, ivl: 3, reps: 2, lapses: 0 };
	}
	return { v: 2, cards, day: '', newToday: 0, session: null, undo: null };
}

/* The text of the viewer's own controls and notes, without the card's content (the author's). */
async function viewerChrome(page) {
	return page.locator('#viewer').evaluate((v) => Array.from(v.querySelectorAll(
		'.viewer-top, .viewer-move, .viewer-rate, .viewer-progress, .viewer-tools, .viewer-settings, .viewer-keys,' +
		' .flashcard-side, .flashcard-hint, .flashcard-box')).map((e) => e.textContent).join(' | ').replace(/\s+/g, ' '));
}

/* The English words the viewer's chrome has, none of which may be left in a translated build. */
const ENGLISH = /\b(Card|cards|Flip|Previous|Next|Again|Hard|Good|Easy|min|days?|learned|Undo|Shuffle|Study|Reset|Keys|Space|Front|Back|Click|Tap|New|due)\b/;

function rateNames(page) {
	return page.locator('#viewer .viewer-grade').evaluateAll((bs) => bs.map((b) =>
		Array.from(b.childNodes).filter((n) => !(n.nodeType === 1 && n.getAttribute('aria-hidden')))
			.map((n) => n.textContent).join('').replace(/\s+/g, ' ').trim()));
}

exports['translations, German: the viewer speaks German, intervals and due counts in their plural forms (1 Karte, 2 Karten), undo and reset'] = async (env) => {
	const base = site(env, 'de');
	const { context, page } = await newPage(env);
	try {
		await page.goto(base + DECK_PAGE);
		assert.equal(await page.locator('html').getAttribute('lang'), 'de');
		assert.equal(await page.locator('html').getAttribute('dir'), 'ltr');
		await setUp(page, 1);
		const viewer = page.getByRole('region', { name: 'Karteikarten-Ansicht' });
		await waitText(viewer.locator('.viewer-due'), /^1 Karte fällig$/, 'one card due');
		await waitText(viewer.locator('.viewer-position'), /^Karte 1 von 1$/);
		await setUp(page, 2);
		await waitText(viewer.locator('.viewer-due'), /^2 Karten fällig$/, 'two cards due');
		await waitText(viewer.locator('.viewer-position'), /^Karte 1 von 2$/);
		await waitText(viewer.locator('.viewer-pass'), /^Fällige Karten, der Reihe nach$/);
		await waitText(viewer.locator('.viewer-progress-text'), /^0 von 8 gelernt$/);
		await waitText(viewer.locator('.viewer-keys'), /^Tasten: Leertaste dreht um · ← → blättern · 1–4 bewerten · U macht rückgängig$/);
		await page.getByRole('link', { name: 'Diese Karten drucken (PDF)' }).waitFor();

		await viewer.getByRole('button', { name: 'Karte umdrehen' }).click();
		await viewer.getByRole('group', { name: 'Wie gut hast du es gewusst?' }).waitFor();
		assert.deepEqual(await rateNames(page), ['Nochmal in 1 Min.', 'Schwer in 6 Min.', 'Gut in 10 Min.', 'Einfach in 8 Tagen']);
		const chrome = await viewerChrome(page);
		assert.doesNotMatch(chrome, ENGLISH, 'English left in the viewer: ' + chrome);

		await viewer.getByRole('button', { name: 'Gut in 10 Min.' }).click();
		await waitText(viewer.getByRole('status'), /^Karte 2 von 3: /, 'the next card said');
		await viewer.getByRole('button', { name: 'Letzte Bewertung rückgängig machen' }).click();
		await waitText(viewer.getByRole('status'), /^Bewertung rückgängig gemacht\. Noch einmal Karte 1\.$/, 'undo said');

		await viewer.getByRole('button', { name: 'Fortschritt zurücksetzen…' }).click();
		const ask = page.getByRole('alertdialog');
		await waitText(ask, /^Den ganzen Fortschritt in diesem Stapel vergessen\?/, 'the reset question');
		await ask.getByRole('button', { name: 'Ja, Fortschritt zurücksetzen' }).click();
		await waitText(viewer.getByRole('status'), /^Fortschritt zurückgesetzt: Jede Karte ist wieder neu\.$/, 'reset said');
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['translations, German: the dashboard counts in German (1 Karte, 2 Karten), the import asks in German, search answers in German'] = async (env) => {
	const base = site(env, 'de');
	const { context, page } = await newPage(env);
	try {
		await page.goto(base + 'index.html');
		const dash = page.getByRole('region', { name: 'Dein Fortschritt' });
		await waitText(dash.locator('.dashboard-empty'), /^Noch nichts: /);
		for (const h of ['Übungstests', 'Karteikarten', 'Der Leitfaden'])
			await page.getByRole('heading', { level: 2, name: h, exact: true }).waitFor();
		const weather = dash.getByRole('listitem').filter({ hasText: /^\s*Weather words/ });
		const prints = await weatherPrints(page);
		await setUp(page, 0, dueRecord(1, prints));
		await waitText(weather, /^Weather words\s*1 Karte fällig\s*Jetzt lernen$/, 'one card due');
		await setUp(page, 0, dueRecord(2, prints));
		await waitText(weather, /^Weather words\s*2 Karten fällig\s*Jetzt lernen$/, 'two cards due');
		await waitText(dash.getByRole('listitem').filter({ hasText: /^\s*Recall/ }), /heute keine Karten fällig\s*Stapel öffnen$/);
		await dash.getByRole('button', { name: 'Fortschritt exportieren' }).waitFor();

		const file = { quizdeck: 'progress', version: 1, site: 'elsewhere', exported: '2026-03-04T10:00:00.000Z',
			keys: { 'test:a': {}, 'test:b': {}, 'deck:weather': dueRecord(1, prints) } };
		await page.locator('#dashboard input[type="file"]').setInputFiles({ name: 'fortschritt.json',
			mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
		const ask = page.getByRole('alertdialog');
		await waitText(ask, /^fortschritt\.json importieren\? Die Datei enthält Fortschritt zu 2 Tests und 1 Stapel\. Sie wurde am 4\. März 2026 exportiert\. Sie stammt von einer anderen Website/);
		await ask.getByRole('button', { name: 'Abbrechen' }).click();
		await waitText(dash.getByRole('status'), /^Nichts importiert\.$/);

		const box = page.getByRole('combobox', { name: 'Leitfaden, Fragen und Karten durchsuchen' });
		await box.fill('zzqx');
		await waitText(page.locator('#site-search-status'), /^Keine Ergebnisse$/);
		await box.fill('isobar');
		await waitText(page.locator('#site-search-status'), /^\d+ Ergebnisse?$/);
		const kinds = await page.getByRole('listbox', { name: 'Suchergebnisse' }).locator('.search-kind').allTextContents();
		assert.ok(kinds.length > 0 && kinds.every((k) => /^(Kapitel des Leitfadens|Abschnitt des Leitfadens|Frage|Karte): $/.test(k)),
			'kinds of results: ' + JSON.stringify(kinds));
		noProblems(context);
	} finally {
		await context.close();
	}
};

exports['translations, Arabic: pages are right to left; the viewer and the dashboard count with the two, few and many forms (2, 3, 11)'] = async (env) => {
	const base = site(env, 'ar');
	const { context, page } = await newPage(env);
	try {
		await page.goto(base + 'index.html');
		assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
		assert.equal(await page.locator('html').getAttribute('lang'), 'ar');
		const dash = page.getByRole('region', { name: 'تقدمك' });
		const weather = dash.getByRole('listitem').filter({ hasText: /^\s*Weather words/ });
		const prints = await weatherPrints(page);
		for (const [n, said] of [[1, 'بطاقة واحدة مستحقة'], [2, 'بطاقتان مستحقتان'], [3, '3 بطاقات مستحقة']]) {
			await setUp(page, 0, dueRecord(n, prints));
			await waitText(weather, new RegExp('^Weather words\\s*' + said + '\\s*ادرسها$'), n + ' cards due');
		}
		/* The deck has 8 cards: the many form (11) is the page's own table and plural rules. */
		assert.equal(await page.evaluate(() => window.quizdeckI18n.plural('dashboard.cards-due', 11)), '11 بطاقة مستحقة');

		await page.goto(base + DECK_PAGE);
		assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
		const viewer = page.getByRole('region', { name: 'عارض البطاقات' });
		await setUp(page, 2);
		await waitText(viewer.locator('.viewer-due'), /^بطاقتان مستحقتان$/, 'two cards due');
		await setUp(page, 3);
		await waitText(viewer.locator('.viewer-due'), /^3 بطاقات مستحقة$/, 'three cards due');
		await waitText(viewer.locator('.viewer-position'), /^البطاقة 1 من 3$/);
		await viewer.getByRole('button', { name: 'اقلب البطاقة' }).click();
		assert.deepEqual(await rateNames(page), ['مرة أخرى بعد دقيقة', 'صعب بعد 6 دقائق', 'جيد بعد 10 دقائق', 'سهل بعد 8 أيام']);
		const chrome = await viewerChrome(page);
		assert.doesNotMatch(chrome, ENGLISH, 'English left in the viewer: ' + chrome);

		/* The end of a session of one card: the next one due in 8 days (few). */
		await setUp(page, 1);
		await viewer.getByRole('button', { name: 'اقلب البطاقة' }).click();
		await viewer.getByRole('button', { name: 'سهل بعد 8 أيام' }).click();
		await waitText(viewer.locator('.viewer-end'), /^لا مزيد من البطاقات المستحقة\s*البطاقة التالية مستحقة بعد 8 أيام\.\s*ادرس كل البطاقات$/,
			'the end of the session');
		noProblems(context);
	} finally {
		await context.close();
	}
};
