package pool

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// LibreOffice's time grows with a document's structure far faster than
// with its bytes: a 10 KB .odt of 3,000 tables nested one in another held
// an instance for the whole timeout (issue 26), and nesting costs about
// the cube of its depth (measured warm: 200 levels 1.4 s, 400 levels 6.7
// s, 800 levels 28 s in .odt; 200 levels in RTF 17.8 s, 400 over 150 s).
// So the structure is measured before soffice sees the document, and a
// document past these caps is refused in words; the CPU budget
// (budget.go) bounds whatever cost the caps do not foresee.
const (
	// MaxTableNesting is how deep tables may nest: 64 levels converted
	// in 0.4 s (.odt); the corpus's .odt, .rtf, .docx and Word 2003 XML
	// documents (246) nest tables at most 5 deep and content 21.
	MaxTableNesting = 64
	// MaxElementDepth is how deep a package's XML elements (or an RTF's
	// groups) may nest: room for MaxTableNesting tables of three levels
	// each and the document around them.
	MaxElementDepth = 256
)

// cost is what a document asks of LibreOffice.
type cost struct {
	size   int64 // what time grows with: bytes, or unpacked XML for a package (see workSize)
	tables int   // deepest table nesting
	depth  int   // deepest element or group nesting
}

// check refuses a document past the caps, in words fit for its owner.
func (c cost) check() error {
	switch {
	case c.tables > MaxTableNesting:
		return &Error{Reason: TooComplex, Detail: fmt.Sprintf(
			"its tables are nested more than %d deep, the most a document may have; flatten the nested tables", MaxTableNesting)}
	case c.depth > MaxElementDepth:
		return &Error{Reason: TooComplex, Detail: fmt.Sprintf(
			"its content is nested more than %d levels deep, the most a document may have", MaxElementDepth)}
	}
	return nil
}

// measure reads the document at path, of size bytes, for its cost. It
// stops reading as soon as a cap is passed.
func measure(path string, k Kind, size int64) (cost, error) {
	c := cost{size: size}
	var err error
	switch k.Name {
	case ODT.Name:
		err = c.measureZip(path, tableElementODF)
	case DOCX.Name:
		err = c.measureZip(path, tableElementWord)
	case WordML.Name:
		err = c.measureFile(path, tableElementWord)
	case RTF.Name:
		err = c.measureRTF(path)
	}
	if err != nil {
		return c, err
	}
	return c, c.check()
}

// The table element of each vocabulary, by local name (namespace
// prefixes vary, and a table in a foreign namespace costs the same).
const (
	tableElementODF  = "table" // table:table
	tableElementWord = "tbl"   // w:tbl
)

// measureZip measures every XML part of the package, found by its first
// bytes rather than its name: LibreOffice finds the parts through the
// package's relationships or manifest, so a main document named
// word/body.dat, or tables in an embedded object's content, cost what
// word/document.xml or content.xml would. An unreadable package is left
// for LibreOffice (and the format checks before it) to refuse.
func (c *cost) measureZip(path, table string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil
	}
	defer zr.Close()
	var unpacked int64
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".xml") {
			unpacked += int64(min(f.UncompressedSize64, 1<<40))
		}
		r, err := f.Open()
		if err != nil {
			continue
		}
		br := bufio.NewReaderSize(r, 64<<10)
		if looksXML(br) {
			err = c.measureXML(br, table)
		}
		r.Close()
		if err != nil {
			return err
		}
	}
	c.size = max(c.size, unpacked)
	return nil
}

// looksXML says whether a part begins as XML does: '<' after an optional
// byte order mark and white space. Media and other binary parts do not,
// and their stray '<' bytes would read as elements.
func looksXML(br *bufio.Reader) bool {
	head, _ := br.Peek(512)
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) > 0 && head[0] == '<'
}

func (c *cost) measureFile(path, table string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return c.measureXML(f, table)
}

// measureXML records the deepest element and table nesting of one XML
// part, scanning its tags (about ten times encoding/xml's speed: a
// package's parts may hold hundreds of MB). A part that is not
// well-formed is measured as far as it reads.
func (c *cost) measureXML(r io.Reader, table string) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var depth, tables int
	var tableAt []int // depths of the open tables
	for {
		if _, err := br.ReadSlice('<'); err == bufio.ErrBufferFull {
			continue
		} else if err != nil {
			return nil
		}
		b, err := br.ReadByte()
		if err != nil {
			return nil
		}
		switch b {
		case '!': // a comment, CDATA or DOCTYPE: none is an element
			skipMarkup(br)
			continue
		case '?':
			skipPast(br, "?>")
			continue
		case '/':
			name := tagName(br, 0)
			if n := len(tableAt); n > 0 && tableAt[n-1] == depth && name == table {
				tableAt = tableAt[:n-1]
				tables--
			}
			depth = max(depth-1, 0)
			skipPast(br, ">")
			continue
		}
		name := tagName(br, b)
		if empty := skipAttributes(br); empty {
			continue
		}
		depth++
		if name == table {
			tables++
			tableAt = append(tableAt, depth)
		}
		c.depth, c.tables = max(c.depth, depth), max(c.tables, tables)
		if c.check() != nil {
			return nil
		}
	}
}

