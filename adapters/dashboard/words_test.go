package dashboard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/failure"
)

// Core messages as the core formats them (core/service, the plugin host),
// and what a page shows: no field name, endpoint, gRPC text or server path.
func TestPeoplesWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{fmt.Sprintf("the document's language was detected as %s, and no configured engine translates %s to %s; give source_lang if the detection is wrong, or see GET /v1/languages?source=%s for the targets available", "English", "English", "Arabic", "en"),
			"the document's language was detected as English, and no configured engine translates English to Arabic; give the source language if the detection is wrong, or choose another target language"},
		{"no configured engine translates into Arabic; GET /v1/languages lists the languages available",
			"no configured engine translates into Arabic; the target list shows the languages available"},
		{"source_lang: unknown language \"Klingon\"", "source language: unknown language \"Klingon\""},
		{"glossary_id: give source_lang (English) with a glossary; auto-detection cannot be checked against the glossary's pair",
			"glossary: give the source language (English) with a glossary; auto-detection cannot be checked against the glossary's pair"},
		{`terms[3]: duplicate term "file" (already terms[0])`, `line 4: duplicate term "file" (already line 1)`},
		{"url: only https URLs are fetched", "address: only https URLs are fetched"},
		{"rpc error: code = Unknown desc = soffice could not convert /tmp/dragoman-lo-2835606033/instance-1404268613/in/report.doc: general input/output error",
			"soffice could not convert the document: general input/output error"},
		{`rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /tmp/plugin1234: connect: connection refused"`, failure.JobFailed},
		{"the converter plugin exited unexpectedly", failure.JobFailed},
		{"plugin crashed: unexpected EOF", failure.JobFailed},
		{"the webhook at https://hooks.example.org/a/b/c answered 500", "the webhook at https://hooks.example.org/a/b/c answered 500"},
		{"the document is larger than 50 MB", "the document is larger than 50 MB"},
	} {
		got := peoplesWords(c.in)
		if got != c.want {
			t.Errorf("%q\n got %q\nwant %q", c.in, got, c.want)
		}
		for _, bad := range []string{"_lang", "_id", "/v1/", "/tmp/", "rpc error", "desc ="} {
			if strings.Contains(got, bad) {
				t.Errorf("%q still says %q", got, bad)
			}
		}
	}
}

func TestBreakable(t *testing.T) {
	for in, want := range map[string]string{
		"annual_report_2026.docx": "annual_<wbr>report_<wbr>2026.<wbr>docx",
		"a<b>-c (1).docx":         "a&lt;b&gt;-<wbr>c <wbr>(1).<wbr>docx",
		"plain":                   "plain",
	} {
		if got := string(breakable(in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
