package e2e

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dragoman-translate/dragoman/adapters/docx/docxbuild"
)

// typeText types text at the caret as an input method commits it (the
// way Urdu, Arabic and Hebrew reach a page).
func typeText(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

// TestReviewPageInChromium: a person opens the Review page of an Urdu and
// of an English translation, moves to a sentence with the keyboard, edits
// it around its formatting chips (which a Backspace cannot take), saves
// with Ctrl+Enter; the page follows the revision, and the downloaded
// .docx holds each edit with its formatting.
func TestReviewPageInChromium(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=apertium")
	acct, key, _ := s.account("pro")
	dashUser(t, s, acct, "reviewer@example.com", "correct horse battery")

	hindi := &docxbuild.Doc{Lang: "hi-IN", Body: []docxbuild.Block{
		docxbuild.P(docxbuild.Text("यह एक "), docxbuild.Bold("अच्छी किताब"), docxbuild.Text(" है।")),
		docxbuild.Plain("मेरा घर बड़ा है।"),
	}}
	spanish := &docxbuild.Doc{Lang: "es-ES", Body: []docxbuild.Block{
		docxbuild.Plain("El perro duerme en la casa."),
		docxbuild.P(docxbuild.Bold("El coche rojo"), docxbuild.Text(" está en el garaje.")),
		docxbuild.Plain("El zorblaxo come manzanas."),
	}}
	submit := func(name string, d *docxbuild.Doc, from, to string) string {
		r := s.upload(key, name, bytes.NewReader(d.Bytes()), map[string]string{"source_lang": from, "target_lang": to})
		id := r.json(t)["job_id"].(string)
		if j := s.waitJob(key, id, 3*time.Minute); j["status"] != "completed" {
			t.Fatalf("%s: %v", name, j)
		}
		return id
	}
	urdu := submit("kitab.docx", hindi, "Hindi", "Urdu")
	english := submit("coche.docx", spanish, "Spanish", "English")

	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: shotDir(t)}
	u.open("/signin")
	u.signIn("reviewer@example.com", "correct horse battery")

	// Urdu: the first sentence, edited after its bold chip's end.
	u.open("/jobs/" + urdu + "/review")
	u.do("wait for the sentences", chromedp.WaitVisible(chromedp.CSS("#seg-1 .tgt")))
	u.strict("the Review page")
	axeSrc := axeSource(t)
	u.checkAxe(axeSrc, "the Review page")
	u.checkSkipLink("the Review page")
	dirs := uiRun(u, "read directions", chromedp.Evaluate[[]string](`[document.querySelector("#seg-1 .src").dir, document.querySelector("#seg-1 .tgt").dir, document.querySelector("#seg-1 .tgt").lang, String(document.querySelectorAll("#seg-1 .tgt .chip").length)]`))
	chips := dirs[3]
	if strings.Join(dirs[:3], " ") != "ltr rtl ur" || chips < "2" {
		t.Fatalf("the Urdu sentence: src dir, tgt dir, tgt lang, chips = %q: %s", dirs, uiRun(u, "html", chromedp.Evaluate[string](`document.querySelector("#seg-1").outerHTML`)))
	}
	u.do("move to the first sentence and edit it", chromedp.Focus(chromedp.CSS("#seg-2")), chromedp.KeyEvent("k"), chromedp.KeyEvent("e"),
		chromedp.WaitVisible(chromedp.CSS(`#seg-1 .tgt[contenteditable="true"]`)))
	u.checkAxe(axeSrc, "the Review page, a sentence in edit")
	if shown := uiRun(u, "the buttons shown", chromedp.Evaluate[[]string](`[...document.querySelectorAll("#seg-1 .seg-actions button, #seg-2 .seg-actions button")].filter(b => b.offsetParent).map(b => b.textContent)`)); strings.Join(shown, " ") != "Save Cancel Edit" {
		t.Errorf("the buttons shown while sentence 1 is in edit: %q, want Save Cancel for it and Edit for the other", shown)
	}
	typed := uiRun(u, "the target as opened", chromedp.Evaluate[string](`document.querySelector("#seg-1 .tgt").textContent`))
	// A Backspace right after a chip does not take it.
	u.do("backspace after a chip", chromedp.Evaluate[chromedp.Void](`(() => {
		const chip = document.querySelector("#seg-1 .tgt .chip"), r = document.createRange();
		r.setStartAfter(chip); r.collapse(true);
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
	})()`), chromedp.KeyEvent(kb.Backspace))
	if n := uiRun(u, "count chips", chromedp.Evaluate[string](`String(document.querySelectorAll("#seg-1 .tgt .chip").length)`)); n != chips {
		t.Fatalf("a Backspace took a chip: %s left of %s", n, chips)
	}
	u.do("type in Urdu at the end and save", chromedp.Evaluate[chromedp.Void](`(() => {
		const t = document.querySelector("#seg-1 .tgt"), r = document.createRange();
		r.selectNodeContents(t); r.collapse(false);
		const s = getSelection(); s.removeAllRanges(); s.addRange(r);
	})()`), typeText(" بہت عمدہ، Word 2026 میں۔"), chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitVisible(chromedp.CSS("#seg-1.edited")))
	if got := uiRun(u, "the target as saved", chromedp.Evaluate[string](`document.querySelector("#seg-1 .tgt").textContent`)); got != typed+" بہت عمدہ، Word 2026 میں۔" {
		t.Errorf("the saved sentence reads %q, want %q and the words typed, Latin and digits among the Urdu (the key that opened the editor types nothing)", got, typed+" بہت عمدہ، Word 2026 میں۔")
	}
	if rev := u.text("#revision"); rev != "revision 1" {
		t.Errorf("the page's revision after saving: %q", rev)
	}
	if href := uiRun(u, "preview link", chromedp.Evaluate[string](`document.getElementById("preview-link").getAttribute("href")`)); !strings.HasSuffix(href, "?r=1") {
		t.Errorf("the preview link does not follow the revision: %q", href)
	}
	u.strict("the Review page after a save")
	u.checkAxe(axeSrc, "the Review page after a save")
	u.screenshot("review-urdu")

	// English: the sentence with a word the engine did not know comes
	// first, and its kind's filter shows it alone.
	u.open("/jobs/" + english + "/review")
	u.do("wait for the sentences", chromedp.WaitVisible(chromedp.CSS("#seg-2 .tgt")))
	order := uiRun(u, "the order", chromedp.Evaluate[[]string](`[...document.querySelectorAll("li.seg")].map(li => li.dataset.id)`))
	if strings.Join(order, " ") != "3 1 2" {
		t.Errorf("the sentences' order: %v, want the flagged one (3) first, then the document's order", order)
	}
	u.do("filter on unknown words", chromedp.Click(chromedp.CSS(`a.filter[href$="kind=unknown_words"]`)), chromedp.WaitVisible(chromedp.CSS(`a.filter[aria-current="page"][href$="kind=unknown_words"]`)))
	if only := uiRun(u, "the filtered rows", chromedp.Evaluate[[]string](`[...document.querySelectorAll("li.seg")].map(li => li.dataset.id + ": " + li.querySelector(".flags").textContent)`)); len(only) != 1 || !strings.Contains(only[0], "zorblaxo") {
		t.Errorf("the unknown-words filter shows %q, want sentence 3 with its flag naming the word", only)
	}
	u.checkAxe(axeSrc, "the Review page, filtered")
	u.screenshot("review-english-filtered")
	// The second sentence, reached with j, edited with typed keys.
	u.open("/jobs/" + english + "/review")
	u.do("wait for the sentences", chromedp.WaitVisible(chromedp.CSS("#seg-2 .tgt")))
	u.do("move to the second sentence and edit it", chromedp.Focus(chromedp.CSS("#seg-1")), chromedp.KeyEvent("j"), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`#seg-2 .tgt[contenteditable="true"]`)), chromedp.KeyEvent(" today"),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.WaitVisible(chromedp.CSS("#seg-2.edited")))

	for _, c := range []struct{ id, want, bold string }{
		{urdu, "بہت عمدہ، Word 2026 میں۔", "اچھی"},
		{english, "garage. today", "red car"},
	} {
		r := s.do("GET", "/v1/jobs/"+c.id+"/download", key, nil, "")
		marked, text := docxRuns(t, r.body, "<w:b/>")
		if r.status != 200 || !strings.Contains(text, c.want) {
			t.Errorf("job %s: the download lacks the edit %q: %q", c.id, c.want, text)
		}
		if !strings.Contains(strings.Join(marked, " "), c.bold) {
			t.Errorf("job %s: the bold words %v lack %q after the edit", c.id, marked, c.bold)
		}
	}
}

// shotDir is where a test's screenshots go: DASHBOARD_SCREENSHOTS when
// set (they then outlive the test, to be looked at), else a temp dir.
func shotDir(t *testing.T) string {
	if d := os.Getenv("DASHBOARD_SCREENSHOTS"); d != "" {
		return d
	}
	return t.TempDir()
}