// tagName reads an element's name from its first byte (first, or the
// next one when first is 0) and returns its local part.
func tagName(br *bufio.Reader, first byte) string {
	var name []byte
	if first != 0 {
		name = append(name, first)
	}
	for {
		b, err := br.ReadByte()
		if err != nil {
			break
		}
		if b == '>' || b == '/' || b == ' ' || b == '\t' || b == '\n' || b == '\r' {
			br.UnreadByte()
			break
		}
		if len(name) < 64 {
			name = append(name, b)
		}
	}
	if i := bytes.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return string(name)
}

// skipAttributes reads to the end of a start tag and reports whether it
// was an empty element (/>). A quoted value may hold '>'.
func skipAttributes(br *bufio.Reader) (empty bool) {
	var quote, last byte
	for {
		b, err := br.ReadByte()
		if err != nil {
			return true
		}
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '"' || b == '\'':
			quote = b
		case b == '>':
			return last == '/'
		}
		last = b
	}
}

// skipMarkup skips what follows "<!": a comment, a CDATA section, or a
// declaration (whose internal subset, in brackets, may hold '>').
func skipMarkup(br *bufio.Reader) {
	head, _ := br.Peek(7)
	switch {
	case bytes.HasPrefix(head, []byte("--")):
		skipPast(br, "-->")
	case bytes.HasPrefix(head, []byte("[CDATA[")):
		skipPast(br, "]]>")
	default:
		for inSubset := false; ; {
			b, err := br.ReadByte()
			if err != nil || (b == '>' && !inSubset) {
				return
			}
			if b == '[' || b == ']' {
				inSubset = b == '['
			}
		}
	}
}

// skipPast reads up to and including the first occurrence of end.
func skipPast(br *bufio.Reader, end string) {
	last := end[len(end)-1]
	var tail []byte
	for {
		b, err := br.ReadByte()
		if err != nil {
			return
		}
		tail = append(tail, b)
		if len(tail) > len(end) {
			tail = tail[1:]
		}
		if b == last && string(tail) == end {
			return
		}
	}
}

// measureRTF records the deepest group nesting and the deepest table
// level an RTF declares (\itapN: the paragraph's table nesting level).
func (c *cost) measureRTF(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	depth := 0
	for {
		b, err := r.ReadByte()
		if err != nil {
			return nil
		}
		switch b {
		case '{':
			depth++
			c.depth = max(c.depth, depth)
		case '}':
			depth = max(depth-1, 0)
		case '\\':
			word, n := rtfControl(r)
			switch word {
			case "itap":
				c.tables = max(c.tables, n)
			case "bin": // n bytes of binary data follow the delimiting space
				if b, err := r.ReadByte(); err == nil && b != ' ' {
					r.UnreadByte()
				}
				if _, err := r.Discard(max(n, 0)); err != nil {
					return nil
				}
			}
		}
		if c.check() != nil {
			return nil
		}
	}
}

// rtfControl reads a control word after its backslash: its letters and
// numeric parameter (0 if none). A control symbol (\{, \\, \'xx) reads
// as an empty word and is consumed, so an escaped brace is no group.
func rtfControl(r *bufio.Reader) (string, int) {
	var word strings.Builder
	for {
		b, err := r.ReadByte()
		if err != nil {
			return word.String(), 0
		}
		if b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
			if word.Len() < 32 {
				word.WriteByte(b)
			}
			continue
		}
		if word.Len() == 0 {
			return "", 0 // a control symbol: b was its character
		}
		r.UnreadByte()
		break
	}
	n, neg, digits := 0, false, 0
	if b, err := r.ReadByte(); err == nil {
		if b == '-' {
			neg = true
		} else {
			r.UnreadByte()
		}
	}
	for {
		b, err := r.ReadByte()
		if err != nil || b < '0' || b > '9' {
			if err == nil {
				r.UnreadByte()
			}
			break
		}
		if digits < 9 {
			n = n*10 + int(b-'0')
		}
		digits++
	}
	if neg {
		n = -n
	}
	return word.String(), n
}
