// The deal form, enhanced: +/- steppers, "Add a meld", the foot box only when needed, and a
// live score from /api/v1/score while typing. Without this script the form works the same.
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  if (!form) return;
  var CARDS = "A K Q J 10 9 8 7 6 5 4 2 JK 3B 3R".split(" ");
  var live = document.getElementById("live");
  var each = function (root, sel, fn) { Array.prototype.forEach.call(root.querySelectorAll(sel), fn); };
  var el = function (name) { return form.elements.namedItem(name); };
  var val = function (name) { var e = el(name); return e && e.value ? String(e.value).trim() : ""; };
  var num = function (name) { return parseInt(val(name), 10) || 0; };
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

  // The deal as canonical JSON, read from the form as the server reads it.
  var rowsOf = [];
  function deal() {
    var sides = [];
    rowsOf = [];
    each(form, "fieldset.side", function (side) {
      var melds = [], rows = [], players = [];
      each(side, ".meld", function (row) {
        var m = row.id + "-", rank = val(m + "rank"), cards = val(m + "cards"), meld = null;
        if (cards) { meld = { cards: cards }; if (rank) meld.rank = rank; }
        else if (num(m + "naturals") || num(m + "twos") || num(m + "jokers")) {
          meld = { rank: rank || "?" };
          ["naturals", "twos", "jokers"].forEach(function (k) { if (num(m + k)) meld[k] = num(m + k); });
        }
        if (meld) { melds.push(meld); rows.push(row.id); }
      });
      rowsOf.push(rows);
      each(side, "fieldset.player", function (p) {
        var k = p.id + "-", counts = {}, tokens = [], left = val(k + "left"), picked = el(k + "picked").checked;
        CARDS.forEach(function (c) {
          var n = num(k + "c-" + c);
          if (n) counts[c] = n;
          if (n > 0) tokens.push(c + "x" + n);
        });
        var player = { name: p.dataset.name, foot_picked_up: picked, cards_left: left ? tokens.concat(left).join(" ") : counts };
        if (!picked && val(k + "foot")) player.foot = val(k + "foot");
        if (el(k + "cut") && el(k + "cut").checked) player.cut_bonus = true;
        players.push(player);
      });
      sides.push({ name: side.dataset.name, melds: melds, red_threes: num(side.id + "-red_threes"), players: players });
    });
    var out = { sheet: JSON.parse(form.dataset.sheet), deal: +form.dataset.deal, ending: "went_out", sides: sides };
    var ending = (el("ending") || {}).value, who = ending && document.getElementById(ending);
    if (ending === "stock") out.ending = "stock_out";
    else if (who) out.went_out = who.dataset.name;
    return out;
  }

  // Where a problem's path points on the form.
  function anchor(where) {
    var m = /^sides\[(\d+)\](?:\.(melds|players)\[(\d+)\])?/.exec(where || "");
    if (!m) return /^(went_out|ending)/.test(where || "") ? "ending" : "";
    if (m[2] === "melds") return (rowsOf[m[1]] || [])[m[3]] || "s" + m[1];
    return m[2] ? "s" + m[1] + "-p" + m[3] : "s" + m[1];
  }

  function show(data) {
    live.textContent = "";
    each(form, ".live-bad", function (e) { e.classList.remove("live-bad"); });
    var head = document.createElement("p"), list = document.createElement("ul");
    live.appendChild(head);
    if (data.error) {
      head.className = "live-err";
      head.textContent = "Not readable yet: " + data.error.message + (data.error.field ? " (" + data.error.field + ")" : "");
    } else {
      head.textContent = "Live score: " + data.sides.map(function (s) {
        return s.name + " " + s.total.toLocaleString("en");
      }).join(" \u00b7 ") + (data.violations.length ? "" : ". The referee finds nothing wrong.");
      data.violations.concat(data.warnings).forEach(function (p, i) {
        var li = document.createElement("li"), id = anchor(p.where), target = id && document.getElementById(id);
        var bad = i < data.violations.length;
        li.className = bad ? "live-err" : "";
        li.textContent = (bad ? "" : "Worth a look: ") + p.message;
        if (target) {
          var a = document.createElement("a");
          a.href = "#" + id; a.textContent = li.textContent; li.textContent = ""; li.appendChild(a);
          if (bad) target.classList.add("live-bad");
        }
        list.appendChild(li);
      });
      if (list.firstChild) live.appendChild(list);
    }
    live.hidden = false;
  }

  var timer = null, seq = 0;
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++seq;
      fetch(form.dataset.api, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(deal()) })
        .then(function (r) { return r.json(); })
        .then(function (data) { if (mine === seq) show(data); })
        .catch(function () { /* offline: the Check button still works */ });
    }, 400);
  }
  form.addEventListener("input", preview);
  form.addEventListener("change", preview);
})();
