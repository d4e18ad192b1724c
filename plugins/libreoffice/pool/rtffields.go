package pool

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// An RTF field such as INCLUDEPICTURE "file:///etc/passwd" makes
// LibreOffice read that file while converting and embed it in the output
// (issue 15), whatever the profile says: data leaves through the
// translated document. The network namespace does not stop a local read.
// So before LibreOffice sees an RTF, every field instruction is checked
// and any that is not known to be harmless is emptied, which leaves the
// field's last result (what Word showed) in its place. A remote
// INCLUDEPICTURE or INCLUDETEXT stays, as a link: the profile and the
// network namespace keep LibreOffice from fetching it.

// safeFields are field types that read nothing outside the document.
var safeFields = map[string]bool{
	"HYPERLINK": true, "PAGE": true, "NUMPAGES": true, "SECTIONPAGES": true, "SECTION": true,
	"DATE": true, "TIME": true, "CREATEDATE": true, "SAVEDATE": true, "PRINTDATE": true, "EDITTIME": true,
	"AUTHOR": true, "TITLE": true, "SUBJECT": true, "KEYWORDS": true, "COMMENTS": true, "LASTSAVEDBY": true,
	"NUMWORDS": true, "NUMCHARS": true, "REVNUM": true, "DOCPROPERTY": true, "DOCVARIABLE": true, "USERNAME": true,
	"USERINITIALS": true, "USERADDRESS": true, "FILENAME": true, "FILESIZE": true, "TEMPLATE": true, "INFO": true,
	"TOC": true, "TOA": true, "TA": true, "TC": true, "INDEX": true, "XE": true, "REF": true, "PAGEREF": true,
	"NOTEREF": true, "STYLEREF": true, "SEQ": true, "LISTNUM": true, "AUTONUM": true, "AUTONUMLGL": true,
	"AUTONUMOUT": true, "BIDIOUTLINE": true, "SYMBOL": true, "EQ": true, "ADVANCE": true, "QUOTE": true,
	"SET": true, "IF": true, "COMPARE": true, "ASK": true, "FILLIN": true, "MACROBUTTON": true, "GOTOBUTTON": true,
	"MERGEFIELD": true, "MERGEREC": true, "MERGESEQ": true, "NEXT": true, "NEXTIF": true, "SKIPIF": true,
	"FORMTEXT": true, "FORMCHECKBOX": true, "FORMDROPDOWN": true, "BARCODE": true, "DISPLAYBARCODE": true,
	"MERGEBARCODE": true, "SHAPE": true, "PRIVATE": true, "ADDRESSBLOCK": true, "GREETINGLINE": true,
	"BIBLIOGRAPHY": true, "CITATION": true, "EMBED": true, "HTMLACTIVEX": true, "USERPROPERTY": true,
}

// remoteIncludes may stay when what they name is an http(s) URL.
var remoteIncludes = map[string]bool{"INCLUDEPICTURE": true, "INCLUDETEXT": true}

// neutralizeRTF copies an RTF document from r to w with the instruction
// of every field that could read a local file emptied, and returns the
// number of bytes read.
func neutralizeRTF(w io.Writer, r io.Reader) (int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return int64(len(data)), err
	}
	_, err = w.Write(neutralizedRTF(data))
	return int64(len(data)), err
}

// neutralizedField replaces a field instruction group that is not safe.
var neutralizedField = []byte(`{\*\fldinst {}}`)

// neutralizedRTF returns data with every unsafe field instruction group
// (a group with \fldinst among its own control words) replaced.
func neutralizedRTF(data []byte) []byte {
	type group struct {
		start   int // index of '{'
		fldinst int // index just after \fldinst, -1 if none at this level
	}
	type span struct{ start, end int }
	var stack []group
	var cut []span
	closeGroup := func(g group, end int) {
		if g.fldinst < 0 {
			return
		}
		if end > len(data) {
			end = len(data)
		}
		if !safeInstruction(data[g.fldinst:min(end, len(data))]) {
			cut = append(cut, span{g.start, end})
		}
	}
	for i := 0; i < len(data); {
		switch data[i] {
		case '{':
			stack = append(stack, group{start: i, fldinst: -1})
			i++
		case '}':
			if n := len(stack); n > 0 {
				closeGroup(stack[n-1], i+1)
				stack = stack[:n-1]
			}
			i++
		case '\\':
			word, param, next := controlWord(data, i)
			if word == "fldinst" && len(stack) > 0 && stack[len(stack)-1].fldinst < 0 {
				stack[len(stack)-1].fldinst = next
			}
			if word == "bin" && param > 0 {
				next = min(next+param, len(data)) // raw bytes, may hold braces
			}
			i = next
		default:
			i++
		}
	}
	for n := len(stack) - 1; n >= 0; n-- { // unclosed at the end of the file
		closeGroup(stack[n], len(data))
	}
	if len(cut) == 0 {
		return data
	}
	// Groups nest: after sorting by start, a span inside the one kept
	// before it is covered by it.
	slices.SortFunc(cut, func(a, b span) int { return a.start - b.start })
	var out bytes.Buffer
	out.Grow(len(data))
	pos := 0
	for _, s := range cut {
		if s.start < pos {
			continue
		}
		out.Write(data[pos:s.start])
		out.Write(neutralizedField)
		pos = s.end
	}
	out.Write(data[pos:])
	return out.Bytes()
}

