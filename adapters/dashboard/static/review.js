// Dragoman dashboard, the Review page: move from sentence to sentence with
// the keyboard, correct a translation in place and save it as a new
// revision. Inline formatting shows as chips (contenteditable="false") that
// the editor keeps whole: typing never enters one, deleting never takes
// one, and each goes back to the server as the tag it carries. No inline
// script (the CSP forbids it); rows the server renders are inserted as
// HTML the server escaped.
(function () {
  "use strict";
  var list = document.getElementById("segments");
  if (!list) return;
  var csrf = document.body.dataset.csrf || "";
  var job = list.dataset.job;
  var editing = null; // the row being edited
  var swallow = "";   // the key that opened the editor: its character is not typed

  function rows() { return Array.prototype.slice.call(list.querySelectorAll("li.seg")); }
  function rowOf(el) { return el && el.closest ? el.closest("li.seg") : null; }
  function focusRow(li) {
    if (!li) return;
    rows().forEach(function (r) { r.tabIndex = -1; });
    li.tabIndex = 0;
    li.focus();
  }
  function move(delta) {
    var all = rows(), cur = rowOf(document.activeElement);
    var i = cur ? all.indexOf(cur) : -1;
    focusRow(all[Math.max(0, Math.min(all.length - 1, i + delta))]);
  }

  // The target as tagged text: text escaped, chips as their tags.
  function serialize(node) {
    var out = "";
    node.childNodes.forEach(function (n) {
      if (n.nodeType === Node.TEXT_NODE) {
        out += n.nodeValue.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      } else if (n.nodeType === Node.ELEMENT_NODE) {
        if (n.classList.contains("chip")) out += n.dataset.tag;
        else if (n.tagName !== "BR") out += serialize(n);
      }
    });
    return out;
  }

  // A deletion never takes a chip; a paste is plain text; no paragraph or
  // formatting of the browser's own enters the sentence.
  function guard(e) {
    var t = e.inputType || "";
    if (t === "insertParagraph" || t === "insertLineBreak" || t.indexOf("format") === 0) { e.preventDefault(); return; }
    if (t.indexOf("delete") === 0 && e.getTargetRanges) {
      var hit = e.getTargetRanges().some(function (sr) {
        var r = document.createRange();
        r.setStart(sr.startContainer, sr.startOffset);
        r.setEnd(sr.endContainer, sr.endOffset);
        return Array.prototype.some.call(editing.tgt.querySelectorAll(".chip"), function (c) { return r.intersectsNode(c) && !r.collapsed; });
      });
      if (hit) e.preventDefault();
    }
  }
  function paste(e) {
    e.preventDefault();
    var text = (e.clipboardData || window.clipboardData).getData("text/plain").replace(/[\r\n]+/g, " ");
    document.execCommand("insertText", false, text);
  }

  function buttons(li, on) {
    li.querySelector(".edit").hidden = on;
    li.querySelector(".save").hidden = !on;
    li.querySelector(".cancel").hidden = !on;
  }

  function edit(li) {
    if (!li || editing === li) return;
    if (editing) cancel();
    var tgt = li.querySelector(".tgt");
    editing = { li: li, tgt: tgt, html: tgt.innerHTML };
    tgt.contentEditable = "true";
    tgt.setAttribute("role", "textbox");
    tgt.setAttribute("aria-multiline", "false");
    tgt.setAttribute("aria-label", tgt.dataset.label);
    tgt.spellcheck = true;
    tgt.addEventListener("beforeinput", guard);
    tgt.addEventListener("paste", paste);
    buttons(li, true);
    tgt.focus();
    // The caret at the end of the sentence, in its own direction.
    var sel = window.getSelection(), r = document.createRange();
    r.selectNodeContents(tgt);
    r.collapse(false);
    sel.removeAllRanges();
    sel.addRange(r);
  }

  function stop() {
    var e = editing;
    if (!e) return null;
    e.tgt.removeAttribute("contenteditable");
    e.tgt.removeAttribute("role");
    e.tgt.removeAttribute("aria-multiline");
    e.tgt.removeAttribute("aria-label");
    e.tgt.removeEventListener("beforeinput", guard);
    e.tgt.removeEventListener("paste", paste);
    buttons(e.li, false);
    editing = null;
    return e;
  }

  function cancel() {
    var e = stop();
    if (!e) return;
    e.tgt.innerHTML = e.html;
    e.li.querySelector(".edit-error").hidden = true;
    focusRow(e.li);
  }

  function fail(li, msg) {
    var p = li.querySelector(".edit-error");
    p.textContent = msg;
    p.hidden = false;
  }

  function save() {
    var e = editing;
    if (!e) return;
    var li = e.li, target = serialize(e.tgt), saveBtn = li.querySelector(".save");
    saveBtn.disabled = true;
    fetch("/jobs/" + encodeURIComponent(job) + "/segments/" + encodeURIComponent(li.dataset.id), {
      method: "PATCH", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf, "If-Match": '"' + list.dataset.revision + '"' },
      body: JSON.stringify({ target: target })
    }).then(function (r) {
      return r.json().then(function (body) { return { ok: r.ok, status: r.status, body: body }; });
    }).then(function (res) {
      saveBtn.disabled = false;
      if (!res.ok) {
        var msg = res.body.message || res.body.detail || "The sentence could not be saved.";
        if (res.status === 412) msg += " Reload the page to see the latest revision.";
        fail(li, msg);
        return;
      }
      stop();
      list.dataset.revision = res.body.revision;
      document.getElementById("revision").textContent = "revision " + res.body.revision;
      document.getElementById("review-summary").textContent = res.body.summary;
      var preview = document.getElementById("preview-link");
      if (preview) preview.href = "/jobs/" + encodeURIComponent(job) + "/preview?r=" + res.body.revision;
      var tmp = document.createElement("template");
      tmp.innerHTML = res.body.row.trim();
      var fresh = tmp.content.firstElementChild;
      li.replaceWith(fresh);
      focusRow(fresh);
      var status = document.getElementById("save-status");
      if (status) status.textContent = "Sentence " + fresh.dataset.id + " saved: revision " + res.body.revision + ".";
    }).catch(function () {
      saveBtn.disabled = false;
      fail(li, "The connection was lost: the sentence was not saved.");
    });
  }

  list.addEventListener("click", function (e) {
    var li = rowOf(e.target);
    if (!li) return;
    if (e.target.closest(".edit")) edit(li);
    else if (e.target.closest(".save")) save();
    else if (e.target.closest(".cancel")) cancel();
  });

  document.addEventListener("keydown", function (e) {
    if (editing) {
      if (e.key === "Escape") { e.preventDefault(); cancel(); }
      else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); save(); }
      else if (e.key === "Enter") e.preventDefault();
      return;
    }
    var t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey || (t.matches && t.matches("input, textarea, select, a, button"))) return;
    switch (e.key) {
      case "j": case "ArrowDown": e.preventDefault(); move(1); break;
      case "k": case "ArrowUp": e.preventDefault(); move(-1); break;
      case "e": case "Enter":
        if (rowOf(t)) { e.preventDefault(); swallow = e.key; edit(rowOf(t)); }
        break;
    }
  });
  // The key that opened the editor types nothing into it, whichever way
  // its character arrives (a keypress after the keydown, or none).
  document.addEventListener("keypress", function (e) {
    if (swallow && (e.key === swallow || (swallow === "Enter" && e.key === "Enter"))) e.preventDefault();
    swallow = "";
  }, true);
  document.addEventListener("keyup", function () { swallow = ""; }, true);

  var first = rows()[0];
  if (first) first.tabIndex = 0;
  var status = document.createElement("p");
  status.id = "save-status";
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  list.parentNode.insertBefore(status, list);
})();
