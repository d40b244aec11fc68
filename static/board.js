// The club night's wall board: every data-refresh seconds, the board as it stands now is
// fetched and put in place of the one shown (no flash of a reload; a failed fetch keeps the
// board as it was, and the next one tries again). A table's deal moves the standings but not
// the event's revision, so the board asks on a timer.
(function () {
  'use strict';
  var body = document.body;
  var seconds = parseInt(body.getAttribute('data-refresh'), 10) || 20;
  function refresh() {
    fetch(window.location.href, {cache: 'no-store', credentials: 'same-origin'}).then(function (response) {
      if (!response.ok) { throw new Error('board ' + response.status); }
      return response.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('main');
      var shown = document.querySelector('main');
      if (fresh && shown) { shown.replaceWith(document.importNode(fresh, true)); }
    }).catch(function () { /* kept as it was: the next turn asks again */ }).then(function () {
      window.setTimeout(refresh, seconds * 1000);
    });
  }
  window.setTimeout(refresh, seconds * 1000);
}());
