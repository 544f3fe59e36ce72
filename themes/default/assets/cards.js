/*
 * cards.js: the flashcard viewer on a deck page (body.page-deck).
 *
 * The page already lists every card, front and back (#all-cards); this
 * script builds one-card-at-a-time study in #viewer from clones of those
 * cards. Click the card or press Space to flip it, the arrow keys or the
 * buttons to move; "Know it" and "Again" rate the card and move on.
 * A deep link #<card id> opens that card.
 *
 * Saved state, localStorage["quizdeck:v1:deck:<slug>"]:
 *   { cards: { <card id>: { fp, box, last } } }
 * box is the card's Leitner box, 1 to 5: "Know it" moves it up one,
 * "Again" back to 1. last is "know" or "again"; the "again" cards make the
 * "study the ones I missed" pass. A card counts only while fp equals its
 * data-fingerprint, so a card whose text changed starts afresh. Storage
 * that is disabled, full or corrupt is treated as empty.
 */
(function () {
	'use strict';

	var STORE_PREFIX = 'quizdeck:v1:deck:';
	var TOP_BOX = 5;

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

	/* A mark beside a word; screen readers read the word only. */
	function icon(mark) {
		var s = el('span', 'icon', mark);
		s.setAttribute('aria-hidden', 'true');
		return s;
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

	/* ---- storage: every access guarded ---- */

	function loadState(key) {
		var state = { cards: {} };
		var data;
		try {
			var raw = window.localStorage.getItem(key);
			if (!raw) return state;
			data = JSON.parse(raw);
		} catch (e) {
			return state;
		}
		if (!data || typeof data !== 'object' || !data.cards || typeof data.cards !== 'object')
			return state;
		Object.keys(data.cards).forEach(function (id) {
			var c = data.cards[id];
			if (c && typeof c.fp === 'string' && typeof c.box === 'number' &&
			    c.box >= 1 && c.box <= TOP_BOX && (c.last === 'know' || c.last === 'again'))
				state.cards[id] = { fp: c.fp, box: Math.floor(c.box), last: c.last };
		});
		return state;
	}

	function saveState(key, state) {
		try {
			window.localStorage.setItem(key, JSON.stringify(state));
		} catch (e) {
			/* full or disabled: the viewer goes on without remembering */
		}
	}

	function removeState(key) {
		try {
			window.localStorage.removeItem(key);
		} catch (e) {
			/* nothing to do */
		}
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
				back: li.querySelector('.card-back')
			});
		}
		return cards;
	}

	function Viewer(root, cards) {
		var self = this;
		this.root = root;
		this.cards = cards;
		this.key = STORE_PREFIX + (root.getAttribute('data-deck') || 'deck');
		this.state = loadState(this.key);
		this.missedOnly = false;
		this.shuffled = false;
		this.order = this.deckOrder();
		this.pos = 0;
		this.back = false;
		this.ended = false;
		this.build();
		this.openFromHash(false);
		this.render(false);
		root.hidden = false;

		document.addEventListener('keydown', function (e) { self.onKey(e); });
		window.addEventListener('hashchange', function () { self.openFromHash(true); });
	}

	Viewer.prototype.deckOrder = function () {
		return this.cards.map(function (c, i) { return i; });
	};

	/* A card's saved record, or null when it has none or its text changed. */
	Viewer.prototype.record = function (card) {
		var r = this.state.cards[card.id];
		return r && r.fp === card.fp ? r : null;
	};

	Viewer.prototype.missed = function () {
		var self = this;
		return this.deckOrder().filter(function (i) {
			var r = self.record(self.cards[i]);
			return r && r.last === 'again';
		});
	};

	Viewer.prototype.knownCount = function () {
		var self = this;
		return this.cards.filter(function (c) {
			var r = self.record(c);
			return r && r.last === 'know';
		}).length;
	};

	/* Builds the viewer's fixed parts once; render() fills them. */
	Viewer.prototype.build = function () {
		var self = this, root = this.root;
		clear(root);

		var top = el('div', 'viewer-top');
		this.position = el('p', 'viewer-position');
		this.passNote = el('p', 'viewer-pass');
		top.appendChild(this.position);
		top.appendChild(this.passNote);
		root.appendChild(top);

		this.card = el('div', 'flashcard');
		this.card.tabIndex = -1;
		this.card.addEventListener('click', function (e) {
			if (e.target.closest('a, button') || self.ended) return;
			self.flip();
		});
		root.appendChild(this.card);

		this.end = el('div', 'viewer-end');
		this.end.hidden = true;
		this.end.tabIndex = -1;
		root.appendChild(this.end);

		var move = el('div', 'viewer-move');
		this.prevButton = button('Previous card', 'viewer-prev', function (e) { self.move(-1, e); });
		this.flipButton = button('Flip card', 'primary viewer-flip', function (e) { self.flip(e); });
		this.flipButton.setAttribute('aria-pressed', 'false');
		this.nextButton = button('Next card', 'viewer-next', function (e) { self.move(1, e); });
		move.appendChild(this.prevButton);
		move.appendChild(this.flipButton);
		move.appendChild(this.nextButton);
		root.appendChild(move);

		var rate = el('div', 'viewer-rate');
		rate.setAttribute('role', 'group');
		rate.setAttribute('aria-label', 'How did you do?');
		this.againButton = button('Again', 'viewer-again', function (e) { self.rate('again', e); });
		this.knowButton = button('Know it', 'viewer-know', function (e) { self.rate('know', e); });
		this.againButton.insertBefore(icon('↺'), this.againButton.firstChild);
		this.knowButton.insertBefore(icon('✓'), this.knowButton.firstChild);
		rate.appendChild(this.againButton);
		rate.appendChild(this.knowButton);
		root.appendChild(rate);

		var progress = el('div', 'viewer-progress');
		this.progressText = el('span', 'viewer-progress-text');
		this.progressText.id = 'viewer-progress-text';
		this.progress = el('progress', 'viewer-progress-bar');
		this.progress.max = this.cards.length;
		this.progress.setAttribute('aria-label', 'Cards you know');
		this.progress.setAttribute('aria-describedby', 'viewer-progress-text');
		progress.appendChild(this.progress);
		progress.appendChild(this.progressText);
		root.appendChild(progress);

		var tools = el('div', 'viewer-tools');
		this.shuffleButton = button('Shuffle', 'quiet viewer-shuffle', function () { self.toggleShuffle(); });
		this.shuffleButton.setAttribute('aria-pressed', 'false');
		this.missedButton = button('Study the ones I missed', 'quiet viewer-missed', function () {
			self.setPass(!self.missedOnly);
		});
		this.resetButton = button('Reset progress', 'quiet viewer-reset', function () { self.reset(); });
		tools.appendChild(this.shuffleButton);
		tools.appendChild(this.missedButton);
		tools.appendChild(this.resetButton);
		root.appendChild(tools);

		root.appendChild(el('p', 'viewer-keys', 'Keys: Space flips · ← → move · K know it · A again'));

		this.status = el('p', 'visually-hidden');
		this.status.setAttribute('role', 'status');
		this.status.setAttribute('aria-live', 'polite');
		root.appendChild(this.status);
	};

	Viewer.prototype.announce = function (text) {
		var status = this.status;
		status.textContent = '';
		window.setTimeout(function () { status.textContent = text; }, 50);
	};

	Viewer.prototype.current = function () {
		return this.cards[this.order[this.pos]];
	};

	/* Shows the current card, front or back, and brings every control up to date. */
	Viewer.prototype.render = function (turning) {
		var card = this.current();
		var n = this.order.length;
		var missed = this.missed().length;
		var known = this.knownCount();

		this.position.textContent = this.ended ? 'End of the pass' : 'Card ' + (this.pos + 1) + ' of ' + n;
		this.passNote.textContent = (this.missedOnly ? 'The ones you missed' : 'All cards') +
			(this.shuffled ? ', shuffled' : ', in order');

		this.card.hidden = this.ended;
		this.end.hidden = !this.ended;
		if (!this.ended) this.renderCard(card, turning);
		else this.renderEnd(missed);

		this.prevButton.disabled = this.pos === 0 && !this.ended;
		this.nextButton.disabled = this.ended;
		this.flipButton.disabled = this.ended;
		this.againButton.disabled = this.ended;
		this.knowButton.disabled = this.ended;
		this.flipButton.setAttribute('aria-pressed', this.back ? 'true' : 'false');

		this.progress.value = known;
		this.progressText.textContent = known + ' of ' + this.cards.length + ' known';

		this.shuffleButton.setAttribute('aria-pressed', this.shuffled ? 'true' : 'false');
		if (this.missedOnly) {
			this.missedButton.textContent = 'Study all cards';
			this.missedButton.hidden = false;
		} else {
			this.missedButton.textContent = 'Study the ones I missed (' + missed + ')';
			this.missedButton.hidden = missed === 0;
		}
	};

	Viewer.prototype.renderCard = function (card, turning) {
		var face = this.card;
		clear(face);
		face.classList.toggle('is-back', this.back);
		face.setAttribute('data-id', card.id);

		var label = el('p', 'flashcard-label');
		label.appendChild(el('span', 'flashcard-number', card.number + '.'));
		label.appendChild(document.createTextNode(' ' + card.label));
		label.appendChild(el('span', 'flashcard-side', this.back ? 'Back' : 'Front'));
		face.appendChild(label);

		if (!this.back) {
			face.appendChild(cloneChildren(card.front, el('p', 'flashcard-front')));
			var hint = el('p', 'flashcard-hint');
			hint.appendChild(el('span', 'hint-pointer', 'Click the card or press Space to see the back.'));
			hint.appendChild(el('span', 'hint-touch', 'Tap the card to see the back.'));
			face.appendChild(hint);
		} else {
			face.appendChild(cloneChildren(card.front, el('p', 'flashcard-question')));
			face.appendChild(cloneChildren(card.back, el('div', 'flashcard-back')));
		}

		var r = this.record(card);
		var note = !r ? 'New card' : r.last === 'again' ? 'Marked again · box 1 of ' + TOP_BOX :
			'Known · box ' + r.box + ' of ' + TOP_BOX;
		face.appendChild(el('p', 'flashcard-box', note));

		if (turning && !reducedMotion()) {
			face.classList.remove('is-turning');
			void face.offsetWidth;   /* restart the animation */
			face.classList.add('is-turning');
		}
	};

	Viewer.prototype.renderEnd = function (missed) {
		var self = this, box = this.end;
		clear(box);
		var known = this.knownCount();
		box.appendChild(el('h2', 'viewer-end-title', 'You went through every card in this pass'));
		box.appendChild(el('p', null, known + ' of ' + this.cards.length + ' known · ' +
			missed + (missed === 1 ? ' card' : ' cards') + ' to study again.'));
		var actions = el('div', 'viewer-end-actions');
		if (missed) {
			actions.appendChild(button('Study the ' + missed + ' I missed', 'primary', function () {
				self.setPass(true);
			}));
		}
		actions.appendChild(button('Start again with all cards', missed ? '' : 'primary', function () {
			self.setPass(false);
		}));
		box.appendChild(actions);
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
		if (this.ended) return;
		this.back = !this.back;
		this.render(true);
		this.settleFocus(e);
		var card = this.current();
		this.announce(this.back ? 'Back: ' + (card.back ? card.back.textContent.trim() : '') :
			'Front: ' + (card.front ? card.front.textContent.trim() : ''));
	};

	Viewer.prototype.show = function (pos, e) {
		this.ended = false;
		this.pos = Math.max(0, Math.min(pos, this.order.length - 1));
		this.back = false;
		this.render(false);
		this.settleFocus(e);
		var card = this.current();
		this.announce('Card ' + (this.pos + 1) + ' of ' + this.order.length + ': ' +
			(card.front ? card.front.textContent.trim() : ''));
	};

	Viewer.prototype.move = function (step, e) {
		if (this.ended) {
			if (step < 0) this.show(this.order.length - 1, e);
			return;
		}
		var pos = this.pos + step;
		if (pos < 0) return;
		if (pos >= this.order.length) {
			this.finishPass(e);
			return;
		}
		this.show(pos, e);
	};

	Viewer.prototype.finishPass = function (e) {
		this.ended = true;
		this.back = false;
		this.render(false);
		if (e && e.detail === 0) this.end.focus();
		else this.settleFocus(e);
		this.announce('End of the pass.');
	};

	Viewer.prototype.rate = function (how, e) {
		if (this.ended) return;
		var card = this.current();
		var r = this.record(card);
		var box = r ? r.box : 1;
		box = how === 'know' ? Math.min(TOP_BOX, (r ? box + 1 : 2)) : 1;
		this.state.cards[card.id] = { fp: card.fp, box: box, last: how };
		saveState(this.key, this.state);
		this.move(1, e);
	};

	/* The pass: all cards or only the missed ones, in deck order or shuffled. */
	Viewer.prototype.setPass = function (missedOnly) {
		var order = missedOnly ? this.missed() : this.deckOrder();
		if (!order.length) {
			missedOnly = false;
			order = this.deckOrder();
		}
		this.missedOnly = missedOnly;
		this.order = this.shuffled ? shuffle(order) : order;
		this.show(0);
		this.card.focus();
	};

	Viewer.prototype.toggleShuffle = function () {
		var keep = this.ended ? null : this.current();
		this.shuffled = !this.shuffled;
		var order = this.missedOnly ? this.missed() : this.deckOrder();
		if (!order.length) order = this.deckOrder();
		if (this.shuffled) {
			this.order = shuffle(order);
			this.show(0);
		} else {
			this.order = order;
			var at = keep ? this.order.indexOf(this.cards.indexOf(keep)) : 0;
			this.show(at < 0 ? 0 : at);
		}
		this.announce(this.shuffled ? 'Cards shuffled.' : 'Cards in deck order.');
	};

	Viewer.prototype.reset = function () {
		removeState(this.key);
		this.state = { cards: {} };
		this.missedOnly = false;
		this.shuffled = false;
		this.order = this.deckOrder();
		this.show(0);
		this.announce('Progress reset.');
	};

	/* #<card id> opens that card in deck order. */
	Viewer.prototype.openFromHash = function (live) {
		var id;
		try {
			id = decodeURIComponent(window.location.hash.slice(1));
		} catch (e) {
			return;
		}
		if (!id) return;
		var index = -1;
		for (var i = 0; i < this.cards.length; i++)
			if (this.cards[i].id === id) index = i;
		if (index < 0) return;
		this.missedOnly = false;
		this.shuffled = false;
		this.order = this.deckOrder();
		this.pos = index;
		this.back = false;
		this.ended = false;
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
		if (this.root.hidden || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
		var t = e.target;
		var inViewer = t === document.body || t === document.documentElement || this.root.contains(t);
		if (!inViewer) return;
		var tag = t.tagName;
		if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
		var onControl = tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY';
		if (e.key === ' ' || e.key === 'Spacebar') {
			if (onControl) return;
			e.preventDefault();
			this.flip();
		} else if (e.key === 'ArrowRight') {
			e.preventDefault();
			this.move(1);
		} else if (e.key === 'ArrowLeft') {
			e.preventDefault();
			this.move(-1);
		} else if (e.key === 'k' || e.key === 'K') {
			e.preventDefault();
			this.rate('know');
		} else if (e.key === 'a' || e.key === 'A') {
			e.preventDefault();
			this.rate('again');
		}
	};

	function init() {
		var root = document.getElementById('viewer');
		var list = document.getElementById('all-cards');
		if (!root || !list) return;
		var cards = readDeck(list);
		if (!cards.length) return;
		new Viewer(root, cards);
	}

	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
	else init();
}());
