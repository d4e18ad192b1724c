package e2e

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// apiWords are what only an API client should read: field names,
// endpoints, gRPC status text, the server's temporary paths.
var apiWords = []string{"source_lang", "target_lang", "glossary_id", "/v1/languages", "GET /", "rpc error", "desc =", "/tmp/"}

// TestDashboardSpeaksPlainly: errors on the dashboard's pages are in a
// person's words (a failed job, refusals of the translate form), and a
// long file name wraps between its words.
func TestDashboardSpeaksPlainly(t *testing.T) {
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("pro")
	dashUser(t, s, acct, "words@example.com", "correct horse battery")
	long := filepath.Join(t.TempDir(), "Quarterly_Report_for_the_Board_of_Directors_with_every_Appendix_and_Annex.final-version.docx")
	b, err := os.ReadFile(englishDocx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(long, b, 0o644); err != nil {
		t.Fatal(err)
	}
	done := s.uploadFile(key, long, map[string]string{"target_lang": "Arabic", "source_lang": "English"}).json(t)["job_id"].(string)
	s.waitJob(key, done, 2*60e9)
	// An .odt whose content is broken XML: the converter (LibreOffice, a
	// plugin process) fails on it, and its words come back through gRPC.
	bad := s.upload(key, "minutes.odt", bytes.NewReader(brokenODT(t)), map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	failedErr, _ := s.waitJob(key, bad.json(t)["job_id"].(string), 2*60e9)["error"].(string)
	if failedErr == "" {
		t.Fatal("the broken .odt did not fail")
	}
	t.Logf("the API's error of the failed job: %q", failedErr)
	s.do("POST", "/v1/glossaries", key, strings.NewReader(`{"name":"Billing","source_lang":"English","target_lang":"Spanish","entries":[{"source":"invoice","target":"factura"}]}`), "application/json")

	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: t.TempDir()}
	u.signIn("words@example.com", "correct horse battery")
	u.open("/jobs")
	u.do("wait for the jobs", chromedp.WaitVisible(chromedp.CSS("#job-"+done+" .name")))
	page := u.text("main")
	for _, w := range apiWords {
		if strings.Contains(page, w) {
			t.Errorf("the jobs page says %q:\n%s", w, page)
		}
	}
	if !strings.Contains(page, "minutes.odt") {
		t.Errorf("the failed job is not listed:\n%s", page)
	}

	// Where the long name's lines end: after a separator of its words.
	ends := uiRun(u, "line ends of the long name", chromedp.Evaluate[string](`(() => {
		const el = document.querySelector("#job-`+done+` .name"), chars = [];
		const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let n; (n = walk.nextNode());) for (let i = 0; i < n.data.length; i++) {
			const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
			const box = r.getClientRects()[0]; if (box) chars.push([n.data[i], box.top]);
		}
		let ends = "";
		for (let i = 1; i < chars.length; i++) if (chars[i][1] > chars[i - 1][1] + 2) ends += chars[i - 1][0];
		return ends;
	})()`))
	if ends == "" {
		t.Error("the long name did not wrap at all")
	}
	for _, c := range ends {
		if !strings.ContainsRune("_.-+/ ", c) {
			t.Errorf("the long name wraps inside a word (a line ends with %q; all line ends %q)", c, ends)
		}
	}
	u.strict("jobs page with a long name")

	// The translate form's refusals, as the page receives them to show.
	u.open("/translate")
	for _, f := range []map[string]string{
		{"target_lang": "Spanish", "source_lang": "Klingon", "url": "https://example.org/a.docx"},
		{"target_lang": "Arabic", "source_lang": "English", "glossary_id": "no-such-glossary", "url": "https://example.org/a.docx"},
	} {
		js := `(async () => { const fd = new FormData();`
		for k, v := range f {
			js += `fd.append("` + k + `", "` + v + `");`
		}
		js += `const r = await fetch("/translate", {method: "POST", body: fd, headers: {"X-CSRF-Token": document.body.dataset.csrf, "Accept": "application/json"}});
			return (await r.json()).message || ""; })()`
		msg := uiRun(u, "submit "+f["source_lang"], chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if msg == "" {
			t.Errorf("%v: no message", f)
		}
		for _, w := range apiWords {
			if strings.Contains(msg, w) {
				t.Errorf("%v: the form is told %q", f, msg)
			}
		}
	}
}

// brokenODT is an OpenDocument package whose content.xml stops mid-tag.
func brokenODT(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, f := range [][2]string{
		{"mimetype", "application/vnd.oasis.opendocument.text"},
		{"META-INF/manifest.xml", `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`},
		{"content.xml", `<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"><office:body><office:text><broken`},
	} {
		w, err := z.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(f[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
