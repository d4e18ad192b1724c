package xliff

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// maxDepth caps element nesting of an imported file.
const maxDepth = 64

// parsed is what an imported file says: its version, the job it names
// and the target of every segment by positional id (u3.s1).
type parsed struct {
	version  string
	original string
	files    int
	targets  map[string]string // u3.s1 → tagged text
	order    []string          // ids in file order
	revision int               // the job's revision the file was exported from (its note); 0 if it says none
}

// revisionNote is the text of the note that names the revision a file
// was exported from: "revision N".
const revisionNote = "revision "

// tooLarge is a refusal for size: ports.ErrBadBilingual and
// ports.ErrBilingualTooLarge.
type tooLarge string

func (e tooLarge) Error() string { return string(e) }
func (e tooLarge) Is(t error) bool {
	return t == ports.ErrBadBilingual || t == ports.ErrBilingualTooLarge
}

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ports.ErrBadBilingual, fmt.Sprintf(format, args...))
}

// Import reads an edited file and sets the targets of doc.
func (c Codec) Import(r io.Reader, doc *segment.Document, m *ports.BilingualMeta) error {
	max := c.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	lr := &io.LimitedReader{R: r, N: max + 1}
	p, err := parse(lr)
	if lr.N <= 0 {
		return tooLarge(fmt.Sprintf("the XLIFF file is larger than %d MB", max>>20))
	}
	if err != nil {
		return err
	}
	if err := p.apply(doc, *m); err != nil {
		return err
	}
	m.Revision = p.revision
	return nil
}

func parse(r io.Reader) (*parsed, error) {
	d := xml.NewDecoder(r)
	d.Strict = true
	d.Entity = nil // only the five predefined entities
	p := &parsed{targets: map[string]string{}}
	var (
		stack   []xml.Name
		unit    string // current 2.x unit id
		seg     string // current segment key: its 2.x unit's or its 1.2 trans-unit's id
		inTgt   int    // depth of the <target> being read, 0 outside
		tgt     strings.Builder
		codes   []string // open inline elements inside a target
		sawRoot bool
		inNote  bool // in a note of Dragoman's, which may name the revision
		note    strings.Builder
	)
	where := func() string {
		if seg != "" {
			return "unit " + seg + ": "
		}
		if unit != "" {
			return "unit " + unit + ": "
		}
		return ""
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, bad("%sthe XLIFF file is not well-formed (line %d: %s)", where(), se.Line, se.Msg)
			}
			return nil, bad("%sthe XLIFF file is not well-formed: %v", where(), err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, bad("the XLIFF file has a document type declaration (<!%s…>); DTDs and entities are not accepted", firstWord(string(t)))
		case xml.StartElement:
			stack = append(stack, t.Name)
			if len(stack) > maxDepth {
				return nil, bad("%selements are nested deeper than %d", where(), maxDepth)
			}
			if inTgt > 0 {
				if err := p.openInline(&tgt, &codes, t, where()); err != nil {
					return nil, err
				}
				continue
			}
			if len(stack) == 1 && t.Name.Local != "xliff" {
				return nil, bad("the root element is <%s>, not XLIFF 2.x (namespace %s) or 1.2 (namespace %s)", t.Name.Local, ns20, ns12)
			}
			switch t.Name.Local {
			case "xliff":
				if len(stack) != 1 {
					return nil, bad("<xliff> is nested")
				}
				sawRoot = true
				p.version = attrOf(t, "version")
				switch {
				case p.version == "1.2" && t.Name.Space == ns12:
				case strings.HasPrefix(p.version, "2.") && t.Name.Space == ns20:
				default:
					return nil, bad("the root element is not XLIFF 2.x (namespace %s) or 1.2 (namespace %s): version %q, namespace %q", ns20, ns12, p.version, t.Name.Space)
				}
			case "file":
				p.files++
				p.original = attrOf(t, "original")
			case "unit":
				unit = attrOf(t, "id")
			case "segment":
				seg = unit
			case "trans-unit":
				seg = attrOf(t, "id")
			case "note":
				inNote = seg == "" && unit == "" && (attrOf(t, "category") == "dragoman-revision" || attrOf(t, "from") == "dragoman")
				note.Reset()
			case "target":
				if seg == "" {
					continue
				}
				if _, dup := p.targets[seg]; dup {
					return nil, bad("unit %s appears twice", seg)
				}
				inTgt = len(stack)
				tgt.Reset()
				codes = codes[:0]
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if inTgt > 0 {
				if len(stack) < inTgt {
					p.targets[seg] = tgt.String()
					p.order = append(p.order, seg)
					inTgt = 0
					continue
				}
				if n := len(codes); n > 0 && codes[n-1] == t.Name.Local {
					codes = codes[:n-1]
					tgt.WriteString("</g>")
				}
				continue
			}
			switch t.Name.Local {
			case "note":
				if n, ok := strings.CutPrefix(strings.TrimSpace(note.String()), revisionNote); inNote && ok {
					if v, err := strconv.Atoi(n); err == nil && v >= 0 {
						p.revision = v
					}
				}
				inNote = false
			case "segment", "trans-unit":
				if _, ok := p.targets[seg]; !ok && seg != "" {
					p.targets[seg] = "\x00" // a segment without a target
					p.order = append(p.order, seg)
				}
				seg = ""
			case "unit":
				unit = ""
			}
		case xml.CharData:
			if inTgt > 0 {
				tgt.WriteString(tagged.Escape(string(t)))
			} else if inNote {
				note.Write(t)
			}
		}
	}
	if !sawRoot {
		return nil, bad("the file is not XLIFF: no <xliff> root element")
	}
	return p, nil
}

