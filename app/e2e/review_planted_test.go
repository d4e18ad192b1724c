package e2e

import (
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/docx/docxbuild"
)

// A planted-defect document is built with docxbuild; each of its
// sentences has the translation the account's memory gives it (written
// by hand: a correct one, or one with a defect planted), or none, for the
// engine (Apertium) to translate. The defects planted are what engines do
// wrong: a number dropped or changed, a link lost, a sentence left
// untranslated, an address or placeholder changed, bold lost, text added,
// a glossary or do-not-translate term not kept, words the engine did not
// know, text that no longer fits its fixed-size box, a document that
// grew a page, a route through other languages, Latin words in Urdu.

// sentence is one segment of a planted-defect document.
type sentence struct {
	src
	// memory is the translation the memory holds, "" for the engine's;
	// "[" and "]" stand for the first paired code of the source (a link,
	// bold), placed as a translator would.
	memory string
	kinds  []string // the flag kinds planted in it; none: a correct translation
	// limit: the checks are known not to find what is planted (the table
	// counts it as missed; the test does not fail on it).
	limit bool
}

// plantedDoc is one document of the measure, with the job it asks for.
type plantedDoc struct {
	name, from, to string
	pdf            bool // rendered to PDF: overflow and pages are measured
	pages          bool // a defect planted in the document: it grew a page
	sentences      []sentence
	extra          []string // plain sentences of the document beyond the listed ones, translated by lines
}

// src is a sentence as written in the document, and as plain text.
type src struct {
	block docxbuild.Block
	text  string
}

func ok(s src, memory string) sentence { return sentence{src: s, memory: memory} }
func bad(s src, memory string, kinds ...string) sentence {
	return sentence{src: s, memory: memory, kinds: kinds}
}
func beyond(s src, memory string, kinds ...string) sentence {
	return sentence{src: s, memory: memory, kinds: kinds, limit: true}
}
func plain(s string) src         { return src{docxbuild.Plain(s), s} }
func box(w, h int, s string) src { return src{docxbuild.TextBox(w, h, s), s} }

// plantedGlossary and plantedDNT are the account's terms the documents
// are checked against.
const plantedGlossary = `{"name":"Billing","source_lang":"English","target_lang":"Spanish","entries":[{"source":"invoice","target":"factura"}]}`

var plantedDNT = []string{"Dragoman"}

// fillerLines are plain lines that fill a page, with their translations.
func fillerLines(n int) (src, tgt []string) {
	for i := 1; i <= n; i++ {
		src = append(src, fmt.Sprintf("Line %d of the list of offices.", i))
		tgt = append(tgt, fmt.Sprintf("Línea %d de la lista de oficinas.", i))
	}
	return src, tgt
}

// longSpanish is a translation about thirty lines long.
var longSpanish = strings.TrimSpace(strings.Repeat("El anexo enumera todas las oficinas de la empresa con su dirección, su horario de apertura y el nombre de la persona responsable. ", 22))

