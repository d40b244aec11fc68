// The sheet editor: mark each option changed from the preset as it is edited, load another
// preset's values at once when one is chosen, and put the focus on the error summary.
// Without scripts, "Load preset" does the loading and autofocus the focusing.
(function () {
  "use strict";
  var summary = document.getElementById("error-summary");
  if (summary && document.activeElement !== summary) summary.focus();
  var form = document.querySelector("form.sheet-form");
  if (!form) return;
  var presets = JSON.parse(form.dataset.presets || "{}");
  var current = function (input) { return input.type === "checkbox" ? (input.checked ? "1" : "") : input.value.trim(); };
  var boxes = function () { return form.querySelectorAll("[name^='opt-']"); };

  function mark(box) {
    var inputs = box.querySelectorAll("[data-preset]");
    var changed = Array.prototype.some.call(inputs, function (input) {
      return current(input) !== input.dataset.preset;
    });
    box.classList.toggle("changed", changed);
    var tag = box.querySelector("[data-tag]");
    if (tag) tag.hidden = !changed;
  }
  function counts() {
    form.querySelectorAll("details.group").forEach(function (group) {
      var n = group.querySelectorAll(".opt.changed").length;
      var out = group.querySelector("[data-count]");
      if (out) out.textContent = n ? n + " changed" : "";
    });
  }
  function edited(e) {
    var box = e.target.closest && e.target.closest(".opt");
    if (box) { mark(box); counts(); }
  }
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);

  // The "Now:" hints follow what is typed: the boxes go to the server, which reads them as the
  // form's own sending would and says each option's words (a box it cannot read: no hint).
  var wordsAt = form.querySelector("[data-words-url]");
  var waiting = null, asked = 0;
  function sayNow() {
    var query = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (name === "preset" || name.indexOf("opt-") === 0) query.append(name, value);
    });
    var mine = ++asked;
    fetch(wordsAt.dataset.wordsUrl + "?" + query.toString(), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body || mine !== asked) return;  // a later edit's answer is on its way
        form.querySelectorAll(".opt[data-option]").forEach(function (box) {
          var hint = box.querySelector("[data-words]");
          var words = body.words[box.dataset.option];
          if (!hint) return;
          if (words) hint.textContent = "Now: " + words + ".";
          hint.hidden = !words;
        });
      })
      .catch(function () { /* offline: the hints wait for the page's next sending */ });
  }
  function later() { if (wordsAt) { clearTimeout(waiting); waiting = setTimeout(sayNow, 250); } }
  form.addEventListener("input", later);
  form.addEventListener("change", later);

  // More deals than an option has boxes: add a blank box (the deal before's value) for each
  // new deal, so each can be set. Without scripts the boxes come with the page after saving.
  function renumber(node, prefix, from, to) {
    var pattern = new RegExp(prefix + "-" + from + "(?=-|\\s|$)", "g");
    [node].concat(Array.prototype.slice.call(node.querySelectorAll("*"))).forEach(function (el) {
      ["id", "name", "for", "aria-labelledby"].forEach(function (attr) {
        var v = el.getAttribute(attr);
        if (v) el.setAttribute(attr, v.replace(pattern, prefix + "-" + to));
      });
      if (el.matches("label, .row-label")) el.textContent = el.textContent.replace(/\d+$/, String(to));
      if (el.matches("input")) {
        el.value = ""; el.placeholder = "same"; el.dataset.preset = "";
        el.removeAttribute("aria-invalid");
        el.setAttribute("aria-describedby", prefix + "-help");
      }
    });
    node.dataset.row = String(to);
  }
  function addDeals() {
    var deals = parseInt(form.elements.namedItem("opt-deals").value, 10);
    if (!(deals >= 1 && deals <= 50)) return;
    form.querySelectorAll("[data-per-deal]").forEach(function (set) {
      var rows = set.querySelectorAll("[data-row]");
      for (var n = rows.length; n < deals; n++) {
        var last = set.querySelectorAll("[data-row]")[n - 1];
        var row = last.cloneNode(true);
        renumber(row, set.dataset.perDeal, n, n + 1);
        last.after(row);
      }
    });
  }
  var dealsBox = form.elements.namedItem("opt-deals");
  if (dealsBox) dealsBox.addEventListener("change", addDeals);

  var choice = document.getElementById("preset-choice");
  if (!choice) return;
  var chooser = document.getElementById("preset-chooser");
  var load = chooser && chooser.querySelector("[data-load]");
  if (load) load.hidden = true;
  choice.addEventListener("change", function () {
    var preset = presets[choice.value];
    if (!preset) return;
    var values = preset.boxes;
    // A preset with more rows than the page holds is loaded by the server, as without scripts.
    var missing = Object.keys(values).some(function (name) { return !form.elements.namedItem(name); });
    if (missing && chooser) { chooser.submit(); return; }
    boxes().forEach(function (input) {
      var v = values[input.name];
      if (input.type === "checkbox") { input.checked = !!v; input.dataset.preset = v ? "1" : ""; }
      else { input.value = v === undefined ? "" : v; input.dataset.preset = input.value; }
    });
    form.querySelectorAll(".opt[data-option]").forEach(function (box) {
      var tag = box.querySelector("[data-tag]");
      var words = preset.words[box.dataset.option];
      if (tag) tag.textContent = "Changed from the preset" + (words === undefined ? "" : " (" + words + ")");
      mark(box);
    });
    counts();
    document.getElementById("preset-value").value = choice.value;
    later();
    var title = form.querySelector("[data-preset-title]");
    if (title) title.textContent = choice.options[choice.selectedIndex].text;
  });
})();
