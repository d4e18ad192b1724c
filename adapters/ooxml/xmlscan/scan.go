// Package xmlscan is a streaming XML tokenizer that hands back every token's
// raw bytes, so a part can be rewritten by copying what it does not change.
// It checks what matters for safety and validity (balanced, matching tags,
// no DTD, bounded token size) and leaves the rest to the bytes themselves.
package xmlscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Kind is the kind of a token.
type Kind uint8

const (
	Text      Kind = iota // character data (raw, still escaped)
	Start                 // <a ...>
	End                   // </a>
	Empty                 // <a .../>
	Comment               // <!-- -->
	ProcInst              // <?x ...?>
	CData                 // <![CDATA[ ]]>
	Directive             // <!DOCTYPE ...> (refused)
)

// ErrDTD is returned for any DOCTYPE or other <!...> directive: DTDs are the
// road to entity expansion bombs and external entities, and OOXML has none.
var ErrDTD = errors.New("xml: DOCTYPE/DTD not allowed")

var bom = []byte("\xEF\xBB\xBF")

// MaxToken bounds one token (a tag or a text run) so a hostile part cannot
// make the scanner buffer without limit.
const MaxToken = 64 << 20

// Token is one piece of the input. Raw and Name alias the scanner's buffer
// and are valid until the next call to Next.
type Token struct {
	Kind Kind
	Raw  []byte
	Name []byte // qualified name for Start, End, Empty
}

// Scanner reads tokens from a stream.
type Scanner struct {
	r     io.Reader
	buf   []byte
	pos   int // start of unread data in buf
	err   error
	stack [][]byte
	seen  bool // a root element has been seen
}

// New returns a scanner reading r.
func New(r io.Reader) *Scanner {
	return &Scanner{r: r, buf: make([]byte, 0, 16<<10)}
}

// Depth is the number of open elements.
func (s *Scanner) Depth() int { return len(s.stack) }

// fill reads more input, keeping buf[pos:]. It returns false at EOF.
func (s *Scanner) fill() bool {
	if s.err != nil {
		return false
	}
	if s.pos > 0 {
		n := copy(s.buf, s.buf[s.pos:])
		s.buf = s.buf[:n]
		s.pos = 0
	}
	if len(s.buf) == cap(s.buf) {
		if cap(s.buf) >= MaxToken {
			s.err = fmt.Errorf("xml: token longer than %d bytes", MaxToken)
			return false
		}
		nb := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(nb, s.buf)
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err != nil {
		s.err = err
	}
	return n > 0 || err == nil
}

// Next returns the next token, or io.EOF at a well-formed end.
func (s *Scanner) Next() (Token, error) {
	for {
		data := s.buf[s.pos:]
		if len(data) == 0 {
			if !s.fill() {
				return s.eof()
			}
			continue
		}
		if data[0] != '<' {
			i := bytes.IndexByte(data, '<')
			if i < 0 {
				// text may continue: read more unless at EOF
				if s.fill() {
					continue
				}
				if s.err != io.EOF {
					return Token{}, s.err
				}
				i = len(s.buf) - s.pos
				data = s.buf[s.pos:]
			}
			s.pos += i
			if len(s.stack) == 0 && len(bytes.TrimSpace(bytes.TrimPrefix(data[:i], bom))) > 0 {
				return Token{}, errors.New("xml: text outside the root element")
			}
			if err := checkEntities(data[:i]); err != nil {
				return Token{}, err
			}
			return Token{Kind: Text, Raw: data[:i]}, nil
		}
		end, kind := tagEnd(data)
		if end < 0 {
			if !s.fill() {
				if s.err == io.EOF || s.err == nil {
					return Token{}, io.ErrUnexpectedEOF
				}
				return Token{}, s.err
			}
			continue
		}
		raw := data[:end]
		s.pos += end
		tok := Token{Kind: kind, Raw: raw}
		switch kind {
		case Directive:
			return Token{}, ErrDTD
		case Start, Empty:
			tok.Name = tagName(raw[1:])
			if len(tok.Name) == 0 {
				return Token{}, errors.New("xml: tag without a name")
			}
			if len(s.stack) == 0 && s.seen {
				return Token{}, errors.New("xml: more than one root element")
			}
			s.seen = true
			if kind == Start {
				s.stack = append(s.stack, append([]byte(nil), tok.Name...))
			}
		case End:
			tok.Name = tagName(raw[2:])
			n := len(s.stack)
			if n == 0 || !bytes.Equal(s.stack[n-1], tok.Name) {
				return Token{}, fmt.Errorf("xml: unexpected </%s>", tok.Name)
			}
			s.stack = s.stack[:n-1]
		}
		return tok, nil
	}
}

func (s *Scanner) eof() (Token, error) {
	if s.err != nil && s.err != io.EOF {
		return Token{}, s.err
	}
	if len(s.stack) > 0 {
		return Token{}, fmt.Errorf("xml: unclosed <%s> at end of input", s.stack[len(s.stack)-1])
	}
	if !s.seen {
		return Token{}, errors.New("xml: no root element")
	}
	return Token{}, io.EOF
}

// tagEnd finds the end of the markup at data[0]=='<', or -1 if more input is needed.
func tagEnd(data []byte) (int, Kind) {
	if len(data) < 2 {
		return -1, 0
	}
	switch data[1] {
	case '?':
		i := bytes.Index(data, []byte("?>"))
		if i < 0 {
			return -1, 0
		}
		return i + 2, ProcInst
	case '!':
		if bytes.HasPrefix(data, []byte("<!--")) {
			i := bytes.Index(data[4:], []byte("-->"))
			if i < 0 {
				return -1, 0
			}
			return 4 + i + 3, Comment
		}
		if len(data) < 9 {
			if bytes.HasPrefix([]byte("<![CDATA["), data) || bytes.HasPrefix([]byte("<!--"), data) {
				return -1, 0
			}
		}
		if bytes.HasPrefix(data, []byte("<![CDATA[")) {
			i := bytes.Index(data[9:], []byte("]]>"))
			if i < 0 {
				return -1, 0
			}
			return 9 + i + 3, CData
		}
		return 1, Directive
	case '/':
		i := bytes.IndexByte(data, '>')
		if i < 0 {
			return -1, 0
		}
		return i + 1, End
	}
	// a start tag: '>' may appear inside quoted attribute values
	var quote byte
	for i := 1; i < len(data); i++ {
		c := data[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			if data[i-1] == '/' {
				return i + 1, Empty
			}
			return i + 1, Start
		}
	}
	return -1, 0
}

func tagName(b []byte) []byte {
	for i, c := range b {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/' {
			return b[:i]
		}
	}
	return b
}

