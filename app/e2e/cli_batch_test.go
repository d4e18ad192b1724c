package e2e

import (
	"archive/zip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/openapi/client"
)

// The command line: --to Spanish,Urdu is one batch per file; a .zip is a
// batch of its documents; quote prints the cost; --hold and jobs confirm.
func TestCLIBatchQuoteHold(t *testing.T) {
	s := startServer(t, nil, batchEngines)
	_, key, _ := s.account("pro")
	dir := t.TempDir()
	doc, _ := os.ReadFile(englishDocx)
	report := filepath.Join(dir, "report.docx")
	os.WriteFile(report, doc, 0o644)

	out, err := s.cliCmd(key, "translate", report, "--to", "Spanish,Urdu", "--from", "English", "--json").Output()
	if err != nil {
		t.Fatalf("translate --to Spanish,Urdu: %v\n%s", err, out)
	}
	var res struct {
		Results []struct {
			BatchID string `json:"batch_id"`
			Output  string `json:"output"`
			Error   string `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Results) != 2 {
		t.Fatalf("translate output: %v\n%s", err, out)
	}
	for i, want := range []string{"report.es.docx", "report.ur.docx"} {
		r := res.Results[i]
		if r.Error != "" || r.BatchID == "" || r.BatchID != res.Results[0].BatchID || filepath.Base(r.Output) != want {
			t.Errorf("result %d: %+v, want %s in one batch", i, r, want)
		}
		if _, err := os.Stat(r.Output); err != nil {
			t.Error(err)
		}
	}

	// A .zip: every document, one batch; what is not a document is named.
	zpath := filepath.Join(dir, "folder.zip")
	zf, _ := os.Create(zpath)
	zw := zip.NewWriter(zf)
	for _, n := range []string{"a.docx", "sub/b.docx"} {
		w, _ := zw.Create(n)
		w.Write(doc)
	}
	w, _ := zw.Create("sub/photo.jpg")
	w.Write([]byte("jpeg"))
	zw.Close()
	zf.Close()
	outDir := filepath.Join(dir, "out")
	text, err := s.cliCmd(key, "translate", zpath, "--to", "Spanish", "--from", "English", "--out", outDir).CombinedOutput()
	if err != nil {
		t.Fatalf("translate folder.zip: %v\n%s", err, text)
	}
	for _, n := range []string{"a.es.docx", "b.es.docx"} {
		if _, err := os.Stat(filepath.Join(outDir, n)); err != nil {
			t.Errorf("%s not written: %v\n%s", n, err, text)
		}
	}
	if !strings.Contains(string(text), "folder.zip: left out, not documents") || !strings.Contains(string(text), "sub/photo.jpg") {
		t.Errorf("the entry left out of folder.zip is not named:\n%s", text)
	}

	// quote: words and routes, no job.
	text, err = s.cliCmd(key, "quote", report, "--to", "Spanish,Urdu", "--from", "English").CombinedOutput()
	if err != nil || !strings.Contains(string(text), "route: English→Spanish apertium") || !strings.Contains(string(text), "Urdu:") || !strings.Contains(string(text), "unlimited") {
		t.Fatalf("quote: %v\n%s", err, text)
	}

	// --hold: jobs wait, then jobs confirm starts them.
	text, err = s.cliCmd(key, "translate", report, "--to", "Spanish", "--from", "English", "--hold", "--json").Output()
	if err != nil {
		t.Fatalf("translate --hold: %v\n%s", err, text)
	}
	var held struct {
		Held []struct {
			Jobs  []string      `json:"job_ids"`
			Quote *client.Quote `json:"quote"`
		} `json:"held"`
	}
	if err := json.Unmarshal(text, &held); err != nil || len(held.Held) != 1 || len(held.Held[0].Jobs) != 1 || held.Held[0].Quote == nil {
		t.Fatalf("held: %v\n%s", err, text)
	}
	id := held.Held[0].Jobs[0]
	if j := s.getPatiently("/v1/jobs/"+id, key).json(t); j["status"] != "pending" || j["held_until"] == nil {
		t.Fatalf("held job %v", j)
	}
	if text, err := s.cliCmd(key, "jobs", "confirm", id).CombinedOutput(); err != nil || !strings.Contains(string(text), "confirmed") {
		t.Fatalf("jobs confirm: %v\n%s", err, text)
	}
	if j := s.waitJob(key, id, 2*time.Minute); j["status"] != "completed" {
		t.Errorf("confirmed job %v", j)
	}
}

// The SDK's batch, quote and hold helpers against a real server.
func TestSDKBatchQuoteConfirm(t *testing.T) {
	s := startServer(t, []string{"--allow-private-urls"}, batchEngines)
	_, key, _ := s.account("pro")
	c, err := client.New("https://"+s.https, key, client.WithCACertFile(filepath.Join(s.dataDir, "tls", "cert.pem")))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	opts := client.Options{Targets: []string{"Spanish", "Urdu"}, From: "English", OutDir: dir}
	q, err := c.QuoteFile(ctx, englishDocx, opts)
	if err != nil || q.Words == 0 || len(*q.Targets) != 2 || q.ChargedWords != 2*q.Words {
		t.Fatalf("quote %+v: %v", q, err)
	}
	res, err := c.TranslateBatch(ctx, englishDocx, opts)
	if err != nil || res.Err() != nil || len(res.Results) != 2 {
		t.Fatalf("batch %+v: %v", res, err)
	}
	b, err := c.Batch(ctx, res.BatchID)
	if err != nil || b.Status != "completed" || b.Total != 2 {
		t.Fatalf("batch status %+v: %v", b, err)
	}
	if filepath.Base(res.Results[1].Path) != "english.ur.docx" {
		t.Errorf("second result %s", res.Results[1].Path)
	}

	acc, err := c.Submit(ctx, englishDocx, client.Options{To: "Spanish", From: "English", Hold: true})
	if err != nil {
		t.Fatal(err)
	}
	j, err := c.Confirm(ctx, acc.JobId.String())
	if err != nil || j.HeldUntil != nil {
		t.Fatalf("confirm %+v: %v", j, err)
	}
	if _, err := c.Confirm(ctx, acc.JobId.String()); err == nil || !strings.Contains(err.Error(), "not waiting for confirmation") {
		t.Errorf("second confirm: %v", err)
	}

	// TranslateFile and TranslateURL give one job. A .zip of documents is
	// refused before it is sent; a URL holding one (a batch on the server)
	// is an error that names the batch, whose unfinished jobs are cancelled.
	z := zipFile(t, englishDocx, "a.docx", "b.docx")
	jobsBefore := len(s.getPatiently("/v1/jobs", key).json(t)["jobs"].([]any))
	if _, err := c.TranslateFile(ctx, z, client.Options{To: "Spanish", OutDir: dir}); err == nil || !strings.Contains(err.Error(), "folder.zip is a .zip of documents, which makes a batch: use TranslateBatch") {
		t.Errorf("TranslateFile of a .zip: %v", err)
	}
	if n := len(s.getPatiently("/v1/jobs", key).json(t)["jobs"].([]any)); n != jobsBefore {
		t.Errorf("TranslateFile of a .zip made %d jobs", n-jobsBefore)
	}
	zb, _ := os.ReadFile(z)
	db, _ := os.ReadFile(englishDocx)
	zs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".docx") {
			w.Write(db)
			return
		}
		w.Write(zb)
	}))
	defer zs.Close()
	_, err = c.TranslateURL(ctx, zs.URL+"/folder.zip", client.Options{To: "Spanish", From: "English", OutDir: dir})
	if err == nil || !strings.Contains(err.Error(), "the URL holds a .zip of documents") {
		t.Fatalf("TranslateURL of a .zip: %v", err)
	}
	batch := regexp.MustCompile(`batch ([0-9a-f-]{36})`).FindStringSubmatch(err.Error())
	if batch == nil {
		t.Fatalf("no batch id in %q", err)
	}
	// A small document may be done before its cancel arrives; none runs on.
	if b, err := c.Batch(ctx, batch[1]); err != nil || b.Total != 2 || b.Counts.Pending+b.Counts.Processing != 0 {
		t.Errorf("the .zip's batch after TranslateURL: %+v %v; want its 2 jobs cancelled or done", b, err)
	}
	if _, err := c.SubmitURL(ctx, zs.URL+"/folder.zip", client.Options{To: "Spanish"}); err == nil || !strings.Contains(err.Error(), "use SubmitBatchURL") {
		t.Errorf("SubmitURL of a .zip: %v", err)
	}
	if acc, err := c.SubmitBatchURL(ctx, zs.URL+"/folder.zip", client.Options{To: "Spanish"}); err != nil || len(*acc.Jobs) != 2 {
		t.Errorf("SubmitBatchURL of a .zip: %+v %v", acc, err)
	}

	// A batch without a target would be one job to the default target on
	// the server, which the batch helpers cannot return: they send nothing.
	jobsBefore = len(s.getPatiently("/v1/jobs?limit=100", key).json(t)["jobs"].([]any))
	for name, submit := range map[string]func() error{
		"SubmitBatch": func() error { _, err := c.SubmitBatch(ctx, englishDocx, client.Options{From: "English"}); return err },
		"SubmitBatchURL": func() error {
			_, err := c.SubmitBatchURL(ctx, zs.URL+"/report.docx", client.Options{From: "English"})
			return err
		},
		"TranslateBatch": func() error { _, err := c.TranslateBatch(ctx, englishDocx, client.Options{OutDir: dir}); return err },
	} {
		if err := submit(); err == nil || !strings.Contains(err.Error(), "a batch needs its target languages: set Options.Targets") {
			t.Errorf("%s without a target: %v", name, err)
		}
	}
	if n := len(s.getPatiently("/v1/jobs?limit=100", key).json(t)["jobs"].([]any)); n != jobsBefore {
		t.Errorf("the batch helpers without a target made %d jobs", n-jobsBefore)
	}
}
