/*
 * cards.js: the flashcard viewer on a deck page (body.page-deck), with
 * spaced repetition.
 *
 * The page already lists every card, front and back (#all-cards); this
 * script builds one-card-at-a-time study in #viewer from clones of those
 * cards. The front (a heading; a reversed card's is blocks) is shown
 * first, and a cloze card's back shows p.card-answer, its text with the
 * answer marked, in place of the front. "Flip card" or a click or
 * tap on the card shows the back, and only then can the card be rated
 * Again, Hard, Good or Easy. Each rating button says when the card would
 * come back; "Undo last rating" takes the last one back. Previous and
 * Next (or a sideways swipe on a touch screen) move without rating.
 * Both faces are laid out in one cell, so a flip never moves the buttons.
 * Single-key shortcuts (Space, the arrows, 1 to 4, U) can be turned off
 * (WCAG 2.1.4); the setting is kept. A reset asks first. A deep link
 * #<card id> opens that card.
 *
 * Scheduling is FSRS-6 (the Free Spaced Repetition Scheduler, the open
 * algorithm Anki uses), written here from its published description, with
 * its default parameters, desired retention 0.9, learning steps 1 and 10
 * minutes, a relearning step of 10 minutes, a maximum interval of 36500
 * days and no fuzz. The Scheduler block below is pure (no DOM, no
 * storage); in Node it is exported as module.exports.Scheduler, and
 * tests/browser/fsrs-compare.js checks it against ts-fsrs.
 *
 * A session is "the cards due" (the rule is site.js's dueCards, which
 * the home page counts with too): review cards whose due day has come,
 * cards in their learning steps due within 20 minutes, and new cards up
 * to the daily limit (newCardsPerDay, 20 unless the learner changes it).
 * A card rated back into its learning steps goes to the end of the
 * session, so it comes back before the session ends, even a little
 * before it is due (as Anki's learn-ahead does). "Study all cards" is the
 * other session: the whole deck, in order or shuffled. The session (its
 * order, shuffled or not, and the position) is saved, so a reload the
 * same day takes it up where it was.
 *
 * Saved state (every access guarded; storage that is disabled, full or
 * corrupt is treated as empty). <site> is <body data-site>, "" when the
 * page has none, so two sites opened from file:// keep apart:
 *
 *   localStorage["quizdeck:v2:<site>:deck:<slug>"] =
 *     { v: 2, cards: { <card id>: { fp, state, step, s, d, due, last, ivl, reps, lapses } },
 *       day, newToday, session: { day, mode, shuffled, order: [ids], pos, flipped },
 *       undo: { id, before, newToday, session } | null }
 *   localStorage["quizdeck:v2:<site>:settings"] = { singleKeys, newCardsPerDay, ... }
 *
 * state is 0 new, 1 learning, 2 review, 3 relearning; s is stability in
 * days, d difficulty 1 to 10; due and last are times in ms; ivl is the
 * scheduled interval in days. A card counts only while fp equals its
 * data-fingerprint, so a card whose text changed starts afresh. The
 * settings object is shared with other pages' scripts: it is read,
 * merged and written back, never replaced.
 *
 * Version 1 (localStorage["quizdeck:v1:deck:<slug>"], Leitner boxes 1 to
 * 5 with the last answer) is carried over once, when the deck has no v2
 * state: a card in box b becomes a review card of stability 1, 3, 7, 14
 * or 30 days (the usual Leitner intervals), a card last marked "again"
 * stability 1 day; its difficulty is FSRS's initial difficulty for Good,
 * its last review is that many days ago and it is due today, so the first
 * session checks what was remembered and FSRS takes over from there. The
 * v1 key is removed once the v2 state is written.
 */
