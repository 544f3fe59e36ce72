/*
 * The service worker's logic, loaded by sw.js, which the build writes
 * with the site's file list first (self.QUIZDECK_OFFLINE: "version" and
 * "files", [path, hash] or [path, hash, "on-demand"]).
 *
 * Install saves every file but the on-demand downloads (printable PDFs,
 * exports) into a cache named for this site's scope and the version;
 * activate drops this site's older caches. A listed file is answered
 * from the cache, else from the network and saved (a download, once
 * opened); a page that cannot be had offline leads to offline.html.
 * A rebuilt site brings a new version: it is saved in the background and
 * shows from the next page on.
 */
'use strict';

(function () {
	var data = self.QUIZDECK_OFFLINE;
	var scope = self.registration.scope;
	// The scope ends the prefix: another quizdeck site deeper on the same host keeps its caches.
	var prefix = 'quizdeck ' + scope + ' ';
	var cacheName = prefix + data.version;
	var offlinePage = new URL('offline.html', scope).href;
	var listed = Object.create(null);
	var atInstall = [];

	data.files.forEach(function (f) {
		var url = new URL(f[0], scope).href;

		listed[url] = true;
		if (f[2] !== 'on-demand') atInstall.push(url);
	});

	/* A request's URL as the list has it: no query or fragment, a folder's index.html. */
	function key(request) {
		var url = new URL(request.url);

		url.search = '';
		url.hash = '';
		return /\/$/.test(url.pathname) ? url.href + 'index.html' : url.href;
	}

	function toOffline(request) {
		return request.mode === 'navigate' ? Response.redirect(offlinePage, 302) : Response.error();
	}

	self.addEventListener('install', function (event) {
		event.waitUntil(caches.open(cacheName).then(function (cache) {
			// Past the browser's HTTP cache, which may hold the last version's files.
			return cache.addAll(atInstall.map(function (u) { return new Request(u, { cache: 'no-cache' }); }));
		}).then(function () {
			return self.skipWaiting();
		}));
	});

	self.addEventListener('activate', function (event) {
		event.waitUntil(caches.keys().then(function (names) {
			return Promise.all(names.filter(function (n) {
				return n.indexOf(prefix) === 0 && n !== cacheName;
			}).map(function (n) {
				return caches.delete(n);
			}));
		}).then(function () {
			return self.clients.claim();
		}));
	});

	self.addEventListener('fetch', function (event) {
		var request = event.request;
		var k;

		if (request.method !== 'GET' || request.url.indexOf(scope) !== 0) return;
		k = key(request);
		if (!listed[k]) {
			// Not a file of this build: the network, and offline a page says so.
			if (request.mode === 'navigate') {
				event.respondWith(fetch(request).catch(function () { return toOffline(request); }));
			}
			return;
		}
		event.respondWith(caches.open(cacheName).then(function (cache) {
			return cache.match(k).then(function (hit) {
				return hit || fetch(request).then(function (response) {
					if (response.ok && !response.redirected) cache.put(k, response.clone());
					return response;
				});
			});
		}).catch(function () {
			return toOffline(request);
		}));
	});
})();
