/* site.js: on every page. Marks the page as scripted, so CSS can tell. */
(function () {
	"use strict";
	document.documentElement.classList.remove("no-js");
}());
