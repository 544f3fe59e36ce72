/*
 * site.js: on every page. Marks the page as scripted, so CSS can tell.
 *
 * On the home page it fills #dashboard (hidden in the page, so a reader
 * without script meets nothing) from what quiz.js and cards.js keep in
 * localStorage under "quizdeck:v2:<site>:" (their headers describe the
 * records): the last score of each test, the weakest topic, the cards
 * due in each deck (by the rule cards.js takes from here,
 * window.quizdeckCards), and a first visit's welcome. It also exports every
 * such key to a file and imports one back, merged or replacing, after
 * asking; and holds the single-key shortcuts switch, the settings
 * record's singleKeys, shared with the other scripts.
 *
 * On a chapter, a figure's link opens its picture in a full-screen view.
 *
 * On a guide page (a chapter or the contents) opened from a question of a test in progress (quiz.js
 * leaves sessionStorage["quizdeck:v2:<site>:return"] for this tab), it
 * offers "Back to question N" at the top of the page: a link to the test
 * with #resume, which goes on where the learner was. The offer goes once
 * the test has no test in progress saved (finished or left).
 */
(function () {
	"use strict";
	var I = window.quizdeckI18n;
	document.documentElement.classList.remove("no-js");

	function offerReturn() {
		var body = document.body;
		var main = document.getElementById("main");
		if (!body || !main || !(body.classList.contains("page-chapter") || body.classList.contains("page-guide"))) return;
		var site = body.getAttribute("data-site") || "";
		var back, saved;
		try {
			back = JSON.parse(window.sessionStorage.getItem("quizdeck:v2:" + site + ":return") || "null");
			saved = JSON.parse(window.localStorage.getItem("quizdeck:v2:" + site + ":test:" + (back && back.slug)) || "null");
		} catch (e) {
			return;
		}
		if (!back || typeof back.url !== "string" || !/^(file|https?):/.test(back.url) ||
		    typeof back.question !== "number" || !saved || !saved.current)
			return;
		var p = document.createElement("p");
		p.className = "return-to-test";
		var a = document.createElement("a");
		a.href = back.url + "#resume";
		var of = typeof back.total === "number", inTest = typeof back.title === "string" && back.title !== "";
		a.textContent = I.t(of ? (inTest ? "guide.back-to-question-of-in" : "guide.back-to-question-of") :
			(inTest ? "guide.back-to-question-in" : "guide.back-to-question"),
			{ n: I.num(back.question), total: of ? I.num(back.total) : "", title: back.title });
		p.appendChild(a);
		main.insertBefore(p, main.firstChild);
	}

	/*
	 * A guide page's figures (render.c writes p.figure > a.figure-link >
	 * img): the link opens the picture in a full-screen view instead of
	 * leaving the page, closed by its button or Escape, the focus going
	 * back to the link. A click with a modifier key still follows the
	 * link. Each figure says whether it fits or is scrolled to its end,
	 * for the CSS's scroll cue.
	 */
	function figureScroll(fig, link) {
		var room = link.scrollWidth - link.clientWidth;
		fig.classList.toggle("figure-fits", room <= 1);
		/* Right to left, scrollLeft runs from 0 down to -room. */
		fig.classList.toggle("figure-end", room > 1 && Math.abs(link.scrollLeft) >= room - 1);
	}

	function openFigure(link) {
		var img = link.querySelector("img");
		if (!img || typeof document.createElement("dialog").showModal !== "function") return false;
		var view = document.createElement("dialog");
		view.className = "figure-view";
		view.setAttribute("aria-label", img.getAttribute("alt") || "");
		var bar = document.createElement("div");
		bar.className = "figure-view-bar";
		var close = document.createElement("button");
		close.type = "button";
		close.className = "button";
		close.textContent = I.t("guide.figure-close");
		close.addEventListener("click", function () { view.close(); });
		bar.appendChild(close);
		view.appendChild(bar);
		var big = document.createElement("img");
		big.className = "figure-view-picture";
		big.src = img.currentSrc || img.src;
		big.alt = img.getAttribute("alt") || "";
		view.appendChild(big);
		view.addEventListener("close", function () {
			view.parentNode.removeChild(view);
			link.focus();
		});
		document.body.appendChild(view);
		view.showModal();
		close.focus();
		return true;
	}

	function enhanceFigures() {
		var figs = document.querySelectorAll(".chapter .figure");
		Array.prototype.forEach.call(figs, function (fig) {
			var link = fig.querySelector(".figure-link");
			if (!link) return;
			var update = function () { figureScroll(fig, link); };
			link.addEventListener("scroll", update, { passive: true });
			window.addEventListener("resize", update);
			var img = link.querySelector("img");
			if (img && !img.complete) img.addEventListener("load", update);
			update();
			link.addEventListener("click", function (e) {
				if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
				if (openFigure(link)) e.preventDefault();
			});
		});
	}

	function ready() {
		offerReturn();
		enhanceFigures();
		var dash = document.getElementById("dashboard");
		if (dash && document.body.classList.contains("page-home")) new Dashboard(dash);
	}

	/* ---- storage: every access guarded ---- */

	function readKey(key) {
		try {
			var raw = window.localStorage.getItem(key);
			return raw ? JSON.parse(raw) : null;
		} catch (e) {
			return null;
		}
	}

	function writeKey(key, value) {
		try {
			if (value === null) window.localStorage.removeItem(key);
			else window.localStorage.setItem(key, JSON.stringify(value));
			return true;
		} catch (e) {
			return false;
		}
	}

	/* Every key of this site's, without its prefix ("test:x", "deck:y", "settings"), sorted. */
	function siteKeys(prefix) {
		var out = [];
		try {
			for (var i = 0; i < window.localStorage.length; i++) {
				var k = window.localStorage.key(i);
				if (k && k.indexOf(prefix) === 0) out.push(k.slice(prefix.length));
			}
		} catch (e) {
			return [];
		}
		return out.sort();
	}

	function isObject(x) {
		return x !== null && typeof x === "object" && !Array.isArray(x);
	}

	function el(tag, className, text) {
		var node = document.createElement(tag);
		if (className) node.className = className;
		if (text !== undefined && text !== null) node.textContent = text;
		return node;
	}

	function button(text, className, onClick) {
		var b = el("button", "button" + (className ? " " + className : ""), text);
		b.type = "button";
		b.addEventListener("click", onClick);
		return b;
	}

	/* "60%" as the language writes it. */
	function percent(part, whole) {
		return I.num(whole ? Math.round(100 * part / whole) / 100 : 0, { style: "percent" });
	}

	/* ---- what the records say ---- */

	var DAY = 86400000;
	var LEARN_AHEAD = 20 * 60000;   /* a learning card this close to due is shown now */
	var NEW_CARDS_PER_DAY = 20;     /* cards.js's default */

	function dayNumber(ms) {
		var d = new Date(ms);
		return Math.round(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / DAY);
	}

	function today(now) {
		var d = new Date(now);
		return d.getFullYear() + "-" + ("0" + (d.getMonth() + 1)).slice(-2) + "-" + ("0" + d.getDate()).slice(-2);
	}

	/* The last finished attempt of a test's record, or null. */
	function lastScore(rec) {
		if (!isObject(rec) || !Array.isArray(rec.attempts)) return null;
		for (var i = rec.attempts.length - 1; i >= 0; i--) {
			var a = rec.attempts[i];
			if (isObject(a) && a.left !== true && typeof a.score === "number" && typeof a.total === "number" &&
			    a.total > 0 && a.score >= 0 && a.score <= a.total)
				return a;
		}
		return null;
	}

	function isNum(x) {
		return typeof x === "number" && isFinite(x);
	}

	/*
	 * The deck records' rule, in one place: cards.js (on a deck's page,
	 * run after this script) takes it from window.quizdeckCards, and the
	 * home page counts with it, so both say the same number of cards due.
	 *
	 * validRecord(c): 1 when c is a card's saved record cards.js can
	 * schedule (its header describes the record); others are dropped.
	 *
	 * dueCards(rec, cards, perDay, now): the ids a session of "cards due"
	 * holds, in its order. rec is a deck's stored record (or null), cards
	 * the deck's cards in order as { id, fp }. A card whose record is
	 * missing, invalid or of another fingerprint (its text changed) is
	 * new. Review cards whose due day has come and learning cards due
	 * within LEARN_AHEAD come first, earliest due first; then new cards,
	 * in deck order, up to what is left of the day's limit perDay.
	 */
	function validRecord(c) {
		return isObject(c) && typeof c.fp === "string" && (c.state === 1 || c.state === 2 || c.state === 3) &&
			isNum(c.step) && c.step >= 0 && isNum(c.s) && c.s > 0 && isNum(c.d) && c.d >= 1 && c.d <= 10 &&
			isNum(c.due) && isNum(c.last) && isNum(c.ivl) && c.ivl >= 0 && isNum(c.reps) && isNum(c.lapses);
	}

	function dueCards(rec, cards, perDay, now) {
		var ok = isObject(rec) && rec.v === 2 && isObject(rec.cards);
		var saved = ok ? rec.cards : {};
		var due = [], fresh = [];
		cards.forEach(function (card, i) {
			var r = Object.prototype.hasOwnProperty.call(saved, card.id) ? saved[card.id] : null;
			if (!validRecord(r) || r.fp !== card.fp) fresh.push(card.id);
			else if (r.state === 2 ? dayNumber(r.due) <= dayNumber(now) : r.due <= now + LEARN_AHEAD)
				due.push({ id: card.id, due: r.due, i: i });
		});
		due.sort(function (a, b) { return a.due - b.due || a.i - b.i; });
		var newToday = ok && rec.day === today(now) && isNum(rec.newToday) ? rec.newToday : 0;
		return due.map(function (d) { return d.id; }).concat(fresh.slice(0, Math.max(0, perDay - newToday)));
	}

	window.quizdeckCards = { validRecord: validRecord, dueCards: dueCards };

	/* A deck's cards as the home page lists them: data-card-prints="<id>:<fingerprint> ...". */
	function cardPrints(text) {
		return String(text || "").split(" ").filter(function (p) { return p.length > 17; }).map(function (p) {
			return { id: p.slice(0, -17), fp: p.slice(-16) };
		});
	}

	/* ---- the home page's dashboard ---- */

	function Dashboard(root) {
		this.root = root;
		this.site = document.body.getAttribute("data-site") || "";
		this.prefix = "quizdeck:v2:" + this.site + ":";
		this.settingsKey = this.prefix + "settings";
		this.render();
		root.hidden = false;
	}

	Dashboard.prototype.entries = function (attr) {
		var out = [];
		var items = document.querySelectorAll("main li.entry[" + attr + "]");
		for (var i = 0; i < items.length; i++) {
			var a = items[i].querySelector(".entry-title a");
			if (!a) continue;
			out.push({ slug: items[i].getAttribute(attr), title: a.textContent.trim(), url: a.getAttribute("href"),
				cards: cardPrints(items[i].getAttribute("data-card-prints")) });
		}
		return out;
	};

	Dashboard.prototype.render = function () {
		var root = this.root;
		var title = document.getElementById("dashboard-title");
		while (root.lastChild && root.lastChild !== title) root.removeChild(root.lastChild);
		var tests = this.entries("data-test"), decks = this.entries("data-deck");
		var keys = siteKeys(this.prefix).filter(function (k) { return k !== "settings"; });
		if (!keys.length) {
			root.appendChild(el("p", "dashboard-empty", I.t("dashboard.empty")));
		} else {
			var list = el("ul", "dashboard-list");
			this.testLines(tests, list);
			this.weakest(tests, list);
			this.deckLines(decks, list);
			root.appendChild(list);
		}
		this.tools(keys.length > 0);
	};

	Dashboard.prototype.line = function (list, label, text, link, linkText) {
		var li = el("li", "dashboard-item");
		li.appendChild(el("span", "dashboard-label", label));
		li.appendChild(el("span", "dashboard-value", text));
		if (link) {
			var a = el("a", "dashboard-link", linkText);
			a.href = link;
			li.appendChild(a);
		}
		list.appendChild(li);
	};

	Dashboard.prototype.testLines = function (tests, list) {
		var self = this;
		tests.forEach(function (t) {
			var a = lastScore(readKey(self.prefix + "test:" + t.slug));
			var label = tests.length === 1 ? I.t("dashboard.practice-test") : t.title;
			if (!a) {
				self.line(list, label, I.t("dashboard.not-taken"), t.url, I.t("dashboard.take-test"));
				return;
			}
			self.line(list, label, I.t(a.retry === true ? "dashboard.last-score-retry" : "dashboard.last-score",
				{ score: I.num(a.score), total: I.num(a.total), percent: percent(a.score, a.total) }),
				t.url, I.t("dashboard.take-another"));
		});
	};

	/* The topic with the lowest share last answered right, among those tried, over every test. */
	Dashboard.prototype.weakest = function (tests, list) {
		var self = this, worst = null;
		tests.forEach(function (t) {
			var rec = readKey(self.prefix + "test:" + t.slug);
			if (!isObject(rec) || !Array.isArray(rec.mastery)) return;
			rec.mastery.forEach(function (m) {
				if (!isObject(m) || typeof m.topic !== "string" || typeof m.title !== "string" || !(m.total > 0) ||
				    !(m.seen > 0) || !(m.right >= 0))
					return;
				var share = m.right / m.total;
				if (!worst || share < worst.share) worst = { share: share, m: m, test: t };
			});
		});
		if (!worst || worst.share >= 1) return;
		this.line(list, I.t("dashboard.weakest"),
			I.plural(tests.length === 1 ? "dashboard.weakest-topic" : "dashboard.weakest-topic-in", worst.m.total,
				{ topic: worst.m.title, test: worst.test.title, right: I.num(worst.m.right) }),
			worst.test.url + "?topic=" + encodeURIComponent(worst.m.topic), I.t("dashboard.practise-topic"));
	};

	Dashboard.prototype.deckLines = function (decks, list) {
		var self = this, now = Date.now();
		var settings = readKey(this.settingsKey);
		var perDay = isObject(settings) && isNum(settings.newCardsPerDay) && settings.newCardsPerDay >= 0 ?
			Math.floor(settings.newCardsPerDay) : NEW_CARDS_PER_DAY;
		decks.forEach(function (d) {
			var n = dueCards(readKey(self.prefix + "deck:" + d.slug), d.cards, perDay, now).length;
			self.line(list, decks.length === 1 ? I.t("dashboard.flashcards") : d.title,
				n ? I.plural("dashboard.cards-due", n) : I.t("dashboard.no-cards-due"), d.url,
				I.t(n ? "dashboard.study-them" : "dashboard.open-deck"));
		});
	};

	/* ---- export, import, the single-key switch ---- */

	Dashboard.prototype.tools = function (any) {
		var self = this;
		var box = el("div", "dashboard-tools");
		if (any) box.appendChild(button(I.t("progress.export"), "quiet", function () { self.exportFile(); }));
		var file = el("input", "visually-hidden");
		file.type = "file";
		file.accept = ".json,application/json";
		file.tabIndex = -1;
		file.setAttribute("aria-hidden", "true");
		file.addEventListener("change", function () {
			if (file.files && file.files[0]) self.readFile(file.files[0]);
			file.value = "";
		});
		this.importButton = button(I.t("progress.import"), "quiet", function () { file.click(); });
		box.appendChild(this.importButton);
		box.appendChild(file);

		var label = el("label", "keys-switch");
		var check = el("input");
		check.type = "checkbox";
		var s = readKey(this.settingsKey);
		check.checked = !(isObject(s) && s.singleKeys === false);
		check.addEventListener("change", function () {
			var cur = readKey(self.settingsKey);
			if (!isObject(cur)) cur = {};
			cur.singleKeys = check.checked;
			writeKey(self.settingsKey, cur);
		});
		label.appendChild(check);
		label.appendChild(document.createTextNode(" " + I.t("cards.single-keys")));
		box.appendChild(label);
		this.root.appendChild(box);
		this.message = el("p", "dashboard-message");
		this.message.setAttribute("role", "status");
		this.root.appendChild(this.message);
	};

	Dashboard.prototype.exportFile = function () {
		var self = this, keys = {};
		siteKeys(this.prefix).forEach(function (k) {
			var v = readKey(self.prefix + k);
			if (v !== null) keys[k] = v;
		});
		var now = new Date();
		var data = { quizdeck: "progress", version: 1, site: this.site,
			title: (document.querySelector(".site-title") || {}).textContent || "", exported: now.toISOString(), keys: keys };
		var blob = new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" });
		var a = el("a");
		a.href = URL.createObjectURL(blob);
		a.download = "progress-" + (this.site || "site").replace(/[^A-Za-z0-9_-]+/g, "-") + "-" +
			now.toISOString().slice(0, 10) + ".json";
		document.body.appendChild(a);
		a.click();
		document.body.removeChild(a);
		window.setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
		this.say(I.t("progress.exported", { file: a.download }));
	};

	Dashboard.prototype.say = function (text) {
		this.message.textContent = text;
	};

	/* What is wrong with the export file's data, as the message to show, or "". */
	function exportProblem(data, file) {
		if (!isObject(data) || data.quizdeck !== "progress") return I.t("progress.not-export", { file: file });
		if (data.version !== 1) return I.t("progress.bad-version", { file: file, version: String(data.version) });
		if (!isObject(data.keys)) return I.t("progress.no-records", { file: file });
		var names = Object.keys(data.keys);
		for (var i = 0; i < names.length; i++) {
			if (!/^(test|deck):[^\s]+$|^settings$/.test(names[i])) return I.t("progress.unknown-record", { file: file, record: names[i] });
			if (!isObject(data.keys[names[i]])) return I.t("progress.bad-record", { file: file, record: names[i] });
		}
		return "";
	}

	Dashboard.prototype.readFile = function (file) {
		var self = this;
		if (file.size > 8 * 1024 * 1024) {
			this.say(I.t("progress.too-large", { file: file.name }));
			return;
		}
		var reader = new FileReader();
		reader.onload = function () {
			var data;
			try {
				data = JSON.parse(String(reader.result));
			} catch (e) {
				self.say(I.t("progress.not-json", { file: file.name }));
				return;
			}
			var why = exportProblem(data, file.name);
			if (why) self.say(why);
			else self.ask(data, file.name);
		};
		reader.onerror = function () { self.say(I.t("progress.unreadable", { file: file.name })); };
		reader.readAsText(file);
	};

	/* Asks how to import: merge, replace or not at all. */
	Dashboard.prototype.ask = function (data, name) {
		var self = this;
		var old = document.getElementById("dashboard-confirm");
		if (old) old.parentNode.removeChild(old);
		var names = Object.keys(data.keys);
		var tests = names.filter(function (k) { return k.indexOf("test:") === 0; }).length;
		var decks = names.filter(function (k) { return k.indexOf("deck:") === 0; }).length;
		var box = el("div", "dashboard-confirm");
		box.id = "dashboard-confirm";
		box.setAttribute("role", "alertdialog");
		box.setAttribute("aria-labelledby", "dashboard-confirm-text");
		var when = typeof data.exported === "string" ? new Date(data.exported) : null;
		var said = [I.t("progress.ask", { file: name, tests: I.plural("progress.ask-tests", tests),
			decks: I.plural("progress.ask-decks", decks) })];
		if (when && !isNaN(when.getTime()))
			said.push(I.t("progress.ask-date", { date: I.date(when, { year: "numeric", month: "long", day: "numeric" }) }));
		if (data.site !== this.site) said.push(I.t("progress.ask-other-site"));
		said.push(I.t("progress.ask-how"));
		var text = el("p", null, said.join(" "));
		text.id = "dashboard-confirm-text";
		box.appendChild(text);
		var actions = el("div", "dashboard-actions");
		function done(how) {
			box.parentNode.removeChild(box);
			if (how) self.importData(data, how);
			self.render();
			/* The question is gone: the focus goes back to where it was asked from. */
			self.importButton.focus();
			self.say(I.t(how === "merge" ? "progress.merged" : how ? "progress.replaced" : "progress.nothing"));
		}
		var merge = button(I.t("progress.merge"), "primary", function () { done("merge"); });
		actions.appendChild(merge);
		actions.appendChild(button(I.t("progress.replace"), "", function () { done("replace"); }));
		actions.appendChild(button(I.t("progress.cancel"), "quiet", function () { done(null); }));
		box.appendChild(actions);
		this.root.appendChild(box);
		merge.focus();
	};

	Dashboard.prototype.importData = function (data, how) {
		var self = this;
		if (how === "replace")
			siteKeys(this.prefix).forEach(function (k) { writeKey(self.prefix + k, null); });
		Object.keys(data.keys).forEach(function (k) {
			var mine = how === "merge" ? readKey(self.prefix + k) : null;
			writeKey(self.prefix + k, isObject(mine) ? mergeRecord(k, mine, data.keys[k]) : data.keys[k]);
		});
	};

	function latest(attempts) {
		var at = "";
		(Array.isArray(attempts) ? attempts : []).forEach(function (a) {
			if (isObject(a) && typeof a.at === "string" && a.at > at) at = a.at;
		});
		return at;
	}

	/*
	 * One record from two: a test's attempts are joined (each once, by
	 * time, the last 50 as quiz.js keeps), its last results taken from the
	 * side tested last; a deck's cards each from the side that reviewed it
	 * last; settings and anything else stay as this browser has them, the
	 * file filling what is missing.
	 */
	function mergeRecord(name, mine, theirs) {
		var out = {}, k;
		if (name.indexOf("test:") === 0) {
			var newer = latest(theirs.attempts) > latest(mine.attempts) ? theirs : mine;
			var seenAt = {}, attempts = [];
			[mine, theirs].forEach(function (r) {
				(Array.isArray(r.attempts) ? r.attempts : []).forEach(function (a) {
					var id = isObject(a) ? a.at + "|" + a.score + "|" + a.total : "";
					if (id && !seenAt[id]) {
						seenAt[id] = true;
						attempts.push(a);
					}
				});
			});
			attempts.sort(function (a, b) { return a.at < b.at ? -1 : a.at > b.at ? 1 : 0; });
			out.attempts = attempts.slice(-50);
			out.seen = {};
			[newer === mine ? theirs : mine, newer].forEach(function (r) {
				if (isObject(r.seen)) for (k in r.seen) if (Object.prototype.hasOwnProperty.call(r.seen, k)) out.seen[k] = r.seen[k];
			});
			if (newer.mastery) out.mastery = newer.mastery;
			out.current = mine.current || theirs.current || null;
			return out;
		}
		if (name.indexOf("deck:") === 0 && isObject(mine.cards) && isObject(theirs.cards)) {
			for (k in mine) if (Object.prototype.hasOwnProperty.call(mine, k)) out[k] = mine[k];
			out.cards = {};
			[mine.cards, theirs.cards].forEach(function (cards) {
				for (var id in cards) {
					if (!Object.prototype.hasOwnProperty.call(cards, id) || !isObject(cards[id])) continue;
					var have = out.cards[id];
					if (!have || (typeof cards[id].last === "number" && cards[id].last > have.last)) out.cards[id] = cards[id];
				}
			});
			return out;
		}
		for (k in theirs) if (Object.prototype.hasOwnProperty.call(theirs, k)) out[k] = theirs[k];
		for (k in mine) if (Object.prototype.hasOwnProperty.call(mine, k)) out[k] = mine[k];
		return out;
	}

	if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
	else ready();
}());
