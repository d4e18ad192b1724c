package failure

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// What plugins and libraries say, and what a client reads of it.
func TestWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"rpc error: code = Unknown desc = soffice could not convert /tmp/dragoman-lo-2835606033/instance-1404268613/in/report.doc: general input/output error",
			"soffice could not convert the document: general input/output error"},
		{`rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /tmp/plugin1234: connect: connection refused"`, JobFailed},
		{"the converter plugin exited unexpectedly", JobFailed},
		{`translation engine "x" failed: provider plugin "x" (/opt/dragoman/plugins/dragoman-provider-x) did not start: cannot open /var/lib/x/model.bin`, JobFailed},
		{"plugin crashed: unexpected EOF", JobFailed},
		{"name.docx: the document could not be read: open /srv/dragoman/data/documents/jobs/j1/input.docx: permission denied",
			"name.docx: the document could not be read: open the document: permission denied"},
		{"the webhook at https://hooks.example.org/a/b/c answered 500", "the webhook at https://hooks.example.org/a/b/c answered 500"},
		{"word/charts/chart1/part.xml: too deeply nested", "word/charts/chart1/part.xml: too deeply nested"},
		{"cancelled", "cancelled"},
		{"TMX is not well-formed: XML syntax error on line 3: unexpected EOF", "TMX is not well-formed: XML syntax error on line 3: unexpected EOF"},
		{`document is corrupt: zip entry name "/tmp/evil.xml" is not a relative path inside the package`,
			`document is corrupt: zip entry name "/tmp/evil.xml" is not a relative path inside the package`},
		{"job j1 is not held: see GET /v1/jobs/j1/confirm", "job j1 is not held: see GET /v1/jobs/j1/confirm"},
		{"", ""},
	} {
		got := Words(c.in)
		if got != c.want {
			t.Errorf("%q\n got %q\nwant %q", c.in, got, c.want)
		}
		for _, bad := range []string{"rpc error", "desc =", "/tmp/", "/srv/"} {
			if strings.Contains(got, bad) && !strings.Contains(c.want, bad) {
				t.Errorf("%q still says %q", got, bad)
			}
		}
	}
	if got := WordsOr("translation engines are unavailable: rpc error: code = Unavailable desc = connection refused", Lost); got != Lost {
		t.Errorf("a lost engine: %q", got)
	}
}

// A refusal worded for the client keeps its cause for the log.
func TestRaw(t *testing.T) {
	cause := errors.New("provider plugin \"x\" (/opt/plugins/x) did not start: exit status 3")
	err := fmt.Errorf("submit: %w", &wrapped{msg: EnginesDown, err: cause})
	if got := Raw(err); got != "submit: "+EnginesDown+": "+cause.Error() {
		t.Errorf("Raw: %q", got)
	}
	if got := Raw(fmt.Errorf("reading: %w", cause)); got != "reading: "+cause.Error() {
		t.Errorf("Raw of a chain that says its cause: %q", got)
	}
}

type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }
