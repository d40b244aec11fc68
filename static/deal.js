// The deal form, enhanced: +/- steppers, "Add a meld", the foot box only when needed, and a
// live score from the deal's preview route while typing. Without this script the form works the same.
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  if (!form) return;
  var live = document.getElementById("live");
  var each = function (root, sel, fn) { Array.prototype.forEach.call(root.querySelectorAll(sel), fn); };
  var el = function (name) { return form.elements.namedItem(name); };
  var val = function (name) { var e = el(name); return e && e.value ? String(e.value).trim() : ""; };
  var button = function (text, label) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = text; b.setAttribute("aria-label", label);
    return b;
  };

  // Steppers around every count box.
  each(form, ".st", function (box) {
    var input = box.querySelector("input"), what = input.getAttribute("aria-label");
    var less = button("\u2212", "One fewer: " + what), more = button("+", "One more: " + what);
    less.dataset.step = "-1"; more.dataset.step = "1";
    box.insertBefore(less, input); box.appendChild(more);
  });
  form.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-step]");
    if (!b) return;
    var input = b.parentNode.querySelector("input");
    var n = Math.max(0, (parseInt(input.value, 10) || 0) + +b.dataset.step);
    input.value = n ? n : "";
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // Meld rows: the filled ones and two blank ones show; "Add a meld" shows or makes another.
  function blank(row) {
    return !row.querySelector(".error") && !Array.prototype.some.call(row.querySelectorAll("input"),
      function (i) { return i.value && i.value !== "0"; });
  }
  each(form, "fieldset.side", function (side) {
    var list = side.querySelector(".melds"), spare = 0;
    each(list, ".meld", function (row) { if (blank(row) && ++spare > 2) row.classList.add("hidden-row"); });
    var add = button("Add a meld", "Add a meld for " + side.dataset.name);
    add.className = "secondary";
    list.parentNode.insertBefore(add, list.nextSibling);
    list.addEventListener("input", function () {  // keep one blank row ready
      var next = list.querySelector(".hidden-row");
      if (next && !Array.prototype.some.call(list.querySelectorAll(".meld:not(.hidden-row)"), blank)) {
        next.classList.remove("hidden-row");
      }
    });
    add.addEventListener("click", function () {
      var row = list.querySelector(".hidden-row");
      if (!row) {
        var rows = list.querySelectorAll(".meld"), last = rows[rows.length - 1], k = rows.length;
        var from = last.id, to = side.id + "-m" + k;
        row = last.cloneNode(true);
        row.id = to;
        row.classList.remove("bad");
        each(row, ".error", function (p) { p.remove(); });
        each(row, "input,select,button", function (i) {
          if (i.name) i.name = i.name.replace(from, to);
          var label = i.getAttribute("aria-label");
          if (label) i.setAttribute("aria-label", label.replace("Meld " + k, "Meld " + (k + 1)));
          if (i.tagName === "INPUT") i.value = ""; else if (i.tagName === "SELECT") i.selectedIndex = 0;
        });
        list.appendChild(row);
        el(side.id + "-rows").value = k + 1;
      }
      row.classList.remove("hidden-row");
      row.querySelector("select").focus();
    });
  });

  // The unopened foot is asked for only when the foot was not picked up.
  function feet() {
    each(form, "fieldset.player", function (p) {
      var foot = p.querySelector(".foot");
      if (foot) foot.hidden = el(p.id + "-picked").checked && !val(p.id + "-foot");
    });
  }
  form.addEventListener("change", feet);
  feet();

  // The live score: the form as typed, posted to the preview route, which reads it with the
  // same reader as a saved deal and answers the words to show; a problem's link marks its field.
  function show(html) {
    live.innerHTML = html;
    each(form, ".live-bad", function (e) { e.classList.remove("live-bad"); });
    each(live, "a[data-bad]", function (a) {
      var target = document.getElementById(a.dataset.bad);
      if (target) target.classList.add("live-bad");
    });
    live.hidden = false;
  }

  var timer = null, seq = 0;
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++seq;
      fetch(form.dataset.preview, { method: "POST", body: new FormData(form) })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) { if (mine === seq) show(html); })
        .catch(function () { /* offline: the Check button still works */ });
    }, 400);
  }
  form.addEventListener("input", preview);
  form.addEventListener("change", preview);
})();
