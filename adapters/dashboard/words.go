package dashboard

import (
	"html/template"
	"regexp"
	"strconv"
	"strings"
)

// The core writes its messages for API clients: they name the request's
// fields (source_lang), point at endpoints (GET /v1/languages) and pass on
// what a plugin said, gRPC status text and temporary paths included. A page
// says the same in a person's words: the field's name as the form shows it,
// no endpoint, no transport text, no path of the server's.

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
	// gRPC's wrapping of a plugin's error: "rpc error: code = Unknown desc = ".
	rpcPrefix = regexp.MustCompile(`(?:rpc error: code = \w+ desc = )+`)
	// What is left of a broken connection to a plugin: nothing a person can act on.
	transport = regexp.MustCompile(`(?i)\b(?:desc = |code = |transport: |connection (?:error|refused|reset)|broken pipe|plugin (?:exited|crashed)|unexpected EOF|panic:|goroutine \d+)`)
	// A path on the server: temporary folders and any absolute path three levels deep.
	serverPath = regexp.MustCompile(`(?:/tmp|/var/tmp|/dev/shm|/run)(?:/[^\s:;,'"()]+)+|(?:/[\w.+\-]+){3,}`)
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

// genericFailure is what a page says for a failure it cannot explain.
const genericFailure = "the translation could not be finished because of a problem on our side; try again, and if it fails again the document may be damaged"

// peoplesWords is msg, a core message, as a page shows it.
func peoplesWords(msg string) string {
	msg = strings.TrimSpace(rpcPrefix.ReplaceAllString(msg, ""))
	if transport.MatchString(msg) {
		return genericFailure
	}
	msg = withoutServerPaths(msg)
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

// withoutServerPaths says "the document" for each path on the server; a
// URL's path (after "//host") is not one.
func withoutServerPaths(msg string) string {
	var b strings.Builder
	last := 0
	for _, m := range serverPath.FindAllStringIndex(msg, -1) {
		if m[0] > 0 && strings.ContainsRune(":/.", rune(msg[m[0]-1])) || isWordByte(msg, m[0]-1) {
			continue
		}
		b.WriteString(msg[last:m[0]])
		b.WriteString("the document")
		last = m[1]
	}
	return b.String() + msg[last:]
}

func isWordByte(s string, i int) bool {
	if i < 0 {
		return false
	}
	c := s[i]
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
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
