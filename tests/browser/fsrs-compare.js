/*
 * The flashcard scheduler (the pure Scheduler block of
 * themes/default/assets/cards.js) against the reference implementation,
 * ts-fsrs (pinned in package.json and package-lock.json), over random
 * review histories. At every review both sides preview all four ratings;
 * state, learning step, interval, due time, stability and difficulty must
 * agree, then one rating is applied to both.
 *
 * Parameters, the same on both sides (and checked to be what cards.js
 * uses):
 *   FSRS version         FSRS-6 (ts-fsrs 5), its 21 default weights
 *   desired retention    0.9
 *   learning steps       1 min, 10 min;  relearning steps  10 min
 *   maximum interval     36500 days
 *   short-term (same-day) reviews on, fuzz off
 *
 * Review times are random: on the due time, early, late, the same day
 * and months later, so every branch of the algorithm is taken. The random
 * generator is seeded (QD_FSRS_SEED, default 1), so a failure repeats.
 * Prints `ok fsrs ...` or `not ok fsrs ...: what differed`. Run with
 * TZ=UTC (tests/run sets it): ts-fsrs counts days in UTC, cards.js in
 * local time.
 */
'use strict';

const path = require('node:path');

const HISTORIES = 400;
const PARAMS = {
	version: 'FSRS-6',
	retention: 0.9,
	learningSteps: [1, 10],
	relearningSteps: [10],
	maxInterval: 36500,
	shortTerm: true,
	fuzz: false
};

function say(line) {
	process.stdout.write(line + '\n');
}

/* mulberry32: a small seeded generator, so a failing history can be replayed. */
function random(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6D2B79F5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function main() {
	if (process.env.TZ !== 'UTC') {
		say('not ok fsrs setup: run with TZ=UTC (tests/run sets it)');
		return;
	}
	let ts;
	try {
		ts = require('ts-fsrs');
	} catch (e) {
		say('not ok fsrs setup: ts-fsrs is not installed in tests/browser/node_modules (make test-deps runs npm ci there)');
		return;
	}
	const { Scheduler } = require(path.join(__dirname, '..', '..', 'themes', 'default', 'assets', 'cards.js'));
	const mine = Scheduler.params;

	const stated = Object.keys(PARAMS).filter((k) => JSON.stringify(mine[k]) !== JSON.stringify(PARAMS[k]));
	if (stated.length) {
		say('not ok fsrs parameters: cards.js differs from this script in ' + stated.join(', ') +
			': ' + JSON.stringify(mine));
		return;
	}
	if (!/FSRS-6/.test(ts.FSRSVersion)) {
		say(`not ok fsrs parameters: ts-fsrs is ${ts.FSRSVersion}, not FSRS-6`);
		return;
	}
	if (JSON.stringify(mine.w) !== JSON.stringify(Array.from(ts.default_w))) {
		say('not ok fsrs parameters: cards.js weights are not FSRS-6 defaults: ' + JSON.stringify(mine.w));
		return;
	}
	say('ok fsrs parameters: FSRS-6 defaults, retention 0.9, steps 1m 10m / 10m, max 36500 days, no fuzz');

	const f = ts.fsrs(ts.generatorParameters({
		w: mine.w,
		request_retention: mine.retention,
		maximum_interval: mine.maxInterval,
		enable_fuzz: mine.fuzz,
		enable_short_term: mine.shortTerm,
		learning_steps: mine.learningSteps.map((m) => m + 'm'),
		relearning_steps: mine.relearningSteps.map((m) => m + 'm')
	}));
	const RATINGS = [ts.Rating.Again, ts.Rating.Hard, ts.Rating.Good, ts.Rating.Easy];

	const seed = Number(process.env.QD_FSRS_SEED || 1);
	const rnd = random(seed);
	const pick = (n) => Math.floor(rnd() * n);
	let reviews = 0;
	const seen = new Set();
	const failures = [];

	for (let h = 0; h < HISTORIES && failures.length < 5; h++) {
		let now = Date.UTC(2024, 0, 1) + pick(365 * 86400) * 1000;
		let ref = ts.createEmptyCard(new Date(now));
		let rec = null;
		const grades = [];
		const length = 3 + pick(25);
		for (let i = 0; i < length; i++) {
			const a = Scheduler.preview(rec, now);
			const b = f.repeat(ref, new Date(now));
			for (let g = 0; g < 4; g++) {
				const x = a[g], y = b[RATINGS[g]].card;
				const diff = [];
				if (x.state !== y.state) diff.push(`state ${x.state} vs ${y.state}`);
				if (x.step !== y.learning_steps) diff.push(`step ${x.step} vs ${y.learning_steps}`);
				if (x.ivl !== y.scheduled_days) diff.push(`interval ${x.ivl} vs ${y.scheduled_days} days`);
				if (x.due !== y.due.getTime()) diff.push(`due ${new Date(x.due).toISOString()} vs ${y.due.toISOString()}`);
				if (Math.abs(x.s - y.stability) > 1e-6 * Math.max(1, y.stability)) diff.push(`stability ${x.s} vs ${y.stability}`);
				if (Math.abs(x.d - y.difficulty) > 1e-6) diff.push(`difficulty ${x.d} vs ${y.difficulty}`);
				if (x.lapses !== y.lapses || x.reps !== y.reps) diff.push(`reps/lapses ${x.reps}/${x.lapses} vs ${y.reps}/${y.lapses}`);
				if (diff.length) {
					failures.push(`history ${h} (seed ${seed}) after [${grades.join(' ')}] at ${new Date(now).toISOString()}, ` +
						`rating ${g + 1}: ${diff.join('; ')}`);
					break;
				}
				seen.add(`${rec ? rec.state : 0}:${g + 1}`);
			}
			if (failures.length && failures[failures.length - 1].startsWith(`history ${h} `)) break;
			reviews++;
			/* Good and Easy more often than Again, as learners rate. */
			const g = [0, 1, 2, 2, 2, 3][pick(6)];
			grades.push(g + 1);
			rec = a[g];
			ref = b[RATINGS[g]].card;
			/* The next review: on time, early, late, or the same day. */
			const due = rec.due;
			const roll = pick(5);
			if (roll === 0) now = due;
			else if (roll === 1) now = Math.max(now + 60000, due - pick(Math.max(1, due - now)));
			else if (roll === 2) now = due + pick(3 * Math.max(due - now, 86400000));
			else if (roll === 3) now = now + pick(6 * 3600) * 1000;
			else now = due + pick(3600) * 1000;
		}
	}

	for (const line of failures) say('not ok fsrs ' + line);
	/* Every state (new, learning, review, relearning) met with every rating. */
	const missing = [];
	for (let s = 0; s < 4; s++) for (let g = 1; g <= 4; g++) if (!seen.has(`${s}:${g}`)) missing.push(`${s}:${g}`);
	if (missing.length) say('not ok fsrs coverage: the histories never rated state:rating ' + missing.join(', '));
	if (!failures.length)
		say(`ok fsrs ${HISTORIES} random histories, ${reviews} reviews: all four ratings agree with ts-fsrs ${ts.FSRSVersion.split(' ')[0]}`);
}

main();
