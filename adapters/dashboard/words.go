package dashboard

import (
	"html/template"
	"regexp"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/failure"
)

// The core writes its messages for API clients: they name the request's
// fields (source_lang), point at endpoints (GET /v1/languages) and pass on
// what a plugin said. Package failure takes out what no client should read
// (gRPC status text, temporary paths); a page then says the rest in a
// person's words: the field's name as the form shows it, no endpoint.

// fieldLabels are the request fields a message may start with, as the
// dashboard's forms name them.
var fieldLabels = map[string]string{
	"source_lang": "source language", "target_lang": "target language", "glossary_id": "glossary",
	"url": "address", "name": "name", "events": "events", "terms": "terms", "mode": "mode",
	"translation_mode": "mode", "file": "document", "entries": "glossary entries",
}

var (
	// A message led by a field, "source_lang: …", or an item, "terms[3]: …".
	leadingField = regexp.MustCompile(`^([a-z]+(?:_[a-z]+)*)(?:\[(\d+)\])?: `)
	// An item named later in the message: "(already terms[1])".
	itemRef = regexp.MustCompile(`\bterms\[(\d+)\]`)
	// The API's pointers to its language list.
	languagesHint = strings.NewReplacer(
		"; GET /v1/languages lists the languages available", "; the target list shows the languages available",
		" or see GET /v1/languages?source=", " or choose a target language from the list (",
	)
	endpoint = regexp.MustCompile(`\s*\(?(?:GET|POST|PUT|PATCH|DELETE) /v1/\S*\)?`)
	// Field names inside a sentence.
	fieldWords = strings.NewReplacer("source_lang", "the source language", "target_lang", "the target language",
		"glossary_id", "the glossary", "do_not_translate", "the do-not-translate list")
)

// peoplesWords is msg, a core message, as a page shows it: in the words
// every answer uses (package failure), then with the form's names.
func peoplesWords(msg string) string {
	msg = failure.Words(msg)
	msg = languagesHint.Replace(msg)
	if i := strings.Index(msg, " or choose a target language from the list ("); i >= 0 {
		// "…(en for the targets available" → "…": the code was only for the endpoint.
		msg = msg[:i] + " or choose another target language"
	}
	msg = endpoint.ReplaceAllString(msg, "")
	if m := leadingField.FindStringSubmatch(msg); m != nil {
		if label, ok := fieldLabels[m[1]]; ok {
			if m[2] != "" {
				label = "line " + oneBased(m[2])
			}
			msg = label + ": " + msg[len(m[0]):]
		}
	}
	msg = itemRef.ReplaceAllStringFunc(msg, func(s string) string { return "line " + oneBased(itemRef.FindStringSubmatch(s)[1]) })
	return fieldWords.Replace(msg)
}

// oneBased turns an index of the API's arrays into a line number.
func oneBased(i string) string {
	n, err := strconv.Atoi(i)
	if err != nil {
		return i
	}
	return strconv.Itoa(n + 1)
}

// breakable is a file name with a line-break opportunity (<wbr>) after
// each separator of its words ("_", ".", "-", "+", "/") and before an
// opening bracket, so that "annual_report_2026_final.docx" wraps between
// its words rather than anywhere (or not at all).
func breakable(name string) template.HTML {
	var b strings.Builder
	for i, r := range name {
		if r == '(' || r == '[' {
			if i > 0 {
				b.WriteString("<wbr>")
			}
		}
		b.WriteString(template.HTMLEscapeString(string(r)))
		if strings.ContainsRune("_.-+/", r) && i < len(name)-1 {
			b.WriteString("<wbr>")
		}
	}
	return template.HTML(b.String())
}