// openInline writes an inline element of a target as tagged text.
func (p *parsed) openInline(b *strings.Builder, codes *[]string, t xml.StartElement, where string) error {
	id := attrOf(t, "id")
	n, err := strconv.Atoi(id)
	name := t.Name.Local
	paired, isolated := "pc", "ph"
	if p.version == "1.2" {
		paired, isolated = "g", "x"
	}
	switch name {
	case paired:
		if err != nil || n < 0 {
			return bad("%s<%s> has no numeric id (%q)", where, name, id)
		}
		fmt.Fprintf(b, `<g id="%d">`, n)
		*codes = append(*codes, name)
	case isolated:
		if err != nil || n < 0 {
			return bad("%s<%s> has no numeric id (%q)", where, name, id)
		}
		fmt.Fprintf(b, `<x id="%d"/>`, n)
	case "mrk", "sm", "em":
		// Annotations a CAT tool may add: their text is kept, the marker dropped.
	default:
		return bad("%sthe target holds an inline element <%s> this job's source does not use (only <%s> and <%s>)", where, name, paired, isolated)
	}
	return nil
}

func attrOf(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local && (a.Name.Space == "" || a.Name.Space == t.Name.Space) {
			return a.Value
		}
	}
	return ""
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// apply checks the parsed file against the job and sets the targets.
func (p *parsed) apply(doc *segment.Document, m ports.BilingualMeta) error {
	if p.files != 1 {
		return bad("the XLIFF file has %d <file> elements; the export has exactly one", p.files)
	}
	want := Original(m.JobID)
	if p.original != want {
		if rest, ok := strings.CutPrefix(p.original, "dragoman:job:"); ok {
			return bad("the XLIFF file belongs to job %s, not to job %s", rest, m.JobID)
		}
		return bad("the XLIFF file does not name job %s (its <file original=%q> should be %q)", m.JobID, p.original, want)
	}
	known := map[string]bool{}
	targets := make([][]string, len(doc.Units))
	for i := range doc.Units {
		u := &doc.Units[i]
		targets[i] = make([]string, len(u.Segments))
		for j, s := range u.Segments {
			k := tuID(i, j)
			known[k] = true
			name := fmt.Sprintf("unit %s (%s), segment %s", unitID(i), u.ID, segID(j))
			t, ok := p.targets[k]
			switch {
			case !ok:
				return bad("%s is missing from the XLIFF file", name)
			case t == "\x00":
				return bad("%s has no <target>", name)
			}
			if strings.TrimSpace(tagged.Plain(t)) == "" && strings.TrimSpace(tagged.Plain(s.Source)) != "" {
				return bad("%s has an empty target", name)
			}
			if msg := compareCodes(s.Source, t, p.version); msg != "" {
				return bad("%s: the target's inline codes do not match the source's: %s", name, msg)
			}
			targets[i][j] = t
		}
	}
	for _, k := range p.order {
		if !known[k] {
			return bad("unit %s is not part of job %s", k, m.JobID)
		}
	}
	for i := range doc.Units {
		for j := range doc.Units[i].Segments {
			doc.Units[i].Segments[j].Target = targets[i][j]
		}
	}
	return nil
}

// compareCodes lists the codes the target lacks or adds, "" when both
// carry the same paired and isolated codes (in any order).
func compareCodes(source, target, version string) string {
	paired, isolated := "pc", "ph"
	if version == "1.2" {
		paired, isolated = "g", "x"
	}
	sig := func(s string) []string {
		var out []string
		for _, t := range tagged.Tokenize(s) {
			switch t.Kind {
			case tagged.Open:
				out = append(out, fmt.Sprintf(`<%s id="%d">`, paired, t.ID))
			case tagged.Place:
				out = append(out, fmt.Sprintf(`<%s id="%d"/>`, isolated, t.ID))
			}
		}
		slices.Sort(out)
		return out
	}
	a, b := sig(source), sig(target)
	if slices.Equal(a, b) {
		return ""
	}
	var missing, extra []string
	for _, x := range a {
		if i := slices.Index(b, x); i >= 0 {
			b = slices.Delete(b, i, i+1)
		} else {
			missing = append(missing, x)
		}
	}
	extra = b
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "unexpected "+strings.Join(extra, ", "))
	}
	return strings.Join(parts, "; ")
}
