package dashboard

import (
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/service"
)

func TestStructureParts(t *testing.T) {
	for in, want := range map[string][2]string{
		"fidelity: no loss (paragraphs 4, tables 2 depth 2)":      {"no loss", "paragraphs 4, tables 2 depth 2"},
		"fidelity: 2 losses: a; b (paragraphs 4, hyperlinks 1→0)": {"2 losses: a; b", "paragraphs 4, hyperlinks 1→0"},
		"something else": {"something else", ""},
		"":               {"", ""},
	} {
		if v, c := structureParts(in); v != want[0] || c != want[1] {
			t.Errorf("structureParts(%q) = %q, %q; want %q, %q", in, v, c, want[0], want[1])
		}
	}
}

// The words-per-day chart spans the whole month: today's bar sits where
// today is and the axis ends on the month's last day.
func TestChartSpansTheMonth(t *testing.T) {
	var days []service.DayWords
	for d := 1; d <= 27; d++ {
		days = append(days, service.DayWords{Day: time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC), Words: int64(d % 3)})
	}
	c := newChart(days)
	if c.First != "1 Nov" || c.Last != "30 Nov" || len(c.Bars) != 27 || c.Max != 2 {
		t.Fatalf("chart: first %q last %q bars %d max %d", c.First, c.Last, len(c.Bars), c.Max)
	}
	step := c.Width / 30
	if b := c.Bars[25]; b.X != 25*step || b.X+b.W > c.Width || b.H != c.Height-4 {
		t.Errorf("26 Nov bar: %+v (step %d)", b, step)
	}
	if b := c.Bars[2]; b.Words != 0 || b.H != 2 {
		t.Errorf("a day without words: %+v", b)
	}
	if c := newChart(nil); len(c.Bars) != 0 {
		t.Errorf("no days: %+v", c)
	}
}

func TestWantsPDF(t *testing.T) {
	for v, want := range map[string]bool{"true": true, "on": true, "false": false, "": false, "yes please": false} {
		if wantsPDF(v) != want {
			t.Errorf("wantsPDF(%q) = %v", v, !want)
		}
	}
}

// A redirect after sign-in stays on this site, in every form a browser
// would read as another host or a script.
func TestLocalPath(t *testing.T) {
	for _, in := range []string{"/jobs", "/jobs?x=1", "/webhooks/abc", "/keys#new", "/a/%2Fb", "/%09x"} {
		if got := localPath(in); got != in {
			t.Errorf("localPath(%q) = %q, want it kept", in, got)
		}
	}
	for _, in := range []string{
		"", "jobs", "//evil.example", `/\evil.example`, `\\evil.example`, `/\/evil.example`,
		"/\t/evil.example/phish", "/\n/evil.example", "/\r\n/evil.example", "\t//evil.example", " //evil.example",
		"/ /evil.example", "/\x00/evil.example", "/\u00a0/evil.example", "/\u2028/evil.example",
		"https://evil.example/", "HTTPS://evil.example", "//user@evil.example", "http:/evil.example",
		"javascript:alert(1)", "JavaScript:alert(1)", "/%2F%2Fevil.example", "/%2f/evil.example",
		"data:text/html,<script>alert(1)</script>", "/signin?next=/jobs", "/signin",
	} {
		if got := localPath(in); got != "/translate" {
			t.Errorf("localPath(%q) = %q, want /translate", in, got)
		}
	}
}

// Every page parses and renders with empty data, so a template error is
// caught here rather than in front of a user.
func TestPagesRender(t *testing.T) {
	pages := parsePages()
	for _, n := range pageNames {
		var b strings.Builder
		data := map[string]any{
			"signin": signinData{}, "translate": translateData{}, "jobs": []jobView{}, "keys": keysData{},
			"webhooks": webhooksData{}, "webhook": webhookData{}, "usage": usageData{Unlimited: true}, "preview": jobView{}, "terms": termsData{},
		}[n]
		if n == "preview" {
			continue // needs a job: covered by the browser test
		}
		if err := pages[n].ExecuteTemplate(&b, "layout", page{Title: n, Data: data}); err != nil {
			t.Errorf("page %s: %v", n, err)
		}
		if strings.Contains(b.String(), "<script>") || strings.Contains(b.String(), " style=") {
			t.Errorf("page %s has inline script or style", n)
		}
	}
}

// The core's "terms[i]" becomes the textarea line the term came from.
func TestTermIndexNamesTheLine(t *testing.T) {
	lines := []int{1, 3, 4}
	msg := `terms[2]: duplicate term "a" (already terms[0])`
	got := termIndex.ReplaceAllStringFunc(msg, func(m string) string { return lineOf(m, lines) })
	if want := `line 4: duplicate term "a" (already line 1)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
