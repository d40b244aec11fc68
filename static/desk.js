// scorepad: the referee desk's card pad. A meld's box is typed in as ever ("Q Q Q 2"); with
// this script a pad of tap buttons shows under it, one per rank and wild: a tap adds one of
// that card to the box, its − takes one away, and each button shows how many the box holds.
"use strict";
(function () {
  function tokens(text) {
    // "K K Kx2 2" -> ["K", "K", "K", "K", "2"]; codes as the server reads them, any case.
    var out = [];
    text.trim().split(/\s+/).forEach(function (t) {
      if (!t) { return; }
      var m = /^(.+?)[x×](\d{1,2})$/i.exec(t);
      var code = (m ? m[1] : t).toUpperCase();
      var n = m ? parseInt(m[2], 10) : 1;
      for (var i = 0; i < n; i += 1) { out.push(code); }
    });
    return out;
  }

  function setUp(pad) {
    var box = document.getElementById(pad.getAttribute("data-card-pad"));
    if (!box) { return; }
    var status = pad.querySelector("[data-pad-status]");
    var order = [].map.call(pad.querySelectorAll(".card-add"), function (b) { return b.getAttribute("data-card"); });

    function counts() {
      var c = {};
      tokens(box.value).forEach(function (code) { c[code] = (c[code] || 0) + 1; });
      return c;
    }

    function show() {
      var c = counts();
      pad.querySelectorAll(".card-add").forEach(function (b) {
        var n = c[b.getAttribute("data-card")] || 0;
        b.querySelector("[data-count]").textContent = n ? "×" + n : "";
        b.classList.toggle("held", n > 0);
      });
      pad.querySelectorAll(".card-less").forEach(function (b) {
        b.disabled = !c[b.getAttribute("data-card")];
      });
    }

    function change(code, by) {
      var c = counts();
      c[code] = Math.max(0, (c[code] || 0) + by);
      // The pad's cards in its order (ranks, then wilds), then any other code typed, as typed.
      var cards = [];
      order.forEach(function (k) { for (var i = 0; i < (c[k] || 0); i += 1) { cards.push(k); } });
      Object.keys(c).forEach(function (k) {
        if (order.indexOf(k) < 0) { for (var i = 0; i < c[k]; i += 1) { cards.push(k); } }
      });
      box.value = cards.join(" ");
      box.dispatchEvent(new Event("input", { bubbles: true }));
      if (status) { status.textContent = cards.length ? "The meld: " + box.value : "The meld is empty"; }
    }

    pad.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-card]");
      if (!b || b.disabled) { return; }
      change(b.getAttribute("data-card"), b.classList.contains("card-less") ? -1 : 1);
    });
    box.addEventListener("input", show);
    pad.hidden = false;
    show();
  }

  document.querySelectorAll("[data-card-pad]").forEach(setUp);
}());
