package e2e

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// option is a picker's entry as the page shows it.
type option struct {
	Value    string `json:"value"`
	Text     string `json:"text"`
	Selected bool   `json:"selected"`
}

func (u *ui) options(sel string) []option {
	u.t.Helper()
	return uiRun(u, "options of "+sel, chromedp.Evaluate[[]option](`Array.from(document.querySelectorAll("`+sel+` option")).map(o => ({value: o.value, text: o.textContent, selected: o.selected}))`))
}

func selected(opts []option) string {
	for _, o := range opts {
		if o.Selected {
			return o.Value
		}
	}
	return ""
}

func values(opts []option) []string {
	var out []string
	for _, o := range opts {
		out = append(out, o.Value)
	}
	return out
}

// TestDashboardPickersFollowTheSource (issue 22 §6), in Chromium: the
// pickers are sorted by English name and show each language's own name;
// the target list follows the chosen source or the one detected in the
// chosen document; the default target is Arabic when an engine reaches
// it, else the person's last choice, else the first right-to-left target.
// The server runs Apertium with the four pairs of old and Hindi–Urdu (an
// engine list, whatever the machine has), then the pseudo engine.
func TestDashboardPickersFollowTheSource(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_APERTIUM_DIR="+apertiumWith(t, append(oldFour, "hin-urd", "urd-hin")...))
	acct := s.admin("account", "create", "--plan", "pro", "--name", "Reach")["account_id"].(string)
	dashUser(t, s, acct, "ana@example.com", "correct horse battery")
	u := &ui{t: t, ctx: browserCtx(t), s: s, shot: t.TempDir()}
	u.signIn("ana@example.com", "correct horse battery")
	u.open("/translate")
	u.do("translate page", chromedp.WaitReady(chromedp.CSS("#target option")))

	sources := u.options("#source")[1:] // after "Detect automatically"
	if !sort.SliceIsSorted(sources, func(i, j int) bool { return sources[i].Value < sources[j].Value }) {
		t.Errorf("sources not sorted: %v", values(sources))
	}
	labels := map[string]string{}
	for _, o := range sources {
		labels[o.Value] = o.Text
	}
	if labels["Spanish"] != "Spanish — español" || labels["Hindi"] != "Hindi — हिन्दी" || labels["English"] != "English" {
		t.Errorf("source labels: %v", labels)
	}
	// Source auto, nothing chosen: Arabic is out of reach and there is no
	// last choice, so the first right-to-left target.
	targets := u.options("#target")
	if !sort.SliceIsSorted(targets, func(i, j int) bool { return targets[i].Value < targets[j].Value }) || selected(targets) != "Urdu" {
		t.Errorf("targets from auto: %v, selected %q, want sorted with Urdu selected", values(targets), selected(targets))
	}

	// A Hindi document chosen with source auto is detected: the targets
	// are Hindi's.
	hindi := docxFrom(t, "hindi.docx", withBody(`<w:p><w:r><w:t>नदी पर बना पुराना पुल भारी बारिश के कारण दो सप्ताह तक बंद रहा। मेरी दादी अपने घर के पीछे छोटे बगीचे में टमाटर, सेम और आलू उगाती हैं। बच्चे हर सुबह साथ-साथ स्कूल जाते थे और अपनी पसंदीदा किताबों के बारे में बातें करते थे।</w:t></w:r></w:p>`), nil)
	u.do("choose a Hindi document",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{hindi}),
		chromedp.WaitVisible(chromedp.CSS("#detected")),
	)
	if d := u.text("#detected"); d != "Detected: Hindi — हिन्दी" {
		t.Errorf("detected: %q", d)
	}
	if targets := u.options("#target"); !slices.Equal(values(targets), []string{"Urdu"}) || selected(targets) != "Urdu" {
		t.Errorf("targets from the detected Hindi: %v", targets)
	}
	// An English one: English's targets, none right-to-left.
	english, _ := filepath.Abs(englishDocx)
	u.do("choose an English document",
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{english}),
		chromedp.Poll[chromedp.Void](`document.getElementById("detected").textContent === "Detected: English"`, chromedp.WithPollingTimeout(30*time.Second)),
	)
	if got := values(u.options("#target")); !slices.Equal(got, []string{"Catalan", "French", "Galician", "Spanish"}) {
		t.Errorf("targets from the detected English: %v", got)
	}
	// A chosen source wins over the detected one.
	u.do("choose Urdu as the source",
		chromedp.SetValue(chromedp.CSS("#source"), "Urdu"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("source").dispatchEvent(new Event("change"))`),
	)
	if got := values(u.options("#target")); !slices.Equal(got, []string{"Hindi"}) || !u.hidden("#detected") {
		t.Errorf("targets from Urdu: %v", got)
	}
	// Submitting to Spanish makes Spanish the next default.
	u.do("translate English to Spanish",
		chromedp.SetValue(chromedp.CSS("#source"), "auto"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("source").dispatchEvent(new Event("change"))`),
		chromedp.Poll[chromedp.Void](`document.getElementById("detected").textContent === "Detected: English"`, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.SetValue(chromedp.CSS("#target"), "Spanish"),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.ok")),
	)
	u.open("/translate")
	u.do("translate page again", chromedp.WaitReady(chromedp.CSS("#target option")))
	if got := selected(u.options("#target")); got != "Spanish" {
		t.Errorf("default target after choosing Spanish: %q", got)
	}
	u.strict("translate page")
	// A detection answered after the person chose the source and target
	// leaves their target alone (a late answer once sent a job to the
	// last choice, Spanish, instead of French). The browser holds the
	// detection until both are chosen.
	u.holdDetection(func() {
		u.do("choose a document, then English and French",
			chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{english}),
		)
	}, func() {
		u.do("choose English and French",
			chromedp.SetValue(chromedp.CSS("#source"), "English"),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("source").dispatchEvent(new Event("change"))`),
			chromedp.SetValue(chromedp.CSS("#target"), "French"),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("target").dispatchEvent(new Event("change"))`),
		)
	})
	u.do("the detection has ended", chromedp.Poll[chromedp.Void](`!document.getElementById("translate-form").dataset.detecting`, chromedp.WithPollingTimeout(30*time.Second)))
	if got := uiRun(u, "target", chromedp.Evaluate[string](`document.getElementById("target").value`)); got != "French" || !u.hidden("#detected") {
		t.Errorf("after a late detection the target is %q (want French), detected hidden %v", got, u.hidden("#detected"))
	}
	// A pair over a chain shows its route on the jobs page.
	u.do("translate English to French",
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#result.ok")),
		chromedp.WaitVisible(chromedp.CSS(`#job-rows tr[data-status="completed"]:first-child .route`), chromedp.RetryInterval(500*time.Millisecond)),
	)
	if got := u.text("#job-rows tr:first-child .route"); got != "route: English → Spanish → French, apertium" {
		t.Errorf("the jobs page shows the route %q", got)
	}

	// Where an engine reaches Arabic, Arabic is the default.
	ps := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	pacct := ps.admin("account", "create", "--plan", "pro", "--name", "Pseudo")["account_id"].(string)
	dashUser(t, ps, pacct, "bo@example.org", "another long password")
	pu := &ui{t: t, ctx: u.ctx, s: ps, shot: u.shot}
	pu.signIn("bo@example.org", "another long password")
	pu.open("/translate")
	pu.do("translate page (pseudo)", chromedp.WaitReady(chromedp.CSS("#target option")))
	if got := selected(pu.options("#target")); got != "Arabic" {
		t.Errorf("default target with the pseudo engine: %q, want Arabic", got)
	}
}

// holdDetection pauses the page's /detect request sent during send, runs
// meanwhile, then lets the request go on (the page may have aborted it).
func (u *ui) holdDetection(send, meanwhile func()) {
	u.t.Helper()
	paused := chromedp.Events(u.ctx, fetch.RequestPaused)
	u.do("hold /detect", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/detect"}}})
		return err
	}))
	send()
	var held fetch.RequestID
	for ev, err := range paused {
		if err != nil {
			u.t.Fatalf("waiting for /detect: %v", err)
		}
		held = ev.RequestID
		break
	}
	meanwhile()
	u.do("let /detect go", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: held}) // fails when aborted
		_, err := chromedp.Call(ctx, fetch.Disable, cdp.Empty{})
		return err
	}))
}

func (u *ui) hidden(sel string) bool {
	u.t.Helper()
	return uiRun(u, "hidden "+sel, chromedp.Evaluate[bool](`document.querySelector("`+sel+`").hidden`))
}
