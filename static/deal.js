// The deal form, enhanced: counts in one touch, spare meld rows shown as needed, the foot box when needed, and the
// live score (the bar's totals, each side's going out) while typing. Without it the form works the same.
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  if (!form) return;
  var live = document.getElementById("live");
  var each = function (root, sel, fn) { Array.prototype.forEach.call(root.querySelectorAll(sel), fn); };
  var el = function (name) { return form.elements.namedItem(name); };

  // Count boxes become segments 0 to "N+" (data-segs): radios that write the box, which posts
  // as before; "N+" writes N, tapped again it shows the box.
  var tops = {};
  form.dataset.segs.split(" ").forEach(function (s) { s = s.split(":"); tops[s[0]] = +s[1]; });
  function segments(input) {
    var parts = input.name.split("-"), top = tops[parts.pop()] || tops[parts.pop()], what = input.getAttribute("aria-label").replace(/, as a number$/, "");
    var row = document.createElement("span");
    row.className = "seg"; row.setAttribute("role", "radiogroup"); row.setAttribute("aria-label", what);
    for (var n = 0, html = ""; n <= top; n++) {
      html += '<label><input type="radio" name="seg-' + input.name + '" value="' + n + '"><span>' + n + (n < top ? "" : "+") + "</span></label>";
    }
    row.innerHTML = html;
    input.setAttribute("aria-label", what + ", as a number");
    input.parentNode.insertBefore(row, input);
    var more = false;  // "N+" tapped again
    function sync() {  // the box: above N, on asking, or holding no count
      var v = String(input.value).trim(), n = /^\d+$/.test(v) ? +v : (v ? -1 : null);
      each(row, "input", function (r) { r.checked = n !== null && n >= 0 && +r.value === Math.min(n, top); });
      input.hidden = !more && n !== -1 && (n === null || n <= top);
    }
    row.addEventListener("click", function (e) {
      if (e.target.type === "radio" && +e.target.value === top && +input.value === top && !more) {
        more = true; sync(); input.focus();
      }
    });
    row.addEventListener("change", function (e) {
      var n = +e.target.value;
      more = false;
      input.value = n ? n : "";
      sync();
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    input.addEventListener("input", sync);
    sync();
  }
  var counts = ".st input";
  each(form, counts, segments);

  // Meld rows: the filled ones and two blank; typing in the last blank one shows the next
  // (the form's "More meld rows", with or without scripts, adds rows).
  function blank(row) {
    return !row.querySelector(".error") && !Array.prototype.some.call(row.querySelectorAll("input:not([type=radio])"),
      function (i) { return i.value && i.value !== "0"; });
  }
  each(form, ".melds", function (list) {
    var spare = 0;
    each(list, ".meld", function (row) { if (blank(row) && ++spare > 2) row.classList.add("hidden-row"); });
    list.addEventListener("input", function () {  // one blank row ready
      var next = list.querySelector(".hidden-row");
      if (next && !Array.prototype.some.call(list.querySelectorAll(".meld:not(.hidden-row)"), blank)) {
        next.classList.remove("hidden-row");
      }
    });
  });
  var more = form.querySelector("button[value=more]");
  if (more) more.addEventListener("click", function (e) {  // the rows the page holds first, then the server's
    var hidden = form.querySelectorAll(".hidden-row");
    if (!hidden.length) return;
    e.preventDefault();
    each(form, ".hidden-row", function (row) { row.classList.remove("hidden-row"); });
    hidden[0].querySelector("select").focus();
  });

  // The unopened foot, only when the foot was not picked up.
  function feet() {
    each(form, "fieldset.player", function (p) {
      var foot = p.querySelector(".foot");
      if (foot) foot.hidden = el(p.id + "-picked").checked && !el(p.id + "-foot").value.trim();
    });
  }
  form.addEventListener("change", feet);
  feet();

  // The live score: the form posted to the preview route, whose parts replace the elements
  // with their ids (score, totals, going out); a problem's link marks its field.
  function show(html, quiet) {
    var parts = document.createElement("template");
    parts.innerHTML = html;
    Array.prototype.slice.call(parts.content.children).forEach(function (part) {
      var old = part.id && document.getElementById(part.id);
      if (old) old.replaceWith(part);
    });
    if (quiet) return;
    each(form, ".live-bad", function (e) { e.classList.remove("live-bad"); });
    each(live, "a[data-bad]", function (a) {
      var target = document.getElementById(a.dataset.bad);
      if (target) target.classList.add("live-bad");
    });
    live.hidden = false;
  }

  var timer = null, seq = 0;
  function preview(quiet) {
    quiet = quiet === 1;
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++seq;
      fetch(form.dataset.preview, { method: "POST", body: new FormData(form) })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) { if (mine === seq) show(html, quiet); })
        .catch(function () { /* offline: Check still works */ });
    }, 400);
  }
  form.addEventListener("input", preview);
  form.addEventListener("change", preview);
  preview(1);
})();
