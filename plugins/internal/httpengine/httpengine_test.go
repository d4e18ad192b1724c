package httpengine

import (
	"net/http"
	"testing"
	"time"
)

func TestHTMLRoundTrip(t *testing.T) {
	for _, s := range []string{
		`The <g id="1">quick</g> fox<x id="2"/> &amp; "friends" &lt;3`,
		`<g id="3"><g id="4">nested</g></g> it's`,
		`no codes`,
	} {
		h := ToHTML(s)
		if back := FromHTML(h); back != s {
			t.Errorf("%q → %q → %q", s, h, back)
		}
	}
}

func TestFromHTMLReadsWhatServicesReturn(t *testing.T) {
	cases := map[string]string{
		`Der <span id="g1">schnelle</span> Fuchs<br id="x2"/> &amp; Co`: `Der <g id="1">schnelle</g> Fuchs<x id="2"/> &amp; Co`,
		`<SPAN ID='g1'>x</SPAN><br id=x2>`:                              `<g id="1">x</g><x id="2"/>`,
		`<span class="notranslate">kept</span> <b>bold</b> text`:        `kept bold text`,
		`unclosed <span id="g5">span`:                                   `unclosed <g id="5">span</g>`,
		`L&#39;été &quot;chaud&quot; &nbsp;ici`:                         "L'été \"chaud\" \u00a0ici",
	}
	for in, want := range cases {
		if got := FromHTML(in); got != want {
			t.Errorf("FromHTML(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":   0,
		"7":  7 * time.Second,
		"-1": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		"soon": 0,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("Retry-After %q = %s, want %s", in, got, want)
		}
	}
}
