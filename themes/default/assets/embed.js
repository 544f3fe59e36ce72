/*
 * embed.js: a question shown in place in a guide chapter
 * (article.question.embedded: quizdeck writes one where a paragraph holds
 * only a link to a question). The page shows it as a test's question
 * bank does, its answer and explanation in a details element; this
 * script turns the options into a form (radio buttons, or checkboxes
 * for "select all that apply"; an input box for a typed answer) with a
 * Check button, and after Check says right or wrong, shows the feedback
 * on the answer given and opens the details with the answer and the
 * explanation. "Try again" clears it.
 *
 * Scoring is answer.js's (quizdeckAnswer.score for typed answers,
 * scoreChoice for options), as in the test. Nothing is saved: an answer
 * given in a chapter goes into no test's history or "last answered"
 * record, so the practice test's draw and results stay the test's own.
 *
 * Printing opens every embedded question's details, so a printed
 * chapter shows each question with its answer; the options print as
 * the page wrote them (interactive.css hides the form in print).
 *
 * Its words are the site's language's (i18n/en.toml's embed.*, through
 * window.quizdeckI18n).
 */
(function () {
	'use strict';

	var I;                        /* window.quizdeckI18n, the strings (init) */

	function el(tag, className, text) {
		var node = document.createElement(tag);
		if (className) node.className = className;
		if (text !== undefined && text !== null) node.textContent = text;
		return node;
	}

	function clear(node) {
		while (node.firstChild) node.removeChild(node.firstChild);
	}

	function icon(mark) {
		var span = el('span', 'icon', mark);
		span.setAttribute('aria-hidden', 'true');
		return span;
	}

	/* Deep copies of from's children, without ids (the page keeps its own). */
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

	/* An option's text inline when it is one paragraph, so it sits inside a label. */
	function cloneInline(from, to) {
		if (!from) return to;
		var only = from.children.length === 1 && from.children[0].tagName === 'P';
		return cloneChildren(only ? from.children[0] : from, to);
	}

	function tag(right, text) {
		var p = el('p', 'run-tag ' + (right ? 'run-tag-right' : 'run-tag-wrong'));
		p.appendChild(icon(right ? '✓' : '✗'));
		p.appendChild(document.createTextNode(' ' + text));
		return p;
	}

	/* "The right answer: " and the like: the words bold, then a space. */
	function lead(to, key) {
		to.appendChild(el('strong', null, I.t(key)));
		to.appendChild(document.createTextNode(' '));
		return to;
	}

	function feedbackBox(lead, feedback) {
		var box = el('div', 'run-feedback run-feedback-yours');
		var p = el('p', 'run-feedback-lead');
		p.appendChild(el('strong', null, lead));
		box.appendChild(p);
		return cloneChildren(feedback, box);
	}

	function Embed(article) {
		var self = this;
		var api = window.quizdeckAnswer;
		this.article = article;
		this.id = article.id;
		this.typed = api.fromArticle(article);
		this.details = article.querySelector('details.answer');
		this.list = article.querySelector('ol.options');
		this.options = [];
		var items = article.querySelectorAll('ol.options > li.option');
		for (var i = 0; i < items.length && !this.typed; i++) {
			this.options.push({
				correct: items[i].getAttribute('data-correct') === 'true',
				text: items[i].querySelector('.option-text'),
				feedback: items[i].querySelector('.option-feedback')
			});
		}
		this.multi = article.getAttribute('data-kind') === 'multi';

		var stem = article.querySelector('.stem');
		if (stem && !stem.id) stem.id = this.id + '-stem';
		var form = el('form', 'embed-form');
		form.noValidate = true;
		var fieldset = el('fieldset', 'run-fieldset embed-fieldset');
		if (stem) fieldset.setAttribute('aria-labelledby', stem.id);
		this.inputs = [];
		this.rows = [];
		if (this.typed) fieldset.appendChild(this.typedField());
		else fieldset.appendChild(this.choiceList());
		form.appendChild(fieldset);
		this.verdict = el('div', 'run-verdict embed-verdict');
		this.verdict.tabIndex = -1;
		this.verdict.hidden = true;
		form.appendChild(this.verdict);
		this.problem = el('p', 'run-problem');
		this.problem.setAttribute('role', 'alert');
		this.problem.hidden = true;
		form.appendChild(this.problem);
		var actions = el('div', 'run-actions');
		this.button = el('button', 'button primary embed-check', I.t('embed.check'));
		this.button.type = 'submit';
		actions.appendChild(this.button);
		form.appendChild(actions);
		form.addEventListener('submit', function (e) {
			e.preventDefault();
			if (self.checked) self.reset();
			else self.check();
		});
		var before = this.typed ? (this.typed.prompt ? this.typed.prompt.nextSibling : this.details) : this.list;
		article.insertBefore(form, before);
		if (this.typed && this.typed.prompt) this.typed.prompt.hidden = true;
		article.classList.add('is-live');
		this.checked = false;
	}

	Embed.prototype.choiceList = function () {
		var self = this;
		var box = el('div', 'embed-choices');
		box.appendChild(el('p', 'run-instruction', I.t(this.multi ? 'embed.choose-all' : 'embed.choose-one')));
		var list = el('ol', 'run-options');
		this.options.forEach(function (opt, i) {
			var li = el('li', 'run-option');
			var label = el('label', 'run-option-label');
			var input = el('input');
			input.type = self.multi ? 'checkbox' : 'radio';
			input.name = self.id + '-answer';
			input.value = String(i);
			input.addEventListener('change', function () {
				self.inputs.forEach(function (x, k) { self.rows[k].classList.toggle('is-chosen', x.checked); });
				self.problem.hidden = true;
			});
			/* The letter the answer key names it by, as the printed list has it. */
			var key = el('span', 'run-key', i < 26 ? String.fromCharCode(65 + i) : String(i + 1));
			key.setAttribute('aria-hidden', 'true');
			label.appendChild(input);
			label.appendChild(key);
			label.appendChild(cloneInline(opt.text, el('span', 'run-option-text')));
			li.appendChild(label);
			list.appendChild(li);
			self.inputs.push(input);
			self.rows.push(li);
		});
		box.appendChild(list);
		return box;
	};

	Embed.prototype.typedField = function () {
		var self = this, t = this.typed;
		var box = el('div', 'run-typed');
		var inputId = this.id + '-input';
		var label = el('label', 'run-typed-label', I.t(t.kind === 'output' ? 'embed.typed-label-output' : 'embed.typed-label'));
		label.htmlFor = inputId;
		var input = el(t.kind === 'output' ? 'textarea' : 'input', 'run-typed-input');
		input.id = inputId;
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
		input.addEventListener('input', function () { self.problem.hidden = true; });
		box.appendChild(label);
		box.appendChild(input);
		if (t.prompt) {
			var help = cloneChildren(t.prompt, el('p', 'run-typed-help'));
			help.id = this.id + '-help';
			input.setAttribute('aria-describedby', help.id);
			box.appendChild(help);
		}
		this.input = input;
		return box;
	};

	Embed.prototype.say = function (problem) {
		clear(this.problem);
		this.problem.appendChild(icon('!'));
		this.problem.appendChild(document.createTextNode(' ' + problem));
		this.problem.hidden = false;
		if (this.input) this.input.focus();
	};

	Embed.prototype.check = function () {
		var self = this, api = window.quizdeckAnswer;
		var right, box = this.verdict;
		clear(box);
		var line = el('p', 'verdict');
		box.appendChild(line);
		if (this.typed) {
			var r = api.score(this.typed, this.input.value);
			if (r.problem === 'empty') return this.say(I.t('embed.type-first'));
			if (r.problem === 'not-a-number')
				return this.say(I.t(this.typed.decimalComma ? 'embed.not-a-number-comma' : 'embed.not-a-number'));
			right = r.right;
			var hit = r.match >= 0 ? this.typed.answers[r.match] : null;
			if (hit && hit.feedback) box.appendChild(feedbackBox(I.t('embed.feedback-on'), hit.feedback));
			if (!right) {
				var accepted = this.typed.answers.filter(function (a) { return a.correct; })[0];
				if (accepted) {
					var p = lead(el(this.typed.kind === 'output' ? 'div' : 'p', 'run-answer'), 'embed.right-answer');
					if (this.typed.kind === 'output') {
						var pre = el('pre', 'run-typed-text');
						pre.appendChild(el('code', null, accepted.answer));
						p.appendChild(pre);
					} else p.appendChild(el('span', 'run-typed-text', accepted.answer));
					box.appendChild(p);
				}
			}
			this.input.readOnly = true;
		} else {
			var chosen = [];
			this.inputs.forEach(function (x, i) { if (x.checked) chosen.push(i); });
			if (!chosen.length) return this.say(I.t('embed.choose-first'));
			right = api.scoreChoice(this.options, chosen);
			this.options.forEach(function (opt, i) {
				var row = self.rows[i], mine = chosen.indexOf(i) >= 0;
				self.inputs[i].disabled = true;
				if (opt.correct) row.classList.add('is-correct');
				if (mine && !opt.correct) row.classList.add('is-wrong');
				if (opt.correct || mine)
					row.appendChild(tag(opt.correct, I.t(mine ? (opt.correct ? 'embed.tag-yours-right' : 'embed.tag-yours-wrong') :
						'embed.tag-right')));
				if (mine && opt.feedback) row.appendChild(cloneChildren(opt.feedback, el('div', 'run-feedback')));
			});
		}
		line.className = 'verdict ' + (right ? 'verdict-right' : 'verdict-wrong');
		line.appendChild(icon(right ? '✓' : '✗'));
		line.appendChild(document.createTextNode(' ' + I.t(right ? 'embed.correct' : 'embed.incorrect')));
		this.problem.hidden = true;
		box.hidden = false;
		if (this.details) this.details.open = true;
		this.checked = true;
		this.button.textContent = I.t('embed.try-again');
		box.focus({ preventScroll: true });
	};

	Embed.prototype.reset = function () {
		var self = this;
		clear(this.verdict);
		this.verdict.hidden = true;
		if (this.input) {
			this.input.readOnly = false;
			this.input.value = '';
		}
		this.inputs.forEach(function (x, i) {
			var row = self.rows[i];
			x.checked = false;
			x.disabled = false;
			row.classList.remove('is-correct', 'is-wrong', 'is-chosen');
			var extra = row.querySelectorAll('.run-tag, .run-feedback');
			for (var k = 0; k < extra.length; k++) row.removeChild(extra[k]);
		});
		if (this.details) this.details.open = false;
		this.checked = false;
		this.button.textContent = I.t('embed.check');
		if (this.input) this.input.focus();
		else if (this.inputs.length) this.inputs[0].focus();
	};

	/* Printing shows every answer; the details left as they were after. */
	function onPrint(articles) {
		var was = [];
		window.addEventListener('beforeprint', function () {
			was = articles.map(function (a) {
				var d = a.querySelector('details.answer');
				var open = d ? d.open : false;
				if (d) d.open = true;
				return open;
			});
		});
		window.addEventListener('afterprint', function () {
			articles.forEach(function (a, i) {
				var d = a.querySelector('details.answer');
				if (d && i < was.length) d.open = was[i];
			});
		});
	}

	function init() {
		/* answer.js scores and i18n.js has the words; without them the page stays as printed. */
		I = window.quizdeckI18n;
		if (!window.quizdeckAnswer || !I) return;

		var found = document.querySelectorAll('article.question.embedded');
		var articles = [];
		for (var i = 0; i < found.length; i++) {
			new Embed(found[i]);
			articles.push(found[i]);
		}
		if (articles.length) onPrint(articles);
	}

	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
	else init();
}());
