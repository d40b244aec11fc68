// Installs the service worker (its address is the script tag's data-worker: /sw.js, the site
// root, so that it covers every page): the app's files kept, and a page saying so when offline.
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(me.dataset.worker).catch(function () { /* not a secure context: no worker */ });
})();
