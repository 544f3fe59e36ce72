/*
 * Registers the site's service worker (sw.js at the root of the site,
 * written by `quizdeck build`), so a hosted site keeps working offline
 * after the first visit. Only over http(s): opened from disk (file://)
 * the site is offline already and browsers allow no worker there. Pages
 * served by `quizdeck serve` do not load this script: a cache would
 * fight live reload.
 */
(function () {
	'use strict';

	var me = document.currentScript;

	if (!('serviceWorker' in navigator) || !me || !me.src) return;
	if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
	// This file is assets/offline.js: the site's root is one folder up, wherever it is hosted.
	var root = new URL('../', me.src).href;

	window.addEventListener('load', function () {
		navigator.serviceWorker.register(root + 'sw.js', { scope: root }).catch(function (e) {
			try {
				console.warn('quizdeck: the site will not work offline: ' + e.message);
			} catch (ignored) { /* no console */ }
		});
	});
})();
