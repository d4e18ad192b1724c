package e2e

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The dashboard in Chromium: several targets make one batch, shown as one
// jobs row that expands into its jobs; a large document is quoted before
// Translate (held, nothing charged), and Cancel or Translate decide; axe
// finds no serious or critical issue on the pages as they change.
func TestDashboardBatchAndQuote(t *testing.T) {
	s := startServer(t, nil, batchEngines)
	acct := s.admin("account", "create", "--plan", "starter", "--name", "Acme")["account_id"].(string)
	dashUser(t, s, acct, "ana@example.com", "correct horse battery")
	shots, _ := os.MkdirTemp("", "dragoman-dashboard-batch-")
	t.Logf("screenshots in %s", shots)
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: shots}
	src := axeSource(t)
	u.signIn("ana@example.com", "correct horse battery")

	doc, _ := filepath.Abs(englishDocx)
	u.open("/translate")
	u.do("the page's targets", chromedp.WaitReady(chromedp.CSS("#more-targets option")))
	// "Also into" never offers the language in "To" (picking it would ask
	// for one translation twice), and follows "To" as the person changes it.
	type alsoInto struct{ To, Offered, Picked []string }
	choose := func(to, pick string) alsoInto {
		return uiRun(u, "To "+to, chromedp.Evaluate[alsoInto](fmt.Sprintf(`(() => {
			const t = document.getElementById("target"), m = document.getElementById("more-targets");
			if (%[2]q) for (const o of m.options) o.selected = o.value === %[2]q;
			if (%[1]q) { t.value = %[1]q; t.dispatchEvent(new Event("change")); }
			return {To: [t.value], Offered: [...m.options].filter(o => !o.hidden && !o.disabled).map(o => o.value),
				Picked: [...m.selectedOptions].map(o => o.value)};
		})()`, to, pick)))
	}
	for _, c := range []struct {
		to, pick string
		picked   []string
	}{{"", "", nil}, {"Spanish", "Urdu", []string{"Urdu"}}, {"Urdu", "", nil}} {
		got := choose(c.to, c.pick)
		if slices.Contains(got.Offered, got.To[0]) || len(got.Offered) < 2 || !slices.Equal(got.Picked, c.picked) {
			t.Errorf("To %s (Also into %q picked before): Also into offers %d languages, To's among them: %v; picked %q, want %q",
				got.To[0], c.pick, len(got.Offered), slices.Contains(got.Offered, got.To[0]), got.Picked, c.picked)
		}
	}
	u.do("two targets",
		// The source first: a document chosen with source auto is detected,
		// and the detection's answer picks the default target again.
		chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.getElementById("source"); s.value = "English"; s.dispatchEvent(new Event("change"));
		})()`),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{doc}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Evaluate[chromedp.Void](`(() => {
			const t = document.getElementById("target"); t.value = "Spanish"; t.dispatchEvent(new Event("change"));
			for (const o of document.getElementById("more-targets").options) o.selected = o.value === "Urdu";
		})()`),
	)
	u.checkAxe(src, "/translate with two targets")
	u.do("submit the batch", chromedp.Click(chromedp.CSS("#submit")), chromedp.WaitVisible(chromedp.CSS("tr.batch")))
	if loc := u.location(); !strings.Contains(loc, "/jobs#batch-") {
		t.Fatalf("after a batch: %s", loc)
	}
	// One row; its jobs are shown when it expands (opened from the link: the
	// page came to #batch-…, so it starts open).
	u.do("the batch completes", chromedp.WaitVisible(chromedp.CSS(`tr.batch[data-status="completed"]`)))
	row := u.text("tr.batch")
	if !strings.Contains(row, "Spanish, Urdu") || !strings.Contains(row, "2 of 2 finished") || !strings.Contains(row, "batch of 2 jobs") {
		t.Errorf("batch row: %q", row)
	}
	u.open("/jobs")
	state := func() (string, int) {
		return uiRun(u, "expanded", chromedp.Evaluate[string](`document.querySelector("button.expand").getAttribute("aria-expanded")`)),
			uiRun(u, "visible jobs", chromedp.Evaluate[int](`[...document.querySelectorAll("tr.in-batch")].filter(r => !r.hidden).length`))
	}
	if exp, n := state(); exp != "false" || n != 0 {
		t.Fatalf("collapsed batch: expanded %s, %d job rows shown", exp, n)
	}
	u.do("expand", chromedp.Click(chromedp.CSS("button.expand")))
	if exp, n := state(); exp != "true" || n != 2 {
		t.Fatalf("expanded batch: expanded %s, %d job rows shown", exp, n)
	}
	time.Sleep(3500 * time.Millisecond) // a refresh of the rows keeps it open
	if exp, n := state(); exp != "true" || n != 2 {
		t.Errorf("after a refresh: expanded %s, %d job rows shown", exp, n)
	}
	if links := uiRun(u, "downloads", chromedp.Evaluate[int](`document.querySelectorAll("tr.in-batch a.download").length`)); links != 2 {
		t.Errorf("%d download links in the batch", links)
	}
	u.screenshot("batch-expanded")
	u.strict("jobs page with a batch")
	u.checkAxe(src, "/jobs with a batch expanded")

	// A document over 1 MB is quoted first: held until the person decides.
	large := largeDocx(t, doc)
	quote := func() string {
		u.open("/translate")
		u.do("quote a large document", pickDocument("English", large, "Spanish",
			chromedp.Click(chromedp.CSS("#submit")),
			chromedp.WaitVisible(chromedp.CSS("#quote")),
		)...)
		return u.text("#quote-body")
	}
	text := quote()
	if !strings.Contains(text, "words") || !strings.Contains(text, "English → Spanish by apertium") || !strings.Contains(text, "words will be left this month") {
		t.Errorf("quote: %q", text)
	}
	u.screenshot("quote")
	u.strict("translate page with a quote")
	u.checkAxe(src, "/translate with a quote")
	used := func() float64 { return s.getPatiently("/v1/usage", s.keyFor(t, acct)).json(t)["used_words"].(float64) }
	before := used()
	u.do("cancel", chromedp.Click(chromedp.CSS("#quote-cancel")), chromedp.WaitVisible(chromedp.CSS("#result.ok")))
	if msg := u.text("#result"); !strings.Contains(msg, "nothing was charged") {
		t.Errorf("after cancel: %q", msg)
	}
	quote()
	u.do("translate after the quote", chromedp.Click(chromedp.CSS("#quote-go")), chromedp.WaitVisible(chromedp.CSS("#job-rows")))
	u.do("the quoted job completes", chromedp.WaitVisible(chromedp.CSS(`tr[data-status="completed"] a.download`)))
	if after := used(); after <= before {
		t.Errorf("the confirmed job charged nothing: %v → %v", before, after)
	}
	jobs := s.getPatiently("/v1/jobs", s.keyFor(t, acct)).json(t)["jobs"].([]any)
	var cancelled int
	for _, j := range jobs {
		if j.(map[string]any)["error"] == "cancelled" {
			cancelled++
		}
	}
	if cancelled != 1 {
		t.Errorf("%d cancelled jobs, want the one quoted and cancelled", cancelled)
	}

	// A .zip of documents is one batch: quoted first, naming what it
	// leaves out, then one row of its documents' jobs.
	folder := zipFile(t, doc, "report.docx", "notes/letter.docx", "notes/photo.jpg")
	u.open("/translate")
	u.do("quote a .zip",
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.getElementById("source"); s.value = "English"; s.dispatchEvent(new Event("change"));
			const t = document.getElementById("target"); t.value = "Spanish"; t.dispatchEvent(new Event("change"));
		})()`),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{folder}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#quote")),
	)
	if text := u.text("#quote-body"); !strings.Contains(text, "in 2 documents") || !strings.Contains(text, "Left out of the .zip, not documents: notes/photo.jpg.") {
		t.Errorf("quote of a .zip: %q", text)
	}
	u.do("translate the .zip", chromedp.Click(chromedp.CSS("#quote-go")), chromedp.WaitVisible(chromedp.CSS("#job-rows")))
	id := strings.TrimPrefix(u.location()[strings.Index(u.location(), "#"):], "#")
	u.do("the .zip's batch completes", chromedp.WaitVisible(chromedp.CSS(`tr#`+id+`[data-status="completed"]`)))
	if row := u.text("tr#" + id); !strings.Contains(row, "2 documents") || !strings.Contains(row, "batch of 2 jobs") {
		t.Errorf(".zip batch row: %q", row)
	}
}