// controlWord reads the control word or symbol at data[i] ('\\') and
// returns its name (letters, or "" for a symbol), its numeric parameter
// and the index after it, its delimiting space included.
func controlWord(data []byte, i int) (string, int, int) {
	j := i + 1
	if j >= len(data) {
		return "", 0, j
	}
	if !isLetter(data[j]) {
		if data[j] == '\'' { // \'hh
			return "", 0, min(j+3, len(data))
		}
		return "", 0, j + 1
	}
	for j < len(data) && isLetter(data[j]) && j-i < 40 {
		j++
	}
	word := string(data[i+1 : j])
	k := j
	if k < len(data) && data[k] == '-' {
		k++
	}
	for k < len(data) && data[k] >= '0' && data[k] <= '9' && k-j < 11 {
		k++
	}
	param, _ := strconv.Atoi(string(data[j:k]))
	if k < len(data) && data[k] == ' ' {
		k++
	}
	return word, param, k
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// safeInstruction says whether a field instruction (the group's bytes
// after \fldinst) reads nothing local. It is read twice, with and without
// the text of nested ignorable destinations ({\*\...}), since a reader
// may do either; both readings must be safe.
func safeInstruction(b []byte) bool {
	for _, skipIgnorable := range []bool{false, true} {
		if !safeFieldText(instructionText(b, skipIgnorable)) {
			return false
		}
	}
	return true
}

func safeFieldText(s string) bool {
	fields := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
	if len(fields) == 0 {
		return true
	}
	name := strings.ToUpper(strings.TrimPrefix(fields[0], "\\"))
	if safeFields[name] {
		return true
	}
	if !remoteIncludes[name] || len(fields) < 2 {
		return false
	}
	if target := strings.ToLower(fields[1]); !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "https://") {
		return false
	}
	for _, f := range fields[2:] { // switches and their arguments, nothing path-like
		if !strings.HasPrefix(f, "\\") && strings.ContainsAny(f, `/\:`) {
			return false
		}
	}
	return true
}

// instructionText decodes the text of RTF bytes: escaped characters,
// \'hh and \uN, nested groups' text (but for ignorable destinations when
// skipIgnorable), no control words, no line breaks.
func instructionText(b []byte, skipIgnorable bool) string {
	var s strings.Builder
	depth, skipFrom := 0, -1 // depth of the ignorable group being skipped
	skipFallback := 0        // characters after \uN to drop
	emit := func(r rune) {
		if skipFrom >= 0 {
			return
		}
		if skipFallback > 0 {
			skipFallback--
			return
		}
		s.WriteRune(r)
	}
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '{':
			depth++
			if skipIgnorable && skipFrom < 0 && i+2 < len(b) && b[i+1] == '\\' && b[i+2] == '*' {
				skipFrom = depth
			}
			i++
		case c == '}':
			if depth == skipFrom {
				skipFrom = -1
			}
			depth--
			i++
		case c == '\r' || c == '\n':
			i++
		case c == '\\':
			word, param, next := controlWord(b, i)
			switch {
			case word == "u":
				emit(rune(uint16(param)))
				skipFallback = 1
			case word == "tab" || word == "par" || word == "line":
				emit(' ')
			case word == "bin":
				next = min(next+max(param, 0), len(b))
			case word == "" && i+1 < len(b):
				switch sym := b[i+1]; sym {
				case '\'':
					if v, err := strconv.ParseUint(string(b[min(i+2, len(b)):next]), 16, 8); err == nil {
						emit(rune(v))
					}
				case '\\', '{', '}':
					emit(rune(sym))
				case '~':
					emit(' ')
				case '_':
					emit('-')
				}
			}
			i = next
		default:
			emit(rune(c))
			i++
		}
	}
	return s.String()
}
