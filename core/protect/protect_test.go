package protect

import (
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

func TestProtectsEachKind(t *testing.T) {
	p := New([]string{"Dragoman Cloud", "Kubernetes"})
	cases := []struct {
		in   string
		want map[string]Kind // protected text → kind
	}{
		{"See https://example.com/docs?id=3.", map[string]Kind{"https://example.com/docs?id=3": URL}},
		{"Visit www.dragoman.org today", map[string]Kind{"www.dragoman.org": URL}},
		{"Mail jane.doe@example.co.uk for help", map[string]Kind{"jane.doe@example.co.uk": Email}},
		{"Edit /etc/dragoman/config.yaml and C:\\Program Files", map[string]Kind{"/etc/dragoman/config.yaml": Path, "C:\\Program": Path}},
		{"Open settings.json in ~/projects", map[string]Kind{"settings.json": Path, "~/projects": Path}},
		{"Call getUserName() or os.Getenv() then set MAX_RETRIES", map[string]Kind{"getUserName()": Identifier, "os.Getenv()": Identifier, "MAX_RETRIES": Identifier}},
		{"The field user_id and parseHeader and `go test ./...` matter", map[string]Kind{"user_id": Identifier, "parseHeader": Identifier, "`go test ./...`": Identifier}},
		{"Upgrade to v2.37.2 or 1.26.0-rc1 now", map[string]Kind{"v2.37.2": Version, "1.26.0-rc1": Version}},
		{"It weighs 2.5 kg, runs at 3 GHz and 50% load for 25min at 20 °C", map[string]Kind{"2.5 kg": Quantity, "3 GHz": Quantity, "50%": Quantity, "25min": Quantity}},
		{"Deploy Dragoman Cloud on Kubernetes clusters", map[string]Kind{"Dragoman Cloud": Term, "Kubernetes": Term}},
		{"Use --dry-run with JavaScript", map[string]Kind{"--dry-run": Identifier, "JavaScript": Identifier}},
	}
	for _, c := range cases {
		out, spans := p.Protect(tagged.Escape(c.in))
		got := map[string]Kind{}
		for _, s := range spans {
			got[s.Text] = s.Kind
			if strings.Contains(tagged.Plain(out), s.Text) {
				t.Errorf("%q: %q still visible in %q", c.in, s.Text, out)
			}
		}
		for text, kind := range c.want {
			if got[text] != kind {
				t.Errorf("%q: want %q as %s, spans %+v", c.in, text, kind, spans)
			}
		}
		if back, lost := Restore(out, spans); lost != 0 || back != tagged.Escape(c.in) {
			t.Errorf("round trip of %q gave %q (lost %d)", c.in, back, lost)
		}
	}
}

func TestLeavesOrdinaryProseAlone(t *testing.T) {
	p := New([]string{"Go"})
	for _, s := range []string{
		"The quick brown fox jumps over the lazy dog, e.g. twice.",
		"Gophers like 3 apples and 12 sheep.",
		"Il a dit: « Bonjour ! » et il est parti.",
		"مرحبا بالعالم",
		"Good morning. Going home.",
	} {
		if out, spans := p.Protect(tagged.Escape(s)); len(spans) != 0 {
			t.Errorf("%q: protected %+v → %q", s, spans, out)
		}
	}
}

func TestCodesNumberedAfterDocumentCodesAndKeptAcrossTags(t *testing.T) {
	p := New(nil)
	in := `Run <g id="1">make test</g><x id="7"/> from /src/app/ or see <g id="2">https://x.org</g> &amp; more`
	out, spans := p.Protect(in)
	if len(spans) != 2 || spans[0].ID != 8 || spans[1].ID != 9 {
		t.Fatalf("spans %+v, want ids 8 and 9 after the document's code 7", spans)
	}
	if !strings.Contains(out, `<g id="2"><x id="9"/></g>`) || !strings.Contains(out, `&amp; more`) {
		t.Errorf("protected text %q", out)
	}
	// An engine reorders the sentence and keeps the codes.
	translated := `Ver <g id="2"><x id="9"/></g> &amp; más, ejecutar <g id="1">make test</g><x id="7"/> desde <x id="8"/>`
	back, lost := Restore(translated, spans)
	want := `Ver <g id="2">https://x.org</g> &amp; más, ejecutar <g id="1">make test</g><x id="7"/> desde /src/app/`
	if back != want || lost != 0 {
		t.Errorf("restored %q (lost %d), want %q", back, lost, want)
	}
}

func TestRestoreAppendsLostSpans(t *testing.T) {
	p := New(nil)
	out, spans := p.Protect("Version v1.2.3 is out")
	if len(spans) != 1 {
		t.Fatalf("spans %+v", spans)
	}
	back, lost := Restore("La versión ya salió", spans)
	if lost != 1 || back != "La versión ya salió v1.2.3" {
		t.Errorf("restored %q lost %d (from %q)", back, lost, out)
	}
}

func TestSameShapeSegmentsShareProtectedText(t *testing.T) {
	p := New(nil)
	a, _ := p.Protect("Released in v1.2.3 today")
	b, _ := p.Protect("Released in v2.0.0 today")
	if a != b {
		t.Errorf("%q and %q differ; the engine should see one segment", a, b)
	}
}

func BenchmarkProtect(b *testing.B) {
	p := New([]string{"Dragoman", "Kubernetes", "PostgreSQL"})
	s := `Install <g id="1">Dragoman</g> v1.4.0 on Kubernetes: see https://dragoman.example/docs, set DRAGOMAN_ENGINES and allow 512 MiB per worker.`
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		out, spans := p.Protect(s)
		Restore(out, spans)
	}
}
