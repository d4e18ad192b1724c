// Dragoman dashboard: progressive enhancement of server-rendered pages.
// No inline script anywhere (the CSP forbids it); text from the server is
// put into the page with textContent, never as HTML, except the job rows
// and delivery history, which are HTML the server escaped.
(function () {
  "use strict";
  var csrf = document.body.dataset.csrf || "";

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
          img.loading = "lazy"; img.src = base + "/" + i; img.alt = "page " + i; img.className = "page";
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
  var glossary = document.getElementById("glossary");
  var maxSize = Number(form.dataset.maxSize), maxMB = form.dataset.maxMb;
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
  function defaultTarget(names, before) {
    var has = function (n) { return n && names.indexOf(n) >= 0; };
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
    target.textContent = "";
    names.forEach(function (n) {
      var o = document.createElement("option");
      o.value = n; o.textContent = (langs[n] || {}).label || n;
      if (n === keep) o.selected = true;
      target.appendChild(o);
    });
    if (!names.length) {
      var o = document.createElement("option");
      o.value = ""; o.textContent = "No language reachable from " + from;
      target.appendChild(o);
    }
  }
  function showDetected(name) {
    detectedSource = name && pairs[name] ? name : "";
    detected.hidden = !name;
    detected.textContent = name ? "Detected: " + ((langs[name] || {}).label || name) + (detectedSource ? "" : " (no engine translates it)") : "";
    fillTargets();
  }
  // A document chosen with source auto is detected at once (a .docx up to
  // the detection limit; the others are detected when submitted).
  function detect(f) {
    showDetected("");
    if (!f || source.value !== "auto" || f.size > detectMax || !/\.docx$/i.test(f.name)) return;
    var fd = new FormData();
    fd.append("file", f, f.name);
    var xhr = new XMLHttpRequest();
    xhr.open("POST", "/detect");
    xhr.setRequestHeader("X-CSRF-Token", csrf);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.addEventListener("load", function () {
      if (xhr.status !== 200 || picked !== f) return;
      try { showDetected(JSON.parse(xhr.responseText).name); } catch (e) { /* no answer: all targets stay */ }
    });
    xhr.send(fd);
  }
  source.addEventListener("change", function () { if (source.value === "auto") detect(picked); else showDetected(""); });
  fillTargets();
  // Choosing a glossary chooses its pair; the server checks the pair sent.
  if (glossary) glossary.addEventListener("change", function () {
    var o = glossary.selectedOptions[0];
    if (!o || !o.dataset.source || !pairs[o.dataset.source]) return;
    source.value = o.dataset.source;
    fillTargets();
    if ((pairs[o.dataset.source] || []).indexOf(o.dataset.target) >= 0) target.value = o.dataset.target;
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

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    result.hidden = true;
    if (!picked && !url.value) { show("error", "Choose a document, drop one here, or paste its https address."); return; }
    if (picked && picked.size > maxSize) { show("error", explain(413)); return; }
    if (!target.value) { show("error", "Choose a target language."); return; }
    try { localStorage.setItem(lastKey, target.value); } catch (err) { /* private mode: no memory */ }
    var fd = new FormData();
    fd.append("target_lang", target.value);
    fd.append("source_lang", source.value);
    fd.append("mode", (form.querySelector("input[name=mode]:checked") || {}).value || "professional");
    fd.append("pdf", pdf && pdf.checked ? "true" : "false");
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
        progressText.textContent = "Uploading… " + progress.value + "%";
      }
    });
    xhr.addEventListener("load", function () {
      submit.disabled = false;
      var body = null;
      try { body = JSON.parse(xhr.responseText); } catch (err) { body = null; }
      if (xhr.status === 202 && body) {
        progress.value = 100; progressText.textContent = "";
        show("ok", "“" + body.name + "” is queued for translation. Opening your jobs…");
        setTimeout(function () { window.location = "/jobs#job-" + body.job_id; }, 900);
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
