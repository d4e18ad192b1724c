// Dragoman dashboard: progressive enhancement of server-rendered pages.
// No inline script anywhere (the CSP forbids it); text from the server is
// put into the page with textContent, never as HTML, except the job rows
// and delivery history, which are HTML the server escaped.
(function () {
  "use strict";
  var csrf = document.body.dataset.csrf || "";

  // jobAction confirms a held job (it starts) or cancels one; it resolves,
  // or rejects with the server's message.
  function jobAction(id, action) {
    return fetch("/jobs/" + encodeURIComponent(id) + "/" + action, {
      method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf, Accept: "application/json" }
    }).then(function (r) {
      if (r.ok) return r.json();
      return r.json().then(function (b) { throw (b && b.message) || ("HTTP " + r.status); }, function () { throw "HTTP " + r.status; });
    });
  }

  // Destructive forms ask first.
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (f.dataset && f.dataset.confirm && !window.confirm(f.dataset.confirm)) e.preventDefault();
  });

  // Copy buttons.
  document.querySelectorAll("[data-copy]").forEach(function (b) {
    b.addEventListener("click", function () {
      var input = document.getElementById(b.dataset.copy);
      input.select();
      var done = function () { b.textContent = "Copied"; setTimeout(function () { b.textContent = "Copy"; }, 2000); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
      } else { document.execCommand("copy"); done(); }
    });
  });

  // Live job rows: the server renders them; we fetch them again every 3 s.
  var rows = document.getElementById("job-rows");
  if (rows) {
    var live = document.getElementById("live");
    // A batch is one row that expands into its jobs; what is open stays
    // open across refreshes.
    var open = {};
    if (/^#(batch|job)-/.test(window.location.hash)) {
      var target = document.getElementById(window.location.hash.slice(1));
      if (target && target.dataset.batch) open[target.dataset.batch] = true;
    }
    var applyOpen = function () {
      rows.querySelectorAll("button.expand").forEach(function (b) {
        var on = !!open[b.dataset.batch];
        b.setAttribute("aria-expanded", on ? "true" : "false");
        b.textContent = (on ? "Hide " : "Show ") + b.textContent.replace(/^(Show|Hide) /, "");
        rows.querySelectorAll("tr.in-batch[data-batch=\"" + b.dataset.batch + "\"]").forEach(function (tr) { tr.hidden = !on; });
      });
    };
    applyOpen();
    rows.addEventListener("click", function (e) {
      var b = e.target.closest("button");
      if (!b) return;
      if (b.classList.contains("expand")) {
        open[b.dataset.batch] = !open[b.dataset.batch];
        applyOpen();
        return;
      }
      if (b.dataset.jobAction) {
        b.disabled = true;
        jobAction(b.dataset.job, b.dataset.jobAction).then(refresh, function (msg) { b.disabled = false; if (live) live.textContent = msg; });
      }
    });
    var refresh = function () {
      if (document.hidden) return;
      fetch(rows.dataset.src, { credentials: "same-origin", redirect: "manual", headers: { Accept: "text/html" } }).then(function (r) {
        // A session that ended answers with a redirect to the sign-in page.
        if (r.type === "opaqueredirect" || r.status === 401 || r.status === 403) { window.location = "/jobs"; return null; }
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.text();
      }).then(function (html) {
        if (html === null) return;
        rows.innerHTML = html;
        applyOpen();
        if (live) live.textContent = "Updated " + new Date().toLocaleTimeString();
      }).catch(function () { if (live) live.textContent = "Connection lost, retrying…"; });
    };
    setInterval(refresh, 3000);
  }

  // Delivery history refreshes itself.
  var attempts = document.getElementById("attempts");
  if (attempts) {
    setInterval(function () {
      if (document.hidden) return;
      fetch(window.location.pathname, { credentials: "same-origin", redirect: "manual" }).then(function (r) {
        if (r.type === "opaqueredirect") { window.location.reload(); return null; }
        return r.ok ? r.text() : null;
      })
        .then(function (html) {
          if (!html) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.querySelector("#attempts tbody");
          if (fresh) attempts.querySelector("tbody").replaceWith(document.importNode(fresh, true));
        }).catch(function () {});
    }, Number(attempts.dataset.refresh || 5) * 1000);
  }

  // Preview: ask each side how many pages it has (rendering it the first
  // time), then add the page images, which the browser loads lazily.
  var preview = document.getElementById("preview");
  if (preview) {
    preview.querySelectorAll(".side").forEach(function (side) {
      var status = side.querySelector(".status"), pages = side.querySelector(".pages");
      var base = "/jobs/" + encodeURIComponent(preview.dataset.job) + "/preview/" + side.dataset.side;
      fetch(base, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (r) {
        return r.json().then(function (body) { return { ok: r.ok, body: body }; });
      }).then(function (res) {
        if (!res.ok) { status.textContent = res.body.message || "The preview could not be rendered."; status.classList.add("error-text"); return; }
        status.textContent = res.body.pages + (res.body.pages === 1 ? " page" : " pages");
        for (var i = 1; i <= res.body.pages; i++) {
          var img = document.createElement("img");
          img.loading = "lazy"; img.src = base + "/" + i + "?r=" + encodeURIComponent(preview.dataset.revision || "0"); img.alt = "page " + i; img.className = "page";
          pages.appendChild(img);
        }
      }).catch(function () { status.textContent = "The preview could not be loaded."; });
    });
  }

  // The do-not-translate list counts its terms (non-blank lines) as they are typed.
  var dnt = document.getElementById("dnt-terms"), dntCount = document.getElementById("dnt-count");
  if (dnt && dntCount) {
    dnt.addEventListener("input", function () {
      var n = dnt.value.split("\n").filter(function (l) { return l.trim() !== ""; }).length;
      dntCount.textContent = n.toLocaleString("en-US") + " of " + dntCount.dataset.max + " terms";
    });
  }

  // A glossary file is read into the entries box, which the form sends.
  var gfile = document.getElementById("glossary-file"), gentries = document.getElementById("glossary-entries");
  if (gfile && gentries) {
    gfile.addEventListener("change", function () {
      var f = gfile.files[0];
      if (!f) return;
      var rd = new FileReader();
      rd.onload = function () { gentries.value = String(rd.result); };
      rd.readAsText(f);
    });
  }

  // Translate form.
  var form = document.getElementById("translate-form");
  if (!form) return;
  var pairs = {};
  try { pairs = JSON.parse(form.dataset.pairs || "{}"); } catch (e) { pairs = {}; }
  var source = document.getElementById("source"), target = document.getElementById("target");
  var file = document.getElementById("file"), drop = document.getElementById("drop"), chosen = document.getElementById("chosen");
  var url = document.getElementById("url"), submit = document.getElementById("submit");
  var progress = document.getElementById("progress"), progressText = document.getElementById("progress-text");
  var result = document.getElementById("result"), pdf = document.getElementById("pdf");
  var glossary = document.getElementById("glossary"), more = document.getElementById("more-targets");
  var quote = document.getElementById("quote"), quoteBody = document.getElementById("quote-body");
  var quoteGo = document.getElementById("quote-go"), quoteCancel = document.getElementById("quote-cancel");
  var maxSize = Number(form.dataset.maxSize), maxMB = form.dataset.maxMb;
  var leftWords = form.dataset.leftWords === "" ? null : Number(form.dataset.leftWords);
  var limitWords = form.dataset.limitWords === "" ? null : Number(form.dataset.limitWords);
  // Quote first for documents over 1 MB, a .zip, or a month with less than
  // a fifth of its words left.
  var quoteAbove = 1048576;
  var held = null;
  var picked = null;

  var langs = {};
  try { langs = JSON.parse(form.dataset.langs || "{}"); } catch (e) { langs = {}; }
  var detected = document.getElementById("detected"), detectMax = Number(form.dataset.detectMax);
  var detectedSource = ""; // the chosen document's language, when source is auto
  var lastKey = "dragoman.lastTarget";
  function lastChoice() { try { return localStorage.getItem(lastKey) || ""; } catch (e) { return ""; } }

  // The default target: Arabic (the API's default) when it is reachable,
  // else the person's last choice, else the first right-to-left target,
  // else what was chosen before, else the first.
  var targetPicked = false; // the person chose a target: refilling keeps it
  function defaultTarget(names, before) {
    var has = function (n) { return n && names.indexOf(n) >= 0; };
    if (targetPicked && has(before)) return before;
    if (has("Arabic")) return "Arabic";
    if (has(lastChoice())) return lastChoice();
    for (var i = 0; i < names.length; i++) if ((langs[names[i]] || {}).rtl) return names[i];
    return has(before) ? before : names[0];
  }
  function fillTargets() {
    var before = target.value;
    var from = source.value === "auto" && detectedSource ? detectedSource : source.value;
    var names = (pairs[from] || []).slice().sort();
    var keep = defaultTarget(names, before);
    var keepMore = more ? Array.prototype.map.call(more.selectedOptions, function (o) { return o.value; }) : [];
    target.textContent = "";
    if (more) more.textContent = "";
    names.forEach(function (n) {
      var o = document.createElement("option");
      o.value = n; o.textContent = (langs[n] || {}).label || n;
      if (n === keep) o.selected = true;
      target.appendChild(o);
      if (more) {
        var m = document.createElement("option");
        m.value = n; m.textContent = (langs[n] || {}).label || n;
        if (keepMore.indexOf(n) >= 0) m.selected = true;
        more.appendChild(m);
      }
    });
    if (!names.length) {
      var o = document.createElement("option");
      o.value = ""; o.textContent = "No language reachable from " + from;
      target.appendChild(o);
    }
    syncMore();
  }
  // "Also into" never offers the language chosen in "To": picking it there
  // would ask for the same translation twice.
  function syncMore() {
    if (!more) return;
    Array.prototype.forEach.call(more.options, function (o) {
      var same = o.value === target.value;
      o.hidden = o.disabled = same;
      if (same) o.selected = false;
    });
  }
  function showDetected(name) {
    detectedSource = name && pairs[name] ? name : "";
    detected.hidden = !name;
    detected.textContent = name ? "Detected: " + ((langs[name] || {}).label || name) + (detectedSource ? "" : " (no engine translates it)") : "";
    fillTargets();
  }
  // A document chosen with source auto is detected at once (a .docx up to
  // the detection limit; the others are detected when submitted).
  // An answer that comes after the person chose a source or another
  // document is dropped (the request is aborted): it would refill the
  // targets under them. data-detecting is set while one is out.
  var detecting = null;
  function stopDetecting() {
    if (detecting) detecting.abort();
    detecting = null;
    delete form.dataset.detecting;
  }
  function detect(f) {
    stopDetecting();
    showDetected("");
    if (!f || source.value !== "auto" || f.size > detectMax || !/\.docx$/i.test(f.name)) return;
    var fd = new FormData();
    fd.append("file", f, f.name);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", "/detect");
    xhr.setRequestHeader("X-CSRF-Token", csrf);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.addEventListener("load", function () {
      if (detecting !== xhr) return;
      detecting = null; // answered: aborting now would clear the answer
      stopDetecting();
      if (xhr.status !== 200 || picked !== f || source.value !== "auto") return;
      try { showDetected(JSON.parse(xhr.responseText).name); } catch (e) { /* no answer: all targets stay */ }
    });
    xhr.addEventListener("error", function () { if (detecting === xhr) { detecting = null; stopDetecting(); } });
    detecting = xhr;
    form.dataset.detecting = "1";
    xhr.send(fd);
  }
  source.addEventListener("change", function () {
    if (source.value === "auto") detect(picked);
    else { stopDetecting(); showDetected(""); }
  });
  target.addEventListener("change", function () { targetPicked = true; syncMore(); });
  fillTargets();
  // Choosing a glossary chooses its pair; the server checks the pair sent.
  if (glossary) glossary.addEventListener("change", function () {
    var o = glossary.selectedOptions[0];
    if (!o || !o.dataset.source || !pairs[o.dataset.source]) return;
    source.value = o.dataset.source;
    fillTargets();
    if ((pairs[o.dataset.source] || []).indexOf(o.dataset.target) >= 0) target.value = o.dataset.target;
    syncMore();
  });

  function show(kind, text) {
    result.hidden = false;
    result.className = "alert " + kind;
    result.textContent = text;
  }
  function size(n) {
    return n < 1048576 ? Math.max(1, Math.round(n / 1024)) + " KB" : (n / 1048576).toFixed(1) + " MB";
  }
  function choose(f) {
    picked = f || null;
    chosen.hidden = !picked;
    chosen.textContent = picked ? picked.name + " · " + size(picked.size) : "";
    if (picked) url.value = "";
    result.hidden = true;
    detect(picked);
  }
  file.addEventListener("change", function () { choose(file.files[0]); });
  drop.addEventListener("click", function (e) { if (e.target.tagName !== "LABEL" && e.target !== file) file.click(); });
  drop.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); file.click(); } });
  ["dragenter", "dragover"].forEach(function (t) {
    drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add("over"); });
  });
  ["dragleave", "drop"].forEach(function (t) {
    drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.remove("over"); });
  });
  drop.addEventListener("drop", function (e) { if (e.dataTransfer.files.length) choose(e.dataTransfer.files[0]); });
  url.addEventListener("input", function () { if (url.value) { choose(null); file.value = ""; } });

  function explain(status, body) {
    var msg = (body && body.message) || "";
    switch (status) {
      case 413: return "This document is too large: the limit is " + maxMB + " MB.";
      case 422: return msg.indexOf("glossary: ") === 0 ? "This glossary cannot be used: " + msg.slice(10) : "This document cannot be translated: " + msg;
      case 400: return "The address could not be used: " + msg;
      case 402: return "Your plan's words for this month are used up (" + msg + "). Upgrade your plan or wait until next month.";
      case 429: return "Too many requests right now. Try again in " + ((body && body.retry_after) || 60) + " seconds.";
      case 403: return msg || "You are not allowed to do this.";
      case 503: return "Translation is unavailable for a moment: " + msg;
      default: return msg || ("The server answered " + status + ".");
    }
  }

  function targets() {
    var all = [target.value];
    if (more) Array.prototype.forEach.call(more.selectedOptions, function (o) { if (all.indexOf(o.value) < 0) all.push(o.value); });
    return all;
  }
  function needsQuote() {
    var tight = limitWords !== null && leftWords !== null && leftWords < limitWords / 5;
    if (!picked) return tight; // a URL's size is only known once fetched
    return picked.size > quoteAbove || /\.zip$/i.test(picked.name) || tight;
  }
  function opened(body) {
    window.location = body.batch_id ? "/jobs#batch-" + body.batch_id : "/jobs#job-" + body.job_id;
  }
  function line(text, cls) {
    var p = document.createElement("p");
    p.textContent = text;
    if (cls) p.className = cls;
    quoteBody.appendChild(p);
  }
  function showQuote(body) {
    var q = body.quote;
    held = body;
    quoteBody.textContent = "";
    var docs = q.documents > 1 ? " in " + q.documents + " documents" : "";
    line(q.words.toLocaleString("en-US") + " words" + docs + (q.source_lang ? " in " + q.source_lang : "") + ", " +
      q.charged_words.toLocaleString("en-US") + " words charged for " + q.targets.length + (q.targets.length === 1 ? " language." : " languages."));
    var ul = document.createElement("ul");
    q.targets.forEach(function (t) {
      var li = document.createElement("li");
      var route = t.route.map(function (l) { return l.source_lang + " → " + l.target_lang + " by " + l.engine; }).join(", then ");
      li.textContent = t.target_lang + ": about " + Math.max(1, Math.round(t.estimated_seconds)) + " s" +
        (route ? " (" + route + ")" : "") + "; " + t.segments_in_memory + " passages already translated before.";
      ul.appendChild(li);
    });
    quoteBody.appendChild(ul);
    if (body.skipped && body.skipped.length) line("Left out of the .zip, not documents: " + body.skipped.join(", ") + ".");
    if (q.quota.left_after === null) line("Your " + q.quota.plan_name + " plan has no monthly limit.");
    else if (q.quota.fits) line(q.quota.left_after.toLocaleString("en-US") + " words will be left this month.");
    else line("This is more than the " + (q.quota.left_after + q.charged_words).toLocaleString("en-US") + " words left this month: cancel, or upgrade your plan first.", "error-text");
    quoteGo.disabled = !q.quota.fits;
    quote.hidden = false;
    quoteGo.focus();
  }
  function all(action) {
    return Promise.all(held.jobs.map(function (j) { return jobAction(j.job_id, action); }));
  }
  quoteGo.addEventListener("click", function () {
    if (!held) return;
    quoteGo.disabled = quoteCancel.disabled = true;
    var body = held;
    all("confirm").then(function () { show("ok", "Translating. Opening your jobs…"); setTimeout(function () { opened(body); }, 600); },
      function (msg) { quoteGo.disabled = quoteCancel.disabled = false; show("error", String(msg)); });
  });
  quoteCancel.addEventListener("click", function () {
    if (!held) return;
    quoteGo.disabled = quoteCancel.disabled = true;
    all("cancel").then(function () { held = null; quote.hidden = true; quoteGo.disabled = quoteCancel.disabled = false; show("ok", "Cancelled: nothing was charged."); },
      function (msg) { quoteGo.disabled = quoteCancel.disabled = false; show("error", String(msg)); });
  });

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    result.hidden = true;
    quote.hidden = true;
    if (!picked && !url.value) { show("error", "Choose a document, drop one here, or paste its https address."); return; }
    if (picked && picked.size > maxSize) { show("error", explain(413)); return; }
    if (!target.value) { show("error", "Choose a target language."); return; }
    try { localStorage.setItem(lastKey, target.value); } catch (err) { /* private mode: no memory */ }
    var fd = new FormData();
    var ts = targets();
    fd.append("target_lang", target.value);
    if (ts.length > 1) fd.append("target_langs", ts.join(","));
    fd.append("source_lang", source.value);
    fd.append("mode", (form.querySelector("input[name=mode]:checked") || {}).value || "professional");
    fd.append("pdf", pdf && pdf.checked ? "true" : "false");
    var bilingual = document.getElementById("bilingual");
    if (bilingual && bilingual.checked) fd.append("bilingual", "true");
    var quoting = needsQuote();
    if (quoting) fd.append("hold", "true");
    if (glossary && glossary.value) fd.append("glossary_id", glossary.value);
    if (picked) fd.append("file", picked, picked.name); else fd.append("url", url.value);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", "/translate");
    xhr.setRequestHeader("X-CSRF-Token", csrf);
    xhr.setRequestHeader("Accept", "application/json");
    progress.hidden = false; progress.value = 0;
    progressText.textContent = picked ? "Uploading…" : "Fetching the document…";
    submit.disabled = true;
    xhr.upload.addEventListener("progress", function (ev) {
      if (ev.lengthComputable) {
        progress.value = Math.round(ev.loaded * 100 / ev.total);
        progressText.textContent = progress.value < 100 ? "Uploading… " + progress.value + "%" : (quoting ? "Counting the words…" : "");
      }
    });
    xhr.addEventListener("load", function () {
      submit.disabled = false;
      var body = null;
      try { body = JSON.parse(xhr.responseText); } catch (err) { body = null; }
      if (xhr.status === 202 && body && body.held) {
        progress.hidden = true; progressText.textContent = "";
        showQuote(body);
        return;
      }
      if (xhr.status === 202 && body) {
        progress.value = 100; progressText.textContent = "";
        var what = body.jobs && body.jobs.length > 1 ? body.jobs.length + " translations are" : "“" + body.name + "” is";
        var left = body.skipped && body.skipped.length ? " (left out of the .zip, not documents: " + body.skipped.join(", ") + ")" : "";
        show("ok", what + " queued" + left + ". Opening your jobs…");
        setTimeout(function () { opened(body); }, 900);
        return;
      }
      progress.hidden = true; progressText.textContent = "";
      if (xhr.status === 401) { window.location = "/signin?next=/translate"; return; }
      show("error", explain(xhr.status, body));
    });
    xhr.addEventListener("error", function () {
      submit.disabled = false; progress.hidden = true; progressText.textContent = "";
      show("error", "The upload did not reach the server. Check your connection (or the file size: " + maxMB + " MB at most) and try again.");
    });
    xhr.send(fd);
  });
})();
