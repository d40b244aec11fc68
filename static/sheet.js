// The sheet editor: mark each option changed from the preset as it is edited, and load
// another preset's values at once when one is chosen. Without scripts, "Load preset" does it.
(function () {
  "use strict";
  var form = document.querySelector("form.sheet-form");
  if (!form) return;
  var presets = JSON.parse(form.dataset.presets || "{}");
  var squash = function (s) { return String(s).replace(/\s+/g, ""); };
  var current = function (input) { return input.type === "checkbox" ? (input.checked ? "1" : "") : input.value; };

  function mark(input) {
    var box = input.closest(".opt");
    if (!box || input.dataset.preset === undefined) return;
    var changed = squash(current(input)) !== squash(input.dataset.preset);
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
  form.addEventListener("input", function (e) { mark(e.target); counts(); });
  form.addEventListener("change", function (e) { mark(e.target); counts(); });

  var choice = document.getElementById("preset-choice");
  if (!choice) return;
  var load = document.querySelector("#preset-chooser [data-load]");
  if (load) load.hidden = true;
  choice.addEventListener("change", function () {
    var values = presets[choice.value];
    if (!values) return;
    Object.keys(values).forEach(function (name) {
      var input = form.elements.namedItem("opt-" + name);
      if (!input) return;
      var v = values[name];
      if (input.type === "checkbox") { input.checked = !!v; input.dataset.preset = v ? "1" : ""; }
      else { input.value = v; input.dataset.preset = v; }
      var tag = input.closest(".opt").querySelector("[data-tag]");
      if (tag) tag.textContent = "Changed from the preset (" + (input.type === "checkbox" ? (v ? "on" : "off") : (v === "" ? "blank" : v)) + ")";
      mark(input);
    });
    counts();
    document.getElementById("preset-value").value = choice.value;
    var title = form.querySelector("[data-preset-title]");
    if (title) title.textContent = choice.options[choice.selectedIndex].text;
  });
})();
