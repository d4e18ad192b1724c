package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/openapi/client"
)

// A document fetched from a URL is quoted and held as an upload is,
// through the SDK and the CLI; a held job reserves no words, so confirming
// it in a month whose words are used up is 402 and leaves it held, to be
// confirmed after a change of plan. The SDK's helpers that wait for the
// translation refuse Hold at once (they would wait out the whole hold).
func TestHoldByURLAndConfirmWithinQuota(t *testing.T) {
	docs := docServer(t)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("starter")
	setLimit := func(words string) {
		s.admin("account", "set-plan", "--account", acct, "--plan", "starter", "--limit-words", words, "--requests-per-minute", "1000")
	}
	setLimit("100000")
	c, err := client.New("https://"+s.https, key, client.WithCACertFile(filepath.Join(s.dataDir, "tls", "cert.pem")))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	url := docs.URL + "/files/report.docx"
	opts := client.Options{To: "Spanish", From: "English"}

	byURL, err := c.QuoteURL(ctx, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	byFile, err := c.QuoteFile(ctx, englishDocx, opts)
	if err != nil || byURL.Words == 0 || byURL.Words != byFile.Words || byURL.ChargedWords != byFile.ChargedWords {
		t.Fatalf("quotes by URL %+v and by file %+v: %v", byURL, byFile, err)
	}

	held := opts
	held.Hold = true
	for name, translate := range map[string]func() error{
		"TranslateFile":  func() error { _, err := c.TranslateFile(ctx, englishDocx, held); return err },
		"TranslateURL":   func() error { _, err := c.TranslateURL(ctx, url, held); return err },
		"TranslateBatch": func() error { _, err := c.TranslateBatch(ctx, englishDocx, held); return err },
	} {
		if err := translate(); err == nil || !strings.Contains(err.Error(), "Confirm") {
			t.Errorf("%s with Hold: %v", name, err)
		}
	}
	if jobs := s.getPatiently("/v1/jobs", key).json(t)["jobs"].([]any); len(jobs) != 0 {
		t.Errorf("the refused helpers made %d jobs", len(jobs))
	}

	acc, err := c.SubmitURL(ctx, url, held)
	if err != nil {
		t.Fatal(err)
	}
	id := acc.JobId.String()
	if j, err := c.Job(ctx, id); err != nil || j.Status != "pending" || j.HeldUntil == nil {
		t.Fatalf("held job by URL %+v: %v", j, err)
	}

	// The month used up: confirming is refused, the job waits on.
	setLimit("0")
	_, err = c.Confirm(ctx, id)
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.Status != 402 || !strings.Contains(ae.Message, "stays held") {
		t.Fatalf("confirm with no words left: %v", err)
	}
	if j, _ := c.Job(ctx, id); j == nil || j.Status != "pending" || j.HeldUntil == nil {
		t.Fatalf("after a refused confirmation: %+v", j)
	}
	setLimit("100000")
	if _, err := c.Confirm(ctx, id); err != nil {
		t.Fatalf("confirm after the plan changed: %v", err)
	}
	if j := s.waitJob(key, id, 2*time.Minute); j["status"] != "completed" || j["total_words"] != float64(byURL.Words) {
		t.Fatalf("confirmed job %v", j)
	}
	if u, err := c.Usage(ctx); err != nil || u.UsedWords != int64(byURL.Words) {
		t.Errorf("usage after the confirmed job: %+v %v, want %d", u, err, byURL.Words)
	}

	// Several targets by URL, held as one batch.
	held.Targets = []string{"Spanish", "Urdu"}
	b, err := c.SubmitBatchURL(ctx, url, held)
	if err != nil || b.Jobs == nil || len(*b.Jobs) != 2 {
		t.Fatalf("held batch by URL %+v: %v", b, err)
	}
	for _, j := range *b.Jobs {
		if j, err := c.Cancel(ctx, j.JobId.String()); err != nil || j.Status != "failed" {
			t.Errorf("cancel a held job: %+v %v", j, err)
		}
	}

	// The CLI: translate --url --hold prints the quote and the held job.
	out, err := s.cliCmd(key, "translate", "--url", url, "--to", "Spanish", "--from", "English", "--hold", "--json").Output()
	if err != nil {
		t.Fatalf("translate --url --hold: %v\n%s", err, out)
	}
	var cli struct {
		Held []struct {
			Jobs  []string      `json:"job_ids"`
			Quote *client.Quote `json:"quote"`
		} `json:"held"`
	}
	if err := json.Unmarshal(out, &cli); err != nil || len(cli.Held) != 1 || len(cli.Held[0].Jobs) != 1 || cli.Held[0].Quote == nil || cli.Held[0].Quote.Words != byURL.Words {
		t.Fatalf("translate --url --hold: %v\n%s", err, out)
	}
	id = cli.Held[0].Jobs[0]
	if text, err := s.cliCmd(key, "jobs", "confirm", id).CombinedOutput(); err != nil || !strings.Contains(string(text), "confirmed") {
		t.Fatalf("jobs confirm: %v\n%s", err, text)
	}
	if j := s.waitJob(key, id, 2*time.Minute); j["status"] != "completed" {
		t.Errorf("job held by the CLI from a URL: %v", j)
	}
}
