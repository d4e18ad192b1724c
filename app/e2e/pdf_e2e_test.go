package e2e

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
)

// Issue 12's PDF rendition through the real server and the real
// LibreOffice converter plugin: a job submitted with pdf=true (upload or
// URL) completes with its PDF rendered, announced as job.completed's
// pdf_url and downloadable with the translated text in it; a job without
// it has pdf_url null and gets its PDF on demand; another account's job
// is 404.
func TestPDFRenditionThroughTheAPI(t *testing.T) {
	rcv := newReceiver(t, 0)
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, englishDocx)
	}))
	defer docs.Close()
	plugins := converterPlugins(t)
	s := startServer(t, []string{"--plugin-dir", plugins, "--allow-private-urls", "--public-url", "https://dragoman.example.com"},
		"DRAGOMAN_ENGINES=pseudo", "TMPDIR="+t.TempDir(), "DRAGOMAN_LIBREOFFICE_POOL_SIZE=1")
	acct, key, _ := s.account("enterprise")
	reg := s.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	secret := reg.json(t)["secret"].(string)
	fields := func(pdf string) map[string]string {
		f := map[string]string{"target_lang": "German", "source_lang": "English"}
		if pdf != "" {
			f["pdf"] = pdf
		}
		return f
	}

	if r := s.uploadFile(key, englishDocx, fields("maybe")); r.status != 422 || !contains(r.body, "pdf") {
		t.Errorf("pdf=maybe: %d %s", r.status, r.body)
	}
	submit := func(r response) string {
		t.Helper()
		if r.status != 202 {
			t.Fatalf("submit: %d %s", r.status, r.body)
		}
		return r.json(t)["job_id"].(string)
	}
	withPDF := submit(s.uploadFile(key, englishDocx, fields("true")))
	without := submit(s.uploadFile(key, englishDocx, fields("")))
	fromURL := submit(s.do("POST", "/v1/translate-url", key, strings.NewReader(
		`{"url":"`+docs.URL+`/english.docx","target_lang":"German","source_lang":"English","pdf":true}`), "application/json"))

	for id, want := range map[string]any{withPDF: "/v1/jobs/" + withPDF + "/download?format=pdf", without: nil, fromURL: "/v1/jobs/" + fromURL + "/download?format=pdf"} {
		j := s.waitJob(key, id, 3*time.Minute)
		if j["status"] != "completed" || j["pdf_url"] != want {
			t.Errorf("job %s: status %v, pdf_url %v (want %v), warnings %v", id, j["status"], j["pdf_url"], want, j["warnings"])
		}
	}

	// The webhook payloads: pdf_url absolute for the jobs that asked, null
	// for the other.
	got := rcv.wait(t, 3, time.Minute)
	for _, d := range got {
		data := d.payload["data"].(map[string]any)
		id := data["job_id"].(string)
		if id == without {
			checkPayload(t, d, secret, "job.completed", id, acct) // asserts pdf_url null
			continue
		}
		if err := signature.Verify(secret, d.body, d.sig); err != nil {
			t.Errorf("signature: %v", err)
		}
		if want := "https://dragoman.example.com/v1/jobs/" + id + "/download?format=pdf"; data["pdf_url"] != want ||
			data["docx_url"] != "https://dragoman.example.com/v1/jobs/"+id+"/download" {
			t.Errorf("job %s: payload %s, want pdf_url %s", id, d.body, want)
		}
	}

	// The PDF holds the translated text (what the .docx holds), not the
	// English.
	translated := docxWords(t, s.getPatiently("/v1/jobs/"+withPDF+"/download", key).body)
	if len(translated) < 10 {
		t.Fatalf("the translated .docx has only the words %q", translated)
	}
	for _, id := range []string{withPDF, fromURL, without} { // the last one rendered on demand
		r := s.getPatiently("/v1/jobs/"+id+"/download?format=pdf", key)
		if r.status != 200 || r.header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(r.body, []byte("%PDF-")) {
			t.Fatalf("PDF of %s: %d %s %.80q", id, r.status, r.header.Get("Content-Type"), r.body)
		}
		if cd := r.header.Get("Content-Disposition"); !strings.Contains(cd, "english.de.pdf") {
			t.Errorf("Content-Disposition %q", cd)
		}
		text := pdfText(t, r.body)
		found := 0
		for _, w := range translated {
			if strings.Contains(text, w) {
				found++
			}
		}
		if found < len(translated)*3/4 || strings.Contains(text, "brother") {
			t.Errorf("PDF of %s: %d of the translation's %d words %q in its text %q", id, found, len(translated), translated, text)
		}
	}

	// Another account sees none of it.
	_, other, _ := s.account("enterprise")
	for _, path := range []string{"/v1/jobs/" + withPDF + "/download?format=pdf", "/v1/jobs/" + without + "/download?format=pdf"} {
		if r := s.getPatiently(path, other); r.status != 404 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/problem+json") {
			t.Errorf("another account's %s: %d %s %s", path, r.status, r.header.Get("Content-Type"), r.body)
		}
	}
	if r := s.getPatiently("/v1/jobs/"+withPDF+"/download?format=odt", key); r.status != 422 {
		t.Errorf("format=odt: %d %s", r.status, r.body)
	}
}

var xmlTag = regexp.MustCompile(`<[^>]*>`)

// docxWords are the words of four letters or more in a .docx's body.
func docxWords(t *testing.T, docx []byte) []string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatalf("the download is not a .docx: %v", err)
	}
	f, err := zr.Open("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	var words []string
	for _, w := range strings.Fields(xmlTag.ReplaceAllString(string(b), " ")) {
		w = strings.Trim(w, ".,;:!?()")
		if len([]rune(w)) >= 4 {
			words = append(words, w)
		}
	}
	return words
}

// pdfText is pdftotext's reading of a PDF.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// dragoman translate --pdf writes the PDF beside the .docx, and the PDF
// holds the translation.
func TestCLITranslatePDF(t *testing.T) {
	s := startServer(t, []string{"--plugin-dir", converterPlugins(t)}, "DRAGOMAN_ENGINES=pseudo", "TMPDIR="+t.TempDir(), "DRAGOMAN_LIBREOFFICE_POOL_SIZE=1")
	_, key, _ := s.account("pro")
	out := t.TempDir()
	stdout, stderr, code := s.cli(key, "translate", englishDocx, "--to", "German", "--from", "English", "--pdf", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	docx, err := os.ReadFile(filepath.Join(out, "english.de.docx"))
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile(filepath.Join(out, "english.de.pdf"))
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "english.docx → "+filepath.Join(out, "english.de.pdf")) {
		t.Errorf("no result line for the PDF:\n%s", stdout)
	}
	words, text := docxWords(t, docx), pdfText(t, pdf)
	if len(words) < 10 || !strings.Contains(text, words[0]) || !strings.Contains(text, words[len(words)-1]) {
		t.Errorf("the PDF's text %q lacks the translation's words %q", text, words)
	}
}
