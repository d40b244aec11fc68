// The game page keeps itself current. Every few seconds it asks for the game's revision
// (GET /api/v1/games/<id>/revision, a few bytes); when another phone has changed the game,
// it fetches this page again and swaps in the new score, standings and chart. It pauses
// while the page is hidden and backs off while the server cannot be reached. Without this
// script the page works the same: reload it to see the latest. On a part's form it keeps the
// open deal's progress box current the same way (the counter ``open`` beside the revision).
(function () {
  "use strict";
  var box = document.getElementById("live-game");
  // A part's form (a deal entered part by part): its progress box follows the game's open
  // counter (each part saved or confirmed), and says, visibly, when the deal was written.
  var progress = document.getElementById("progress");
  if ((!box && !progress) || !window.fetch || !window.DOMParser) return;
  var status = document.getElementById("live-status");
  var url = (box || progress).getAttribute("data-poll");
  var EVERY = 4000, MOST = 60000;
  var wait = EVERY, timer = null, busy = false;

  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  function ok(response) {
    if (!response.ok) throw new Error("HTTP " + response.status);
    return response;
  }

  function refresh() {
    return fetch(window.location.pathname, { credentials: "same-origin", cache: "no-cache",
                                             headers: { "Accept": "text/html" } })
      .then(ok)
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live-game");
        if (!fresh) throw new Error("the page has no score");
        var next = document.importNode(fresh, true);
        box.parentNode.replaceChild(next, box);
        box = next;
        if (status) status.textContent = "The score was updated.";
      });
  }

  function refreshProgress() {
    return fetch(progress.getAttribute("data-src"), { credentials: "same-origin", cache: "no-store" })
      .then(ok)
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html"), fresh = doc.getElementById("progress");
        if (!fresh) throw new Error("no progress");
        var next = document.importNode(fresh, true);
        progress.parentNode.replaceChild(next, progress);
        progress = next;
        var line = doc.getElementById("bar-progress"), old = document.getElementById("bar-progress");
        if (line && old) old.parentNode.replaceChild(document.importNode(line, true), old);  // the bar's line, in sight
      });
  }

  function poll() {
    // A page the deal form's script wrote over (its answer to a save) runs its own copy of this
    // script: this one, whose elements are gone with the old page, stops.
    if ((box && !document.contains(box)) || (progress && !document.contains(progress))) return;
    if (busy || document.hidden) return;
    busy = true;
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 410) window.location.reload();  // deleted: the page says so
        return ok(response);
      })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        var work = [];
        if (box && String(data.revision) !== box.getAttribute("data-revision")) work.push(refresh());
        if (progress && (String(data.open) !== progress.getAttribute("data-open")
                         || String(data.revision) !== progress.getAttribute("data-revision"))) work.push(refreshProgress());
        return Promise.all(work);
      })
      .then(function () { wait = EVERY; },
            function () { wait = Math.min(wait * 2, MOST); })
      .then(function () {
        busy = false;
        later(wait);
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      clearTimeout(timer);
    } else {
      wait = EVERY;
      later(0);
    }
  });
  later(EVERY);
})();
