// Times in the phone's own time: each <time datetime> (sent in UTC, which stays its title)
// is shown in local time. Without scripts the UTC time stays.
(function () {
  "use strict";
  var options = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false };
  Array.prototype.forEach.call(document.querySelectorAll("time[datetime]"), function (t) {
    var when = new Date(t.getAttribute("datetime"));
    if (isNaN(when)) return;
    t.title = t.textContent;
    t.textContent = when.toLocaleString([], options);
  });
})();
