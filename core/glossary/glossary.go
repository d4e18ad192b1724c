// Package glossary is an account's terminology for one language pair and
// its enforcement in the core, the same with every engine: before a
// segment is sent, each source term found in it is replaced by an isolated
// code <x id="N"/> that engines keep in place (as package protect does for
// technical terms); after translation the code becomes the glossary's
// target term. Terms are matched case-sensitively on word boundaries,
// longest first, inside the text between inline codes, so a term in a
// bold span stays in that span.
//
// Glossaries are created from DeepL's CSV or TSV format (source and target
// per line), from TBX, or from a list of entries, and validated here: an
// empty, duplicate or over-long term is refused naming its line.
package glossary

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

// Limits of one glossary, as the API documents them.
const (
	MaxEntries   = 10_000  // entries per glossary
	MaxBytes     = 2 << 20 // bytes of an uploaded file or JSON body (2 MiB)
	MaxTermChars = 200     // characters of one source or target term
	MaxNameChars = 200     // characters of a glossary's name
)

// Entry is one term and its translation: the SDK's, which the plugins
// that apply glossaries themselves receive.
type Entry = terms.Entry

// Glossary is a named list of entries for one language pair of one account.
type Glossary struct {
	ID         string
	AccountID  string
	Name       string
	SourceLang string // language code (plugins/sdk/language)
	TargetLang string
	Entries    []Entry // nil in listings
	EntryCount int
	CreatedAt  time.Time
}

// Version is a hash of the glossary's pair and entries (not its name or
// id): two glossaries with the same version translate alike. Engines that
// enforce glossaries natively cache their vendor glossary by it, and the
// translation memory keys their output on it.
func (g *Glossary) Version() string {
	h := sha256.New()
	h.Write([]byte(g.SourceLang + "\t" + g.TargetLang + "\n"))
	entries := slices.Clone(g.Entries) // the order of the entries does not matter
	slices.SortFunc(entries, func(a, b Entry) int { return strings.Compare(a.Source, b.Source) })
	for _, e := range entries {
		h.Write([]byte(e.Source + "\t" + e.Target + "\n")) // terms hold no tab or line break
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Error is a refused glossary; Where names the line ("line 3") or entry
// ("entries[2]") at fault, or is empty for the whole file.
type Error struct {
	Where string
	Msg   string
}

func (e *Error) Error() string {
	if e.Where == "" {
		return e.Msg
	}
	return e.Where + ": " + e.Msg
}

// item is an entry with where it came from.
type item struct {
	Entry
	where string
}

// Validate checks entries given as a list (JSON); positions are named
// entries[i], counted from 0 as in the request body.
func Validate(entries []Entry) ([]Entry, error) {
	items := make([]item, len(entries))
	for i, e := range entries {
		items[i] = item{e, fmt.Sprintf("entries[%d]", i)}
	}
	return check(items)
}

// Parse reads a glossary file: TBX when it is XML, otherwise DeepL's CSV
// (comma) or TSV (tab) format, one "source,target" per line; further
// columns (DeepL allows source and target language codes) are ignored.
// src and tgt are the glossary's language codes, used to pick the TBX
// language sets. Lines are counted from 1.
func Parse(data []byte, src, tgt string) ([]Entry, error) {
	if len(data) > MaxBytes {
		return nil, &Error{Msg: fmt.Sprintf("the glossary file is larger than %d bytes", MaxBytes)}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, &Error{Msg: "the glossary file is not UTF-8 text"}
	}
	trimmed := bytes.TrimLeftFunc(data, unicode.IsSpace)
	if len(trimmed) == 0 {
		return nil, &Error{Msg: "the glossary file is empty"}
	}
	var items []item
	var err error
	if trimmed[0] == '<' {
		items, err = parseTBX(data, src, tgt)
	} else {
		items, err = parseDelimited(data)
	}
	if err != nil {
		return nil, err
	}
	return check(items)
}

func parseDelimited(data []byte) ([]item, error) {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	tsv := bytes.ContainsRune(first, '\t')
	var items []item
	if tsv { // DeepL's TSV has no quoting: a line is source TAB target
		for i, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSuffix(line, "\r")
			if strings.TrimSpace(line) == "" {
				continue
			}
			f := strings.Split(line, "\t")
			where := fmt.Sprintf("line %d", i+1)
			if len(f) < 2 {
				return nil, &Error{where, "expected a source and a target term separated by a tab"}
			}
			items = append(items, item{Entry{Source: f[0], Target: f[1]}, where})
		}
		return items, nil
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.ReuseRecord = false
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return items, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &Error{fmt.Sprintf("line %d", pe.StartLine), "not valid CSV: " + pe.Err.Error()}
			}
			return nil, &Error{Msg: "not valid CSV: " + err.Error()}
		}
		line, _ := r.FieldPos(0)
		where := fmt.Sprintf("line %d", line)
		if len(rec) < 2 {
			return nil, &Error{where, "expected a source and a target term separated by a comma"}
		}
		items = append(items, item{Entry{Source: rec[0], Target: rec[1]}, where})
	}
}

