package httpengine

import (
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

func TestToHTMLMarkingKeepsCodesAndEscapes(t *testing.T) {
	glossary := terms.New([]terms.Entry{{Source: "Fish & chips", Target: `"F&C"`}, {Source: "quick", Target: "schnell"}})
	seg := `The <g id="1">quick</g> Fish &amp; chips<x id="2"/> &lt;here&gt;`
	got := ToHTMLMarking(seg, glossary, func(src, tgt string) string { return "[" + src + "→" + tgt + "]" })
	want := `The <span id="g1">[quick→schnell]</span> [Fish & chips→"F&C"]<br id="x2"> &lt;here&gt;`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if plain := tagged.Plain(FromHTML(ToHTMLMarking(seg, nil, nil))); !strings.Contains(plain, "Fish & chips") {
		t.Errorf("no terms: %q", plain)
	}
}
