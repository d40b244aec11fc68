// The service worker, served at /sw.js (scorepad/web/installable.py fills in the names in
// capitals). It keeps the app's own files in a cache named after their version, and answers a
// page the server cannot give with the offline page. It keeps no page, nothing marked
// no-store, and touches no request but a GET to this site.
"use strict";
var CACHE = "scorepad-__VERSION__", OFFLINE = "__OFFLINE__", STATIC = "__STATIC__", SHELL = __SHELL__;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(SHELL.map(function (url) { return new Request(url, { cache: "reload" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {  // a new deploy's cache replaces the old ones
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf("scorepad-") === 0 && name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function keepable(response) {
  return response.ok && response.type === "basic" && !/no-store/i.test(response.headers.get("Cache-Control") || "");
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;  // the network's, untouched
  if (request.mode === "navigate") {  // a page: always the server's; the offline page without it
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE).then(function (page) { return page || Response.error(); });
    }));
  } else if (url.pathname.indexOf(STATIC) === 0) {  // the app's files: kept, as this version has them
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (kept) {
        return kept || fetch(request).then(function (response) {
          if (keepable(response)) cache.put(request, response.clone());
          return response;
        });
      });
    }));
  }
});
