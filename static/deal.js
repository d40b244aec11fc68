// The deal form, enhanced: one-touch counts, meld rows and the foot box as needed, Next from box
// to box, the live score while typing, and a deal never lost (a draft kept here, offered back, and
// a save by fetch retried, once, until the server answers). Without it the form works the same.
(function () {
  "use strict";
  var form = document.getElementById("deal-form");
  if (!form) return;
  var live = document.getElementById("live");
  var each = function (root, sel, fn) { Array.prototype.forEach.call(root.querySelectorAll(sel), fn); };
  var el = function (name) { return form.elements.namedItem(name); };
  var some = function (root, sel, fn) { return Array.prototype.some.call(root.querySelectorAll(sel), fn); };

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
      if (e.isTrusted && n < top) onward(row);
    });
    input.addEventListener("input", sync);
    sync();
  }
  var counts = ".st input";
  each(form, counts, segments);

  // Meld rows: the filled ones and two blank; typing in the last blank one shows the next.
  function blank(row) {
    return !row.querySelector(".error") && !some(row, "input:not([type=radio])", function (i) { return i.value && i.value !== "0"; });
  }
  each(form, ".melds", function (list) {
    var spare = 0;
    each(list, ".meld", function (row) { if (blank(row) && ++spare > 2) row.classList.add("hidden-row"); });
    list.addEventListener("input", function () {  // one blank row ready
      var next = list.querySelector(".hidden-row");
      if (next && !some(list, ".meld:not(.hidden-row)", blank)) {
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

  // The unopened foot, only when the foot was not picked up (and the knee, where the deal has one).
  function feet() {
    each(form, "fieldset.player", function (p) {
      var foot = p.querySelector(".foot:not(.knee)"), knee = p.querySelector(".knee");
      if (foot) foot.hidden = el(p.id + "-picked").checked && !el(p.id + "-foot").value.trim();
      if (knee) knee.hidden = el(p.id + "-knee_picked").checked && !el(p.id + "-knee").value.trim();
    });
  }
  form.addEventListener("change", feet);
  feet();

  // The went-out player's empty points-left box goes (disabled: not sent, so 0).
  function outs() {
    var end = form.querySelector("[name=ending]:checked");
    each(form, ".cp .pts", function (p) {
      var out = !!end && end.value === p.parentNode.id && !some(p, "input", function (i) { return !/^0?$/.test(i.value.trim()); });
      p.hidden = out;
      each(p, "input", function (i) { i.disabled = out; });
    });
  }
  // Enter (Next) goes to the next box shown, in the form's order; the last's "done" to Save.
  var BOX = ".side input:not([type=radio]):not([type=checkbox])";
  function boxes(sel) {
    return Array.prototype.filter.call(form.querySelectorAll(sel || BOX), function (e) { return !e.disabled && e.getClientRects().length; });
  }
  function hints() { var l = boxes(); l.forEach(function (b, i) { b.enterKeyHint = i < l.length - 1 ? "next" : "done"; }); }
  form.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !e.target.matches(BOX)) return;
    e.preventDefault();
    var l = boxes();
    (l[l.indexOf(e.target) + 1] || bar.querySelector("button")).focus();
  });
  // A count tapped goes on to the next box if empty (past rarer books unsaid); not from the clean books.
  function book(e) { return e.classList.contains("seg") && /-b-/.test(e.nextElementSibling.name); }
  function onward(row) {
    if (/-b-clean$/.test(row.nextElementSibling.name)) return;
    var l = boxes(".seg," + BOX), at = l.indexOf(row) + 1;
    while (book(row) && l[at] && book(l[at]) && !l[at].nextElementSibling.value) at++;
    if (l[at] && l[at].tagName === "INPUT" && !l[at].value.trim()) l[at].focus();
  }
  function follow() { outs(); hints(); }
  form.addEventListener("change", follow);
  form.addEventListener("input", hints);
  follow();

  // The live score: the preview's parts replace the elements with their ids; a problem's link marks its field.
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

  // The live score when the server cannot be reached: marked stale, and asked again every 5 s.
  var timer = null, seq = 0, gone = false, stale = false, again = null;
  var bar = document.getElementById("bar"), status = document.getElementById("save-status"), saying = "";
  function tell() {
    var words = saying || (stale ? "Score not up to date: the server cannot be reached." : "");
    status.textContent = words;
    status.hidden = !words;
  }
  function staleness(now) {
    stale = now;
    bar.classList.toggle("stale", now);
    live.classList.toggle("stale", now);
    clearTimeout(again);
    if (now) again = setTimeout(function () { preview(1); }, 5000);
    tell();
  }
  function preview(quiet) {
    quiet = quiet === 1;
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++seq;
      fetch(form.dataset.preview, { method: "POST", body: new FormData(form) })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) { if (gone || mine !== seq) return; staleness(false); show(html, quiet); },
              function () { if (!gone && mine === seq) staleness(true); });
    }, 400);
  }
  form.addEventListener("input", preview);
  form.addEventListener("change", preview);

  // The draft: what was typed (not the token, key, segments, button, deal_number), kept per game
  // and deal in localStorage with its idempotency key: new when what was typed changes.
  var slot = "scorepad-draft:" + form.dataset.draft, keyBox = el("idempotency_key"), SKIP = /^(csrf_token|idempotency_key|deal_number|action)$|^seg-/;
  var draft = null, offered = null, offerBox = null, button = null, tries = 0, retrying = null, sending = false;
  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    var h = Array.prototype.map.call(crypto.getRandomValues(new Uint8Array(16)), function (b, i) {
      return ((i === 6 ? b & 15 | 64 : i === 8 ? b & 63 | 128 : b) + 256).toString(16).slice(1);
    }).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }
  function typed() {
    var out = [];
    new FormData(form).forEach(function (v, k) { if (!SKIP.test(k) && typeof v === "string") out.push([k, v]); });
    return out;
  }
  function same(a, b) {  // blank boxes and the number of meld rows do not count
    var norm = function (list) { return JSON.stringify(list.filter(function (p) { return p[1] !== "" && !/-rows$/.test(p[0]); })); };
    return norm(a) === norm(b);
  }
  function kept() { try { return JSON.parse(localStorage.getItem(slot)); } catch (e) { return null; } }
  function keepDraft(d) { draft = d; keyBox.value = d.key; try { localStorage.setItem(slot, JSON.stringify(d)); } catch (e) { /* no storage */ } }
  function forget() { try { localStorage.removeItem(slot); } catch (e) { /* no storage */ } }
  function changed() {
    if (offered) return;  // the draft on offer stays until it is restored or discarded
    var now = typed();
    if (!draft || !same(draft.fields, now)) keepDraft({ fields: now, key: uuid(), at: Date.now() });
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);

  // Offered back when the form opens again (not on the server's answer: that becomes the draft).
  function offer(d) {
    offered = d;
    var box = offerBox = document.createElement("div"), h1 = document.querySelector("h1");
    box.className = "draft"; box.setAttribute("role", "alert");
    box.innerHTML = "<p>A deal you typed was not saved: restore it, or discard it?</p><p class=\"actions\">"
      + "<button type=\"button\" data-do=\"restore\">Restore it</button>"
      + "<button type=\"button\" class=\"secondary\" data-do=\"discard\">Discard</button></p>";
    h1.parentNode.insertBefore(box, h1.nextSibling);
    box.addEventListener("click", function (e) {
      var what = e.target.getAttribute("data-do");
      if (!what) return;
      box.remove();
      offered = null;
      if (what === "restore") restore(d); else { forget(); draft = null; }
    });
  }
  function restore(d) {
    var values = {}, missing = false;
    d.fields.forEach(function (p) { (values[p[0]] = values[p[0]] || []).push(p[1]); if (!el(p[0])) missing = true; });
    if (missing) {  // meld rows this form has not laid out: the server lays the form out for the draft
      var body = new FormData();
      if (el("csrf_token")) body.append("csrf_token", el("csrf_token").value);
      if (el("deal_number")) body.append("deal_number", el("deal_number").value);
      d.fields.forEach(function (p) { body.append(p[0], p[1]); });
      body.append("idempotency_key", d.key);
      body.append("action", "more");
      fetch(form.getAttribute("action"), { method: "POST", body: body }).then(function (r) { return r.text().then(function (html) { replace(r, html); }); },
        function () { keepDraft(d); say("Not restored: the server cannot be reached. Open the form again when it is back."); });
      return;
    }
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || SKIP.test(input.name) || input.type === "submit" || input.type === "button") return;
      var v = values[input.name] || [];
      if (input.type === "checkbox" || input.type === "radio") input.checked = v.indexOf(input.value) >= 0;
      else input.value = v.length ? v[0] : "";
    });
    each(form, counts, function (input) { input.dispatchEvent(new Event("input")); });  // the segments follow
    feet(); follow();
    keepDraft(d);
    preview();
  }
  var before = kept();
  if (before && before.at && Date.now() - before.at > 7 * 864e5) { forget(); before = null; }  // a week old: gone
  if (form.hasAttribute("data-posted")) keepDraft({ fields: typed(), key: keyBox.value, at: Date.now() });
  else if (before && before.fields && before.key && !same(before.fields, typed())) offer(before);

  // Save by fetch, the draft's key as Idempotency-Key. Offline, it says so and sends it again 1, 2,
  // 4... up to 15 s apart (at once back online); the server saves it once, whichever arrives.
  function say(words) { saying = words; tell(); }
  function replace(response, html) {  // the server's answer becomes the page, as a plain post would
    gone = true;
    clearTimeout(timer); clearTimeout(again); clearTimeout(retrying);
    var to = "main";  // the game page's top (the redirect's #main): what was saved, the standings
    if (response.redirected) history.replaceState(null, "", response.url.split("#")[0] + "#" + to);
    document.open(); document.write(html); document.close();
    if (response.redirected && document.getElementById(to)) document.getElementById(to).scrollIntoView();
    else if (document.getElementById("recorded") || document.getElementById("repeat")) window.scrollTo(0, 0);  // the question first
  }
  function send() {
    clearTimeout(retrying);
    retrying = null;
    if (!tries) say("Saving…");
    var body = new FormData(form);
    body.set("action", button.value);
    body.set("idempotency_key", draft.key);
    sending = true;
    // "Replace it with mine" saves to the correction (formaction); the rest to the form's address.
    fetch(button.getAttribute("formaction") || form.getAttribute("action"), { method: "POST", body: body, headers: { "Idempotency-Key": draft.key } }).then(function (r) {
      sending = false;
      if (gone) return;
      if (r.status === 503) return retry("Not saved yet: the server is busy, retrying", 1000 * (+r.headers.get("Retry-After") || 1));
      return r.text().then(function (html) {
        if (r.redirected || html.indexOf("id=\"deal-form\"") >= 0) forget();  // saved, or its answer holds what was typed
        replace(r, html);
      });
    }, function () { sending = false; if (!gone) retry("Not saved: offline, retrying"); });
  }
  function retry(words, wait) {
    tries += 1;
    say(words);
    retrying = setTimeout(send, wait || Math.min(1000 * Math.pow(2, tries - 1), 15000));
  }
  window.addEventListener("online", function () { if (retrying) send(); });
  form.addEventListener("submit", function (e) {
    var by = e.submitter;
    if (!by || !/^(save|as_played|repeat|replace|keep)$/.test(by.value) || !window.fetch) return;  // the rest post as before
    e.preventDefault();
    if (sending) return;  // on its way: its answer comes
    if (offered) { offerBox.remove(); offered = null; }  // saved instead of the draft on offer
    changed();
    button = by;
    tries = 0;
    send();
  });
  // "Keep the saved one": another phone's deal stands, and what was typed here is discarded.
  each(document, "[data-discard]", function (a) { a.addEventListener("click", function () { forget(); draft = null; }); });
  preview(1);
})();
