package rtltest

import "testing"

// A justified Hebrew line that pdftotext cut in pieces (pandoc-instrText_hyperlink
// to Hebrew, page 1, y=258.2) is one line starting at the right edge, not a
// piece at the left edge; cells further apart stay separate.
func TestCheckRenderJoinsPieces(t *testing.T) {
	y := 258.2
	piece := func(a, b float64, text string) Line { return Line{XMin: a, XMax: b, YMin: y, Text: text} }
	split := Page{Lines: []Line{piece(497.2, 505.1, "ןן"), piece(412.0, 479.8, "ללההחגררטמ"), piece(384.0, 394.7, ". יי"),
		piece(324.1, 366.3, "נטתתהכ"), piece(291.1, 306.6, "ממ"), piece(219.8, 273.6, "זננטדללהב"), piece(152.2, 202.4, "חחגנההצו"),
		piece(90.3, 134.8, "דטתתאד")}}
	target := RenderTarget{RTL: true, Left: 90.2, Right: 505.4}
	if fs := CheckRender([]Page{split}, nil, target); len(fs) != 0 {
		t.Errorf("a justified line in pieces: %v", fs)
	}
	y = 300
	cells := Page{Lines: []Line{piece(400, 505.3, "אאא בבב"), piece(90.3, 200, "גגג דדד")}}
	if fs := CheckRender([]Page{cells}, nil, target); len(fs) != 1 {
		t.Errorf("a flush-left cell 200 pt from the next: %d findings, want 1: %v", len(fs), fs)
	}
}
