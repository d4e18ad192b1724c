package corpusrender

import (
	"strings"
)

// Documents built for issue 10 items 1, 4 and 5 ("Done when": they pass
// the checker with --render too), the same as the adapters' and app's
// tests build them (app/e2e/direction_test.go, adapters/rtl
// render_causes_test.go and twins_test.go), written into the test's work
// folder and sent through the API with the corpus.

const (
	wNS   = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	xmlPI = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`
	relNS = `http://schemas.openxmlformats.org/officeDocument/2006/relationships`
)

// builtDoc is a document body with its styles and, optionally, one chart
// and other parts (docx_test.go writes it).
type builtDoc struct {
	name, from string
	to         []string
	body       string // may refer to the chart as r:id="rIdChart"
	styles     string // the content of w:styles
	chart      string // word/charts/chart1.xml, or ""
	sect       string // the body's w:sectPr; "" for US Letter with margins 2000 (left) and 1000
	parts      []docPart
}

// mixed (item 1): mostly Latin (French) text with RTL paragraphs, Arabic
// runs and a bidiVisual table; detected (no --from), to English and Arabic.
var mixed = builtDoc{name: "built-mixed", to: []string{"English", "Arabic"},
	styles: `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/><w:lang w:val="fr-FR"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr/></w:pPrDefault></w:docDefaults>` +
		`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>`,
	body: `<w:p><w:r><w:t>Le rapport annuel présente les résultats du groupe, ses filiales, ses marchés et ses perspectives pour les années à venir, avec les comptes consolidés de l'exercice.</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t>التقرير السنوي للمجموعة</w:t></w:r></w:p>` +
		`<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Les chiffres sont donnés en euros et arrondis au millier le plus proche.</w:t></w:r></w:p>` +
		`<w:tbl><w:tblPr><w:bidiVisual/><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>` +
		`<w:tr><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:t>Année de référence</w:t></w:r></w:p></w:tc><w:tc><w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t>السنة المالية</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`<w:p><w:r><w:t>Fin du rapport.</w:t></w:r></w:p>`,
}

// twinStyles (item 5): size and bold only in their Latin form, in
// docDefaults, a paragraph style and a character style.
const twinStyles = `<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr>%s</w:pPr></w:pPrDefault></w:docDefaults>` +
	`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
	`<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>` +
	`<w:style w:type="character" w:styleId="Big"><w:name w:val="Big"/><w:rPr><w:sz w:val="28"/></w:rPr></w:style>`

// twinBody: a heading bold and sized through its style, a run sized by a
// character style, a run with sz and no szCs, and one whose sizes differ.
func twinBody(heading, big, plain, note, rtl string) string {
	return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>` + heading + `</w:t></w:r></w:p>` +
		`<w:p><w:r><w:rPr><w:rStyle w:val="Big"/>` + rtl + `</w:rPr><w:t>` + big + `</w:t></w:r><w:r><w:rPr><w:sz w:val="24"/>` + rtl + `</w:rPr><w:t xml:space="preserve"> ` + plain + `</w:t></w:r>` +
		`<w:r><w:rPr><w:b/><w:bCs w:val="0"/><w:sz w:val="20"/><w:szCs w:val="26"/>` + rtl + `</w:rPr><w:t xml:space="preserve"> ` + note + `</w:t></w:r></w:p>`
}

var (
	twinsAr = builtDoc{name: "built-twins-ar", from: "Arabic", to: []string{"English", "Hebrew"},
		styles: strings.Replace(twinStyles, "%s", "<w:bidi/>", 1),
		body:   twinBody("عنوان التقرير", "نص كبير", "نص عادي", "ملاحظة", "<w:rtl/>")}
	twinsEn = builtDoc{name: "built-twins-en", from: "English", to: []string{"Arabic", "Hebrew"},
		styles: strings.Replace(twinStyles, "%s", "", 1),
		body:   twinBody("Annual report", "Large text", "plain text", "a note", "")}
)

// causes (item 4): one of each cause of RTL text drawn at the left edge
// (render_causes_test.go): a narrow table, a narrow indented table, a table
// narrower than the page by percentage, a narrow table nested in a cell, a
// text box flush with the column's left edge, and a chart.
func causes() builtDoc {
	cell := func(text string) string {
		return `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>` + text + `</w:t></w:r></w:p></w:tc>`
	}
	table := func(tblPr, first string) string {
		return `<w:tbl><w:tblPr>` + tblPr + `<w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>` +
			`<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr>` + cell("table "+first) + cell("note") + `</w:tr></w:tbl><w:p/>`
	}
	anchor := func(graphic, uri string, cx, cy string) string {
		return `<w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
			`<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>` +
			`<wp:extent cx="` + cx + `" cy="` + cy + `"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/><wp:docPr id="` + cx[:2] + `" name="obj"/><wp:cNvGraphicFramePr/>` +
			`<a:graphic><a:graphicData uri="` + uri + `">` + graphic + `</a:graphicData></a:graphic></wp:anchor></w:drawing>`
	}
	textBox := `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps">` + anchor(`<wps:wsp><wps:cNvSpPr txBox="1"/>`+
		`<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="457200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>`+
		`<wps:txbx><w:txbxContent><w:p><w:r><w:t>box text</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr rot="0" vert="horz" wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"/></wps:wsp>`,
		"http://schemas.microsoft.com/office/word/2010/wordprocessingShape", "1828800", "457200") +
		`</mc:Choice><mc:Fallback/></mc:AlternateContent></w:r><w:r><w:t>anchor</w:t></w:r></w:p><w:p/><w:p/><w:p/>`
	outer := `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>` +
		`<w:tblGrid><w:gridCol w:w="4620"/><w:gridCol w:w="4620"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4620" w:type="dxa"/></w:tcPr>` +
		`<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="1500"/><w:gridCol w:w="1500"/></w:tblGrid>` +
		`<w:tr><w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>inner cell</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>x</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`<w:p/></w:tc><w:tc><w:tcPr><w:tcW w:w="4620" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>outer cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/>`
	// A column chart at the column's left edge, narrower than the column:
	// a title, three categories, one named series and its value axis.
	chart := `<w:p><w:r>` + anchor(`<c:chart r:id="rIdChart"/>`, "http://schemas.openxmlformats.org/drawingml/2006/chart", "3200400", "1828800") +
		`</w:r><w:r><w:t>chart</w:t></w:r></w:p>` + strings.Repeat(`<w:p/>`, 9)
	cat := func(i, v string) string { return `<c:pt idx="` + i + `"><c:v>` + v + `</c:v></c:pt>` }
	space := `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>` +
		`<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Sales by region</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>` +
		`<c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/>` +
		`<c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/>` + cat("0", "Revenue") + `</c:strCache></c:strRef></c:tx>` +
		`<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/>` + cat("0", "North") + cat("1", "Centre") + cat("2", "South") + `</c:strCache></c:strRef></c:cat>` +
		`<c:val><c:numRef><c:f>Sheet1!$B$2:$B$4</c:f><c:numCache><c:ptCount val="3"/>` + cat("0", "120") + cat("1", "340") + cat("2", "230") + `</c:numCache></c:numRef></c:val></c:ser>` +
		`<c:axId val="1"/><c:axId val="2"/></c:barChart>` +
		`<c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx>` +
		`<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea>` +
		`<c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/></c:chart></c:chartSpace>`
	return builtDoc{name: "built-causes", from: "English", to: []string{"Arabic", "Hebrew"}, chart: space,
		styles: `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>`,
		body: outer + table(`<w:tblW w:w="0" w:type="auto"/>`, "narrow") +
			table(`<w:tblW w:w="4000" w:type="dxa"/><w:tblInd w:w="720" w:type="dxa"/>`, "indented") +
			table(`<w:tblW w:w="2500" w:type="pct"/>`, "by percentage") +
			textBox + chart + `<w:p><w:r><w:t>end of the document</w:t></w:r></w:p>`}
}

// builtDocs are the documents of items 1, 4 and 5.
func builtDocs() []builtDoc { return []builtDoc{mixed, causes(), twinsAr, twinsEn} }