// Local is the local part of a qualified name.
func Local(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// Prefix is the prefix of a qualified name ("" without one).
func Prefix(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		return name[:i]
	}
	return nil
}

// Attr is one attribute of a start tag, value still escaped.
type Attr struct {
	Name, Value []byte
	// ValStart and ValEnd locate Value inside the raw tag.
	ValStart, ValEnd int
}

// Attrs lists the attributes of a raw start or empty tag.
func Attrs(raw []byte) []Attr {
	var out []Attr
	i := 1 + len(tagName(raw[1:]))
	for i < len(raw) {
		for i < len(raw) && isSpace(raw[i]) {
			i++
		}
		j := i
		for j < len(raw) && raw[j] != '=' && !isSpace(raw[j]) && raw[j] != '>' && raw[j] != '/' {
			j++
		}
		if j == i {
			break
		}
		name := raw[i:j]
		for j < len(raw) && (isSpace(raw[j]) || raw[j] == '=') {
			j++
		}
		if j >= len(raw) || (raw[j] != '"' && raw[j] != '\'') {
			break
		}
		q := raw[j]
		k := bytes.IndexByte(raw[j+1:], q)
		if k < 0 {
			break
		}
		out = append(out, Attr{Name: name, Value: raw[j+1 : j+1+k], ValStart: j + 1, ValEnd: j + 1 + k})
		i = j + 1 + k + 1
	}
	return out
}

// AttrValue returns the unescaped value of the attribute with this
// qualified or local name.
func AttrValue(raw []byte, name string) (string, bool) {
	for _, a := range Attrs(raw) {
		if string(a.Name) == name || string(Local(a.Name)) == name {
			v, err := Unescape(a.Value)
			if err != nil {
				return string(a.Value), true
			}
			return v, true
		}
	}
	return "", false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Parent is the local name of the innermost open element's parent, when a
// start tag was just returned (or of the innermost open element after an
// empty tag).
func (s *Scanner) Parent() string {
	n := len(s.stack)
	if n < 2 {
		return ""
	}
	return string(Local(s.stack[n-2]))
}