// parseTBX reads the concept entries of a TBX file (TBX-Basic, TBX v2
// <termEntry> or v3 <conceptEntry>): in each, the first term of the
// source language set and the first of the target's make one entry.
// Concepts without both languages are skipped. Documents with a DTD are
// refused (no entity expansion at all).
func parseTBX(data []byte, src, tgt string) ([]item, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var (
		items               []item
		inConcept           bool
		conceptLine         int
		lang                string
		inTerm              bool
		term                strings.Builder
		srcTerm, tgtTerm    string
		haveSrc, haveTgt    bool
		sawConcept, sawLang bool
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		line, _ := d.InputPos()
		if err != nil {
			return nil, &Error{fmt.Sprintf("line %d", line), "not valid TBX: " + err.Error()}
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, &Error{fmt.Sprintf("line %d", line), "a TBX file with a DTD or entity declarations is refused"}
		case xml.StartElement:
			switch t.Name.Local {
			case "termEntry", "conceptEntry":
				inConcept, conceptLine, sawConcept = true, line, true
				srcTerm, tgtTerm, haveSrc, haveTgt = "", "", false, false
			case "langSet", "langSec":
				lang = ""
				for _, a := range t.Attr {
					if a.Name.Local == "lang" {
						lang = a.Value
					}
				}
				sawLang = true
			case "term":
				if inConcept {
					inTerm = true
					term.Reset()
				}
			}
		case xml.CharData:
			if inTerm {
				term.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "term":
				if inTerm {
					inTerm = false
					s := strings.TrimSpace(term.String())
					switch {
					case !haveSrc && sameLang(lang, src):
						srcTerm, haveSrc = s, true
					case !haveTgt && sameLang(lang, tgt):
						tgtTerm, haveTgt = s, true
					}
				}
			case "langSet", "langSec":
				lang = ""
			case "termEntry", "conceptEntry":
				inConcept = false
				if haveSrc && haveTgt {
					items = append(items, item{Entry{Source: srcTerm, Target: tgtTerm}, fmt.Sprintf("line %d", conceptLine)})
				}
			}
		}
	}
	if !sawConcept || !sawLang {
		return nil, &Error{Msg: "not a TBX glossary: no termEntry or conceptEntry with langSet"}
	}
	if len(items) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("the TBX file has no concept with terms in both %s and %s", src, tgt)}
	}
	return items, nil
}

// sameLang compares a TBX xml:lang ("en", "en-US", "zh-Hans") with a
// language code of the API, by the primary subtag unless the code has a
// script subtag ("zh-Hans" and "zh-Hant" are told apart).
func sameLang(xmlLang, code string) bool {
	a, b := strings.ToLower(strings.ReplaceAll(xmlLang, "_", "-")), strings.ToLower(code)
	if a == b {
		return true
	}
	if strings.Contains(b, "-") {
		if b == "zh-hans" && (a == "zh" || a == "zh-cn" || a == "zh-sg") {
			return true
		}
		if b == "zh-hant" && (a == "zh-tw" || a == "zh-hk" || a == "zh-mo") {
			return true
		}
		return strings.HasPrefix(a, b+"-")
	}
	p, _, _ := strings.Cut(a, "-")
	return p == b
}

// check applies the limits and refuses empty, duplicate and over-long terms.
func check(items []item) ([]Entry, error) {
	if len(items) == 0 {
		return nil, &Error{Msg: "the glossary has no entries"}
	}
	if len(items) > MaxEntries {
		return nil, &Error{Msg: fmt.Sprintf("the glossary has %d entries; at most %d are allowed", len(items), MaxEntries)}
	}
	first := make(map[string]string, len(items))
	out := make([]Entry, 0, len(items))
	for _, it := range items {
		s, t := strings.TrimSpace(it.Source), strings.TrimSpace(it.Target)
		switch {
		case s == "":
			return nil, &Error{it.where, "the source term is empty"}
		case t == "":
			return nil, &Error{it.where, fmt.Sprintf("the target term of %q is empty", s)}
		case utf8.RuneCountInString(s) > MaxTermChars:
			return nil, &Error{it.where, fmt.Sprintf("the source term is longer than %d characters", MaxTermChars)}
		case utf8.RuneCountInString(t) > MaxTermChars:
			return nil, &Error{it.where, fmt.Sprintf("the target term is longer than %d characters", MaxTermChars)}
		case hasControl(s) || hasControl(t):
			return nil, &Error{it.where, "a term contains a control character (tab, line break)"}
		}
		if w, dup := first[s]; dup {
			return nil, &Error{it.where, fmt.Sprintf("duplicate source term %q (already on %s)", s, w)}
		}
		first[s] = it.where
		out = append(out, Entry{Source: s, Target: t})
	}
	return out, nil
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// CheckName validates a glossary's name.
func CheckName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", &Error{"name", "a glossary needs a name"}
	case utf8.RuneCountInString(name) > MaxNameChars:
		return "", &Error{"name", fmt.Sprintf("longer than %d characters", MaxNameChars)}
	case hasControl(name):
		return "", &Error{"name", "contains a control character"}
	}
	return name, nil
}
