/*
 * search.js: on every page. The search box in the header finds guide
 * chapters and sections, questions and cards in window.quizdeckSearch,
 * which assets/search-index.js sets (quizdeck writes it at build, as a
 * script so that it loads from disk too, where a fetch would fail).
 *
 * The box is hidden in the page and shown here, so a reader without
 * script never meets a box that does nothing. It is an ARIA 1.2
 * combobox with a listbox: "/" (outside a field) focuses it, the arrow
 * keys move through the results, Enter opens the chosen one (the first
 * if none is chosen), Escape closes the list and then empties the box.
 * "/" does nothing once the learner turned single-key shortcuts off
 * ({ singleKeys: false } in localStorage["quizdeck:v2:<site>:settings"]),
 * and the box's placeholder stops naming it, at once.
 */
(function () {
	"use strict";

	var I = window.quizdeckI18n;
	var KINDS = { chapter: 1, section: 1, question: 1, card: 1 };   /* their names are search.kind.<kind> */
	var MAX = 8;
	/* The site's root: this script is <root>assets/search.js on every page. */
	var me = document.currentScript;
	var root = me && me.src ? me.src.replace(/assets\/search\.js([?#].*)?$/, "") : "";

	function fold(s) {
		return String(s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
	}

	/* Read at each key press: the switch may be turned on another page, or this one. */
	function singleKeys() {
		try {
			var site = document.body.getAttribute("data-site") || "";
			var s = JSON.parse(window.localStorage.getItem("quizdeck:v2:" + site + ":settings") || "null");
			return !(s && s.singleKeys === false);
		} catch (e) {
			return true;
		}
	}

	function where(e) {
		return Array.isArray(e.where) ? e.where.join(I.t("search.result.separator")) : "";
	}

	/* A word found at the start of a word of the title counts most, anywhere in it next, elsewhere least. */
	function score(item, words) {
		var total = 0;
		for (var i = 0; i < words.length; i++) {
			var w = words[i], at = item.title.indexOf(w);
			if (at === 0 || (at > 0 && !/[a-z0-9]/.test(item.title.charAt(at - 1)))) total += 4;
			else if (at > 0) total += 2;
			else if (item.rest.indexOf(w) !== -1) total += 1;
			else return 0;
		}
		return total;
	}

	/* Text for reading aloud only, where on screen the layout parts a result's pieces. */
	function spoken(text) {
		var span = document.createElement("span");
		span.className = "visually-hidden";
		span.textContent = text;
		return span;
	}

	function Search(box, input, list, status, index) {
		this.box = box;
		this.input = input;
		this.list = list;
		this.status = status;
		this.items = index.map(function (e, i) {
			return { entry: e, order: i, title: fold(e.title), rest: fold(where(e) + " " + (e.text || "")) };
		});
		this.results = [];
		this.active = -1;
		var self = this;
		input.addEventListener("input", function () { self.update(); });
		input.addEventListener("keydown", function (e) { self.onKey(e); });
		input.addEventListener("focus", function () { if (input.value.trim()) self.update(); });
		box.addEventListener("focusout", function (e) {
			if (!box.contains(e.relatedTarget)) self.close();
		});
		/* A click chooses without taking the focus from the box first. */
		list.addEventListener("mousedown", function (e) { e.preventDefault(); });
		list.addEventListener("click", function (e) {
			var li = e.target.closest ? e.target.closest("[role=option]") : null;
			if (li) self.go(Number(li.getAttribute("data-index")));
		});
		document.addEventListener("keydown", function (e) {
			if (e.key !== "/" || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented || !singleKeys()) return;
			var t = e.target, tag = t && t.tagName;
			if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (t && t.isContentEditable)) return;
			e.preventDefault();
			input.focus();
			input.select();
		});
		/*
		 * The placeholder names the "/" key while it works: the page's
		 * text with its key, or the same words without it. It follows the
		 * switch at once: any switch is a form control whose own change
		 * handler writes the setting before the change reaches the
		 * document; another tab's writes come as storage events.
		 */
		var withKey = input.placeholder;
		var withoutKey = I.t("search.box.placeholder-plain");
		function showKey() {
			input.placeholder = singleKeys() ? withKey : withoutKey;
		}
		document.addEventListener("change", showKey);
		window.addEventListener("storage", showKey);
		showKey();
		box.hidden = false;
	}

	Search.prototype.update = function () {
		var q = fold(this.input.value).trim();
		var words = q ? q.split(/\s+/) : [];
		var found = [];
		for (var i = 0; words.length && i < this.items.length; i++) {
			var s = score(this.items[i], words);
			if (s > 0) found.push({ item: this.items[i], score: s });
		}
		found.sort(function (a, b) { return b.score - a.score || a.item.order - b.item.order; });
		this.results = found.slice(0, MAX).map(function (f) { return f.item.entry; });
		this.active = -1;
		this.render(words.length > 0, found.length);
	};

	Search.prototype.render = function (asked, total) {
		var list = this.list;
		while (list.firstChild) list.removeChild(list.firstChild);
		for (var i = 0; i < this.results.length; i++) {
			var e = this.results[i];
			var li = document.createElement("li");
			li.id = "site-search-option-" + i;
			li.className = "search-result";
			li.setAttribute("role", "option");
			li.setAttribute("aria-selected", "false");
			li.setAttribute("data-index", String(i));
			var kind = document.createElement("span");
			kind.className = "search-kind";
			kind.textContent = KINDS[e.kind] ? I.t("search.kind." + e.kind) : e.kind;
			var title = document.createElement("span");
			title.className = "search-title";
			title.textContent = e.title;
			var at = document.createElement("span");
			at.className = "search-where";
			at.textContent = I.t("search.result.in", { where: where(e) });
			kind.appendChild(spoken(": "));
			li.appendChild(kind);
			li.appendChild(title);
			li.appendChild(at);
			list.appendChild(li);
		}
		var open = this.results.length > 0;
		list.hidden = !open;
		this.input.setAttribute("aria-expanded", open ? "true" : "false");
		this.input.removeAttribute("aria-activedescendant");
		/* Said to screen readers as results change; shown when nothing matched. */
		this.status.textContent = !asked ? "" : total === 0 ? I.t("search.status.none") :
			total > this.results.length ? I.plural("search.status.first-of", total, { shown: I.num(this.results.length) }) :
			I.plural("search.status.count", total);
		this.status.classList.toggle("visually-hidden", !(asked && total === 0));
	};

	Search.prototype.close = function () {
		this.list.hidden = true;
		this.active = -1;
		this.input.setAttribute("aria-expanded", "false");
		this.input.removeAttribute("aria-activedescendant");
		this.status.classList.add("visually-hidden");
	};

	Search.prototype.choose = function (i) {
		var options = this.list.children;
		if (this.active >= 0 && options[this.active]) options[this.active].setAttribute("aria-selected", "false");
		this.active = i;
		var li = options[i];
		li.setAttribute("aria-selected", "true");
		this.input.setAttribute("aria-activedescendant", li.id);
		if (li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
	};

	Search.prototype.go = function (i) {
		var e = this.results[i];
		if (!e || typeof e.url !== "string") return;
		this.close();
		window.location.href = root + e.url;
	};

	Search.prototype.onKey = function (e) {
		var open = !this.list.hidden, n = this.results.length;
		if (e.key === "ArrowDown" || e.key === "ArrowUp") {
			e.preventDefault();
			if (!open) {
				this.update();
				if (!this.results.length) return;
				n = this.results.length;
			}
			var down = e.key === "ArrowDown";
			this.choose(this.active < 0 ? (down ? 0 : n - 1) : (this.active + (down ? 1 : n - 1)) % n);
		} else if (e.key === "Enter") {
			if (!open || !n) return;
			e.preventDefault();
			this.go(this.active < 0 ? 0 : this.active);
		} else if (e.key === "Escape") {
			if (open) this.close();
			else if (this.input.value) this.input.value = "";
			else return;
			e.preventDefault();
		}
	};

	function init() {
		var box = document.getElementById("site-search");
		var input = document.getElementById("site-search-input");
		var list = document.getElementById("site-search-results");
		var status = document.getElementById("site-search-status");
		var index = window.quizdeckSearch;
		if (!box || !input || !list || !status || !Array.isArray(index)) return;
		new Search(box, input, list, status, index);
	}

	if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
	else init();
})();