// plantedDocs are the documents of the measure.
func plantedDocs() []plantedDoc {
	link := func(before, text, after string) src {
		return src{docxbuild.P(docxbuild.Text(before), docxbuild.Link(text, "https://example.org/report"), docxbuild.Text(after)), before + text + after}
	}
	bold := func(before, b, after string) src {
		p := docxbuild.P(docxbuild.Bold(b), docxbuild.Text(after))
		if before != "" {
			p = docxbuild.P(docxbuild.Text(before), docxbuild.Bold(b), docxbuild.Text(after))
		}
		return src{p, before + b + after}
	}
	english := plantedDoc{name: "planted-en.docx", from: "English", to: "Spanish", sentences: []sentence{
		ok(plain("The meeting starts at 9:30 on 12 March 2026."), "La reunión empieza a las 9:30 el 12 de marzo de 2026."),
		ok(plain("Write to sales@example.com for a quote."), "Escriba a sales@example.com para pedir un presupuesto."),
		ok(link("Read ", "the annual report", " before the meeting."), "Lea [el informe anual] antes de la reunión."),
		ok(plain("Hello {name}, your order has shipped."), "Hola {name}, su pedido ha sido enviado."),
		ok(bold("", "The red car", " is in the garage."), "[El coche rojo] está en el garaje."),
		ok(plain("We sold 1,250 houses in 2025."), "Vendimos 1.250 casas en 2025."),
		ok(plain("Visit https://example.org/help for help."), "Visite https://example.org/help para obtener ayuda."),
		ok(plain("The invoice is ready."), "La factura está lista."),
		ok(plain("Dragoman translates documents."), "Dragoman traduce documentos."),
		ok(plain("The price rose by 15% in the second quarter."), "El precio subió un 15 % en el segundo trimestre."),
		ok(plain("Call us on +34 912 345 678."), "Llámenos al +34 912 345 678."),
		ok(plain("Chapter 3 explains the method in detail."), "El capítulo 3 explica el método en detalle."),
		ok(plain("The manager approved the new budget yesterday."), "El director aprobó ayer el nuevo presupuesto."),
		ok(plain("Our team works from Madrid and Lisbon."), "Nuestro equipo trabaja desde Madrid y Lisboa."),
		ok(plain("The report has 12 pages and 3 tables."), "El informe tiene 12 páginas y 3 tablas."),
		ok(bold("Click ", "Next", " to go on."), "Haga clic en [Siguiente] para continuar."),
		ok(plain("The children play in the park."), ""), // the engine's
		ok(plain("The meeting on 3/4 was moved to 5/4."), "La reunión del 3/4 se trasladó al 5/4."),
		ok(plain("Version 2.1 fixes 14 bugs."), "La versión 2.1 corrige 14 errores."),
		ok(plain("Send it to https://example.org/upload before noon."), "Envíelo a https://example.org/upload antes del mediodía."),
		ok(plain("Use %s as the file name."), "Use %s como nombre de archivo."),
		ok(plain("The invoice and the receipt are attached."), "Se adjuntan la factura y el recibo."),
		ok(plain("Dragoman and its plugins are free software."), "Dragoman y sus complementos son software libre."),
		ok(link("Open ", "the settings", " and choose a language."), "Abra [la configuración] y elija un idioma."),
		bad(plain("Order 3 boxes of 250 sheets."), "Pida 3 cajas de 25 hojas.", "numbers"),
		bad(plain("The office opens at 8:00 every morning."), "La oficina abre a las 9:00 todas las mañanas.", "numbers"),
		bad(link("Download ", "the form", " and sign it."), "Descargue el formulario y fírmelo.", "links"),
		bad(plain("Please keep this document confidential."), "Please keep this document confidential.", "untranslated"),
		bad(plain("The files are at https://example.org/files today."), "Los archivos están en https://example.com/files hoy.", "addresses"),
		bad(plain("You have %d new messages."), "Tiene mensajes nuevos.", "placeholders"),
		bad(bold("Do ", "not", " open the box."), "No abra la caja.", "formatting"),
		bad(plain("The invoice total is wrong."), "El total de la nota es incorrecto.", "glossary"),
		bad(plain("Install Dragoman on the server."), "Instale Dragomán en el servidor.", "do_not_translate"),
		bad(plain("The committee will meet again next week to discuss the budget and the new hires."), "El comité se reunirá.", "length"),
		beyond(plain("The room is small."), "La habitación es pequeña, con vistas al mar, un balcón amplio y dos camas.", "length"),
		bad(plain("We sold 42 houses in the city."), "Vendimos casas en la ciudad.", "numbers"),
		bad(plain("The contract ends on 31 December 2027."), "El contrato termina el 31 de diciembre de 2026.", "numbers"),
		bad(link("See ", "our website", " for the details."), "Vea nuestro sitio web para los detalles.", "links"),
		bad(plain("The letter is attached to this message."), "The letter is attached to this message.", "untranslated"),
		bad(plain("Write to support@example.com today."), "Escriba a soporte@example.com hoy.", "addresses"),
		bad(plain("Dear {customer}, thank you for your order."), "Estimado cliente, gracias por su pedido.", "placeholders"),
		bad(bold("Press ", "Save", " to keep your changes."), "Pulse Guardar para conservar sus cambios.", "formatting"),
		bad(plain("The hotel room is small but very quiet."), "La habitación del hotel es pequeña pero muy tranquila, con vistas al mar, un balcón amplio, dos camas grandes y un baño recién reformado con bañera.", "length"),
		bad(plain("Send the invoice before Friday."), "Envíe la cuenta antes del viernes.", "glossary"),
		bad(plain("Dragoman keeps the layout."), "Dragomán mantiene el diseño.", "do_not_translate"),
		bad(plain("The frobnicator zorbles quickly."), "", "unknown_words"),
		bad(plain("Our glorptastic team snarfles every report."), "", "unknown_words"),
	}}
	lines, _ := fillerLines(20)
	layout := func(name string, grows bool) plantedDoc {
		d := plantedDoc{name: name, from: "English", to: "Spanish", pdf: true, pages: grows, extra: lines, sentences: []sentence{
			ok(box(220, 40, "Open every day."), "Abierto todos los días."),
		}}
		if grows {
			d.sentences = append(d.sentences,
				bad(box(220, 40, "Closed on Sundays."), "Cerrado los domingos, los días festivos nacionales y locales, y durante todo el mes de agosto por las vacaciones del personal de la oficina.", "overflow"),
				bad(src{docxbuild.ExactRow(300, 20, "Room 12."), "Room 12."}, "Sala 12 del edificio principal, en la segunda planta, al fondo del pasillo a la derecha, junto a la escalera de emergencia y frente a los ascensores.", "overflow"),
				bad(src{docxbuild.Frame(200, 30, "Exit."), "Exit."}, "Salida de emergencia del edificio principal, por la escalera del fondo del pasillo, siempre libre de obstáculos y bien iluminada para todos.", "overflow"),
				bad(plain("The appendix lists every office."), longSpanish, "length"))
		}
		return d
	}
	urdu := plantedDoc{name: "planted-ur.docx", from: "Hindi", to: "Urdu", sentences: []sentence{
		ok(plain("मेरा घर बड़ा है।"), ""),
		ok(plain("यह एक अच्छी किताब है।"), ""),
		bad(plain("यह किताब अच्छी है।"), "یہ book اچھی ہے۔", "script"),
		bad(plain("वह स्कूल जाता है।"), "وہ school جاتا ہے۔", "script"),
	}}
	route := plantedDoc{name: "planted-route.docx", from: "English", to: "Franco-Provençal", sentences: []sentence{
		bad(plain("The house is big."), "", "route"),
		bad(plain("The book is good."), "", "route"),
	}}
	return []plantedDoc{english, layout("planted-layout.docx", false), layout("planted-layout-grows.docx", true), urdu, route}
}

// docx is the document's file: its sentences, then its extra lines.
func (d plantedDoc) docx() []byte {
	doc := &docxbuild.Doc{}
	for _, s := range d.sentences {
		doc.Body = append(doc.Body, s.block)
	}
	for _, l := range d.extra {
		doc.Body = append(doc.Body, docxbuild.Plain(l))
	}
	return doc.Bytes()
}