(function () {
	'use strict';

	/* Whether the page is written right to left (page.html's <html dir>). */
	function isRtl() {
		return document.documentElement.getAttribute('dir') === 'rtl';
	}

	/* ---- the scheduler: FSRS-6, a pure block (no DOM, no storage) ---- */

	var Scheduler = (function () {
		/* FSRS-6's published default parameters w0..w20 (w20 is the decay). */
		var W = [0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722,
			0.1666, 0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425,
			0.0912, 0.0658, 0.1542];
		var RETENTION = 0.9;           /* desired probability of recall at the due date */
		var MAX_INTERVAL = 36500;      /* days */
		var LEARNING_STEPS = [1, 10];  /* minutes, for a new card */
		var RELEARNING_STEPS = [10];   /* minutes, after a lapse */
		var S_MIN = 0.001, S_MAX = 36500;
		var NEW = 0, LEARNING = 1, REVIEW = 2, RELEARNING = 3;
		var AGAIN = 1, HARD = 2, GOOD = 3, EASY = 4;
		var MINUTE = 60000, DAY = 86400000;

		/* Values kept to 8 decimals so a state read back from storage
		 * schedules exactly as the one that was written. */
		function round8(x) { return Math.round(x * 1e8) / 1e8; }
		function clamp(x, lo, hi) { return Math.min(Math.max(x, lo), hi); }

		var DECAY = -W[20];
		/* Chosen so that recall is 90 % after t = S days, whatever the decay. */
		var FACTOR = round8(Math.pow(0.9, 1 / DECAY) - 1);
		var INTERVAL_SCALE = round8((Math.pow(RETENTION, 1 / DECAY) - 1) / FACTOR);

		/* The local calendar day of a time, as a day number: elapsed time
		 * counts in whole days as a learner sees them. */
		function dayNumber(ms) {
			var d = new Date(ms);
			return Math.round(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / DAY);
		}

		function retrievability(days, s) { return round8(Math.pow(1 + FACTOR * days / s, DECAY)); }
		function initialDifficulty(g) { return round8(W[4] - Math.exp((g - 1) * W[5]) + 1); }

		function nextDifficulty(d, g) {
			var damped = d + round8(-W[6] * (g - 3) * (10 - d) / 9);
			return clamp(round8(W[7] * initialDifficulty(EASY) + (1 - W[7]) * damped), 1, 10);
		}

		function stabilityAfterRecall(d, s, r, g) {
			var gain = Math.exp(W[8]) * (11 - d) * Math.pow(s, -W[9]) * (Math.exp((1 - r) * W[10]) - 1) *
				(g === HARD ? W[15] : 1) * (g === EASY ? W[16] : 1);
			return round8(clamp(s * (1 + gain), S_MIN, S_MAX));
		}

		/* After a lapse: never above what a same-day Again would leave. */
		function stabilityAfterLapse(d, s, r) {
			var forgot = round8(clamp(W[11] * Math.pow(d, -W[12]) * (Math.pow(s + 1, W[13]) - 1) *
				Math.exp((1 - r) * W[14]), S_MIN, S_MAX));
			return Math.min(Math.max(round8(s / Math.exp(W[17] * W[18])), S_MIN), forgot);
		}

		/* A second review on the same day (the short-term formula). */
		function stabilitySameDay(s, g) {
			var gain = Math.pow(s, -W[19]) * Math.exp(W[17] * (g - 3 + W[18]));
			if (g >= HARD) gain = Math.max(gain, 1);
			return round8(clamp(s * gain, S_MIN, S_MAX));
		}

		/* Difficulty and stability after grade g, t whole days after the last review. */
		function memory(rec, t, g) {
			if (!rec || rec.state === NEW)
				return { d: clamp(initialDifficulty(g), 1, 10), s: Math.max(W[g - 1], 0.1) };
			var s;
			if (t === 0) s = stabilitySameDay(rec.s, g);
			else if (g === AGAIN) s = stabilityAfterLapse(rec.d, rec.s, retrievability(t, rec.s));
			else s = stabilityAfterRecall(rec.d, rec.s, retrievability(t, rec.s), g);
			return { d: nextDifficulty(rec.d, g), s: s };
		}

		function interval(s) {
			return Math.min(Math.max(1, Math.round(s * INTERVAL_SCALE)), MAX_INTERVAL);
		}

		/* The next learning step for grade g as { minutes, step }, or null
		 * when the card leaves its steps (graduates to review). Steps are
		 * shorter than a day. */
		function learningStep(state, step, g) {
			var list = state === REVIEW || state === RELEARNING ? RELEARNING_STEPS : LEARNING_STEPS;
			if (!list.length || step >= list.length) return null;
			if (state === REVIEW) return g === AGAIN ? { minutes: list[Math.max(0, step)], step: 0 } : null;
			if (g === AGAIN) return { minutes: list[0], step: 0 };
			if (g === HARD)
				return { minutes: Math.round(list.length === 1 ? list[0] * 1.5 : (list[0] + list[1]) / 2), step: step };
			if (g === GOOD && step + 1 < list.length) return { minutes: list[step + 1], step: step + 1 };
			return null;
		}

		function inDays(next, now, days) {
			next.state = REVIEW;
			next.step = 0;
			next.ivl = days;
			next.due = now + days * DAY;
		}

		/*
		 * The four possible next states of a card reviewed at time now (ms),
		 * for Again, Hard, Good and Easy, in that order. rec is the card's
		 * state ({ state, step, s, d, due, last, ivl, reps, lapses }) or null
		 * for a new card; it is not changed. due and last are times in ms;
		 * ivl is the interval in days (0 while in learning steps).
		 */
		function preview(rec, now) {
			var state = rec ? rec.state : NEW;
			var step = rec ? rec.step : 0;
			var t = rec && state !== NEW && rec.last ? dayNumber(now) - dayNumber(rec.last) : 0;
			var out = [];
			for (var g = AGAIN; g <= EASY; g++) {
				var m = memory(rec, t, g);
				var next = { state: state, step: step, s: m.s, d: m.d, due: now, last: now, ivl: 0,
					reps: (rec ? rec.reps : 0) + 1, lapses: (rec ? rec.lapses : 0) + (state === REVIEW && g === AGAIN ? 1 : 0) };
				var ls = learningStep(state, step, g);
				if (ls) {
					next.state = state === NEW ? LEARNING : state === REVIEW ? RELEARNING : state;
					next.step = ls.step;
					next.due = now + ls.minutes * MINUTE;
				} else if (state !== REVIEW || g === AGAIN) {
					inDays(next, now, interval(m.s));
				}
				out.push(next);
			}
			if (state === REVIEW) {
				/* Harder grades never wait longer than easier ones. */
				var hard = interval(out[1].s), good = interval(out[2].s), easy = interval(out[3].s);
				hard = Math.min(hard, good);
				good = Math.max(good, hard + 1);
				easy = Math.max(easy, good + 1);
				inDays(out[1], now, hard);
				inDays(out[2], now, good);
				inDays(out[3], now, easy);
			}
			return out;
		}

		return {
			preview: preview,
			dayNumber: dayNumber,
			initialDifficulty: initialDifficulty,
			states: { NEW: NEW, LEARNING: LEARNING, REVIEW: REVIEW, RELEARNING: RELEARNING },
			params: {
				version: 'FSRS-6', w: W.slice(), retention: RETENTION, maxInterval: MAX_INTERVAL,
				learningSteps: LEARNING_STEPS.slice(), relearningSteps: RELEARNING_STEPS.slice(),
				shortTerm: true, fuzz: false
			}
		};
	}());

	if (typeof module === 'object' && module.exports) module.exports.Scheduler = Scheduler;
	if (typeof document === 'undefined') return;

	var I = window.quizdeckI18n;

	var S = Scheduler.states;
	var V1_PREFIX = 'quizdeck:v1:deck:';
	var LEITNER_DAYS = [1, 1, 3, 7, 14, 30];   /* by box; box 1 is index 1 */
	var NEW_CARDS_PER_DAY = 20;
	var SWIPE = 60;                 /* px a finger must travel sideways to turn a card */
	var GRADES = ['again', 'hard', 'good', 'easy'];   /* class names; the words are cards.<grade> */

	function el(tag, className, text) {
		var node = document.createElement(tag);
		if (className) node.className = className;
		if (text !== undefined && text !== null) node.textContent = text;
		return node;
	}

	function clear(node) {
		while (node.firstChild) node.removeChild(node.firstChild);
	}

	/* Deep clones of from's children, without ids (the list keeps those). */
	function cloneChildren(from, to) {
		if (!from) return to;
		for (var n = from.firstChild; n; n = n.nextSibling) {
			var c = n.cloneNode(true);
			if (c.nodeType === 1) {
				c.removeAttribute('id');
				var withIds = c.querySelectorAll('[id]');
				for (var i = 0; i < withIds.length; i++) withIds[i].removeAttribute('id');
			}
			to.appendChild(c);
		}
		return to;
	}

	function button(text, className, onClick) {
		var b = el('button', 'button' + (className ? ' ' + className : ''), text);
		b.type = 'button';
		b.addEventListener('click', onClick);
		return b;
	}

	function shuffle(list) {
		for (var i = list.length - 1; i > 0; i--) {
			var j = Math.floor(Math.random() * (i + 1));
			var t = list[i];
			list[i] = list[j];
			list[j] = t;
		}
		return list;
	}

	function reducedMotion() {
		return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
	}

	/* "in 10 min", "in 3 days", "in 2.5 months" for the time from now to due. */
	function waitText(rec, now) {
		if (rec.ivl === 0) {
			var min = Math.max(1, Math.round((rec.due - now) / 60000));
			return min < 60 ? I.plural('cards.in-minutes', min) : I.plural('cards.in-hours', Math.round(min / 60));
		}
		var days = rec.ivl;
		if (days < 31) return I.plural('cards.in-days', days);
		if (days < 365) return I.plural('cards.in-months', Math.round(days / 3.04375) / 10);
		return I.plural('cards.in-years', Math.round(days / 36.525) / 10);
	}

	/* The key hint: cards.keys with each {name} a key cap. */
	function keyHint(into) {
		var caps = { space: I.t('cards.key-space'), left: '\u2190', right: '\u2192', first: '1', last: '4', undo: 'U' };
		I.t('cards.keys').split(/(\{[a-z]+\})/).forEach(function (part) {
			var name = /^\{([a-z]+)\}$/.exec(part);
			if (name && caps[name[1]]) into.appendChild(el('kbd', null, caps[name[1]]));
			else if (part) into.appendChild(document.createTextNode(part));
		});
	}

	function today(now) {
		var d = new Date(now);
		return d.getFullYear() + '-' + ('0' + (d.getMonth() + 1)).slice(-2) + '-' + ('0' + d.getDate()).slice(-2);
	}

	/* ---- storage: every access guarded ---- */

	function readJSON(key) {
		try {
			var raw = window.localStorage.getItem(key);
			return raw ? JSON.parse(raw) : null;
		} catch (e) {
			return null;
		}
	}

	function writeJSON(key, value) {
		try {
			window.localStorage.setItem(key, JSON.stringify(value));
			return true;
		} catch (e) {
			return false;   /* full or disabled: the viewer goes on without remembering */
		}
	}

	function removeKey(key) {
		try {
			window.localStorage.removeItem(key);
		} catch (e) {
			/* nothing to do */
		}
	}

	function isNum(x) {
		return typeof x === 'number' && isFinite(x);
	}

	/* site.js's, so the home page's count of cards due and this viewer's session agree. */
	function validRecord(c) {
		return window.quizdeckCards.validRecord(c);
	}

	function emptyState() {
		return { v: 2, cards: {}, day: '', newToday: 0, session: null, undo: null };
	}

	function loadState(key) {
		var state = emptyState();
		var data = readJSON(key);
		if (!data || typeof data !== 'object' || data.v !== 2 || !data.cards || typeof data.cards !== 'object')
			return state;
		Object.keys(data.cards).forEach(function (id) {
			if (validRecord(data.cards[id])) state.cards[id] = data.cards[id];
		});
		if (typeof data.day === 'string' && isNum(data.newToday)) {
			state.day = data.day;
			state.newToday = data.newToday;
		}
		var ss = data.session;
		if (ss && typeof ss === 'object' && Array.isArray(ss.order) && isNum(ss.pos) &&
		    (ss.mode === 'due' || ss.mode === 'all'))
			state.session = ss;
		var u = data.undo;
		if (u && typeof u.id === 'string' && (u.before === null || validRecord(u.before)) && u.session)
			state.undo = u;
		return state;
	}

	/* Version 1's Leitner boxes as FSRS review cards (the header says why so). */
	function fromV1(key, cards, now) {
		var old = readJSON(key);
		if (!old || typeof old !== 'object' || !old.cards || typeof old.cards !== 'object') return null;
		var state = emptyState();
		var fps = {};
		cards.forEach(function (c) { fps[c.id] = c.fp; });
		Object.keys(old.cards).forEach(function (id) {
			var c = old.cards[id];
			if (!c || c.fp !== fps[id] || !isNum(c.box) || c.box < 1 || c.box > 5) return;
			var days = c.last === 'again' ? 1 : LEITNER_DAYS[Math.floor(c.box)];
			state.cards[id] = { fp: c.fp, state: S.REVIEW, step: 0, s: days, d: Scheduler.initialDifficulty(3),
				due: now, last: now - days * 86400000, ivl: days, reps: 1, lapses: c.last === 'again' ? 1 : 0 };
		});
		return state;
	}

	/* ---- the deck, read from the page ---- */

	function readDeck(root) {
		var cards = [];
		var items = root.querySelectorAll('li.card');
		for (var i = 0; i < items.length; i++) {
			var li = items[i];
			cards.push({
				id: li.getAttribute('data-id') || li.id,
				number: parseInt(li.getAttribute('data-number'), 10) || i + 1,
				label: li.getAttribute('data-label') || '',
				fp: li.getAttribute('data-fingerprint') || '',
				front: li.querySelector('.card-front'),
				answer: li.querySelector('.card-answer'),
				back: li.querySelector('.card-back')
			});
		}
		return cards;
	}

	function Viewer(root, cards) {
		var self = this;
		var site = document.body.getAttribute('data-site') || '';
		var slug = root.getAttribute('data-deck') || 'deck';
		this.root = root;
		this.cards = cards;
		this.byId = {};
		cards.forEach(function (c, i) { self.byId[c.id] = i; });
		this.key = 'quizdeck:v2:' + site + ':deck:' + slug;
		this.settingsKey = 'quizdeck:v2:' + site + ':settings';
		this.state = loadState(this.key);
		if (!readJSON(this.key)) {
			var carried = fromV1(V1_PREFIX + slug, cards, Date.now());
			if (carried) {
				this.state = carried;
				if (writeJSON(this.key, carried)) removeKey(V1_PREFIX + slug);
			}
		}
		this.settings = this.loadSettings();
		this.back = false;
		this.ended = false;
		this.confirming = false;
		this.build();
		if (!this.resumeSession()) this.startSession('due', this.state.session ? !!this.state.session.shuffled : false);
		this.openFromHash(false);
		this.render(false);
		root.hidden = false;

		document.addEventListener('keydown', function (e) { self.onKey(e); });
		window.addEventListener('hashchange', function () { self.openFromHash(true); });
	}

	Viewer.prototype.loadSettings = function () {
		var s = readJSON(this.settingsKey);
		var out = { singleKeys: true, newCardsPerDay: NEW_CARDS_PER_DAY };
		if (s && typeof s === 'object') {
			if (typeof s.singleKeys === 'boolean') out.singleKeys = s.singleKeys;
			if (isNum(s.newCardsPerDay) && s.newCardsPerDay >= 0) out.newCardsPerDay = Math.floor(s.newCardsPerDay);
		}
		return out;
	};

	Viewer.prototype.saveSettings = function () {
		var s = readJSON(this.settingsKey);
		if (!s || typeof s !== 'object' || Array.isArray(s)) s = {};
		s.singleKeys = this.settings.singleKeys;
		s.newCardsPerDay = this.settings.newCardsPerDay;
		writeJSON(this.settingsKey, s);
	};

	Viewer.prototype.save = function () {
		this.state.session.flipped = this.back;
		writeJSON(this.key, this.state);
	};

	/* A card's saved record, or null when it is new or its text changed. */
	Viewer.prototype.record = function (card) {
		var r = this.state.cards[card.id];
		return r && r.fp === card.fp ? r : null;
	};

	/* The count of new cards introduced today, reset when the day changes. */
	Viewer.prototype.newToday = function (now) {
		if (this.state.day !== today(now)) {
			this.state.day = today(now);
			this.state.newToday = 0;
		}
		return this.state.newToday;
	};

	/* The ids due now, by site.js's rule (dueCards): due cards, earliest first, then new cards up to the day's limit. */
	Viewer.prototype.dueOrder = function (now) {
		this.newToday(now);
		return window.quizdeckCards.dueCards(this.state, this.cards, this.settings.newCardsPerDay, now);
	};

	Viewer.prototype.dueCount = function (now) {
		return this.dueOrder(now).length;
	};

	Viewer.prototype.startSession = function (mode, shuffled) {
		var now = Date.now();
		var order = mode === 'due' ? this.dueOrder(now) : this.cards.map(function (c) { return c.id; });
		if (shuffled) shuffle(order);
		this.state.session = { day: today(now), mode: mode, shuffled: shuffled, order: order, pos: 0, flipped: false };
		this.back = false;
		this.ended = order.length === 0;
		this.save();
	};

	/* Takes up a saved session of today where it was left, when its cards are all still here. */
	Viewer.prototype.resumeSession = function () {
		var ss = this.state.session, self = this;
		if (!ss || ss.day !== today(Date.now())) return false;
		if (!ss.order.every(function (id) { return typeof id === 'string' && self.byId[id] !== undefined; })) return false;
		if (ss.mode === 'all' && ss.order.length !== this.cards.length) return false;
		ss.pos = Math.max(0, Math.min(Math.floor(ss.pos), ss.order.length));
		this.ended = ss.pos >= ss.order.length;
		this.back = !this.ended && ss.flipped === true;
		return true;
	};

	Viewer.prototype.current = function () {
		var ss = this.state.session;
		return this.cards[this.byId[ss.order[ss.pos]]];
	};

	/* Builds the viewer's fixed parts once; render() fills them. */
	Viewer.prototype.build = function () {
		var self = this, root = this.root;
		clear(root);

		var top = el('div', 'viewer-top');
		this.position = el('p', 'viewer-position');
		this.passNote = el('p', 'viewer-pass');
		this.dueNote = el('p', 'viewer-due');
		top.appendChild(this.position);
		top.appendChild(this.passNote);
		top.appendChild(this.dueNote);
		root.appendChild(top);

		this.stage = el('div', 'viewer-stage');
		this.card = el('div', 'flashcard');
		this.card.tabIndex = -1;
		this.card.addEventListener('click', function (e) {
			if (e.target.closest('a, button') || self.ended) return;
			self.flip();
		});
		this.watchSwipe();
		this.stage.appendChild(this.card);
		this.end = el('div', 'viewer-end');
		this.end.hidden = true;
		this.end.tabIndex = -1;
		this.stage.appendChild(this.end);
		this.confirmBox = el('div', 'viewer-confirm');
		this.confirmBox.setAttribute('role', 'alertdialog');
		this.confirmBox.setAttribute('aria-labelledby', 'viewer-confirm-text');
		this.confirmBox.hidden = true;
		var question = el('p', null, I.t('cards.reset-question'));
		question.id = 'viewer-confirm-text';
		this.confirmBox.appendChild(question);
		var answers = el('div', 'viewer-end-actions');
		answers.appendChild(button(I.t('cards.reset-yes'), 'viewer-confirm-yes', function () { self.reset(); }));
		this.cancelButton = button(I.t('cards.reset-no'), 'primary viewer-confirm-no', function () { self.askReset(false); });
		answers.appendChild(this.cancelButton);
		this.confirmBox.appendChild(answers);
		this.stage.appendChild(this.confirmBox);
		root.appendChild(this.stage);

		var move = el('div', 'viewer-move');
		this.prevButton = button(I.t('cards.prev'), 'viewer-prev', function (e) { self.move(-1, e); });
		this.flipButton = button(I.t('cards.flip'), 'primary viewer-flip', function (e) { self.flip(e); });
		this.nextButton = button(I.t('cards.next'), 'viewer-next', function (e) { self.move(1, e); });
		move.appendChild(this.prevButton);
		move.appendChild(this.flipButton);
		move.appendChild(this.nextButton);
		root.appendChild(move);

		var rate = el('div', 'viewer-rate');
		rate.setAttribute('role', 'group');
		rate.setAttribute('aria-label', I.t('cards.rate-label'));
		this.rateButtons = GRADES.map(function (word, i) {
			var b = button('', 'viewer-grade viewer-grade-' + word, function (e) { self.rate(i + 1, e); });
			b.appendChild(el('span', 'grade-word', I.t('cards.' + word)));
			b.appendChild(document.createTextNode(' '));
			b.appendChild(el('span', 'grade-next', ''));
			var badge = el('kbd', 'key-badge', I.num(i + 1));
			badge.setAttribute('aria-hidden', 'true');
			b.appendChild(badge);
			rate.appendChild(b);
			return b;
		});
		root.appendChild(rate);

		var progress = el('div', 'viewer-progress');
		this.progressText = el('span', 'viewer-progress-text');
		this.progressText.id = 'viewer-progress-text';
		this.progress = el('progress', 'viewer-progress-bar');
		this.progress.max = this.cards.length;
		this.progress.setAttribute('aria-label', I.t('cards.learned-label'));
		this.progress.setAttribute('aria-describedby', 'viewer-progress-text');
		progress.appendChild(this.progress);
		progress.appendChild(this.progressText);
		root.appendChild(progress);

		var tools = el('div', 'viewer-tools');
		this.undoButton = button(I.t('cards.undo'), 'quiet viewer-undo', function () { self.undo(); });
		this.shuffleButton = button(I.t('cards.shuffle'), 'quiet viewer-shuffle', function () { self.toggleShuffle(); });
		this.shuffleButton.setAttribute('aria-pressed', 'false');
		this.modeButton = button(I.t('cards.study-all'), 'quiet viewer-mode', function () {
			self.switchMode(self.state.session.mode === 'due' ? 'all' : 'due');
		});
		this.resetButton = button(I.t('cards.reset'), 'quiet viewer-reset', function () { self.askReset(true); });
		tools.appendChild(this.undoButton);
		tools.appendChild(this.shuffleButton);
		tools.appendChild(this.modeButton);
		tools.appendChild(this.resetButton);
		root.appendChild(tools);

		var settings = el('div', 'viewer-settings');
		var keysLabel = el('label', 'viewer-setting');
		this.keysBox = el('input');
		this.keysBox.type = 'checkbox';
		this.keysBox.addEventListener('change', function () {
			self.settings.singleKeys = self.keysBox.checked;
			self.saveSettings();
			self.render(false);
			self.announce(I.t(self.settings.singleKeys ? 'cards.single-keys-on' : 'cards.single-keys-off'));
		});
		keysLabel.appendChild(this.keysBox);
		keysLabel.appendChild(document.createTextNode(' ' + I.t('cards.single-keys')));
		settings.appendChild(keysLabel);
		var newLabel = el('label', 'viewer-setting');
		newLabel.appendChild(document.createTextNode(I.t('cards.new-per-day') + ' '));
		this.newBox = el('input', 'viewer-new-limit');
		this.newBox.type = 'number';
		this.newBox.min = '0';
		this.newBox.max = '9999';
		this.newBox.addEventListener('change', function () {
			var n = parseInt(self.newBox.value, 10);
			if (!(n >= 0)) n = NEW_CARDS_PER_DAY;
			self.settings.newCardsPerDay = Math.min(n, 9999);
			self.saveSettings();
			if (self.state.session.mode === 'due') self.startSession('due', self.state.session.shuffled);
			self.render(false);
		});
		newLabel.appendChild(this.newBox);
		settings.appendChild(newLabel);
		root.appendChild(settings);

		this.keys = el('p', 'viewer-keys');
		keyHint(this.keys);
		root.appendChild(this.keys);

		this.status = el('p', 'visually-hidden');
		this.status.setAttribute('role', 'status');
		this.status.setAttribute('aria-live', 'polite');
		root.appendChild(this.status);
	};

	/*
	 * A sideways swipe on a touch screen moves to the next or previous card.
	 * Watched on the stage, not the card: while a flip turns the card, it
	 * is narrower than its box, and a swipe begun near its edge would miss it.
	 */
	Viewer.prototype.watchSwipe = function () {
		var self = this, start = null;
		this.stage.addEventListener('pointerdown', function (e) {
			start = e.pointerType === 'touch' && !self.card.hidden ? { x: e.clientX, y: e.clientY } : null;
		});
		this.stage.addEventListener('pointercancel', function () { start = null; });
		this.stage.addEventListener('pointerup', function (e) {
			if (!start || self.card.hidden) return;
			var dx = e.clientX - start.x, dy = e.clientY - start.y;
			start = null;
			if (Math.abs(dx) < SWIPE || Math.abs(dx) < 2 * Math.abs(dy)) return;
			/* Browsers send no click after a finger moved this far, so the card does not also flip.
			 * Right to left, the next card lies to the left: a swipe to the right brings it. */
			self.move((dx < 0) !== isRtl() ? 1 : -1);
		});
	};

	Viewer.prototype.announce = function (text) {
		var status = this.status;
		status.textContent = '';
		window.setTimeout(function () { status.textContent = text; }, 50);
	};

	/* Shows the current card, front or back, and brings every control up to date. */
	Viewer.prototype.render = function (turning) {
		var self = this;
		var now = Date.now();
		var ss = this.state.session;
		var n = ss.order.length;
		var due = this.dueCount(now);
		var learned = this.cards.filter(function (c) {
			var r = self.record(c);
			return r && r.state === S.REVIEW;
		}).length;

		this.position.textContent = this.ended ? I.t(ss.mode === 'due' ? 'cards.done' : 'cards.end-of-deck') :
			I.t('cards.card-of', { n: I.num(ss.pos + 1), total: I.num(n) });
		this.passNote.textContent = I.t('cards.pass-' + (ss.mode === 'due' ? 'due' : 'all') +
			(ss.shuffled ? '-shuffled' : '-ordered'));
		this.dueNote.textContent = due ? I.plural('cards.due', due) : I.t('cards.none-due');

		this.card.hidden = this.ended || this.confirming;
		this.end.hidden = !this.ended || this.confirming;
		this.confirmBox.hidden = !this.confirming;
		if (!this.ended) this.renderCard(this.current(), turning, now);
		else this.renderEnd(now);

		var idle = this.ended || this.confirming;
		this.prevButton.disabled = this.confirming || (ss.pos === 0 && !this.ended) || n === 0;
		this.nextButton.disabled = idle;
		this.flipButton.disabled = idle;
		var choices = idle ? null : Scheduler.preview(this.record(this.current()), now);
		this.rateButtons.forEach(function (b, i) {
			b.disabled = idle || !self.back;
			/* A no-break space when idle keeps the buttons' height, so nothing below moves. */
			b.querySelector('.grade-next').textContent = choices ? waitText(choices[i], now) : '\u00a0';
		});

		this.progress.value = learned;
		this.progressText.textContent = I.t('cards.learned', { n: I.num(learned), total: I.num(this.cards.length) });

		this.undoButton.disabled = !this.state.undo || this.confirming;
		this.shuffleButton.setAttribute('aria-pressed', ss.shuffled ? 'true' : 'false');
		this.shuffleButton.disabled = this.confirming;
		this.modeButton.textContent = ss.mode === 'due' ? I.t('cards.study-all') : I.t('cards.study-due-count', { n: I.num(due) });
		this.modeButton.disabled = this.confirming;
		this.resetButton.disabled = this.confirming;
		this.keysBox.checked = this.settings.singleKeys;
		this.newBox.value = String(this.settings.newCardsPerDay);
		this.keys.hidden = !this.settings.singleKeys;
		this.root.classList.toggle('no-single-keys', !this.settings.singleKeys);
	};

	function describe(rec, now) {
		if (!rec) return I.t('cards.new-card');
		if (rec.state !== S.REVIEW) return I.t(rec.state === S.LEARNING ? 'cards.learning' : 'cards.relearning');
		var days = Scheduler.dayNumber(rec.due) - Scheduler.dayNumber(now);
		return days <= 0 ? I.t('cards.review-today') : I.plural('cards.review-in-days', days);
	}

	Viewer.prototype.renderCard = function (card, turning, now) {
		var face = this.card;
		clear(face);
		face.classList.toggle('is-back', this.back);
		face.setAttribute('data-id', card.id);

		var label = el('p', 'flashcard-label');
		label.appendChild(el('span', 'flashcard-number', I.num(card.number) + '.'));
		label.appendChild(document.createTextNode(' ' + card.label));
		label.appendChild(el('span', 'flashcard-side', I.t(this.back ? 'cards.back' : 'cards.front')));
		face.appendChild(label);

		/* Both faces share one grid cell, so the card is as tall as the
		 * taller one and nothing below it moves on a flip. */
		var faces = el('div', 'flashcard-faces');
		var front = el('div', 'flashcard-face face-front');
		/* A reversed card's front is blocks (its back's), not a heading. */
		var blocks = card.front && card.front.tagName !== 'H3';
		var ask = el(blocks ? 'div' : 'h2', blocks ? 'flashcard-front is-blocks' : 'flashcard-front');
		/* One box for the heading's text: the centring flex box would make each
		 * inline element (a cloze blank, emphasis, code) an item of its own. */
		if (blocks) cloneChildren(card.front, ask);
		else ask.appendChild(cloneChildren(card.front, el('span')));
		front.appendChild(ask);
		var hint = el('p', 'flashcard-hint');
		hint.appendChild(el('span', 'hint-pointer', I.t('cards.hint-click')));
		hint.appendChild(el('span', 'hint-touch', I.t('cards.hint-tap')));
		front.appendChild(hint);
		var back = el('div', 'flashcard-face face-back');
		/* A cloze card's back shows its text with the answer marked, where the front had the blank. */
		if (card.answer) back.appendChild(cloneChildren(card.answer, el('p', 'flashcard-question is-cloze')));
		else back.appendChild(cloneChildren(card.front, el(blocks ? 'div' : 'p', 'flashcard-question')));
		back.appendChild(cloneChildren(card.back, el('div', 'flashcard-back')));
		(this.back ? front : back).setAttribute('aria-hidden', 'true');
		faces.appendChild(front);
		faces.appendChild(back);
		face.appendChild(faces);

		face.appendChild(el('p', 'flashcard-box', describe(this.record(card), now)));

		if (turning && !reducedMotion()) {
			face.classList.remove('is-turning');
			void face.offsetWidth;   /* restart the animation */
			face.classList.add('is-turning');
		}
	};

	Viewer.prototype.renderEnd = function (now) {
		var self = this, box = this.end, ss = this.state.session;
		clear(box);
		var due = this.dueCount(now);
		if (ss.mode === 'due') {
			box.appendChild(el('h2', 'viewer-end-title', I.t(due ? 'cards.end-more-due' : 'cards.end-none-due')));
		} else {
			box.appendChild(el('h2', 'viewer-end-title', I.t('cards.end-all')));
		}
		box.appendChild(el('p', null, due ? I.plural('cards.due-now', due) : this.nextDueText(now)));
		var actions = el('div', 'viewer-end-actions');
		if (due) actions.appendChild(button(I.plural('cards.study-due', due), 'primary', function () {
			self.switchMode('due');
		}));
		actions.appendChild(button(I.t(ss.mode === 'all' ? 'cards.study-all-again' : 'cards.study-all'), due ? '' : 'primary', function () {
			self.switchMode('all');
		}));
		box.appendChild(actions);
	};

	Viewer.prototype.nextDueText = function (now) {
		var self = this, first = null;
		this.cards.forEach(function (c) {
			var r = self.record(c);
			if (r && (first === null || r.due < first.due)) first = r;
		});
		if (!first) return I.t('cards.no-cards-due');
		if (first.state !== S.REVIEW) return I.t('cards.next-due', { when: waitText({ ivl: 0, due: first.due }, now) });
		var days = Scheduler.dayNumber(first.due) - Scheduler.dayNumber(now);
		return days <= 1 ? I.t('cards.next-due-tomorrow') : I.t('cards.next-due', { when: I.plural('cards.in-days', days) });
	};

	/* After a click with the pointer, focus goes to the card so Space flips
	 * it next; from the keyboard, focus stays on the button pressed. */
	Viewer.prototype.settleFocus = function (e) {
		if (e && e.detail > 0) {
			if (this.ended) this.end.focus();
			else this.card.focus();
		}
	};

	Viewer.prototype.flip = function (e) {
		if (this.ended || this.confirming) return;
		this.back = !this.back;
		this.save();
		this.render(true);
		this.settleFocus(e);
		var card = this.current();
		this.announce(this.back ? I.t('cards.said-back', { text: (card.answer ? card.answer.textContent.trim() + ' ' : '') +
			(card.back ? card.back.textContent.trim() : '') }) :
			I.t('cards.said-front', { text: card.front ? card.front.textContent.trim() : '' }));
	};

	Viewer.prototype.show = function (pos, e) {
		var ss = this.state.session;
		this.ended = ss.order.length === 0;
		ss.pos = Math.max(0, Math.min(pos, ss.order.length - 1));
		this.back = false;
		this.save();
		this.render(false);
		this.settleFocus(e);
		if (this.ended) return;
		var card = this.current();
		this.announce(I.t('cards.said-card', { n: I.num(ss.pos + 1), total: I.num(ss.order.length),
			text: card.front ? card.front.textContent.trim() : '' }));
	};

	Viewer.prototype.move = function (step, e) {
		var ss = this.state.session;
		if (this.confirming) return;
		if (this.ended) {
			if (step < 0 && ss.order.length) this.show(ss.order.length - 1, e);
			return;
		}
		var pos = ss.pos + step;
		if (pos < 0) return;
		if (pos >= ss.order.length) {
			this.finish(e);
			return;
		}
		this.show(pos, e);
	};

	Viewer.prototype.finish = function (e) {
		this.state.session.pos = this.state.session.order.length;
		this.ended = true;
		this.back = false;
		this.save();
		this.render(false);
		if (e && e.detail === 0) this.end.focus();
		else this.settleFocus(e);
		this.announce(I.t(this.state.session.mode === 'due' ? 'cards.said-none-due' : 'cards.said-end'));
	};

	/* Rates the card shown, once its back has been seen, and moves on. */
	Viewer.prototype.rate = function (grade, e) {
		if (this.ended || this.confirming || !this.back) return;
		var now = Date.now();
		var ss = this.state.session;
		var card = this.current();
		var before = this.record(card);
		this.state.undo = { id: card.id, before: before, newToday: this.newToday(now),
			session: { day: ss.day, mode: ss.mode, shuffled: ss.shuffled, order: ss.order.slice(), pos: ss.pos, flipped: true } };
		var next = Scheduler.preview(before, now)[grade - 1];
		next.fp = card.fp;
		this.state.cards[card.id] = next;
		if (!before) this.state.newToday++;
		/* A card back in its learning steps comes again before the session ends. */
		if (ss.mode === 'due' && next.state !== S.REVIEW) ss.order.push(card.id);
		this.announce(I.t('cards.said-rated', { grade: I.t('cards.' + GRADES[grade - 1]), when: waitText(next, now) }));
		this.move(1, e);
	};

	Viewer.prototype.undo = function () {
		var u = this.state.undo;
		if (!u || this.confirming) return;
		if (u.before) this.state.cards[u.id] = u.before;
		else delete this.state.cards[u.id];
		this.state.newToday = u.newToday;
		this.state.session = u.session;
		this.state.undo = null;
		if (!this.resumeSession()) this.startSession('due', false);
		this.back = true;
		this.ended = false;
		this.save();
		this.render(false);
		this.card.focus();
		this.announce(I.t('cards.said-undone', { n: I.num(this.state.session.pos + 1) }));
	};

	Viewer.prototype.switchMode = function (mode) {
		this.startSession(mode, this.state.session.shuffled);
		this.show(0);
		if (this.ended) this.end.focus();
		else this.card.focus();
	};

	Viewer.prototype.toggleShuffle = function () {
		var ss = this.state.session;
		var keep = this.ended ? null : this.current().id;
		var done = ss.order.slice(0, ss.pos);
		var rest = ss.order.slice(ss.pos);
		ss.shuffled = !ss.shuffled;
		if (ss.shuffled) {
			ss.order = done.concat(shuffle(rest));
		} else {
			var self = this;
			var rank = ss.mode === 'due' ? this.dueOrder(Date.now()) : this.cards.map(function (c) { return c.id; });
			rest.sort(function (a, b) {
				var ra = rank.indexOf(a), rb = rank.indexOf(b);
				return (ra < 0 ? 1e9 : ra) - (rb < 0 ? 1e9 : rb) || self.byId[a] - self.byId[b];
			});
			ss.order = done.concat(rest);
			if (ss.mode === 'all') {
				ss.order = this.cards.map(function (c) { return c.id; });
				ss.pos = keep ? ss.order.indexOf(keep) : 0;
			}
		}
		if (!this.ended) this.show(ss.pos);
		else this.render(false);
		this.announce(I.t(ss.shuffled ? 'cards.said-shuffled' : 'cards.said-ordered'));
	};

	Viewer.prototype.askReset = function (ask) {
		this.confirming = ask;
		this.render(false);
		if (ask) this.cancelButton.focus();
		else this.resetButton.focus();
	};

	Viewer.prototype.reset = function () {
		this.confirming = false;
		this.state = emptyState();
		removeKey(this.key);
		this.startSession('due', false);
		this.show(0);
		this.resetButton.focus();
		this.announce(I.t('cards.said-reset'));
	};

	/* #<card id> opens that card in the whole deck, in order. */
	Viewer.prototype.openFromHash = function (live) {
		var id;
		try {
			id = decodeURIComponent(window.location.hash.slice(1));
		} catch (e) {
			return;
		}
		if (!id || this.byId[id] === undefined) return;
		this.confirming = false;
		this.startSession('all', false);
		this.state.session.pos = this.byId[id];
		this.save();
		if (live) this.render(false);
		var self = this;
		/* The browser scrolls to the card in the list; bring the viewer up instead. */
		var bring = function () {
			self.root.scrollIntoView({ block: 'start' });
			self.card.focus({ preventScroll: true });
		};
		if (document.readyState === 'complete') bring();
		else window.addEventListener('load', bring);
	};

	Viewer.prototype.onKey = function (e) {
		if (!this.settings.singleKeys || this.root.hidden || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
		var t = e.target;
		var inViewer = t === document.body || t === document.documentElement || this.root.contains(t);
		if (!inViewer) return;
		var tag = t.tagName;
		if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
		var onControl = tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY';
		var grade = '1234'.indexOf(e.key) + 1;
		if (e.key === ' ' || e.key === 'Spacebar') {
			if (onControl) return;
			e.preventDefault();
			this.flip();
		} else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
			/* Next lies the way the page reads: to the right, or to the left in a right-to-left page. */
			e.preventDefault();
			this.move((e.key === 'ArrowRight') !== isRtl() ? 1 : -1);
		} else if (grade > 0) {
			e.preventDefault();
			this.rate(grade);
		} else if (e.key === 'u' || e.key === 'U') {
			e.preventDefault();
			this.undo();
		}
	};

	function init() {
		var root = document.getElementById('viewer');
		var list = document.getElementById('all-cards');
		if (!root || !list) return;
		var cards = readDeck(list);
		if (!cards.length) {
			root.parentNode.removeChild(root);   /* gives back the space the page reserved */
			return;
		}
		new Viewer(root, cards);
	}

	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
	else init();
}());
