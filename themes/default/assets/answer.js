/*
 * answer.js: scores an answer to a question, for any page that shows one
 * (quiz.js on a test page). It holds no state and touches no page:
 * quizdeckAnswer.fromArticle reads a typed question's answers from its
 * article, quizdeckAnswer.score scores what was typed against them, and
 * quizdeckAnswer.scoreChoice scores the options chosen. How to write a
 * number is said to the learner by quiz.js and embed.js, from the
 * language tables (quiz.not-a-number, embed.not-a-number).
 *
 * The page carries everything needed, so scoring works offline: each
 * `ul.typed-answers > li` has data-correct and data-answer (the answer
 * as written after its `=`), and for a number data-min, data-max (the
 * range accepted, the tolerance applied by quizdeck) and data-unit.
 *
 * What is accepted (README and quizdeck(5) say the same):
 *  - number: an optional sign (+, - or −), digits with an optional
 *    decimal point, or a point and digits (.2), an optional exponent
 *    (2e-1); where the page's question has data-decimal-comma (the
 *    site's language writes one) a comma is a decimal point too (0,2).
 *    The whole part may be grouped in threes by a space, a no-break
 *    space, a thin space or a narrow no-break space (10 000); no other
 *    thousands separator. Then, optionally, the unit: it may be left
 *    out, but if typed it must be the answer's, exactly (no conversion).
 *    The value is right when it is in [min, max] (a margin of a
 *    billionth of the value allows for rounding).
 *  - text: compared after Unicode NFC, case folding (lower case, ß as ss,
 *    ς as σ) and collapsing runs of spaces to one, ends trimmed; with
 *    data-exact only NFC and the ends trimmed.
 *  - output: line by line, spaces and tabs at the ends of lines ignored,
 *    and empty lines at the end.
 * An accepted answer that matches wins; else the first foreseen wrong
 * answer that matches gives its feedback.
 *
 * Loaded in Node too (module.exports) for tests/browser's unit checks.
 */
(function (root) {
	'use strict';

	/*
	 * Sign, whole part (grouped in threes by a space, U+00A0, U+2009 or
	 * U+202F, or not grouped), decimal separator and digits, exponent.
	 */
	var NUMBER = /^([+\-\u2212]?)(\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?!\d)|\d*)(?:([.,])(\d*))?(?:[eE]([+\-]?\d{1,5}))?/;
	var GROUP_SPACE = /[ \u00a0\u2009\u202f]/g;

	/*
	 * The number a learner typed, and the unit after it: { value, unit },
	 * or null when s does not start with a number or the decimal
	 * separator is a comma where none is read.
	 */
	function readNumber(s, decimalComma) {
		var t = String(s).replace(/^\s+|\s+$/g, '');
		var m = NUMBER.exec(t);
		if (!m || (m[2] === '' && !m[4])) return null;
		if (m[3] === ',' && !decimalComma) return null;
		var text = (m[1] ? '-' : '') + (m[2].replace(GROUP_SPACE, '') || '0') + (m[4] ? '.' + m[4] : '') + (m[5] ? 'e' + m[5] : '');
		if (m[1] === '+') text = text.slice(1);
		var value = parseFloat(text);
		if (!isFinite(value)) return null;
		var unit = t.slice(m[0].length).replace(/\s+/g, '');
		/* "1.5.2" or "2 3": more digits after the number is not a unit. */
		if (/^[\d.,+\-]/.test(unit)) return null;
		return { value: value, unit: unit };
	}

	/*
	 * How to write a number readNumber reads, in words, for a page to
	 * show after an answer it could not read: the one place this is said.
	 */
	function foldText(s, exact) {
		var t = String(s);
		if (t.normalize) t = t.normalize('NFC');
		t = t.replace(/^\s+|\s+$/g, '');
		if (exact) return t;
		t = t.toLowerCase().replace(/ß/g, 'ss').replace(/ς/g, 'σ');
		if (t.normalize) t = t.normalize('NFC');
		return t.replace(/\s+/g, ' ');
	}

	function foldOutput(s) {
		var lines = String(s).replace(/\r\n?/g, '\n').split('\n').map(function (line) {
			return line.replace(/[ \t]+$/, '');
		});
		while (lines.length && lines[lines.length - 1] === '') lines.pop();
		return lines.join('\n');
	}

	function numberMatches(a, n) {
		if (n.unit && n.unit !== (a.unit || '').replace(/\s+/g, '')) return false;
		var margin = 1e-9 * Math.max(1, Math.abs(a.min), Math.abs(a.max));
		return n.value >= a.min - margin && n.value <= a.max + margin;
	}

	/*
	 * Scores typed against question q ({ kind: 'number' | 'text' |
	 * 'output', exact, decimalComma, answers: [{ correct, answer, min,
	 * max, unit }] }): { right, match (the index of the answer it
	 * matched, or -1), problem ('empty' or 'not-a-number', or null) }.
	 */
	function score(q, typed) {
		var result = { right: false, match: -1, problem: null };
		var s = typed === undefined || typed === null ? '' : String(typed);
		if (!s.replace(/\s+/g, '')) {
			result.problem = 'empty';
			return result;
		}
		var same;
		if (q.kind === 'number') {
			var n = readNumber(s, q.decimalComma);
			if (!n) {
				result.problem = 'not-a-number';
				return result;
			}
			same = function (a) { return numberMatches(a, n); };
		} else if (q.kind === 'output') {
			var out = foldOutput(s);
			same = function (a) { return foldOutput(a.answer) === out; };
		} else {
			var text = foldText(s, q.exact);
			same = function (a) { return foldText(a.answer, q.exact) === text; };
		}
		[true, false].some(function (wantCorrect) {
			return q.answers.some(function (a, i) {
				if (a.correct !== wantCorrect || !same(a)) return false;
				result.match = i;
				result.right = wantCorrect;
				return true;
			});
		});
		return result;
	}

	/*
	 * Whether the options chosen (indexes into options, each { correct })
	 * are exactly the correct ones: one for a single answer, every one for
	 * "select all that apply".
	 */
	function scoreChoice(options, chosen) {
		var want = [];
		options.forEach(function (o, i) { if (o.correct) want.push(i); });
		if (want.length !== chosen.length) return false;
		return want.every(function (i) { return chosen.indexOf(i) >= 0; });
	}

	/* A question's kind and answers, read from its article; null for a choice question. */
	function fromArticle(article) {
		var kind = article.getAttribute('data-kind');
		if (kind !== 'number' && kind !== 'text' && kind !== 'output') return null;
		var items = article.querySelectorAll('ul.typed-answers > li');
		var answers = [];
		for (var i = 0; i < items.length; i++) {
			var li = items[i];
			answers.push({
				el: li,
				correct: li.getAttribute('data-correct') === 'true',
				answer: li.getAttribute('data-answer') || '',
				min: parseFloat(li.getAttribute('data-min')),
				max: parseFloat(li.getAttribute('data-max')),
				unit: li.getAttribute('data-unit') || '',
				text: li.querySelector('.option-text'),
				feedback: li.querySelector('.option-feedback')
			});
		}
		return {
			kind: kind,
			exact: article.getAttribute('data-exact') === 'true',
			decimalComma: article.getAttribute('data-decimal-comma') === 'true',
			prompt: article.querySelector('.typed-prompt'),
			answers: answers
		};
	}

	var api = { readNumber: readNumber, foldText: foldText, foldOutput: foldOutput, score: score,
		scoreChoice: scoreChoice, fromArticle: fromArticle };
	if (typeof module === 'object' && module.exports) module.exports = api;
	else root.quizdeckAnswer = api;
}(this));
