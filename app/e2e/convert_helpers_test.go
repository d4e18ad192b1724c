package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// converterPlugins is a plugin directory with the pseudo engine and the
// LibreOffice converter (built here unless DRAGOMAN_BIN already has it),
// so other end-to-end tests need not start LibreOffice.
func converterPlugins(t *testing.T) string {
	t.Helper()
	bin := binaries(t)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(bin, "plugins", "dragoman-provider-pseudo"), filepath.Join(dir, "dragoman-provider-pseudo")); err != nil {
		t.Fatal(err)
	}
	conv := filepath.Join(bin, "plugins", "dragoman-converter-libreoffice")
	if _, err := os.Stat(conv); err == nil {
		if err := os.Symlink(conv, filepath.Join(dir, "dragoman-converter-libreoffice")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "dragoman-converter-libreoffice"), "./plugins/libreoffice")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./plugins/libreoffice: %v\n%s", err, out)
	}
	return dir
}

// officeProcesses lists live processes whose command line names dir: every
// soffice.bin and UNO helper names its profile, which lives under TMPDIR.
func officeProcesses(dir string) []string {
	var out []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range cmdlines {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(dir)) {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// waitNoOffice fails unless every process naming dir is gone within d.
func waitNoOffice(t *testing.T, dir string, d time.Duration, when string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for len(officeProcesses(dir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if left := officeProcesses(dir); len(left) > 0 {
		t.Errorf("%s, still running after %s: %q", when, d, left)
	}
}

// apiResult is what one upload came to.
type apiResult struct {
	file     string
	upload   int    // HTTP status of POST /translate
	message  string // the 422's detail or the failed job's error
	status   string // completed or failed
	elapsed  time.Duration
	name     string // Content-Disposition file name
	output   []byte
	fidelity string // the job's own fidelity summary
}

// translateDoc uploads one file and follows it to the end, without calling
// t.Fatal (it runs on worker goroutines).
func translateDoc(s *server, key, path string) (r apiResult, err error) {
	r.file = path
	start := time.Now()
	defer func() { r.elapsed = time.Since(start) }()
	f, err := os.Open(path)
	if err != nil {
		return r, err
	}
	defer f.Close()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("target_lang", "German")
	mw.WriteField("source_lang", sourceLang(path))
	fw, _ := mw.CreateFormFile("file", filepath.Base(path))
	io.Copy(fw, f)
	mw.Close()
	resp, b, err := call(s, "POST", "/v1/translate", key, &body, mw.FormDataContentType())
	if err != nil {
		return r, err
	}
	r.upload = resp.StatusCode
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return r, fmt.Errorf("upload answered %d with %q", resp.StatusCode, b)
	}
	if resp.StatusCode != http.StatusAccepted {
		r.message, _ = m["message"].(string)
		if r.message == "" {
			r.message, _ = m["detail"].(string)
		}
		return r, nil
	}
	id, _ := m["job_id"].(string)
	// The tests' conversion timeout (ten minutes a document) and a little.
	for deadline := time.Now().Add(11 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		resp, b, err = call(s, "GET", "/v1/jobs/"+id, key, nil, "")
		if err != nil {
			return r, err
		}
		m = nil
		if err := json.Unmarshal(b, &m); err != nil || resp.StatusCode != 200 {
			return r, fmt.Errorf("poll: %d %q", resp.StatusCode, b)
		}
		if st, _ := m["status"].(string); st == "completed" || st == "failed" {
			r.status = st
			break
		}
		if time.Now().After(deadline) {
			return r, fmt.Errorf("job %s still %v", id, m["status"])
		}
	}
	r.message, _ = m["error"].(string)
	r.fidelity, _ = m["fidelity"].(string)
	if r.status != "completed" {
		return r, nil
	}
	resp, r.output, err = call(s, "GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if err != nil {
		return r, err
	}
	if resp.StatusCode != 200 {
		return r, fmt.Errorf("download: %d %q", resp.StatusCode, r.output)
	}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		r.name = params["filename"]
	}
	return r, nil
}

// sourceLang is given rather than detected: a table of numbers or "Test
// text" cannot be told apart from German, and detection is not the point.
func sourceLang(path string) string {
	switch filepath.Base(path) {
	case "poi-Bug45473.doc", "shareaza-hebrew.rtf":
		return "Hebrew"
	case "shareaza-arabic.rtf":
		return "Arabic"
	}
	return "English"
}

// translateAll runs translateDoc over files with a few uploads at a time.
func translateAll(t *testing.T, s *server, key string, files []string, workers int) []apiResult {
	results := make([]apiResult, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for i, f := range files {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := translateDoc(s, key, f)
			if err != nil {
				t.Errorf("%s: %v", f, err)
			}
			results[i] = r
		})
	}
	wg.Wait()
	return results
}

var wordText = regexp.MustCompile(`<w:t(?: [^>]*)?>([^<]*)</w:t>`)

// documentText checks that b is a .docx and returns its body's text.
func documentText(b []byte) (string, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return "", fmt.Errorf("not a zip: %w", err)
	}
	for _, f := range zr.File {
		if f.Name != "word/document.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return "", err
		}
		x, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return "", err
		}
		var s strings.Builder
		for _, m := range wordText.FindAllSubmatch(x, -1) {
			s.Write(m[1])
		}
		return s.String(), nil
	}
	return "", fmt.Errorf("no word/document.xml")
}
