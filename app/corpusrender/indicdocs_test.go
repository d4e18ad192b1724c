package corpusrender

import (
	"strings"
)

// Hindi and Urdu documents written for these tests (issue 22 §4): the
// same report in each language, with our own sentences in words
// apertium-hin-urd knows both ways, so that every paragraph comes out in
// the other script. Each has a heading, paragraphs with numbers, a date
// and a phone number, Latin words inside the text, sentences ending in
// the script's full stop and question mark, a paragraph long enough to
// wrap, a numbered and a bulleted list, a table, a header, a footer with
// a page number and a footnote. The Hindi one is laid out left to right
// as Word writes Hindi (Mangal as complex-script font, hi-IN); the Urdu
// one right to left as Word writes Urdu (bidi paragraphs, sections and
// table, w:rtl runs, a Nastaliq complex-script font, ur-PK).

// indicText is one language's text of the report.
type indicText struct {
	heading, intro, latin, numbers, question, long string
	steps, bullets                                 []string
	table                                          [3][3]string
	header, footer, note                           string
}

// Markers the checks look for on the rendered pages: numbers and Latin
// words, which pdftotext reports as they are in both scripts.
const (
	markDate   = "2024-03-15"
	markPhone  = "011-2345-6789"
	markLatin1 = "Python"
	markLatin2 = "GitHub"
	markYear   = "2025"  // in the question
	markFirst  = "101"   // the table's first logical column
	markLast   = "2021"  // its last
	markPct    = "92.5%" // a percentage inside the text
	markCount  = "250"   // a plain number
)

var hindi = indicText{
	heading:  "वार्षिक रिपोर्ट",
	intro:    "यह रिपोर्ट हमारे स्कूल के काम के बारे में है। इस साल " + markCount + " लोग स्कूल आए और " + markPct + " लोग पास हुए।",
	latin:    "हम स्कूल में " + markLatin1 + " और " + markLatin2 + " से काम करते हैं।",
	numbers:  "हम " + markDate + " को शहर गए थे और " + markPhone + " पर आपको जवाब मिलेगा।",
	question: "क्या आप " + markYear + " में हमारे साथ काम करेंगे?",
	long:     strings.Repeat("लोग हर दिन स्कूल में किताबें पढ़ते हैं, खेल के मैदान में खेलते हैं, और शाम को अपने घर जाते हैं। ", 3),
	steps:    []string{"लोग सुबह आठ बजे आते हैं।", "शिक्षक कक्षा में पढ़ाते हैं।", "शाम को सब घर जाते हैं।"},
	bullets:  []string{"किताबें", "पानी"},
	table:    [3][3]string{{"नंबर", "नाम", "साल"}, {markFirst, "राम", markLast}, {"102", "सीता", "2022"}},
	header:   "स्कूल की रिपोर्ट",
	footer:   "वार्षिक रिपोर्ट",
	note:     "यह संख्या पिछले साल की है।",
}

var urdu = indicText{
	heading:  "سالانہ رپورٹ",
	intro:    "یہ رپورٹ ہمارے اسکول کے کام کے بارے میں ہے۔ اس سال " + markCount + " لوگ اسکول آئے اور " + markPct + " لوگ پاس ہوئے۔",
	latin:    "ہم اسکول میں " + markLatin1 + " اور " + markLatin2 + " سے کام کرتے ہیں۔",
	numbers:  "ہم " + markDate + " کو شہر گئے تھے اور " + markPhone + " پر آپ کو جواب ملے گا۔",
	question: "کیا آپ " + markYear + " میں ہمارے ساتھ کام کریں گے؟",
	long:     strings.Repeat("لوگ ہر دن اسکول میں کتابیں پڑھتے ہیں، کھیل کے میدان میں کھیلتے ہیں، اور شام کو اپنے گھر جاتے ہیں۔ ", 3),
	steps:    []string{"لوگ صبح آٹھ بجے آتے ہیں۔", "استاد کلاس میں پڑھاتے ہیں۔", "شام کو سب گھر جاتے ہیں۔"},
	bullets:  []string{"کتابیں", "پانی"},
	table:    [3][3]string{{"نمبر", "نام", "سال"}, {markFirst, "رام", markLast}, {"102", "سیتا", "2022"}},
	header:   "اسکول کی رپورٹ",
	footer:   "سالانہ رپورٹ",
	note:     "یہ عدد پچھلے سال کا ہے۔",
}

