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

// A justified Arabic line in Amiri that pdftotext cut in 7 pieces 23.7 pt
// apart (pandoc-instrText_hyperlink to Arabic, page 1, y=256.5) is one
// line, and so is a Nastaliq line cut in 4 pieces at several heights
// (sahitya's Hindi journal to Urdu, page 3, y=191.8 to 199.3); three
// pieces with a 50 pt gap are not.
func TestCheckRenderJoinsEvenlySpacedPieces(t *testing.T) {
	y := 256.5
	piece := func(a, b float64) Line { return Line{XMin: a, XMax: b, YMin: y, Text: "ثذككاث"} }
	line := Page{Lines: []Line{piece(447.9, 505.2), piece(410.8, 424.1), piece(343.1, 387.1), piece(299.7, 319.4), piece(221.3, 275.9), piece(148.2, 197.6), piece(90.1, 124.5)}}
	target := RenderTarget{RTL: true, Left: 90, Right: 505.3}
	if fs := CheckRender([]Page{line}, nil, target); len(fs) != 0 {
		t.Errorf("an evenly stretched justified line: %v", fs)
	}
	nastaliq := Page{Lines: []Line{{XMin: 305.5, XMax: 480.7, YMin: 191.8, YMax: 220.1, Text: "ں"}, {XMin: 502.4, XMax: 522.0, YMin: 192.0, YMax: 220.1, Text: "ی"},
		{XMin: 144.7, XMax: 283.8, YMin: 193.9, YMax: 222.5, Text: "ئا"}, {XMin: 90.1, XMax: 124.2, YMin: 199.3, YMax: 222.1, Text: "۔ں ی ئا"}}}
	if fs := CheckRender([]Page{nastaliq}, nil, RenderTarget{RTL: true, Left: 90, Right: 522}); len(fs) != 0 {
		t.Errorf("a Nastaliq line in pieces at several heights: %v", fs)
	}
	// sahitya page 5, y=235: stretched by kashidas, with two fragments
	// at other heights inside the pieces.
	kashida := Page{Lines: []Line{{XMin: 386.9, XMax: 389.5, YMin: 220.1, YMax: 240.9}, {XMin: 212.6, XMax: 216.4, YMin: 233.8, YMax: 254.6},
		{XMin: 90.1, XMax: 101.9, YMin: 235.3, YMax: 256.1, Text: "-ا"}, {XMin: 171.1, XMax: 222.7, YMin: 235.3, YMax: 262.7, Text: "ا"},
		{XMin: 288.9, XMax: 305.9, YMin: 235.3, YMax: 258.6, Text: "ا"}, {XMin: 370.2, XMax: 431.8, YMin: 235.3, YMax: 256.1, Text: "ا"}, {XMin: 500.2, XMax: 521.9, YMin: 235.3, YMax: 256.1, Text: "ا"}}}
	if fs := CheckRender([]Page{kashida}, nil, RenderTarget{RTL: true, Left: 90, Right: 522}); len(fs) != 0 {
		t.Errorf("a line stretched by kashidas: %v", fs)
	}
	uneven := Page{Lines: []Line{piece(400, 505.2), piece(300, 370), piece(90.1, 250)}}
	if fs := CheckRender([]Page{uneven}, nil, target); len(fs) != 1 {
		t.Errorf("three cells: %d findings, want 1: %v", len(fs), fs)
	}
}

// The wrapped lines of a list item in the left column of a two-column
// section (GettingStarted to Hebrew, page 22) start at the column's start
// edge, 252 pt, right of which hangs the bullet; the first line reaches
// the left margin. It is start-aligned in
// its column, not end-aligned on the page; a lone short line at the left
// margin still is.
func TestCheckRenderColumnLines(t *testing.T) {
	target := RenderTarget{RTL: true, Left: 72, Right: 540}
	text := Word{XMin: 74.1, XMax: 252.3, YMin: 689.2, Text: "גצההארה"}
	bullet := Word{XMin: 270.4, XMax: 274.5, YMin: 689.2, Text: "\uf0b7"} // the hanging marker, joined as a piece of the line
	col := Page{Lines: []Line{{XMin: 74.1, XMax: 252.3, YMin: 689.2, Text: text.Text, Words: []Word{text}}, {XMin: 270.4, XMax: 274.5, YMin: 689.2, Text: bullet.Text, Words: []Word{bullet}},
		{XMin: 199.7, XMax: 252.3, YMin: 700.8, Text: "סגשממהנרר"}}}
	if fs := CheckRender([]Page{col}, nil, target); len(fs) != 0 {
		t.Errorf("a column's wrapped lines: %v", fs)
	}
	lone := Page{Lines: []Line{{XMin: 72.5, XMax: 252.3, YMin: 689.2, Text: "גצההארה"}, {XMin: 300, XMax: 539.8, YMin: 702.2, Text: "סגשממהנרר"}}}
	if fs := CheckRender([]Page{lone}, nil, target); len(fs) != 1 {
		t.Errorf("a short line at the left margin: %d findings, want 1: %v", len(fs), fs)
	}
}
