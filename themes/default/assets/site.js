/*
 * site.js: on every page. Marks the page as scripted, so CSS can tell.
 *
 * On a guide page opened from a question of a test in progress (quiz.js
 * leaves sessionStorage["quizdeck:v2:<site>:return"] for this tab), it
 * offers "Back to question N" at the top of the page: a link to the test
 * with #resume, which goes on where the learner was. The offer goes once
 * the test has no test in progress saved (finished or left).
 */
(function () {
	"use strict";
	document.documentElement.classList.remove("no-js");

	function offerReturn() {
		var body = document.body;
		var main = document.getElementById("main");
		if (!body || !main || !body.classList.contains("page-chapter")) return;
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
		a.textContent = "Back to question " + back.question +
			(typeof back.total === "number" ? " of " + back.total : "") +
			(typeof back.title === "string" && back.title ? " in " + back.title : "");
		p.appendChild(a);
		main.insertBefore(p, main.firstChild);
	}

	if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", offerReturn);
	else offerReturn();
}());