// indicDoc builds the report in one language. rtl lays it out right to
// left (paragraphs, table, section, runs); csFont and lang are the
// complex-script font and language Word writes for it.
func indicDoc(name, from string, to []string, x indicText, rtl bool, csFont, lang string) builtDoc {
	pPr, rPr, tblPr, sect := "", "", "", ""
	if rtl {
		pPr, rPr, tblPr, sect = "<w:bidi/>", "<w:rtl/>", "<w:bidiVisual/>", "<w:bidi/>"
	}
	para := func(style, extra, text string) string {
		ppr := pPr + extra
		if style != "" {
			ppr = `<w:pStyle w:val="` + style + `"/>` + ppr
		}
		return `<w:p><w:pPr>` + ppr + `</w:pPr><w:r><w:rPr>` + rPr + `</w:rPr><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
	}
	var b strings.Builder
	b.WriteString(para("Heading1", "", x.heading))
	// The footnote's reference follows the intro's last sentence.
	b.WriteString(strings.TrimSuffix(para("", "", x.intro), "</w:p>") +
		`<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/>` + rPr + `</w:rPr><w:footnoteReference w:id="1"/></w:r></w:p>`)
	for _, s := range []string{x.latin, x.numbers, x.question} {
		b.WriteString(para("", "", s))
	}
	// Bold through b alone, as a Hindi author writes it: the layout owes
	// the Urdu its bCs.
	b.WriteString(`<w:p><w:pPr>` + pPr + `<w:jc w:val="both"/></w:pPr><w:r><w:rPr><w:b/>` + rPr + `</w:rPr><w:t xml:space="preserve">` +
		strings.SplitAfter(x.long, " ")[0] + `</w:t></w:r><w:r><w:rPr>` + rPr + `</w:rPr><w:t xml:space="preserve">` +
		strings.Join(strings.SplitAfter(x.long, " ")[1:], "") + `</w:t></w:r></w:p>`)
	for _, s := range x.steps {
		b.WriteString(para("ListParagraph", `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>`, s))
	}
	for _, s := range x.bullets {
		b.WriteString(para("ListParagraph", `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>`, s))
	}
	b.WriteString(`<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/>` + tblPr + `<w:tblW w:w="5000" w:type="pct"/></w:tblPr>` +
		`<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>`)
	for _, row := range x.table {
		b.WriteString(`<w:tr>`)
		for _, c := range row {
			b.WriteString(`<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>` + para("", "", c) + `</w:tc>`)
		}
		b.WriteString(`</w:tr>`)
	}
	b.WriteString(`</w:tbl>`)
	b.WriteString(para("", "", x.heading))

	pageField := `<w:r><w:rPr>` + rPr + `</w:rPr><w:t xml:space="preserve"> </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>` +
		`<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`
	note := `<w:footnote w:id="1"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/>` + pPr + `</w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/>` + rPr + `</w:rPr><w:footnoteRef/></w:r>` +
		`<w:r><w:rPr>` + rPr + `</w:rPr><w:t xml:space="preserve"> ` + x.note + `</w:t></w:r></w:p></w:footnote>`
	return builtDoc{name: name, from: from, to: to, body: b.String(),
		styles: indicStyles(pPr, csFont, lang),
		sect: `<w:sectPr><w:headerReference w:type="default" r:id="rIdHeader"/><w:footerReference w:type="default" r:id="rIdFooter"/><w:footnotePr><w:numFmt w:val="decimal"/></w:footnotePr>` +
			`<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>` + sect + `</w:sectPr>`,
		parts: []docPart{
			{"header1.xml", wmlType + "header+xml", "header", "rIdHeader", `<w:hdr ` + docAttrs + `>` + para("Header", "", x.header) + `</w:hdr>`},
			{"footer1.xml", wmlType + "footer+xml", "footer", "rIdFooter", `<w:ftr ` + docAttrs + `><w:p><w:pPr><w:pStyle w:val="Footer"/>` + pPr + `<w:jc w:val="center"/></w:pPr><w:r><w:rPr>` + rPr + `</w:rPr><w:t>` + x.footer + `</w:t></w:r>` + pageField + `</w:p></w:ftr>`},
			{"footnotes.xml", wmlType + "footnotes+xml", "footnotes", "rIdNotes", `<w:footnotes ` + docAttrs + `>` +
				`<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>` +
				note + `</w:footnotes>`},
			{"numbering.xml", wmlType + "numbering+xml", "numbering", "rIdNumbering", `<w:numbering ` + wNS + `>` +
				`<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>` +
				`<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>` +
				`<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`},
		}}
}

// indicStyles are the styles of the report: the language's complex-script
// font and language in docDefaults, and the styles its parts use.
func indicStyles(pPr, csFont, lang string) string {
	style := func(typ, id, name, ppr, rpr string) string {
		return `<w:style w:type="` + typ + `" w:styleId="` + id + `"><w:name w:val="` + name + `"/>` + ppr + rpr + `</w:style>`
	}
	return `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:cs="` + csFont + `"/><w:sz w:val="24"/><w:szCs w:val="24"/>` +
		`<w:lang w:val="en-US" w:bidi="` + lang + `"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr>` + pPr + `<w:spacing w:after="160" w:line="300" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>` +
		`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
		style("paragraph", "Heading1", "heading 1", `<w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="0"/></w:pPr>`, `<w:rPr><w:b/><w:sz w:val="36"/></w:rPr>`) +
		style("paragraph", "ListParagraph", "List Paragraph", `<w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/></w:pPr>`, "") +
		style("paragraph", "Header", "header", `<w:basedOn w:val="Normal"/>`, "") +
		style("paragraph", "Footer", "footer", `<w:basedOn w:val="Normal"/>`, "") +
		style("paragraph", "FootnoteText", "footnote text", `<w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="0"/></w:pPr>`, `<w:rPr><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr>`) +
		style("character", "FootnoteReference", "footnote reference", "", `<w:rPr><w:vertAlign w:val="superscript"/></w:rPr>`) +
		`<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4"/><w:left w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr></w:style>`
}

// indicDocs are the Hindi report to Urdu and the Urdu one to Hindi.
func indicDocs() []builtDoc {
	return []builtDoc{
		indicDoc("report-hi", "Hindi", []string{"Urdu"}, hindi, false, "Mangal", "hi-IN"),
		indicDoc("report-ur", "Urdu", []string{"Hindi"}, urdu, true, "Urdu Typesetting", "ur-PK"),
	}
}
