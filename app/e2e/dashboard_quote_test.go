package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The dashboard in Chromium, in a month with under a fifth of its words
// left: a small document is quoted before Translate too, and so is one
// given by its address (its size unknown, the quota decides); Translate
// confirms and charges the quoted words, Cancel charges nothing.
func TestDashboardQuotesWhenTheQuotaIsTight(t *testing.T) {
	docs := docServer(t)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	acct := s.admin("account", "create", "--plan", "starter", "--name", "Acme")["account_id"].(string)
	s.admin("account", "set-plan", "--account", acct, "--plan", "starter", "--requests-per-minute", "1000")
	key := s.keyFor(t, acct)
	used := func() float64 { return s.getPatiently("/v1/usage", key).json(t)["used_words"].(float64) }

	// Spend most of the month: 1,000 words, then a limit 100 above that.
	long := docxFrom(t, "long.docx", withBody(strings.Repeat("<w:p><w:r><w:t>"+strings.Repeat("word ", 100)+"</w:t></w:r></w:p>", 10)), nil)
	r := s.uploadFile(key, long, map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if j := s.waitJob(key, r.json(t)["job_id"].(string), 2*time.Minute); j["status"] != "completed" {
		t.Fatalf("the long job: %v", j)
	}
	spent := used()
	s.admin("account", "set-plan", "--account", acct, "--plan", "starter", "--limit-words", fmt.Sprint(int64(spent)+100), "--requests-per-minute", "1000")

	dashUser(t, s, acct, "ana@example.com", "correct horse battery")
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: t.TempDir()}
	u.signIn("ana@example.com", "correct horse battery")
	doc, _ := filepath.Abs(englishDocx)

	// A small file: quoted, then translated.
	u.open("/translate")
	u.do("quote a small document", pickDocument("English", doc, "Spanish",
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#quote")),
	)...)
	if text := u.text("#quote-body"); !strings.Contains(text, "31 words") || !strings.Contains(text, "69 words will be left this month") {
		t.Errorf("quote of a small document: %q", text)
	}
	if now := used(); now != spent {
		t.Errorf("the quote charged %v words", now-spent)
	}
	u.do("translate after the quote", chromedp.Click(chromedp.CSS("#quote-go")), chromedp.WaitVisible(chromedp.CSS("#job-rows")))
	u.do("the quoted job completes", chromedp.WaitVisible(chromedp.CSS(`tr[data-status="completed"] a.download`)))
	if now := used(); now != spent+31 {
		t.Errorf("after Translate: %v words used, want %v", now, spent+31)
	}

	// By address: quoted too, then cancelled.
	u.open("/translate")
	u.do("quote a document by its address",
		chromedp.WaitReady(chromedp.CSS("#target option")),
		chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.getElementById("source"); s.value = "English"; s.dispatchEvent(new Event("change"));
		})()`),
		chromedp.SendKeys(chromedp.CSS("#url"), docs.URL+"/files/report.docx"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("target").value = "Spanish"`),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#quote")),
	)
	if text := u.text("#quote-body"); !strings.Contains(text, "31 words") || !strings.Contains(text, "38 words will be left this month") {
		t.Errorf("quote of a document by address: %q", text)
	}
	u.do("cancel", chromedp.Click(chromedp.CSS("#quote-cancel")), chromedp.WaitVisible(chromedp.CSS("#result.ok")))
	if msg := u.text("#result"); !strings.Contains(msg, "nothing was charged") {
		t.Errorf("after cancel: %q", msg)
	}
	if now := used(); now != spent+31 {
		t.Errorf("the cancelled quote charged: %v words used, want %v", now, spent+31)
	}
}
