package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// translateForm checks the translate page's form: language pickers, modes, the
// PDF option, and a file over the limit refused before it is sent.
func (tour *browserTour) translateForm() {
	t, u := tour.t, tour.u
	// The pickers follow the pair-aware listing: for each source only the
	// targets it reaches, never itself.
	pairs := uiRun(u, "languages", chromedp.Evaluate[map[string][]string](`JSON.parse(document.getElementById("translate-form").dataset.pairs)`))
	lastSource := uiRun(u, "last source", chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#source option")).pop().value`))
	for _, src := range []string{"auto", "English", lastSource} {
		opts := uiRun(u, "targets from "+src, chromedp.Evaluate[[]string](`(() => {
			const s = document.getElementById("source"); s.value = `+strconv.Quote(src)+`; s.dispatchEvent(new Event("change"));
			return Array.from(document.querySelectorAll("#target option")).map(o => o.value);
		})()`))
		if len(pairs[src]) == 0 || strings.Join(opts, ",") != strings.Join(pairs[src], ",") || (src != "auto" && slices.Contains(opts, src)) {
			t.Errorf("targets offered from %s: %v, listing says %v", src, opts, pairs[src])
		}
	}
	if n := uiRun(u, "sources", chromedp.Evaluate[int](`document.querySelectorAll("#source option").length`)); n < 3 {
		t.Errorf("%d source choices", n)
	}
	// Each mode comes with a one-line explanation; PDF is an opt-in.
	modes := uiRun(u, "modes", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".mode")).map(m => m.querySelector("input").value + ": " + m.querySelector(".muted").textContent)`))
	if len(modes) != 4 {
		t.Errorf("modes: %v", modes)
	}
	for i, want := range []string{"professional: ", "full: ", "literal: ", "extreme: "} {
		if i >= len(modes) || !strings.HasPrefix(modes[i], want) || len(modes[i]) < len(want)+20 {
			t.Errorf("mode %d: %v", i, modes)
		}
	}
	if pdfBox := u.text(`label.option`); !strings.Contains(pdfBox, "PDF too") ||
		uiRun(u, "pdf unchecked", chromedp.Evaluate[bool](`document.getElementById("pdf").checked`)) {
		t.Errorf("the PDF option: %q, or checked by default", pdfBox)
	}
	// A document over the limit is refused in words before it is sent.
	big := filepath.Join(t.TempDir(), "big.docx")
	if err := os.Truncate(mustCreate(t, big), 51<<20); err != nil {
		t.Fatal(err)
	}
	u.do("choose a 51 MB file",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{big}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.error")),
	)
	if msg := u.text("#result"); !strings.Contains(msg, "too large") || !strings.Contains(msg, "50 MB") {
		t.Fatalf("413 in words: %q", msg)
	}
	u.open("/translate")
}

// translateAndWatch translates the corpus document to Spanish and Arabic and
// watches the jobs page (never reloaded) reach completed for both.
func (tour *browserTour) translateAndWatch() {
	t, u := tour.t, tour.u
	doc := tour.doc
	// Translate a corpus document to Spanish, then to Arabic, and watch the
	// jobs page (never reloaded) reach completed for both.
	// Errors are shown in words: a file that is not a document is 422.
	notDoc := filepath.Join(t.TempDir(), "notes.docx")
	if err := os.WriteFile(notDoc, []byte("just some text, not a document"), 0o644); err != nil {
		t.Fatal(err)
	}
	u.do("upload a non-document",
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{notDoc}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.error")),
	)
	if msg := u.text("#result"); !strings.Contains(msg, "cannot be translated") {
		t.Fatalf("422 in words: %q", msg)
	}
	u.screenshot("02b-translate-refused")
	// The Arabic one goes under an Arabic name with markup and a bidi
	// override in it, which must show as text in its own direction, and
	// asks for a PDF too.
	arabicName := "تقرير <b>الربع\u202e.docx"
	arabicDoc := filepath.Join(t.TempDir(), arabicName)
	if b, err := os.ReadFile(doc); err != nil || os.WriteFile(arabicDoc, b, 0o644) != nil {
		t.Fatalf("copy %s: %v", doc, err)
	}
	u.open("/translate")
	for i, target := range []string{"Spanish", "Arabic"} {
		if i > 0 {
			u.open("/translate")
		}
		file, pdf := doc, "false"
		if target == "Arabic" {
			file, pdf = arabicDoc, "true"
		}
		u.do("upload to "+target,
			chromedp.WaitReady(chromedp.CSS("#target option")),
			// The progress bar's states are kept across the page change.
			chromedp.Evaluate[chromedp.Void](`(() => {
				sessionStorage.setItem("progress", "");
				const p = document.getElementById("progress");
				new MutationObserver(() => sessionStorage.setItem("progress", sessionStorage.getItem("progress") + (p.hidden ? "h" : "v") + p.value + " "))
					.observe(p, { attributes: true });
			})()`),
			chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{file}),
			chromedp.WaitVisible(chromedp.CSS("#chosen")),
			chromedp.SetValue(chromedp.CSS("#source"), "English"),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("source").dispatchEvent(new Event("change"))`),
			chromedp.SetValue(chromedp.CSS("#target"), target),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("pdf").checked = `+pdf),
			chromedp.Click(chromedp.CSS("#submit")),
			chromedp.WaitVisible(chromedp.CSS("#result.ok")),
		)
		if i == 0 {
			u.screenshot("03-translate-queued")
			u.strict("translate page, queued")
		}
		u.do("jobs page", chromedp.WaitVisible(chromedp.CSS("#job-rows tr[data-status]")))
		// The bar was shown and reached 100 %.
		if p := uiRun(u, "progress states", chromedp.Evaluate[string](`sessionStorage.getItem("progress")`)); !strings.Contains(p, "v100") {
			t.Errorf("upload progress bar states: %q", p)
		}
	}
	uiRun(u, "mark the page", chromedp.Evaluate[bool](`window.__notReloaded = true`))
	seen := map[string]bool{}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		statuses := uiRun(u, "read statuses", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#job-rows tr[data-status]")).map(r => r.dataset.status)`))
		for _, st := range statuses {
			seen[st] = true
		}
		// A job on its way shows the stage it reached, with a bar.
		if unfinished := uiRun(u, "unfinished rows", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#job-rows tr[data-status=pending], #job-rows tr[data-status=processing]")).map(r => (r.querySelector("progress") ? "bar " : "") + r.innerText)`)); len(unfinished) > 0 {
			for _, r := range unfinished {
				if !strings.HasPrefix(r, "bar ") || !strings.Contains(r, "stage: ") {
					t.Errorf("an unfinished job's row lacks its stage: %q", r)
				}
			}
			seen["stage shown"] = true
		}
		if len(statuses) == 2 && statuses[0] == "completed" && statuses[1] == "completed" {
			break
		}
		if strings.Contains(strings.Join(statuses, ","), "failed") {
			t.Fatalf("a job failed: %s", u.text("#job-rows"))
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs did not complete: %v", statuses)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if !uiRun(u, "still the same page", chromedp.Evaluate[bool](`window.__notReloaded === true`)) {
		t.Fatal("the jobs page reloaded instead of updating itself")
	}
	t.Logf("statuses seen while watching: %v", seen)
	u.screenshot("04-jobs-completed")
	u.strict("jobs page")
	rows := u.text("#job-rows")
	for _, want := range []string{"oxpt-WC043-Nested-Table.docx", "Arabic", "Spanish", "engine: pseudo", "right-to-left layout", "full", "structure check: no loss"} {
		if !strings.Contains(rows, want) {
			t.Errorf("jobs page lacks %q:\n%s", want, rows)
		}
	}
	if left := regexp.MustCompile(`\b\d{1,2} min \d\d s left to download`).FindAllString(rows, -1); len(left) != 2 {
		t.Errorf("time left in the download window: %q in\n%s", left, rows)
	}
	if words := uiRun(u, "words", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#job-rows td.num")).map(c => c.textContent.trim())`)); len(words) != 2 || words[0] == "—" || words[0] != words[1] {
		t.Errorf("words per job: %v", words)
	}
	arabicJob := strings.TrimPrefix(uiRun(u, "job id", chromedp.Evaluate[string](`document.querySelector("#job-rows tr[data-status]").id`)), "job-")
	// The Arabic name is text in its own direction, isolated from its
	// neighbours: no element made of its markup, its bidi override gone.
	arabicRow := "#job-" + arabicJob
	if got := uiRun(u, "the Arabic name", chromedp.Evaluate[[]string](`(() => {
		const n = document.querySelector("`+arabicRow+` .name");
		return [n.textContent, n.getAttribute("dir"), getComputedStyle(n).unicodeBidi, String(n.querySelector("b") !== null)];
	})()`)); got[0] != strings.ReplaceAll(arabicName, "\u202e", "") || got[1] != "auto" || got[2] != "isolate" || got[3] != "false" {
		t.Errorf("the Arabic file name on the jobs page: %q", got)
	}
	// Only the job that asked for a PDF offers one.
	if n := uiRun(u, "pdf links", chromedp.Evaluate[int](`document.querySelectorAll("#job-rows a.pdf").length`)); n != 1 ||
		uiRun(u, "arabic pdf link", chromedp.Evaluate[bool](`document.querySelector("`+arabicRow+` a.pdf") !== null`)) == false {
		t.Errorf("PDF links: %d, want one, on the Arabic job", n)
	}
	tour.arabicJob = arabicJob
}

// translateByURL submits a document by its address.
func (tour *browserTour) translateByURL() {
	t, u := tour.t, tour.u
	doc := tour.doc
	// A document can also be fetched from its address.
	docSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, doc) }))
	defer docSrv.Close()
	u.open("/translate")
	u.do("submit by URL",
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.SendKeys(chromedp.CSS("#url"), docSrv.URL+"/fetched.docx"),
		chromedp.SetValue(chromedp.CSS("#target"), "French"),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.ok")),
		chromedp.WaitVisible(chromedp.CSS(`#job-rows tr[data-status="completed"]:first-child`), chromedp.RetryInterval(500*time.Millisecond)),
	)
	if first := u.text("#job-rows tr:first-child"); !strings.Contains(first, "fetched.docx") || !strings.Contains(first, "French") {
		t.Fatalf("the fetched job: %s", first)
	}
}
