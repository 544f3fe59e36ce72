/*
 * quiz.js: the practice test on a test page (body.page-test).
 *
 * The page already shows every question, answered (#questions); this
 * script un-hides the set-up form (#setup) and runs a test in #runner:
 * one question at a time, then the results. Everything it shows is cloned
 * from the question bank's DOM or set with textContent; it never builds
 * HTML from strings.
 *
 * The set-up lives in the URL query (?topic=&mix=&count=&reveal=), so a
 * set-up can be shared and reloaded. Each question of a test is a step of
 * the browser's history (history.state { quiz: "question", index }), so
 * Back and Forward move between questions, and a reload or a return from
 * the guide lands on the question left.
 *
 * Saved state, localStorage["quizdeck:v2:<site>:test:<slug>"], <site>
 * the body's data-site (the pages of every site opened from disk share
 * one storage area):
 *   { attempts: [{ at, topic, mix, count, reveal, retry, score, total,
 *                  left?, answered? }],
 *     seen: { <question id>: { fp, right } },
 *     mastery?: [{ topic, title, right, seen, total }],
 *     current?: { at, setup, retry, index,
 *                 items: [{ id, fp, order, chosen, checked, flagged }] } }
 * attempts are oldest first; one with left: true was left unfinished,
 * score counting its answered questions. seen holds each question's last
 * result and counts only while fp equals the question's
 * data-fingerprint, so a question whose text changed starts afresh; an
 * unanswered question of a finished test is not written there. mastery
 * is per topic, of the questions a test on it draws: how many were last
 * answered right and how many answered at all, written at each finish
 * for the home page's dashboard (site.js).
 * current is the test in progress, saved at every step; its questions
 * that are gone or changed are dropped when it resumes. Progress saved
 * under v1's key ("quizdeck:v1:test:<slug>") moves to v2's once.
 *
 * A link followed from a question in progress leaves, for this tab,
 * sessionStorage["quizdeck:v2:<site>:return"] = { url, slug, question,
 * total, title }: site.js offers "Back to question N" on the guide page,
 * its link the test's URL with #resume, which goes on with the test. It
 * is removed when the test ends or is left. Storage
 * that is disabled, full or corrupt is treated as empty: the test still
 * runs.
 *
 * The keys 1 to 9 pick an option unless the learner turned single-key
 * shortcuts off (WCAG 2.1.4): { singleKeys: false } in
 * localStorage["quizdeck:v2:<site>:settings"], shared with cards.js and
 * search.js, and set by the switch under the set-up form. The tab's
 * <title> says where the test is ("Question 4 of 10 · ...", "Result: ...").
 *
 * Every word it shows is a string of the site's language (i18n/en.toml's
 * quiz.*, read through window.quizdeckI18n, i18n.js), and every number,
 * share and date is written by it; only the author's content is as written.
 */