// zipFile writes a .zip of doc under each .docx name (and a few bytes
// under the others) and returns its path.
func zipFile(t *testing.T, doc string, names ...string) string {
	t.Helper()
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "folder.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, n := range names {
		w, _ := zw.Create(n)
		if strings.HasSuffix(n, ".docx") {
			w.Write(b)
		} else {
			w.Write([]byte("not a document"))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// largeDocx is doc with an unreferenced 1.5 MB part of random bytes: over
// the dashboard's quote threshold, with the same words.
func largeDocx(t *testing.T, doc string) string {
	t.Helper()
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
		rc, _ := f.Open()
		io.Copy(w, rc)
		rc.Close()
	}
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "word/media/padding.bin", Method: zip.Store})
	io.CopyN(w, rand.Reader, 1536<<10)
	zw.Close()
	path := filepath.Join(t.TempDir(), "large.docx")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// keyFor makes (once per account) an API key to read what the dashboard did.
func (s *server) keyFor(t *testing.T, acct string) string {
	t.Helper()
	if s.keys == nil {
		s.keys = map[string]string{}
	}
	if k, ok := s.keys[acct]; ok {
		return k
	}
	k := s.admin("key", "create", "--account", acct)["api_key"].(string)
	s.keys[acct] = k
	return k
}
