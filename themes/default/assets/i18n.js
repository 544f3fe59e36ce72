/*
 * i18n.js: the learner's strings for every other script, in the site's
 * language.
 *
 * quizdeck writes them at build into assets/strings.js
 * (window.quizdeckStrings: the language tag, its direction and a table
 * of dotted keys, i18n/en.toml's keys), which page.html loads first.
 * window.quizdeckI18n:
 *   t(key, args)          the string, each {name} filled from args
 *   plural(key, n, args)  the plural form of key for n (Intl.PluralRules:
 *                         key.one, key.few..., else key.other), {n} = n
 *   num(n, options)       n in the language's way (Latin digits, as the
 *                         PDFs and pages print them), no grouping unless asked
 *   date(d, options)      a Date as the language writes it
 * A key no table has reads as itself, so a missing string shows, and
 * never throws.
 */
(function (root) {
	"use strict";
	var data = root.quizdeckStrings || {};
	var strings = data.strings || {};
	var lang = typeof data.lang === "string" ? data.lang : "en";
	var has = Object.prototype.hasOwnProperty;
	var locale = lang + "-u-nu-latn";
	var rules;

	try {
		rules = new Intl.PluralRules(lang);
		new Intl.NumberFormat(locale);
	} catch (e) {
		lang = "en";
		locale = "en";
		rules = typeof Intl !== "undefined" && Intl.PluralRules ? new Intl.PluralRules("en") : null;
	}

	function fill(s, args) {
		if (!args) return s;
		return s.replace(/\{([a-z0-9_-]+)\}/g, function (whole, name) {
			return has.call(args, name) && args[name] !== undefined && args[name] !== null ?
				String(args[name]) : whole;
		});
	}

	function t(key, args) {
		return fill(has.call(strings, key) ? strings[key] : key, args);
	}

	function num(n, options) {
		var o = { useGrouping: false };
		for (var k in options || {}) if (has.call(options, k)) o[k] = options[k];
		return new Intl.NumberFormat(locale, o).format(n);
	}

	function plural(key, n, args) {
		var form = rules ? rules.select(n) : (n === 1 ? "one" : "other");
		var s = strings[key + "." + form];
		if (s === undefined) s = strings[key + ".other"];
		if (s === undefined) s = key;
		var a = { n: num(n) };
		for (var k in args || {}) if (has.call(args, k)) a[k] = args[k];
		return fill(s, a);
	}

	function date(d, options) {
		return d.toLocaleDateString(locale, options);
	}

	root.quizdeckI18n = {
		lang: lang,
		dir: data.dir === "rtl" ? "rtl" : "ltr",
		t: t,
		plural: plural,
		num: num,
		date: date
	};
})(this);
