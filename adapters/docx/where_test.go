package docx

import (
	"bytes"
	"context"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/docx/docxbuild"
	"github.com/dragoman-translate/dragoman/core/review"
)

// Each unit says where a person finds it, and which fixed-size container
// its text must fit.
func TestUnitsSayWhereTheyAre(t *testing.T) {
	d := &docxbuild.Doc{Header: "Quarterly report", Body: []docxbuild.Block{
		docxbuild.P(docxbuild.Text("Body text with a note."), docxbuild.Footnote("The note.")),
		docxbuild.TextBox(140, 36, "In a fixed box."),
		docxbuild.GrowingTextBox(140, 36, "In a growing box."),
		docxbuild.ExactRow(200, 20, "In an exact row."),
		docxbuild.Row(200, "In a growing row."),
		docxbuild.Frame(150, 20, "In a frame."),
	}}
	data := d.Bytes()
	doc, err := ExtractReader(context.Background(), bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, u := range doc.Units {
		got[u.Segments[0].Source] = [2]string{u.Where, u.Fixed}
	}
	for text, want := range map[string][2]string{
		"Quarterly report":       {"header", ""},
		"Body text with a note.": {"body", ""},
		" The note.":             {"footnote", ""},
		"In a fixed box.":        {"text box", review.TextBox},
		"In a growing box.":      {"text box", ""},
		"In an exact row.":       {"table", review.TableRow},
		"In a growing row.":      {"table", ""},
		"In a frame.":            {"frame", review.Frame},
	} {
		if g, ok := got[text]; !ok || g != want {
			t.Errorf("%q: %q (found %v), want %q", text, g, ok, want)
		}
	}
	if t.Failed() {
		t.Logf("units: %q", got)
	}
}