(function () {
	'use strict';

	var STORE_V1 = 'quizdeck:v1:test:';
	var MAX_ATTEMPTS = 50;        /* kept in storage */
	var SHOWN_ATTEMPTS = 8;       /* listed on the set-up screen */
	var LEVELS = ['easy', 'medium', 'hard'];

	/* Target shares of each difficulty; "steady" follows the pool. The
	 * order breaks ties and receives what a short difficulty cannot take. */
	var MIXES = {
		'warming-up': { share: { easy: 0.6, medium: 0.3, hard: 0.1 }, order: ['easy', 'medium', 'hard'] },
		'steady': { share: null, order: ['easy', 'medium', 'hard'] },
		'confident': { share: { easy: 0.1, medium: 0.3, hard: 0.6 }, order: ['hard', 'medium', 'easy'] }
	};
	var I;                        /* window.quizdeckI18n, the strings (init) */

	/* ---- small helpers ---- */

	function el(tag, className, text) {
		var node = document.createElement(tag);
		if (className) node.className = className;
		if (text !== undefined && text !== null) node.textContent = text;
		return node;
	}

	function clear(node) {
		while (node.firstChild) node.removeChild(node.firstChild);
	}

	/* Appends deep clones of from's children to to; ids are dropped so the
	 * page never holds two elements with one id. */
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

	/* An option's or stem's content as inline nodes when it is a single
	 * paragraph (so it can sit inside a label), else as blocks. */
	function cloneInline(from, to) {
		if (!from) return to;
		var only = from.children.length === 1 && from.children[0].tagName === 'P' &&
			from.textContent.trim() === from.children[0].textContent.trim();
		return cloneChildren(only ? from.children[0] : from, to);
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

	function percent(part, whole) {
		return whole ? Math.round(100 * part / whole) : 0;
	}

	/* The share as the language writes it ("67%", "67 %"), rounded as the bars are. */
	function percentText(part, whole) {
		return I.num(percent(part, whole) / 100, { style: 'percent' });
	}

	function levelName(level) {
		return I.t('quiz.level-' + level);
	}

	/*
	 * Appends string s to node, each {name} in it filled from parts: text,
	 * or a node put in as it is (an option's own text, a styled number),
	 * so that a sentence keeps its language's word order around them.
	 */
	function fillNodes(node, s, parts) {
		var re = /\{([a-z0-9_-]+)\}/g, at = 0, m;
		while ((m = re.exec(s)) !== null) {
			if (m.index > at) node.appendChild(document.createTextNode(s.slice(at, m.index)));
			var v = parts[m[1]];
			node.appendChild(v === undefined || v === null ? document.createTextNode(m[0]) :
				typeof v === 'object' ? v : document.createTextNode(String(v)));
			at = re.lastIndex;
		}
		if (at < s.length) node.appendChild(document.createTextNode(s.slice(at)));
		return node;
	}

	/* "The right answer: " and the like: the words bold, then a space. */
	function lead(to, key) {
		to.appendChild(el('strong', null, I.t(key)));
		to.appendChild(document.createTextNode(' '));
		return to;
	}

	function icon(mark) {
		var s = el('span', 'icon', mark);
		s.setAttribute('aria-hidden', 'true');
		return s;
	}

	/* ---- storage: every access guarded ---- */

	function loadState(key) {
		var empty = { attempts: [], seen: {}, current: null };
		var raw;
		try {
			raw = window.localStorage.getItem(key);
		} catch (e) {
			return empty;
		}
		if (!raw) return empty;
		var data;
		try {
			data = JSON.parse(raw);
		} catch (e) {
			return empty;
		}
		if (!data || typeof data !== 'object') return empty;
		var state = { attempts: [], seen: {}, current: null };
		if (Array.isArray(data.attempts)) {
			data.attempts.forEach(function (a) {
				if (a && typeof a.at === 'string' && typeof a.score === 'number' &&
				    typeof a.total === 'number' && a.total > 0 && a.score >= 0 && a.score <= a.total)
					state.attempts.push(a);
			});
		}
		if (data.seen && typeof data.seen === 'object' && !Array.isArray(data.seen)) {
			Object.keys(data.seen).forEach(function (id) {
				var s = data.seen[id];
				if (s && typeof s.fp === 'string' && typeof s.right === 'boolean')
					state.seen[id] = { fp: s.fp, right: s.right };
			});
		}
		if (data.current && typeof data.current === 'object' && Array.isArray(data.current.items))
			state.current = data.current;
		if (Array.isArray(data.mastery)) state.mastery = data.mastery;
		return state;
	}

	function saveState(key, state) {
		try {
			window.localStorage.setItem(key, JSON.stringify(state));
			return true;
		} catch (e) {
			return false;
		}
	}

	/* Moves v1's record to key, once: v1's is removed when v2's is written. */
	function migrateState(v1key, key) {
		try {
			if (window.localStorage.getItem(key) !== null) return;
			if (window.localStorage.getItem(v1key) === null) return;
		} catch (e) {
			return;
		}
		if (saveState(key, loadState(v1key))) removeState(v1key);
	}

	function removeState(key) {
		try {
			window.localStorage.removeItem(key);
		} catch (e) {
			/* nothing to do: the history simply stays */
		}
	}

	/* ---- the question bank, read from the page ---- */

	function readBank(root) {
		var list = [];
		var articles = root.querySelectorAll('article.question');
		for (var i = 0; i < articles.length; i++) {
			var a = articles[i];
			var level = a.getAttribute('data-difficulty');
			if (LEVELS.indexOf(level) < 0) level = 'medium';
			var typed = window.quizdeckAnswer.fromArticle(a);
			var options = typed ? typed.answers : [];
			var items = a.querySelectorAll('ol.options > li.option');
			for (var j = 0; j < items.length && !typed; j++) {
				options.push({
					el: items[j],
					correct: items[j].getAttribute('data-correct') === 'true',
					text: items[j].querySelector('.option-text'),
					feedback: items[j].querySelector('.option-feedback')
				});
			}
			if (typed ? !correctIndexes({ options: options }).length : options.length < 2) continue;
			var topicEl = a.closest('section.topic');
			list.push({
				el: a,
				id: a.getAttribute('data-id') || a.id,
				topic: a.getAttribute('data-topic') || '',
				topicTitle: topicEl ? (topicEl.getAttribute('data-title') || '') : '',
				level: level,
				multi: a.getAttribute('data-kind') === 'multi',
				sample: a.getAttribute('data-sample') === 'true',
				fp: a.getAttribute('data-fingerprint') || '',
				options: options,
				typed: typed,
				stem: a.querySelector('.stem'),
				stemBody: a.querySelector('.stem-body'),
				hint: a.querySelector('.hint'),
				explanation: a.querySelector('.explanation')
			});
		}
		return list;
	}

	/* ---- the difficulty mix ---- */

	function countLevels(questions) {
		var c = { easy: 0, medium: 0, hard: 0 };
		questions.forEach(function (q) { c[q.level]++; });
		return c;
	}

	/*
	 * How many questions of each difficulty a test of n draws from a pool
	 * with `avail` of each, under a mix. Largest remainder, capped by what
	 * the pool has; the mix's order takes the rest. Deterministic.
	 */
	function allocate(avail, n, mixName) {
		var mix = MIXES[mixName] || MIXES.steady;
		var total = avail.easy + avail.medium + avail.hard;
		n = Math.max(0, Math.min(n, total));
		var share = {}, sum = 0;
		LEVELS.forEach(function (d) {
			share[d] = avail[d] ? (mix.share ? mix.share[d] : avail[d]) : 0;
			sum += share[d];
		});
		var take = {}, rest = [], used = 0;
		mix.order.forEach(function (d, rank) {
			var ideal = sum ? n * share[d] / sum : 0;
			take[d] = Math.floor(ideal);
			used += take[d];
			rest.push({ d: d, frac: ideal - take[d], rank: rank });
		});
		rest.sort(function (a, b) { return (b.frac - a.frac) || (a.rank - b.rank); });
		for (var i = 0; used < n && i < rest.length; i++) {
			take[rest[i].d]++;
			used++;
		}
		var over = 0;
		LEVELS.forEach(function (d) {
			if (take[d] > avail[d]) {
				over += take[d] - avail[d];
				take[d] = avail[d];
			}
		});
		mix.order.forEach(function (d) {
			var room = avail[d] - take[d];
			var add = Math.min(room, over);
			take[d] += add;
			over -= add;
		});
		return take;
	}

	function describeMix(take) {
		var parts = [];
		LEVELS.forEach(function (d) {
			if (take[d]) parts.push(I.plural('quiz.mix-' + d, take[d]));
		});
		return parts.join(I.t('quiz.mix-separator')) || I.t('quiz.mix-none');
	}

	/* ---- the test page ---- */

	function QuizPage(form) {
		var self = this;
		this.form = form;
		this.setup = document.getElementById('setup');
		this.runner = document.getElementById('runner');
		this.historyEl = document.getElementById('history');
		this.hideWhileRunning = ['setup', 'test-about', 'samples', 'questions', 'go-deeper']
			.map(function (id) { return document.getElementById(id); })
			.filter(Boolean);
		this.slug = form.getAttribute('data-test') || 'test';
		var site = document.body.getAttribute('data-site') || '';
		this.key = 'quizdeck:v2:' + site + ':test:' + this.slug;
		this.returnKey = 'quizdeck:v2:' + site + ':return';
		this.settingsKey = 'quizdeck:v2:' + site + ':settings';
		migrateState(STORE_V1 + this.slug, this.key);
		this.passMark = parseFloat(form.getAttribute('data-pass-mark'));
		if (!(this.passMark >= 0 && this.passMark <= 1)) this.passMark = 0.7;
		this.seconds = {};
		LEVELS.forEach(function (d) {
			var s = parseFloat(form.getAttribute('data-seconds-' + d));
			self.seconds[d] = s > 0 ? s : 45;
		});
		this.defaultCount = parseInt(form.getAttribute('data-questions'), 10) || 10;
		this.defaultReveal = form.getAttribute('data-reveal') === 'end' ? 'end' : 'each';
		this.bank = readBank(document.getElementById('questions'));
		if (!this.bank.length) return;   /* nothing to run: the page stays as printed */
		this.byId = {};
		this.bank.forEach(function (q) { self.byId[q.id] = q; });
		this.deeperTitles = {};
		var deeper = document.querySelectorAll('#go-deeper a[href]');
		for (var i = 0; i < deeper.length; i++)
			this.deeperTitles[deeper[i].getAttribute('href')] = deeper[i].textContent.trim();

		this.topicSelect = form.querySelector('select[name="topic"]');
		this.countInput = form.querySelector('input[name="count"]');
		this.mixNote = document.getElementById('setup-mix');
		this.estimate = document.getElementById('setup-estimate');
		this.run = null;
		this.parked = null;
		this.pageTitle = document.title;
		this.keysSwitch();
		this.restoreSetup();
		this.updateSetup(false);
		this.renderHistory();
		this.renderResume();

		form.addEventListener('change', function () { self.updateSetup(true); });
		form.addEventListener('input', function () { self.updateSetup(true); });
		form.addEventListener('submit', function (e) {
			e.preventDefault();
			self.start(self.readSetup(), null);
		});
		document.addEventListener('keydown', function (e) { self.onKey(e); });
		window.addEventListener('popstate', function (e) { self.onHistory(e.state); });
		this.runner.addEventListener('click', function (e) {
			var a = e.target.closest && e.target.closest('a[href]');
			if (!a || !self.run || self.run.done) return;
			var h1 = document.querySelector('main h1');
			setReturn(self.returnKey, {
				url: window.location.href.split('#')[0],
				slug: self.slug,
				question: self.run.index + 1,
				total: self.run.items.length,
				title: h1 ? h1.textContent.trim() : ''
			});
		});

		this.setup.hidden = false;
		/* A reload, or Back from the guide, on a question step: go on there. */
		var st = historyState();
		var saved = this.savedRun();
		if (saved && st && st.quiz === 'question') {
			this.resume(saved, parseInt(st.index, 10), 'none');
		} else if (saved && window.location.hash === '#resume') {
			/* "Back to question N" from the guide. */
			try {
				window.history.replaceState(null, '', window.location.href.split('#')[0]);
			} catch (e) {
				/* the #resume stays in the address: harmless */
			}
			this.resume(saved, null, 'push');
		}
	}

	/* The questions a topic choice draws from: the samples, answered on
	 * the page, only when the topic has nothing else. */
	QuizPage.prototype.pool = function (topic) {
		var all = this.bank.filter(function (q) { return !topic || q.topic === topic; });
		var unseen = all.filter(function (q) { return !q.sample; });
		return unseen.length ? unseen : all;
	};

	QuizPage.prototype.samplesLeftOut = function (topic) {
		var all = this.bank.filter(function (q) { return !topic || q.topic === topic; });
		return all.length - this.pool(topic).length;
	};

	QuizPage.prototype.radioValue = function (name) {
		var r = this.form.querySelector('input[name="' + name + '"]:checked');
		return r ? r.value : '';
	};

	QuizPage.prototype.setRadio = function (name, value) {
		var inputs = this.form.querySelectorAll('input[name="' + name + '"]');
		for (var i = 0; i < inputs.length; i++) {
			if (inputs[i].value === value) {
				inputs[i].checked = true;
				return true;
			}
		}
		return false;
	};

	/* The set-up as the form shows it, with the count clamped to the pool. */
	QuizPage.prototype.readSetup = function () {
		var topic = this.topicSelect ? this.topicSelect.value : '';
		var pool = this.pool(topic);
		var count = parseInt(this.countInput ? this.countInput.value : '', 10);
		if (!(count > 0)) count = this.defaultCount;
		count = Math.max(1, Math.min(count, pool.length));
		var mix = this.radioValue('mix');
		if (!MIXES[mix]) mix = 'steady';
		var reveal = this.radioValue('reveal') === 'end' ? 'end' : 'each';
		return { topic: topic, mix: mix, count: count, reveal: reveal };
	};

	/* Applies ?topic=&mix=&count=&reveal= to the form; unknown values are ignored. */
	QuizPage.prototype.restoreSetup = function () {
		var params;
		try {
			params = new URLSearchParams(window.location.search);
		} catch (e) {
			return;
		}
		var topic = params.get('topic');
		if (topic !== null && this.topicSelect) {
			for (var i = 0; i < this.topicSelect.options.length; i++) {
				if (this.topicSelect.options[i].value === topic) this.topicSelect.value = topic;
			}
		}
		var mix = params.get('mix');
		if (mix && MIXES[mix]) this.setRadio('mix', mix);
		var count = parseInt(params.get('count'), 10);
		if (count > 0 && this.countInput) this.countInput.value = String(count);
		var reveal = params.get('reveal');
		if (reveal === 'each' || reveal === 'end') this.setRadio('reveal', reveal);
		else if (!this.radioValue('reveal')) this.setRadio('reveal', this.defaultReveal);
	};

	/* Shows the mix and the estimate for the current choices, and keeps the
	 * URL in step so it can be shared. */
	QuizPage.prototype.updateSetup = function (fromUser) {
		var s = this.readSetup();
		var pool = this.pool(s.topic);
		if (this.countInput) {
			this.countInput.max = String(pool.length);
			var typed = parseInt(this.countInput.value, 10);
			/* A topic with fewer questions than asked for: show what it has. */
			if (typed > pool.length && document.activeElement !== this.countInput)
				this.countInput.value = String(pool.length);
		}
		var take = allocate(countLevels(pool), s.count, s.mix);
		var secs = 0, self = this;
		LEVELS.forEach(function (d) { secs += take[d] * self.seconds[d]; });
		if (this.mixNote) this.mixNote.textContent = describeMix(take);
		if (this.estimate) {
			var out = this.samplesLeftOut(s.topic);
			this.estimate.textContent = I.t(out ? 'quiz.estimate-samples' : 'quiz.estimate', {
				pool: I.plural('quiz.pool', pool.length),
				samples: I.plural('quiz.samples-left-out', out),
				time: I.plural('quiz.minutes-about', Math.max(1, Math.round(secs / 60)))
			});
		}
		if (fromUser) this.writeUrl(s);
	};

	QuizPage.prototype.writeUrl = function (s) {
		var q = '?topic=' + encodeURIComponent(s.topic) + '&mix=' + encodeURIComponent(s.mix) +
			'&count=' + s.count + '&reveal=' + s.reveal;
		try {
			window.history.replaceState(null, '', q + window.location.hash);
		} catch (e) {
			/* some file:// setups refuse; the set-up still works */
		}
	};

	/* Draws the questions for a set-up: per difficulty, the ones not yet
	 * answered right come first, in random order; then easy to hard. */
	QuizPage.prototype.draw = function (s) {
		var pool = this.pool(s.topic);
		var take = allocate(countLevels(pool), s.count, s.mix);
		var seen = loadState(this.key).seen;
		var picked = [];
		LEVELS.forEach(function (d) {
			var fresh = [], known = [];
			pool.forEach(function (q) {
				if (q.level !== d) return;
				var r = seen[q.id];
				(r && r.fp === q.fp && r.right ? known : fresh).push(q);
			});
			picked = picked.concat(shuffle(fresh).concat(shuffle(known)).slice(0, take[d]));
		});
		return picked;
	};

	/* ---- the test in progress: saved at every step, one history step per question ---- */

	function setReturn(key, value) {
		try {
			if (value) window.sessionStorage.setItem(key, JSON.stringify(value));
			else window.sessionStorage.removeItem(key);
		} catch (e) {
			/* no way back offered: Back still works */
		}
	}

	function historyState() {
		try {
			return window.history.state;
		} catch (e) {
			return null;
		}
	}

	/* Adds (or, with replace, rewrites) a step of the browser's history. */
	function step(state, replace) {
		try {
			if (replace) window.history.replaceState(state, '', window.location.href);
			else window.history.pushState(state, '', window.location.href);
		} catch (e) {
			/* some file:// setups refuse: the test runs without the steps */
		}
	}

	function runRecord(run) {
		return {
			at: run.at,
			setup: run.setup,
			retry: run.retry,
			index: run.index,
			items: run.items.map(function (item) {
				return {
					id: item.q.id, fp: item.q.fp, order: item.order, chosen: item.chosen,
					checked: item.checked, flagged: !!item.flagged, hint: !!item.hint,
					typed: item.typed
				};
			})
		};
	}

	/* Whether list holds each of 0..n-1 once. */
	function isPermutation(list, n) {
		if (!Array.isArray(list) || list.length !== n) return false;
		var seen = {};
		return list.every(function (i) {
			if (typeof i !== 'number' || i < 0 || i >= n || seen[i]) return false;
			seen[i] = true;
			return true;
		});
	}

	QuizPage.prototype.saveRun = function () {
		var run = this.run;
		if (!run || run.done) return;
		var state = loadState(this.key);
		state.current = runRecord(run);
		saveState(this.key, state);
	};

	/* The saved test in progress, its questions matched to the page's, or
	 * null. A question gone or changed since is dropped. */
	QuizPage.prototype.savedRun = function () {
		var cur = loadState(this.key).current;
		if (!cur) return null;
		var self = this, items = [];
		cur.items.forEach(function (r) {
			var q = r && self.byId[r.id];
			if (!q || q.fp !== r.fp || !isPermutation(r.order, q.options.length) || !Array.isArray(r.chosen)) return;
			var chosen = [];
			r.chosen.forEach(function (i) {
				if (typeof i === 'number' && i >= 0 && i < q.options.length && chosen.indexOf(i) < 0) chosen.push(i);
			});
			if (!q.multi) chosen = chosen.slice(0, 1);
			if (q.typed) chosen = [];
			var item = {
				q: q, order: r.order.slice(), chosen: chosen,
				typed: q.typed && typeof r.typed === 'string' ? r.typed : '',
				flagged: r.flagged === true, hint: r.hint === true
			};
			item.checked = r.checked === true && isAnswered(item);
			items.push(item);
		});
		if (!items.length) return null;
		var s = cur.setup && typeof cur.setup === 'object' ? cur.setup : {};
		var setup = {
			topic: typeof s.topic === 'string' ? s.topic : '',
			mix: MIXES[s.mix] ? s.mix : 'steady',
			count: items.length,
			reveal: s.reveal === 'end' ? 'end' : 'each'
		};
		var index = parseInt(cur.index, 10);
		return {
			at: typeof cur.at === 'string' ? cur.at : new Date().toISOString(),
			setup: setup,
			retry: cur.retry === true,
			reveal: setup.reveal,
			index: index >= 0 && index < items.length ? index : 0,
			items: items,
			done: false
		};
	};

	/* An unfinished test goes into the history with what was answered (a
	 * test with no answer at all leaves nothing); it is no longer current. */
	/*
	 * Files an attempt in the history, finished or left (extra adds what
	 * a left one says), keeping the last MAX_ATTEMPTS.
	 */
	function pushAttempt(state, run, score, extra) {
		var a = {
			at: new Date().toISOString(),
			topic: run.setup.topic,
			mix: run.setup.mix,
			count: run.items.length,
			reveal: run.reveal,
			retry: run.retry,
			score: score,
			total: run.items.length
		};
		if (extra) Object.keys(extra).forEach(function (k) { a[k] = extra[k]; });
		state.attempts.push(a);
		if (state.attempts.length > MAX_ATTEMPTS)
			state.attempts = state.attempts.slice(state.attempts.length - MAX_ATTEMPTS);
	}

	QuizPage.prototype.recordLeft = function (run) {
		setReturn(this.returnKey, null);
		var state = loadState(this.key);
		state.current = null;
		var answered = 0, right = 0;
		run.items.forEach(function (item) {
			if (!isAnswered(item)) return;
			answered++;
			if (isRight(item)) right++;
		});
		if (answered)
			pushAttempt(state, run, right, { answered: answered, left: true });
		saveState(this.key, state);
	};

	/* The set-up screen's offer to go on with the saved test. */
	QuizPage.prototype.renderResume = function () {
		var self = this;
		var box = document.getElementById('resume');
		if (box) box.parentNode.removeChild(box);
		var run = this.savedRun();
		if (!run) return;
		var answered = run.items.filter(function (item) { return isAnswered(item); }).length;
		box = el('div', 'resume');
		box.id = 'resume';
		box.appendChild(el('p', 'resume-what', I.t(run.retry ? 'quiz.resume-what-retry' : 'quiz.resume-what', {
			topic: this.topicName(run.setup.topic), answered: I.num(answered), total: I.num(run.items.length)
		})));
		var go = el('button', 'button primary resume-button',
			I.t('quiz.resume', { n: I.num(run.index + 1), total: I.num(run.items.length) }));
		go.type = 'button';
		go.addEventListener('click', function () { self.resume(self.savedRun() || run, null, 'push'); });
		box.appendChild(go);
		box.appendChild(el('p', 'resume-note', I.t('quiz.resume-note')));
		var title = document.getElementById('setup-title');
		this.setup.insertBefore(box, title ? title.nextSibling : this.setup.firstChild);
	};

	QuizPage.prototype.showRunner = function () {
		this.hideWhileRunning.forEach(function (node) { node.hidden = true; });
		this.runner.hidden = false;
		clear(this.runner);
		this.stage = el('div', 'run-stage');
		this.status = el('p', 'visually-hidden run-status');
		this.status.setAttribute('role', 'status');
		this.status.setAttribute('aria-live', 'polite');
		this.runner.appendChild(this.stage);
		this.runner.appendChild(this.status);
	};

	/* Shows run at index (null: where it was left). how: 'push' adds a
	 * history step, 'replace' rewrites this one, 'none' leaves history be
	 * (the step is already there). */
	QuizPage.prototype.resume = function (run, index, how) {
		if (index !== null && index >= 0 && index < run.items.length) run.index = index;
		this.run = run;
		this.parked = null;
		this.showRunner();
		this.renderQuestion(true);
		this.saveRun();
		if (how !== 'none') step({ quiz: 'question', index: run.index }, how === 'replace');
	};

	/* Starts a test: questions given (a retry) or drawn from the set-up.
	 * A test left in progress goes into the history as unfinished. */
	QuizPage.prototype.start = function (setup, questions) {
		var list = questions || this.draw(setup);
		if (!list.length) return;
		var left = this.parked || this.savedRun();
		if (left && !left.done) this.recordLeft(left);
		this.resume({
			at: new Date().toISOString(),
			setup: setup,
			retry: !!questions,
			reveal: setup.reveal,
			index: 0,
			items: list.map(function (q) {
				var order = shuffle(q.options.map(function (o, i) { return i; }));
				return { q: q, order: order, chosen: [], typed: '', checked: false, flagged: false, hint: false };
			}),
			done: false
		}, 0, 'push');
	};

	/* Back and Forward: a question step shows that question, going on with
	 * the test in memory or the saved one; anything else the set-up. */
	QuizPage.prototype.onHistory = function (st) {
		if (st && st.quiz === 'question') {
			var index = parseInt(st.index, 10);
			if (this.run && !this.runner.hidden) {
				this.go(index, true);
				return;
			}
			var run = this.parked || this.savedRun();
			if (run) {
				this.resume(run, index, 'none');
				return;
			}
		} else if (st && st.quiz === 'results' && this.run && this.run.done) {
			this.showResults(true);
			return;
		}
		if (!this.runner.hidden) this.showSetup(true);
	};

	QuizPage.prototype.announce = function (text) {
		var status = this.status;
		/* Clearing first makes a repeated message ("Correct.") announce again. */
		status.textContent = '';
		window.setTimeout(function () { status.textContent = text; }, 50);
	};

	function isRight(item) {
		if (item.q.typed) return window.quizdeckAnswer.score(item.q.typed, item.typed).right;
		return window.quizdeckAnswer.scoreChoice(item.q.options, item.chosen);
	}

	/* Whether a question shows its answer now. */
	QuizPage.prototype.revealed = function (item) {
		return this.run.done || (this.run.reveal === 'each' && item.checked);
	};

	/* The hint, behind a button that shows and hides it. */
	QuizPage.prototype.hintBox = function (item) {
		var self = this;
		var box = el('div', 'run-hint-box');
		var toggle = el('button', 'button quiet run-hint-toggle', I.t(item.hint ? 'quiz.hint-hide' : 'quiz.hint-show'));
		toggle.type = 'button';
		toggle.setAttribute('aria-expanded', item.hint ? 'true' : 'false');
		toggle.setAttribute('aria-controls', 'run-hint');
		var hint = cloneChildren(item.q.hint, el('blockquote', 'run-hint'));
		hint.id = 'run-hint';
		hint.hidden = !item.hint;
		toggle.addEventListener('click', function () {
			item.hint = !item.hint;
			hint.hidden = !item.hint;
			toggle.textContent = I.t(item.hint ? 'quiz.hint-hide' : 'quiz.hint-show');
			toggle.setAttribute('aria-expanded', item.hint ? 'true' : 'false');
			self.saveRun();
		});
		box.appendChild(toggle);
		box.appendChild(hint);
		return box;
	};

	QuizPage.prototype.renderQuestion = function (focusHeading) {
		var self = this, run = this.run;
		var item = run.items[run.index], q = item.q;
		var shown = this.revealed(item);
		var last = run.index === run.items.length - 1;
		clear(this.stage);
		this.nav = null;

		var head = el('div', 'run-head');
		var count = el('h2', 'run-count',
			I.t('quiz.question-of', { n: I.num(run.index + 1), total: I.num(run.items.length) }));
		this.setTitle(count.textContent);
		count.tabIndex = -1;
		head.appendChild(count);
		var meta = el('p', 'run-meta');
		meta.appendChild(el('span', 'difficulty difficulty-' + q.level, levelName(q.level)));
		if (q.topicTitle) {
			meta.appendChild(document.createTextNode(' '));
			meta.appendChild(el('span', 'run-topic', q.topicTitle));
		}
		if (run.retry) {
			meta.appendChild(document.createTextNode(' '));
			meta.appendChild(el('span', 'run-topic', I.t('quiz.retry-tag')));
		}
		head.appendChild(meta);
		var track = el('div', 'run-track');
		track.setAttribute('aria-hidden', 'true');
		var fill = el('div', 'run-track-fill');
		fill.style.width = percent(run.index + (shown ? 1 : 0), run.items.length) + '%';
		track.appendChild(fill);
		head.appendChild(track);
		if (run.reveal === 'end' && !run.done) head.appendChild(this.navigator());
		this.stage.appendChild(head);

		var form = el('form', 'run-question');
		form.setAttribute('data-id', q.id);
		form.noValidate = true;
		var fieldset = el('fieldset', 'run-fieldset');
		var legend = el('legend', 'run-stem');
		cloneChildren(q.stem, legend);
		fieldset.appendChild(legend);
		if (q.stemBody) fieldset.appendChild(cloneChildren(q.stemBody, el('div', 'run-stem-body')));
		if (q.hint) fieldset.appendChild(this.hintBox(item));
		/* The verdict sits above the options, so after Check it and the
		 * chosen option's feedback are in view together. */
		var verdict = shown ? this.verdict(item) : null;
		if (verdict) fieldset.appendChild(verdict);
		this.inputs = [];
		this.typedInput = null;
		if (q.typed) fieldset.appendChild(this.typedField(item, shown));
		else fieldset.appendChild(el('p', 'run-instruction', I.t(q.multi ? 'quiz.choose-all' : 'quiz.choose-one')));

		var list = el('ol', 'run-options');
		if (!q.typed) item.order.forEach(function (optIndex, pos) {
			var opt = q.options[optIndex];
			var chosen = item.chosen.indexOf(optIndex) >= 0;
			var li = el('li', 'run-option');
			li.setAttribute('data-option', String(optIndex));
			var label = el('label', 'run-option-label');
			var input = el('input');
			input.type = q.multi ? 'checkbox' : 'radio';
			input.name = 'answer';
			input.value = String(optIndex);
			input.checked = chosen;
			input.disabled = shown;
			var key = el('span', 'run-key', I.num(pos + 1));
			key.setAttribute('aria-hidden', 'true');
			label.appendChild(input);
			label.appendChild(key);
			label.appendChild(cloneInline(opt.text, el('span', 'run-option-text')));
			li.appendChild(label);
			if (chosen) li.classList.add('is-chosen');
			if (shown) {
				if (opt.correct) li.classList.add('is-correct');
				if (chosen && !opt.correct) li.classList.add('is-wrong');
				var tag = optionTag(opt.correct, chosen);
				if (tag) li.appendChild(tag);
				/* The chosen options' feedback is in the verdict. */
				if (opt.feedback && opt.correct && !chosen)
					li.appendChild(cloneChildren(opt.feedback, el('div', 'run-feedback')));
			}
			list.appendChild(li);
			self.inputs.push(input);
		});
		if (!q.typed) fieldset.appendChild(list);
		form.appendChild(fieldset);

		if (shown && q.explanation) {
			var why = el('div', 'run-explanation');
			why.appendChild(el('h3', 'run-explanation-title', I.t('quiz.why')));
			cloneChildren(q.explanation, why);
			form.appendChild(why);
		}

		this.problem = el('p', 'run-problem');
		this.problem.hidden = true;
		form.appendChild(this.problem);

		var actions = el('div', 'run-actions');
		var prev = el('button', 'button run-prev', I.t('quiz.previous'));
		prev.type = 'button';
		prev.hidden = run.index === 0;
		prev.addEventListener('click', function () { self.go(run.index - 1); });
		var main = el('button', 'button primary run-main');
		main.type = 'submit';
		if (run.reveal === 'each' && !item.checked) main.textContent = I.t('quiz.check');
		else if (last) main.textContent = I.t(run.done ? 'quiz.back-to-results' : (run.reveal === 'each' ? 'quiz.see-results' : 'quiz.finish'));
		else main.textContent = I.t('quiz.next');
		var leave = el('button', 'button quiet run-leave', I.t(run.done ? 'quiz.back-to-results' : 'quiz.leave'));
		leave.type = 'button';
		leave.hidden = run.done && last;
		leave.addEventListener('click', function () {
			if (run.done) self.showResults();
			else self.confirmLeave(form, leave);
		});
		actions.appendChild(prev);
		actions.appendChild(main);
		if (run.reveal === 'end' && !run.done) {
			var flag = el('button', 'button run-flag');
			flag.type = 'button';
			flag.appendChild(icon('⚑'));
			flag.appendChild(document.createTextNode(I.t('quiz.flag')));
			flag.setAttribute('aria-pressed', item.flagged ? 'true' : 'false');
			flag.addEventListener('click', function () {
				item.flagged = !item.flagged;
				flag.setAttribute('aria-pressed', item.flagged ? 'true' : 'false');
				self.saveRun();
				self.updateNavigator();
			});
			actions.appendChild(flag);
		}
		actions.appendChild(leave);
		form.appendChild(actions);
		if (!q.typed) form.appendChild(el('p', 'run-keys',
			I.t(run.reveal === 'each' && !item.checked ? 'quiz.keys-check' : 'quiz.keys-next',
				{ last: I.num(Math.min(9, item.order.length)) })));

		form.addEventListener('submit', function (e) {
			e.preventDefault();
			self.primary();
		});
		form.addEventListener('change', function (e) {
			if (e.target && e.target.name === 'answer') self.readChoice();
		});
		this.stage.appendChild(form);
		this.mainButton = main;
		this.verdictBox = verdict;
		if (focusHeading) {
			count.focus();
			this.scrollToRunner();
		}
	};

	/* "Leave the test" asks first; the answer is a choice of two buttons
	 * under the actions, "Keep going" focused. */
	QuizPage.prototype.confirmLeave = function (form, opener) {
		var self = this;
		var old = form.querySelector('.run-confirm');
		if (old) {
			old.querySelector('.run-stay').focus();
			return;
		}
		var box = el('div', 'run-confirm');
		box.setAttribute('role', 'group');
		box.setAttribute('aria-labelledby', 'run-confirm-text');
		var text = el('p', null, I.t('quiz.leave-ask'));
		text.id = 'run-confirm-text';
		box.appendChild(text);
		var yes = el('button', 'button run-yes', I.t('quiz.leave-yes'));
		yes.type = 'button';
		yes.addEventListener('click', function () { self.leave(); });
		var stay = el('button', 'button primary run-stay', I.t('quiz.leave-no'));
		stay.type = 'button';
		stay.addEventListener('click', function () {
			box.parentNode.removeChild(box);
			opener.focus();
		});
		box.appendChild(stay);
		box.appendChild(yes);
		form.insertBefore(box, opener.parentNode.nextSibling);
		stay.focus();
	};

	QuizPage.prototype.leave = function () {
		var run = this.run;
		if (!run || run.done) return;
		this.readChoice();
		this.recordLeft(run);
		this.showSetup();
	};

	function optionTag(correct, chosen) {
		var tag;
		if (correct && chosen) {
			tag = el('p', 'run-tag run-tag-right');
			tag.appendChild(icon('✓'));
			tag.appendChild(document.createTextNode(' ' + I.t('quiz.tag-yours-right')));
		} else if (correct) {
			tag = el('p', 'run-tag run-tag-right');
			tag.appendChild(icon('✓'));
			tag.appendChild(document.createTextNode(' ' + I.t('quiz.tag-right')));
		} else if (chosen) {
			tag = el('p', 'run-tag run-tag-wrong');
			tag.appendChild(icon('✗'));
			tag.appendChild(document.createTextNode(' ' + I.t('quiz.tag-yours-wrong')));
		}
		return tag || null;
	}

	/* The verdict above a revealed question's options: right or wrong, the
	 * feedback on the options chosen, the right answer. */
	QuizPage.prototype.verdict = function (item) {
		if (item.q.typed) return this.typedVerdict(item);
		var box = el('div', 'run-verdict');
		box.tabIndex = -1;
		var right = isRight(item);
		var line = el('p', 'verdict ' + (right ? 'verdict-right' : 'verdict-wrong'));
		line.appendChild(icon(right ? '✓' : '✗'));
		line.appendChild(document.createTextNode(' ' +
			I.t(right ? 'quiz.correct' : item.chosen.length ? 'quiz.incorrect' : 'quiz.not-answered')));
		box.appendChild(line);
		var q = item.q;
		item.chosen.forEach(function (i) {
			if (!q.options[i].feedback) return;
			var about = el('div', 'run-feedback run-feedback-yours');
			/* The words before the option bold, the option as written. */
			var p = el('p', 'run-feedback-lead');
			var s = I.t('quiz.feedback-on'), at = s.indexOf('{answer}');
			if (at > 0) p.appendChild(el('strong', null, s.slice(0, at)));
			fillNodes(p, at > 0 ? s.slice(at) : s, { answer: cloneInline(q.options[i].text, document.createDocumentFragment()) });
			about.appendChild(p);
			cloneChildren(q.options[i].feedback, about);
			box.appendChild(about);
		});
		if (!right) {
			var answer = lead(el('p', 'run-answer'), 'quiz.right-answer');
			this.appendAnswerText(q, correctIndexes(q), answer);
			box.appendChild(answer);
		}
		return box;
	};

	function correctIndexes(q) {
		var list = [];
		q.options.forEach(function (o, i) { if (o.correct) list.push(i); });
		return list;
	}

	QuizPage.prototype.appendAnswerText = function (q, indexes, to) {
		indexes.forEach(function (i, k) {
			if (k) to.appendChild(document.createTextNode(I.t('quiz.answers-separator')));
			cloneInline(q.options[i].text, to);
		});
		return to;
	};

	function answerText(q, indexes) {
		return indexes.map(function (i) {
			return (q.options[i].text ? q.options[i].text.textContent : '').trim();
		}).join(I.t('quiz.answers-separator'));
	}

	QuizPage.prototype.readChoice = function () {
		var item = this.run.items[this.run.index];
		if (this.revealed(item)) return;
		if (item.q.typed) {
			if (this.typedInput) item.typed = this.typedInput.value;
			if (isAnswered(item) && this.problem) this.problem.hidden = true;
			this.saveRun();
			this.updateNavigator();
			return;
		}
		item.chosen = [];
		var lis = this.stage.querySelectorAll('.run-option');
		this.inputs.forEach(function (input, i) {
			if (input.checked) item.chosen.push(parseInt(input.value, 10));
			lis[i].classList.toggle('is-chosen', input.checked);
		});
		if (item.chosen.length && this.problem) this.problem.hidden = true;
		this.saveRun();
		this.updateNavigator();
	};

	/* Check, Next or Finish, whichever the main button says. */
	QuizPage.prototype.primary = function () {
		var run = this.run;
		if (!run) return;
		var item = run.items[run.index];
		var last = run.index === run.items.length - 1;
		if (run.done) {
			if (last) this.showResults();
			else this.go(run.index + 1);
			return;
		}
		this.readChoice();
		if (run.reveal === 'each' && !item.checked) {
			var problem = item.q.typed ? typedProblem(item) :
				!item.chosen.length ? I.t('quiz.choose-first') : null;
			if (problem) {
				clear(this.problem);
				this.problem.appendChild(icon('!'));
				this.problem.appendChild(document.createTextNode(' ' + problem));
				this.problem.hidden = false;
				this.announce(problem);
				if (this.typedInput) this.typedInput.focus();
				return;
			}
			item.checked = true;
			this.saveRun();
			this.renderQuestion(false);
			var right = isRight(item);
			this.announce(right ? I.t('quiz.said-right') :
				I.t('quiz.said-wrong', { answer: answerText(item.q, correctIndexes(item.q)) }));
			/* Focus on the verdict brings it, and the feedback under it, into
			 * view; Enter there moves on, as on the button. */
			this.verdictBox.focus({ preventScroll: true });
			this.showVerdict();
			return;
		}
		if (last) this.finishOrAsk();
		else this.go(run.index + 1);
	};

	/* Finish, unless questions are unanswered or flagged: then ask first,
	 * with a way to the first of them. */
	QuizPage.prototype.finishOrAsk = function () {
		var self = this, run = this.run;
		var open = [], flagged = [];
		run.items.forEach(function (item, i) {
			if (!isAnswered(item)) open.push(i + 1);
			if (item.flagged) flagged.push(i + 1);
		});
		var form = this.stage.querySelector('.run-question');
		if ((!open.length && !flagged.length) || !form) {
			this.finish();
			return;
		}
		var old = form.querySelector('.run-finish-ask');
		if (old) old.parentNode.removeChild(old);
		var box = el('div', 'run-confirm run-finish-ask');
		box.setAttribute('role', 'group');
		box.setAttribute('aria-labelledby', 'run-finish-text');
		var numbers = function (list) {
			return list.map(function (n) { return I.num(n); }).join(I.t('quiz.list-separator'));
		};
		var said = {
			open: I.plural('quiz.ask-open', open.length, { list: numbers(open) }),
			flagged: I.plural('quiz.ask-flagged', flagged.length, { list: numbers(flagged) })
		};
		var what = !flagged.length ? said.open : !open.length ? said.flagged : I.t('quiz.ask-both', said);
		var text = el('p', null, I.t('quiz.ask-finish', { what: what }));
		text.id = 'run-finish-text';
		box.appendChild(text);
		var first = (open.length ? open : flagged)[0];
		var back = el('button', 'button primary run-stay', I.t('quiz.ask-go', { n: I.num(first) }));
		back.type = 'button';
		back.addEventListener('click', function () { self.go(first - 1); });
		var yes = el('button', 'button run-yes', I.t('quiz.ask-yes'));
		yes.type = 'button';
		yes.addEventListener('click', function () { self.finish(); });
		box.appendChild(back);
		box.appendChild(yes);
		var actions = form.querySelector('.run-actions');
		form.insertBefore(box, actions.nextSibling);
		back.focus();
		this.announce(text.textContent);
	};

	/* At the end: a button per question, marked answered or flagged. */
	QuizPage.prototype.navigator = function () {
		var self = this, run = this.run;
		var nav = el('nav', 'run-nav');
		nav.setAttribute('aria-label', I.t('quiz.nav'));
		var list = el('ol', 'run-nav-list');
		run.items.forEach(function (item, i) {
			var li = el('li');
			var b = el('button', 'run-nav-item', I.num(i + 1));
			b.type = 'button';
			b.setAttribute('data-index', String(i));
			if (i === run.index) b.setAttribute('aria-current', 'step');
			b.addEventListener('click', function () { if (i !== run.index) self.go(i); });
			li.appendChild(b);
			list.appendChild(li);
		});
		nav.appendChild(list);
		this.nav = nav;
		this.updateNavigator();
		return nav;
	};

	QuizPage.prototype.updateNavigator = function () {
		var run = this.run, nav = this.nav;
		if (!nav || !run || run.reveal !== 'end') return;
		var buttons = nav.querySelectorAll('.run-nav-item');
		for (var i = 0; i < buttons.length; i++) {
			var item = run.items[i], b = buttons[i];
			var key = 'quiz.nav-' + (isAnswered(item) ? 'answered' : 'open') + (item.flagged ? '-flagged' : '');
			b.setAttribute('aria-label', I.t(key, { n: I.num(i + 1) }));
			b.classList.toggle('is-answered', isAnswered(item));
			b.classList.toggle('is-flagged', !!item.flagged);
		}
	};

	/* Shows question index; fromHistory: Back or Forward brought it, so no
	 * new step. */
	QuizPage.prototype.go = function (index, fromHistory) {
		var run = this.run;
		if (!run || !(index >= 0 && index < run.items.length)) return;
		if (this.stage.querySelector('.run-question') && !this.revealed(run.items[run.index])) this.readChoice();
		run.index = index;
		this.renderQuestion(true);
		this.saveRun();
		if (!fromHistory) step({ quiz: 'question', index: index }, false);
	};

	/* Picks the nth shown option (keys 1-9). */
	QuizPage.prototype.pick = function (n) {
		var input = this.inputs && this.inputs[n];
		if (!input || input.disabled) return;
		input.checked = input.type === 'checkbox' ? !input.checked : true;
		input.focus();
		this.readChoice();
	};

	QuizPage.prototype.onKey = function (e) {
		if (!this.run || this.runner.hidden || !this.stage.querySelector('.run-question')) return;
		if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
		var t = e.target, tag = t && t.tagName;
		if (tag === 'TEXTAREA' || tag === 'SELECT' ||
		    (tag === 'INPUT' && t.type !== 'radio' && t.type !== 'checkbox'))
			return;
		if (/^[1-9]$/.test(e.key) && singleKeys(this.settingsKey)) {
			e.preventDefault();
			this.pick(parseInt(e.key, 10) - 1);
		} else if (e.key === 'Enter') {
			if (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY') return;
			e.preventDefault();
			this.primary();
		}
	};

	/* Scrolls the verdict into view when it is not: from the question's
	 * top if the verdict fits below it, else from the verdict's. */
	QuizPage.prototype.showVerdict = function () {
		var r = this.verdictBox.getBoundingClientRect();
		if (r.top >= 0 && r.bottom <= window.innerHeight) return;
		var top = this.stage.getBoundingClientRect().top;
		if (r.bottom - top + 16 <= window.innerHeight) window.scrollBy(0, top - 8);
		else this.verdictBox.scrollIntoView({ block: 'start', behavior: 'auto' });
	};

	QuizPage.prototype.scrollToRunner = function () {
		var top = this.runner.getBoundingClientRect().top;
		if (top < 0 || top > window.innerHeight * 0.5) {
			var reduce = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
			this.runner.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
		}
	};

	/* Ends the test: scores it, saves it, shows the results. */
	QuizPage.prototype.finish = function () {
		var run = this.run;
		this.readChoice();
		run.done = true;
		var score = 0;
		run.items.forEach(function (item) {
			item.right = isRight(item);
			if (item.right) score++;
		});
		run.score = score;

		setReturn(this.returnKey, null);
		var state = loadState(this.key);
		state.current = null;
		pushAttempt(state, run, score, null);
		run.items.forEach(function (item) {
			if (item.chosen.length) state.seen[item.q.id] = { fp: item.q.fp, right: item.right };
		});
		/* Forget questions that are gone or changed. */
		var byId = this.byId;
		Object.keys(state.seen).forEach(function (id) {
			if (!byId[id] || byId[id].fp !== state.seen[id].fp) delete state.seen[id];
		});
		state.mastery = this.mastery(state);
		saveState(this.key, state);
		this.showResults();
		this.announce(I.t('quiz.said-finished', { score: I.num(score), total: I.num(run.items.length) }));
	};

	/* fromHistory: Back or Forward brought it, so no new step. */
	QuizPage.prototype.showResults = function (fromHistory) {
		var self = this, run = this.run;
		var total = run.items.length, score = run.score;
		var passed = score / total >= this.passMark - 1e-9;
		clear(this.stage);
		var box = el('div', 'run-results');
		var head = el('div', 'results-summary');
		box.appendChild(head);

		var title = el('h2', 'results-title', I.t('quiz.result'));
		title.tabIndex = -1;
		head.appendChild(title);
		var scoreLine = fillNodes(el('p', 'results-score'), I.t('quiz.score'), {
			fraction: el('span', 'results-fraction', I.t('quiz.score-of', { score: I.num(score), total: I.num(total) })),
			percent: el('span', 'results-percent', percentText(score, total))
		});
		head.appendChild(scoreLine);
		/* A retry asks only what was missed: no pass or fail. */
		var verdict;
		if (run.retry) {
			verdict = el('p', 'verdict results-retry', I.t('quiz.retry-note'));
		} else {
			verdict = el('p', 'verdict ' + (passed ? 'verdict-right' : 'verdict-wrong'));
			verdict.appendChild(icon(passed ? '✓' : '✗'));
			verdict.appendChild(document.createTextNode(' ' + I.t(passed ? 'quiz.passed' : 'quiz.not-passed',
				{ mark: percentText(this.passMark, 1) })));
		}
		head.appendChild(verdict);

		var missed = run.items.filter(function (item) { return !item.right; });
		var actions = el('div', 'results-actions');
		if (missed.length) {
			var retry = el('button', 'button primary', I.t('quiz.retry-missed', { n: I.num(missed.length) }));
			retry.type = 'button';
			retry.addEventListener('click', function () {
				var s = run.setup;
				self.start({ topic: s.topic, mix: s.mix, count: missed.length, reveal: run.reveal },
					shuffle(missed.map(function (item) { return item.q; })));
			});
			actions.appendChild(retry);
		}
		var again = el('button', 'button' + (missed.length ? '' : ' primary'), I.t('quiz.new-test'));
		again.type = 'button';
		again.addEventListener('click', function () { self.showSetup(); });
		actions.appendChild(again);
		head.appendChild(actions);

		box.appendChild(this.chart(I.t('quiz.by-topic'), run.items, function (item) {
			return item.q.topicTitle || item.q.topic || I.t('quiz.no-topic');
		}, false));
		box.appendChild(this.chart(I.t('quiz.by-difficulty'), run.items, function (item) { return item.q.level; }, true));
		box.appendChild(this.masteryBox(loadState(this.key), run.reveal, true));

		var deeper = this.deeper(missed);
		if (deeper) box.appendChild(deeper);
		box.appendChild(this.review());

		this.stage.appendChild(box);
		title.focus();
		this.scrollToRunner();
		this.setTitle(I.t('quiz.title-result', { score: I.num(score), total: I.num(total) }));
		if (!fromHistory) step({ quiz: 'results' }, false);
	};

	/* A small bar chart: one row per group, the value as text beside the bar;
	 * levels: the groups are difficulties, easy to hard. */
	QuizPage.prototype.chart = function (caption, items, groupOf, levels) {
		var groups = [], byName = {};
		items.forEach(function (item) {
			var name = groupOf(item);
			if (!byName[name]) {
				byName[name] = { name: name, right: 0, total: 0 };
				groups.push(byName[name]);
			}
			byName[name].total++;
			if (item.right) byName[name].right++;
		});
		if (levels) {
			groups.sort(function (a, b) { return LEVELS.indexOf(a.name) - LEVELS.indexOf(b.name); });
		}
		var section = el('section', 'results-chart');
		var h = el('h3', null, caption);
		section.appendChild(h);
		var list = el('ul', 'chart');
		groups.forEach(function (g) {
			var li = el('li', 'chart-row');
			li.appendChild(el('span', 'chart-label', levels ? levelName(g.name) : g.name));
			var bar = el('span', 'chart-bar');
			bar.setAttribute('aria-hidden', 'true');
			var fill = el('span', 'chart-fill');
			fill.style.width = percent(g.right, g.total) + '%';
			bar.appendChild(fill);
			li.appendChild(bar);
			li.appendChild(el('span', 'chart-value', I.t('quiz.chart-value',
				{ right: I.num(g.right), total: I.num(g.total), percent: percentText(g.right, g.total) })));
			list.appendChild(li);
		});
		section.appendChild(list);
		return section;
	};

	/* The guide sections linked from the missed questions' explanations. */
	QuizPage.prototype.deeper = function (missed) {
		var self = this, seen = {}, links = [];
		missed.forEach(function (item) {
			if (!item.q.explanation) return;
			var anchors = item.q.explanation.querySelectorAll('a[href]');
			for (var i = 0; i < anchors.length; i++) {
				var href = anchors[i].getAttribute('href');
				if (href.indexOf('guide/') < 0 || seen[href]) continue;
				seen[href] = true;
				links.push({ href: href, text: self.deeperTitles[href] || anchors[i].textContent.trim() });
			}
		});
		if (!links.length) return null;
		var section = el('section', 'results-deeper');
		section.appendChild(el('h3', null, I.t('quiz.deeper')));
		section.appendChild(el('p', null, I.t('quiz.deeper-note')));
		var list = el('ul');
		links.forEach(function (l) {
			var li = el('li');
			var a = el('a', null, l.text);
			a.setAttribute('href', l.href);
			li.appendChild(a);
			list.appendChild(li);
		});
		section.appendChild(list);
		return section;
	};

	/* Every question again: your answer, the right one, the explanation.
	 * The missed ones are open. */
	QuizPage.prototype.review = function () {
		var self = this, run = this.run;
		var section = el('section', 'results-review');
		section.appendChild(el('h3', null, I.t('quiz.review')));
		var list = el('ol', 'review-list');
		run.items.forEach(function (item, n) {
			var q = item.q;
			var li = el('li', 'review-item ' + (item.right ? 'is-right' : 'is-wrong'));
			li.setAttribute('data-id', q.id);
			var details = el('details', 'review-details');
			details.open = !item.right;
			var summary = el('summary', 'review-summary');
			var mark = el('span', 'verdict ' + (item.right ? 'verdict-right' : 'verdict-wrong'));
			mark.appendChild(icon(item.right ? '✓' : '✗'));
			mark.appendChild(document.createTextNode(' ' +
				I.t(item.right ? 'quiz.correct' : isAnswered(item) ? 'quiz.incorrect' : 'quiz.not-answered')));
			summary.appendChild(mark);
			summary.appendChild(el('span', 'review-number', I.t('quiz.review-number', { n: I.num(n + 1) })));
			summary.appendChild(cloneChildren(q.stem, el('span', 'review-stem')));
			details.appendChild(summary);

			var body = el('div', 'review-body');
			var meta = el('p', 'run-meta');
			meta.appendChild(el('span', 'difficulty difficulty-' + q.level, levelName(q.level)));
			if (q.topicTitle) {
				meta.appendChild(document.createTextNode(' '));
				meta.appendChild(el('span', 'run-topic', q.topicTitle));
			}
			body.appendChild(meta);
			if (q.typed) {
				self.typedReview(item, body);
			} else {
				var yours = lead(el('p', 'review-yours'), 'quiz.your-answer');
				if (item.chosen.length) self.appendAnswerText(q, item.chosen, yours);
				else yours.appendChild(document.createTextNode(I.t('quiz.yours-none')));
				body.appendChild(yours);
				if (!item.right) {
					var right = lead(el('p', 'review-right'), 'quiz.right-answer');
					self.appendAnswerText(q, correctIndexes(q), right);
					body.appendChild(right);
				}
			}
			item.chosen.forEach(function (i) {
				if (q.options[i].feedback)
					body.appendChild(cloneChildren(q.options[i].feedback, el('div', 'run-feedback')));
			});
			if (q.explanation) body.appendChild(cloneChildren(q.explanation, el('div', 'run-explanation')));
			var revisit = el('button', 'button quiet review-open', I.t('quiz.review-open', { n: I.num(n + 1) }));
			revisit.type = 'button';
			revisit.addEventListener('click', function () { self.go(n); });
			body.appendChild(revisit);
			details.appendChild(body);
			li.appendChild(details);
			list.appendChild(li);
		});
		section.appendChild(list);
		return section;
	};

	/* Back to the set-up screen, with the history brought up to date.
	 * fromHistory: Back brought it, so no new step, and a test in progress
	 * stays (in memory too, should storage fail) for Forward or Resume. */
	QuizPage.prototype.showSetup = function (fromHistory) {
		this.parked = fromHistory && this.run && !this.run.done ? this.run : null;
		this.run = null;
		clear(this.runner);
		this.runner.hidden = true;
		this.hideWhileRunning.forEach(function (node) { node.hidden = false; });
		this.renderHistory();
		this.renderResume();
		this.setTitle(null);
		if (!fromHistory) step({ quiz: 'setup' }, false);
		var title = document.getElementById('setup-title');
		if (title) {
			title.tabIndex = -1;
			title.focus();
		}
		this.setup.scrollIntoView({ block: 'start' });
	};

	QuizPage.prototype.topicName = function (slug) {
		if (!slug) return I.t('quiz.all-topics');
		for (var i = 0; i < this.bank.length; i++)
			if (this.bank[i].topic === slug && this.bank[i].topicTitle) return this.bank[i].topicTitle;
		return slug;
	};

	QuizPage.prototype.renderHistory = function () {
		var self = this, box = this.historyEl;
		if (!box) return;
		var state = loadState(this.key);
		clear(box);
		if (!state.attempts.length) {
			box.hidden = true;
			return;
		}
		box.appendChild(el('h3', 'history-title', I.t('quiz.history')));
		var list = el('ol', 'history-list');
		state.attempts.slice(-SHOWN_ATTEMPTS).reverse().forEach(function (a) {
			var li = el('li', 'history-item');
			var when = el('time', 'history-date', formatDate(a.at));
			when.setAttribute('datetime', a.at);
			li.appendChild(when);
			var what = a.retry === true ?
				I.t('quiz.history-setup-retry', { topic: self.topicName(a.topic), retry: I.plural('quiz.history-retry', a.total) }) :
				I.t('quiz.history-setup', { topic: self.topicName(a.topic), mix: I.t('quiz.mix-' + (MIXES[a.mix] ? a.mix : 'steady')),
					questions: I.plural('quiz.questions', a.total) });
			li.appendChild(el('span', 'history-setup', what));
			var nums = { score: I.num(a.score), total: I.num(a.total) };
			if (a.retry === true && a.left !== true) {
				li.appendChild(el('span', 'history-score history-retry', I.t('quiz.history-retry-score', nums)));
				list.appendChild(li);
				return;
			}
			if (a.left === true) {
				nums.answered = I.num(typeof a.answered === 'number' ? a.answered : a.score);
				li.appendChild(el('span', 'history-score history-left', I.t('quiz.history-left', nums)));
				list.appendChild(li);
				return;
			}
			var passed = a.score / a.total >= self.passMark - 1e-9;
			var score = el('span', 'history-score ' + (passed ? 'verdict-right' : 'verdict-wrong'));
			score.appendChild(icon(passed ? '✓' : '✗'));
			nums.percent = percentText(a.score, a.total);
			score.appendChild(document.createTextNode(' ' + I.t('quiz.history-score', nums)));
			li.appendChild(score);
			list.appendChild(li);
		});
		box.appendChild(list);

		var rightOnce = 0;
		this.bank.forEach(function (q) {
			var s = state.seen[q.id];
			if (s && s.fp === q.fp && s.right) rightOnce++;
		});
		box.appendChild(el('p', 'history-known',
			I.plural('quiz.history-known', this.bank.length, { right: I.num(rightOnce) })));
		box.appendChild(this.masteryBox(state, null, false));

		var reset = el('button', 'button quiet history-reset', I.t('quiz.history-clear'));
		reset.type = 'button';
		reset.addEventListener('click', function () {
			removeState(self.key);
			self.renderHistory();
			var note = el('p', 'history-cleared', I.t('quiz.history-cleared'));
			note.setAttribute('role', 'status');
			box.hidden = false;
			box.appendChild(note);
		});
		box.appendChild(reset);
		box.hidden = false;
	};

	/* ---- mastery per topic, the tab's title, the single-key switch ---- */

	/* Per topic, in the bank's order, of the questions a test on it draws. */
	QuizPage.prototype.mastery = function (state) {
		var self = this, list = [], done = {};
		this.bank.forEach(function (q) {
			if (!q.topic || done[q.topic]) return;
			done[q.topic] = true;
			var m = { topic: q.topic, title: q.topicTitle || q.topic, right: 0, seen: 0, total: 0 };
			self.pool(q.topic).forEach(function (p) {
				var s = state.seen[p.id];
				m.total++;
				if (!s || s.fp !== p.fp) return;
				m.seen++;
				if (s.right) m.right++;
			});
			list.push(m);
		});
		return list;
	};

	/* "Mastery by topic": each topic's share last answered right (tried:
	 * only the topics answered at least once); a topic tried and under the
	 * pass mark offers a test on it (reveal: the one just taken's, or the form's). */
	QuizPage.prototype.masteryBox = function (state, reveal, tried) {
		var self = this;
		var section = el('section', 'results-chart mastery');
		section.appendChild(el('h3', null, I.t('quiz.mastery')));
		section.appendChild(el('p', 'mastery-note', I.t('quiz.mastery-note')));
		var list = el('ul', 'chart');
		this.mastery(state).forEach(function (m) {
			if (tried && !m.seen) return;
			var li = el('li', 'chart-row mastery-row');
			li.appendChild(el('span', 'chart-label', m.title));
			var bar = el('span', 'chart-bar');
			bar.setAttribute('aria-hidden', 'true');
			var fill = el('span', 'chart-fill');
			fill.style.width = percent(m.right, m.total) + '%';
			bar.appendChild(fill);
			li.appendChild(bar);
			li.appendChild(el('span', 'chart-value', I.t(m.seen ? 'quiz.chart-value' : 'quiz.mastery-untried',
				{ right: I.num(m.right), total: I.num(m.total), percent: percentText(m.right, m.total) })));
			if (m.seen && m.right / m.total < self.passMark - 1e-9) {
				var go = el('button', 'button quiet mastery-practise', I.t('quiz.practise'));
				go.type = 'button';
				go.setAttribute('aria-label', I.t('quiz.practise-label', { topic: m.title }));
				go.addEventListener('click', function () { self.practise(m.topic, reveal); });
				li.appendChild(go);
			}
			list.appendChild(li);
		});
		section.appendChild(list);
		return section;
	};

	/* A new test on one topic, of the usual length, as if set up by hand. */
	QuizPage.prototype.practise = function (topic, reveal) {
		if (this.topicSelect) this.topicSelect.value = topic;
		if (this.countInput) this.countInput.value = String(this.defaultCount);
		if (reveal) this.setRadio('reveal', reveal);
		this.updateSetup(false);
		var s = this.readSetup();
		this.writeUrl(s);
		this.start(s, null);
	};

	/* The tab says where the test is; null: the page's own title. */
	QuizPage.prototype.setTitle = function (what) {
		document.title = what ? I.t('quiz.title', { what: what, page: this.pageTitle }) : this.pageTitle;
	};

	function readSettings(key) {
		try {
			var s = JSON.parse(window.localStorage.getItem(key) || 'null');
			return s && typeof s === 'object' && !Array.isArray(s) ? s : {};
		} catch (e) {
			return {};
		}
	}

	var keysChosen = null;        /* the switch's state on this page, should storage fail */

	function singleKeys(key) {
		if (keysChosen !== null) return keysChosen;
		return readSettings(key).singleKeys !== false;
	}

	/* "Single-key shortcuts" under the set-up form: the setting is merged into the shared object. */
	QuizPage.prototype.keysSwitch = function () {
		var key = this.settingsKey;
		var p = el('p', 'keys-switch');
		var label = el('label');
		var box = el('input');
		box.type = 'checkbox';
		box.checked = singleKeys(key);
		label.appendChild(box);
		label.appendChild(document.createTextNode(' ' + I.t('quiz.keys-switch')));
		p.appendChild(label);
		p.appendChild(el('span', 'keys-switch-note', ' ' + I.t('quiz.keys-switch-note')));
		box.addEventListener('change', function () {
			keysChosen = box.checked;
			var s = readSettings(key);
			s.singleKeys = box.checked;
			try {
				window.localStorage.setItem(key, JSON.stringify(s));
			} catch (e) {
				/* not remembered: it holds for this page */
			}
		});
		this.form.parentNode.insertBefore(p, this.form.nextSibling);
	};

	/* ---- typed answers (answer.js scores them) ---- */

	/* Whether a question of the run has an answer: a choice, or something typed. */
	function isAnswered(item) {
		return item.q.typed ? !!(item.typed && item.typed.replace(/\s+/g, '')) : item.chosen.length > 0;
	}

	/* What stops Check on a typed answer, in words, or null. */
	function typedProblem(item) {
		var r = window.quizdeckAnswer.score(item.q.typed, item.typed);
		if (r.problem === 'empty') return I.t('quiz.type-first');
		if (r.problem === 'not-a-number')
			return I.t(item.q.typed.decimalComma ? 'quiz.not-a-number-comma' : 'quiz.not-a-number');
		return null;
	}

	/* Text as typed or as the author wrote it: a program's output as a block. */
	function typedNode(q, text) {
		if (q.typed.kind === 'output') {
			var pre = el('pre', 'run-typed-text');
			pre.appendChild(el('code', null, text));
			return pre;
		}
		return el('span', 'run-typed-text', text);
	}

	/* "The right answer: ..." with any others accepted; a block for an output. */
	function typedRight(q) {
		var box = el('div', 'run-answer');
		var head = lead(el('p', null), 'quiz.right-answer');
		box.appendChild(head);
		var accepted = q.options.filter(function (o) { return o.correct; });
		var output = q.typed.kind === 'output';
		if (accepted.length) (output ? box : head).appendChild(typedNode(q, accepted[0].answer));
		if (accepted.length > 1 && output) {
			head.appendChild(document.createTextNode(' ' + I.t('quiz.also-accepted-below')));
			accepted.slice(1).forEach(function (o) { box.appendChild(typedNode(q, o.answer)); });
		} else if (accepted.length > 1) {
			var others = document.createDocumentFragment();
			accepted.slice(1).forEach(function (o, k) {
				if (k) others.appendChild(document.createTextNode(I.t('quiz.answers-separator')));
				others.appendChild(typedNode(q, o.answer));
			});
			head.appendChild(document.createTextNode(' '));
			fillNodes(head, I.t('quiz.also-accepted'), { answers: others });
		}
		return box;
	}

	/* "Your answer: ...", and the feedback of the answer it matched. */
	function typedYours(item, to) {
		var q = item.q;
		var yours = lead(el(q.typed.kind === 'output' ? 'div' : 'p', 'review-yours'), 'quiz.your-answer');
		if (isAnswered(item)) yours.appendChild(typedNode(q, item.typed));
		else yours.appendChild(document.createTextNode(I.t('quiz.yours-none')));
		to.appendChild(yours);
		var r = window.quizdeckAnswer.score(q.typed, item.typed);
		if (r.problem === 'not-a-number')
			to.appendChild(el('p', 'run-feedback', I.t('quiz.not-read-as-number')));
		var hit = r.match >= 0 ? q.options[r.match] : null;
		if (hit && hit.feedback) {
			var about = el('div', 'run-feedback run-feedback-yours');
			var p = el('p', 'run-feedback-lead');
			p.appendChild(el('strong', null, I.t('quiz.feedback-on-typed')));
			about.appendChild(p);
			cloneChildren(hit.feedback, about);
			to.appendChild(about);
		}
		return r;
	}

	/* The input box of a typed question, described by what it accepts. */
	QuizPage.prototype.typedField = function (item, shown) {
		var self = this, t = item.q.typed;
		var box = el('div', 'run-typed');
		var label = el('label', 'run-typed-label', I.t(t.kind === 'output' ? 'quiz.typed-label-output' : 'quiz.typed-label'));
		label.htmlFor = 'run-typed-input';
		var input = el(t.kind === 'output' ? 'textarea' : 'input', 'run-typed-input');
		input.id = 'run-typed-input';
		if (t.kind === 'output') {
			var lines = 1;
			t.answers.forEach(function (a) { lines = Math.max(lines, a.answer.split('\n').length); });
			input.rows = Math.min(12, lines + 1);
		} else {
			input.type = 'text';
			if (t.kind === 'number') input.inputMode = 'decimal';
		}
		input.setAttribute('autocomplete', 'off');
		input.setAttribute('autocapitalize', 'off');
		input.spellcheck = false;
		input.value = item.typed || '';
		input.readOnly = shown;
		input.addEventListener('input', function () { self.readChoice(); });
		box.appendChild(label);
		box.appendChild(input);
		if (t.prompt) {
			var help = cloneChildren(t.prompt, el('p', 'run-typed-help'));
			help.id = 'run-typed-help';
			input.setAttribute('aria-describedby', 'run-typed-help');
			box.appendChild(help);
		}
		if (shown && isAnswered(item)) box.appendChild(optionTag(isRight(item), true));
		this.typedInput = input;
		return box;
	};

	/* The verdict of a typed question: right or wrong, what was typed and
	 * its feedback, the right answer. */
	QuizPage.prototype.typedVerdict = function (item) {
		var box = el('div', 'run-verdict');
		box.tabIndex = -1;
		var right = isRight(item);
		var line = el('p', 'verdict ' + (right ? 'verdict-right' : 'verdict-wrong'));
		line.appendChild(icon(right ? '✓' : '✗'));
		line.appendChild(document.createTextNode(' ' +
			I.t(right ? 'quiz.correct' : isAnswered(item) ? 'quiz.incorrect' : 'quiz.not-answered')));
		box.appendChild(line);
		typedYours(item, box);
		if (!right) box.appendChild(typedRight(item.q));
		return box;
	};

	/* A typed question in the review: what was typed, its feedback, the right answer. */
	QuizPage.prototype.typedReview = function (item, body) {
		typedYours(item, body);
		if (!item.right) body.appendChild(typedRight(item.q));
	};

	function formatDate(iso) {
		var d = new Date(iso);
		if (isNaN(d.getTime())) return iso;
		try {
			return I.date(d, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
		} catch (e) {
			return d.toISOString().slice(0, 16).replace('T', ' ');
		}
	}

	function init() {
		var form = document.getElementById('quiz-form');
		/* answer.js scores and i18n.js has the words; a theme that does not
		 * load them keeps the page as printed. */
		I = window.quizdeckI18n;
		if (!form || !document.getElementById('setup') || !document.getElementById('runner') ||
		    !document.getElementById('questions') || !window.quizdeckAnswer || !I)
			return;

		new QuizPage(form);
	}

	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
	else init();
}());
