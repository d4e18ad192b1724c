package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// serverWords are what a plugin or a library says that no client should
// read: gRPC's status text, a path of the server, a Go error chain's
// transport words.
var serverWords = []string{"rpc error", "desc =", "code = ", "transport:", "/tmp/", "dragoman-provider-", "model.bin"}

// absolutePath is a path of the server's file system (the API's own
// paths, /v1/…, are not).
var absolutePath = regexp.MustCompile(`(?:^|[\s"'(=:])/(?:tmp|var|srv|home|root|usr|opt|etc|run|proc|work|dev)/[^\s"'<]*`)

// saysServerWords lists what of serverWords (or an absolute path) text says.
func saysServerWords(text string) []string {
	var found []string
	for _, w := range serverWords {
		if strings.Contains(text, w) {
			found = append(found, w)
		}
	}
	if m := absolutePath.FindString(text); m != "" {
		found = append(found, m)
	}
	return found
}

// faultyPlugins is a plugin directory with the product's converter and
// the test provider crashy (testdata/plugins/crashy), which dies on the
// segment "__crash__".
func faultyPlugins(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root, _ := filepath.Abs("../..")
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "dragoman-provider-crashy"), "./testdata/plugins/crashy")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building crashy: %v\n%s", err, out)
	}
	conv := filepath.Join(binaries(t), "plugins", "dragoman-converter-libreoffice")
	if _, err := os.Stat(conv); err != nil {
		t.Fatalf("the LibreOffice converter plugin is needed (make build; DRAGOMAN_BIN=$PWD/bin): %v", err)
	}
	if err := os.Symlink(conv, filepath.Join(dir, "dragoman-converter-libreoffice")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// breakPlugin puts in place of the plugin at path a program that exits at
// start, naming a file of the server on its stderr: the running process
// goes on, and the host's next start of it fails.
func breakPlugin(t *testing.T, path string) {
	t.Helper()
	tmp := path + ".new"
	gone := "#!/bin/sh\necho \"cannot open /var/lib/crashy/model.bin\" >&2\nexit 3\n"
	if err := os.WriteFile(tmp, []byte(gone), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestPluginFaultsInPeoplesWords: when plugins fail (a converter that
// cannot read a document, an engine that dies on a segment and then cannot
// start again), the API's answers (a failed job's error, 503 problems) and
// the dashboard's pages say so in sentences, never with gRPC's status
// text, a path of the server or a plugin's stderr; the logs keep them.
func TestPluginFaultsInPeoplesWords(t *testing.T) {
	plugins := faultyPlugins(t)
	s := startServer(t, []string{"--plugin-dir", plugins, "--retry-for", "3s"}, "DRAGOMAN_ENGINES=crashy")
	acct, key, _ := s.account("pro")
	dashUser(t, s, acct, "faults@example.com", "correct horse battery")
	clean := func(what string, status, want int, body []byte) {
		t.Helper()
		if w := saysServerWords(string(body)); status != want || len(w) > 0 {
			t.Errorf("%s: %d (want %d), says %q:\n%s", what, status, want, w, body)
		}
	}

	// The converter cannot read a document.
	bad := s.upload(key, "minutes.odt", bytes.NewReader(brokenODT(t)), map[string]string{"source_lang": "English", "target_lang": "German"})
	if bad.status != 202 {
		t.Fatalf("submit the broken .odt: %d %s", bad.status, bad.body)
	}
	broken := s.waitJob(key, bad.json(t)["job_id"].(string), 3*time.Minute)

	// The engine dies on a segment and cannot be started again.
	breakPlugin(t, filepath.Join(plugins, "dragoman-provider-crashy"))
	crash := docxFrom(t, "crash.docx", withBody(`<w:p><w:r><w:t>__crash__</w:t></w:r></w:p>`), nil)
	r := s.uploadFile(key, crash, map[string]string{"source_lang": "English", "target_lang": "German"})
	if r.status != 202 {
		t.Fatalf("submit: %d %s", r.status, r.body)
	}
	crashed := s.waitJob(key, r.json(t)["job_id"].(string), 3*time.Minute)
	for what, j := range map[string]map[string]any{"the broken document": broken, "the crashed engine": crashed} {
		msg, _ := j["error"].(string)
		t.Logf("%s: %s %q", what, j["status"], msg)
		if j["status"] != "failed" || len(msg) < 15 {
			t.Errorf("%s: %v", what, j)
		}
		if w := saysServerWords(msg); len(w) > 0 {
			t.Errorf("%s: the job's error says %q: %q", what, w, msg)
		}
	}
	if !strings.Contains(s.logs.String(), "rpc error: code = Unavailable") || !strings.Contains(s.logs.String(), "/var/lib/crashy/model.bin") {
		t.Errorf("the logs lost the plugins' own words:\n%s", s.logs)
	}

	// Requests that need an engine: 503 with Retry-After, in words.
	for _, path := range []string{"/v1/languages", "/v1/languages/pairs"} {
		r := s.do("GET", path, key, nil, "")
		clean(path, r.status, 503, r.body)
		if r.header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", path)
		}
	}
	r = s.uploadFile(key, englishDocx, map[string]string{"target_lang": "German"})
	clean("a submission", r.status, 503, r.body)

	d := signedIn(t, s, "faults@example.com", "correct horse battery")
	page := d.get("/jobs")
	clean("the jobs page", page.status, 200, page.body)
	for _, f := range []string{"minutes", "crash"} {
		if !strings.Contains(string(page.body), f) {
			t.Errorf("the jobs page does not list %s", f)
		}
	}
	page = d.get("/languages.json")
	clean("the dashboard's languages", page.status, 503, page.body)
	page = d.get("/translate")
	t.Logf("the translate page: %d", page.status)
	if w := saysServerWords(string(page.body)); len(w) > 0 {
		t.Errorf("the translate page says %q", w)
	}
}
