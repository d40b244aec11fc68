// The colours: the phone's own setting (prefers-color-scheme), or light or dark as chosen with
// the header's button and kept in localStorage. Loaded in <head> without defer, so <html> has
// its data-theme before the first paint (no flash of the other colours). Without scripts the
// button stays hidden and the stylesheet follows the phone.
(function () {
  "use strict";
  var KEY = "scorepad-theme", root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var WORDS = { auto: "Auto", light: "Light", dark: "Dark" };
  var ICONS = { auto: "\u25D0", light: "\u2600\uFE0E", dark: "\u263E" };  // half circle, sun, moon
  var theme = "auto";
  try { theme = localStorage.getItem(KEY) || "auto"; } catch (e) { /* storage off: follow the phone */ }
  if (!WORDS[theme]) theme = "auto";

  function apply() {
    if (theme === "auto") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", theme);
  }

  // Each tap changes what the page looks like, then comes back to the phone's setting:
  // from "auto", the other colours; then the phone's own, chosen; then "auto" again.
  function next() {
    var own = system && system.matches ? "dark" : "light";
    if (theme === "auto") return own === "dark" ? "light" : "dark";
    return theme === own ? "auto" : own;
  }

  apply();
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme");
    if (!button) return;
    var label = button.querySelector(".theme-now"), icon = button.querySelector(".theme-icon");
    function show() {
      label.textContent = WORDS[theme];
      icon.textContent = ICONS[theme];
    }
    button.addEventListener("click", function () {
      theme = next();
      try { localStorage.setItem(KEY, theme); } catch (e) { /* kept for this page only */ }
      apply();
      show();
    });
    show();
    button.hidden = false;
  });
})();
