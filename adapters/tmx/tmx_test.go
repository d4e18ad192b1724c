package tmx

import (
	"bytes"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

var entries = []ports.MemoryEntry{
	{SourceLang: "en", TargetLang: "es", Source: `The <g id="1">quick brown</g> fox<x id="2"/> &amp; co.`, Target: `El zorro <g id="1">rápido</g><x id="2"/> y cía.`, Origin: "human"},
	{SourceLang: "en", TargetLang: "fr", Source: "Bye", Target: "Au revoir", Origin: "import"},
}

func TestRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := (Codec{}).Export(&b, entries); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<bpt i="1" x="1"/>quick brown<ept i="1"/>`) {
		t.Fatalf("export:\n%s", b.String())
	}
	got, skipped, err := (Codec{}).Import(&b)
	if err != nil || len(skipped) != 0 {
		t.Fatalf("import: %v %v", err, skipped)
	}
	want := append([]ports.MemoryEntry(nil), entries...)
	for i := range want {
		want[i].Origin = "import"
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
	}
}

// Another tool's file: a DOCTYPE without internal subset, regional tags,
// a header source language, a third language and one Dragoman lacks.
func TestImportsOtherToolsFiles(t *testing.T) {
	in := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4"><header srclang="en-US" segtype="sentence" o-tmf="x" adminlang="en" datatype="plaintext" creationtool="x" creationtoolversion="1"/>
<body>
<tu><tuv xml:lang="es-ES"><seg>Hola <hi>mundo</hi></seg></tuv><tuv xml:lang="en-US"><seg>Hello world</seg></tuv><tuv xml:lang="tlh"><seg>nuqneH</seg></tuv></tu>
</body></tmx>`
	got, skipped, err := (Codec{}).Import(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != (ports.MemoryEntry{SourceLang: "en", TargetLang: "es", Source: "Hello world", Target: "Hola mundo", Origin: "import"}) {
		t.Errorf("entries %+v", got)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], `translation unit 1: unknown language "tlh"`) {
		t.Errorf("skipped %v", skipped)
	}
}

func TestRefusals(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"internal subset": {`<!DOCTYPE tmx [<!ENTITY x "y">]><tmx version="1.4"><body/></tmx>`, "internal DTD subset"},
		"entity":          {`<tmx version="1.4"><body><tu><tuv xml:lang="en"><seg>&x;</seg></tuv></tu></body></tmx>`, "translation unit 1: the TMX file is not well-formed"},
		"not tmx":         {`<xliff/>`, "not TMX"},
		"broken":          {`<tmx><body>`, "not well-formed"},
	} {
		_, _, err := (Codec{}).Import(strings.NewReader(c.in))
		if err == nil || !errors.Is(err, ports.ErrBadBilingual) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	big := `<tmx version="1.4"><body>` + strings.Repeat("<!-- padding -->", 1<<16) + `</body></tmx>`
	if _, _, err := (Codec{MaxBytes: 1 << 20}).Import(strings.NewReader(big)); !errors.Is(err, ports.ErrBilingualTooLarge) {
		t.Errorf("oversized: %v", err)
	}
}

// translate-toolkit's TMX reader (Debian python3-translate) reads the
// export: every unit with its source and target text.
func TestTranslateToolkitReadsTheExport(t *testing.T) {
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import translate.storage.tmx").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Fatal("translate-toolkit needed: install python3-translate (make deps)")
	}
	var b bytes.Buffer
	if err := (Codec{}).Export(&b, entries); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", `
import sys
from translate.storage import tmx
st = tmx.tmxfile.parsestring(sys.stdin.buffer.read())
for u in st.units:
    print(u.source + " => " + u.target)
`)
	cmd.Stdin = &b
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "The quick brown fox & co. => El zorro rápido y cía.\nBye => Au revoir\n"
	if string(out) != want {
		t.Errorf("translate-toolkit read:\n%s\nwant:\n%s", out, want)
	}
}
