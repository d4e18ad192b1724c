package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDashboardTermsInABrowser drives the terminology controls with
// headless Chromium as a person would: the do-not-translate list edited
// on the page is the API's list (and the API's edits show on the page),
// refused with the API's limits and messages naming the line; glossaries
// made through the API are listed, and one picked on the translate form
// is checked against the job's pair and changes the translation.
func TestDashboardTermsInABrowser(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("starter")
	dashUser(t, s, acct, "terms@example.com", "correct horse battery")
	var entries []map[string]string
	for _, g := range corpusGlossary {
		entries = append(entries, map[string]string{"source": g.source, "target": g.target})
	}
	body, _ := json.Marshal(map[string]any{"name": "Sample terms", "source_lang": "English", "target_lang": "Spanish", "entries": entries})
	if r := s.do("POST", "/v1/glossaries", key, bytes.NewReader(body), "application/json"); r.status != 201 {
		t.Fatalf("create glossary: %d %s", r.status, r.body)
	}
	apiTerms := func() []string {
		t.Helper()
		r := s.do("GET", "/v1/account/do-not-translate", key, nil, "")
		var got struct{ Terms []string }
		if r.status != 200 || json.Unmarshal(r.body, &got) != nil {
			t.Fatalf("GET do-not-translate: %d %s", r.status, r.body)
		}
		return got.Terms
	}

	shots, err := os.MkdirTemp("", "dragoman-dashboard-terms-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", shots)
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: shots}
	u.signIn("terms@example.com", "correct horse battery")
	if loc := u.location(); !strings.HasSuffix(loc, "/translate") {
		t.Fatalf("after sign-in: %s", loc)
	}
	u.open("/translate")
	u.do("menu to Terminology", navClick(chromedp.CSS(`nav a[href="/terms"]`)), chromedp.WaitVisible(chromedp.CSS("#dnt-terms")))
	u.strict("terminology page")
	// The glossary made through the API is listed with its pair and size.
	if g := u.text("#glossaries tbody"); !strings.Contains(g, "Sample terms") || !strings.Contains(g, "English → Spanish") || !strings.Contains(g, "6") {
		t.Errorf("glossary list: %q", g)
	}
	if c := u.text("#dnt-count"); c != "0 of 1,000 terms" {
		t.Errorf("empty list count: %q", c)
	}

	// Refusals are the API's, naming the line the term is on (blank lines
	// are skipped, not refused), and keep what was typed.
	typeTerms := func(what, text string) {
		t.Helper()
		u.do(what, chromedp.Evaluate[chromedp.Void](`document.getElementById("dnt-terms").value = ""`), chromedp.SendKeys(chromedp.CSS("#dnt-terms"), text),
			navClick(chromedp.CSS("#save-dnt")), chromedp.WaitVisible(chromedp.CSS(".alert")))
	}
	typeTerms("a duplicate", "Dragoman\n\nACME Corp\nDragoman")
	if msg := u.text(".alert.error"); msg != `Line 4: duplicate term "Dragoman" (already line 1).` {
		t.Errorf("duplicate: %q", msg)
	}
	if v := uiRun(u, "typed text kept", chromedp.Value(chromedp.CSS("#dnt-terms"))); v != "Dragoman\n\nACME Corp\nDragoman" {
		t.Errorf("the refused list was not kept: %q", v)
	}
	u.screenshot("01-dnt-refused")
	u.strict("terminology page, refused")
	typeTerms("an over-long term", "ok\n"+strings.Repeat("x", 201))
	if msg := u.text(".alert.error"); msg != "Line 2: the term is longer than 200 characters." {
		t.Errorf("over-long term: %q", msg)
	}
	// 1,001 terms: pasted, not typed.
	many := make([]string, 1001)
	for i := range many {
		many[i] = fmt.Sprintf("term %04d", i)
	}
	u.do("1,001 terms", chromedp.SetValue(chromedp.CSS("#dnt-terms"), strings.Join(many, "\n")),
		navClick(chromedp.CSS("#save-dnt")), chromedp.WaitVisible(chromedp.CSS(".alert")))
	if msg := u.text(".alert.error"); msg != "Terms: 1001 terms; at most 1000 are allowed." {
		t.Errorf("1,001 terms: %q", msg)
	}
	if got := apiTerms(); len(got) != 0 {
		t.Fatalf("a refused list was saved: %v", got)
	}
	// The count follows the typing.
	u.do("type without saving", chromedp.Evaluate[chromedp.Void](`document.getElementById("dnt-terms").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#dnt-terms"), "one\n\ntwo\nthree\n"))
	if c := u.text("#dnt-count"); c != "3 of 1,000 terms" {
		t.Errorf("live count while typing: %q", c)
	}
	typeTerms("a good list", "Dragoman\n  ACME Corp  \n\n")
	if msg := u.text(".alert.notice"); !strings.HasPrefix(msg, "Saved: 2 terms.") {
		t.Errorf("saved: %q", msg)
	}
	if got := apiTerms(); !slices.Equal(got, []string{"Dragoman", "ACME Corp"}) {
		t.Errorf("the API's list after the page saved it: %q", got)
	}
	if c := u.text("#dnt-count"); c != "2 of 1,000 terms" {
		t.Errorf("count: %q", c)
	}
	u.screenshot("02-dnt-saved")
	// The other way round: the API's edit shows on the page.
	if r := s.do("PUT", "/v1/account/do-not-translate", key, strings.NewReader(`{"terms":["Zeta"]}`), "application/json"); r.status != 200 {
		t.Fatalf("PUT do-not-translate: %d %s", r.status, r.body)
	}
	u.open("/terms")
	if v := uiRun(u, "list from the API", chromedp.Value(chromedp.CSS("#dnt-terms"))); v != "Zeta" {
		t.Errorf("the page shows %q after the API set [Zeta]", v)
	}

	// A glossary made on the page: refused with the API's message naming
	// the line, kept as typed; then read from a file, listed, on the API,
	// and deleted.
	u.do("a glossary with a duplicate line",
		chromedp.SendKeys(chromedp.CSS("#glossary-name"), "Page terms"),
		chromedp.SetValue(chromedp.CSS("#glossary-target"), "French"),
		chromedp.SendKeys(chromedp.CSS("#glossary-entries"), "file,Fichox\ntime,Tiempox\nfile,Otro"),
		navClick(chromedp.CSS("#create-glossary")), chromedp.WaitVisible(chromedp.CSS(".alert.error")))
	if msg := u.text(".alert.error"); msg != `Glossary: line 3: duplicate source term "file" (already on line 1).` {
		t.Errorf("duplicate glossary line: %q", msg)
	}
	if v := uiRun(u, "form kept", chromedp.Evaluate[[]string](`["glossary-name", "glossary-source", "glossary-target", "glossary-entries"].map(id => document.getElementById(id).value)`)); !slices.Equal(v, []string{"Page terms", "English", "French", "file,Fichox\ntime,Tiempox\nfile,Otro"}) {
		t.Errorf("the refused glossary form was not kept: %q", v)
	}
	u.strict("terminology page, glossary refused")
	gcsv := filepath.Join(t.TempDir(), "page.tsv")
	if err := os.WriteFile(gcsv, []byte("file\tFichier-x\ntime\tTemps-x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u.do("choose a glossary file", chromedp.SetUploadFiles(chromedp.CSS("#glossary-file"), []string{gcsv}))
	if !uiRun(u, "the file fills the box", chromedp.Poll[bool](`document.getElementById("glossary-entries").value === "file\tFichier-x\ntime\tTemps-x\n"`, chromedp.WithPollingTimeout(10*time.Second))) {
		t.Fatal("the glossary file was not read into the entries box")
	}
	u.do("create it", navClick(chromedp.CSS("#create-glossary")), chromedp.WaitVisible(chromedp.CSS(".alert.notice")))
	if g := u.text("#glossaries tbody tr:last-child"); !strings.Contains(g, "Page terms") || !strings.Contains(g, "English → French") || !strings.Contains(g, "2") {
		t.Errorf("the page's glossary in the list: %q", g)
	}
	u.screenshot("02b-glossary-created")
	u.strict("terminology page, glossary created")
	pageGlossary := uiRun(u, "its id", chromedp.Evaluate[string](`document.querySelector("#glossaries tbody tr:last-child").dataset.glossary`))
	if r := s.do("GET", "/v1/glossaries/"+pageGlossary, key, nil, ""); r.status != 200 || !strings.Contains(string(r.body), "Fichier-x") {
		t.Fatalf("the page's glossary on the API: %d %s", r.status, r.body)
	}
	u.do("delete it", navClick(chromedp.CSS(`#glossaries tbody tr:last-child button.danger`)), chromedp.WaitVisible(chromedp.CSS(".alert.notice")))
	if r := s.do("GET", "/v1/glossaries/"+pageGlossary, key, nil, ""); r.status != 404 {
		t.Errorf("the deleted glossary on the API: %d", r.status)
	}
	if g := u.text("#glossaries tbody"); strings.Contains(g, "Page terms") || !strings.Contains(g, "Sample terms") {
		t.Errorf("after deleting: %q", g)
	}

	// The translate form offers the glossary; choosing it chooses its pair.
	doc, err := filepath.Abs(glossaryCorpusDoc)
	if err != nil {
		t.Fatal(err)
	}
	u.open("/translate")
	u.do("choose the glossary", chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.SetValue(chromedp.CSS("#glossary"), uiRun(u, "glossary option", chromedp.Evaluate[string](`document.querySelector("#glossary option:nth-child(2)").value`))),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("glossary").dispatchEvent(new Event("change"))`))
	if opt := uiRun(u, "glossary option text", chromedp.Evaluate[string](`document.querySelector("#glossary option:nth-child(2)").textContent`)); !strings.Contains(opt, "Sample terms (English → Spanish, 6 entries)") {
		t.Errorf("glossary option: %q", opt)
	}
	pair := uiRun(u, "pair", chromedp.Evaluate[[]string](`[document.getElementById("source").value, document.getElementById("target").value]`))
	if !slices.Equal(pair, []string{"English", "Spanish"}) {
		t.Errorf("the glossary's pair was not chosen: %v", pair)
	}
	u.strict("translate page with a glossary")
	// Another target: the server refuses the glossary, in the API's words.
	u.do("glossary with the wrong pair",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{doc}),
		chromedp.WaitVisible(chromedp.CSS("#chosen")),
		chromedp.SetValue(chromedp.CSS("#target"), "French"),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.error")),
	)
	if msg := u.text("#result"); msg != `This glossary cannot be used: the glossary "Sample terms" is for English to Spanish, the job is English to French` {
		t.Errorf("wrong pair: %q", msg)
	}
	u.screenshot("03-glossary-wrong-pair")
	u.do("glossary with its pair",
		chromedp.SetValue(chromedp.CSS("#target"), "Spanish"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('input[name=mode][value=full]').click()`),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.ok")),
		chromedp.WaitVisible(chromedp.CSS(`#job-rows tr[data-status="completed"]:first-child`), chromedp.RetryInterval(500*time.Millisecond)),
	)
	row := u.text("#job-rows tr:first-child")
	if !regexp.MustCompile(`glossary "Sample terms": [1-9]\d* term occurrence\(s\) applied`).MatchString(row) {
		t.Errorf("the job's row does not report the glossary: %s", row)
	}
	u.screenshot("04-glossary-job")
	u.strict("jobs page with a glossary job")
	id := strings.TrimPrefix(uiRun(u, "job id", chromedp.Evaluate[string](`document.querySelector("#job-rows tr[data-status]").id`)), "job-")
	d := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if d.status != 200 {
		t.Fatalf("download: %d %s", d.status, d.body)
	}
	src, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, m := range expectedTerms(docxParagraphs(t, src)) {
		for term, n := range m {
			want[term] += n
		}
	}
	out := strings.Join(docxParagraphs(t, d.body), "\n")
	for term, n := range want {
		if got := countWord(out, term); got != n {
			t.Errorf("the translation has %d × the glossary's %q, the source %d × its term", got, term, n)
		}
	}
}
