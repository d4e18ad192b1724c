package translate

import (
	"encoding/json"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// An engine's output kept in the memory keeps what the engine noted
// about it (words it did not know, codes it dropped and had put back), so
// a sentence answered from the memory gets the same review flags as when
// the engine answered. The notes follow the text after U+FFFF, a
// character no document's text holds (XML forbids it) that PostgreSQL's
// text still stores (NUL it refuses); an output without notes is stored
// as it is, as before.
const notesSep = "\uffff"

type storedNotes struct {
	Unknown []string     `json:"u,omitempty"`
	Fixes   []tagged.Fix `json:"f,omitempty"`
}

// withNotes is the value stored for an output and its notes.
func withNotes(text string, n tagged.Note) string {
	if len(n.Unknown) == 0 && len(n.Fixes) == 0 {
		return text
	}
	b, err := json.Marshal(storedNotes{n.Unknown, n.Fixes})
	if err != nil {
		return text
	}
	return text + notesSep + string(b)
}

// splitNotes is a stored value's output and notes; ok is false when the
// value holds no notes.
func splitNotes(v string) (text string, n tagged.Note, ok bool) {
	text, raw, found := strings.Cut(v, notesSep)
	if !found {
		return v, n, false
	}
	var s storedNotes
	if json.Unmarshal([]byte(raw), &s) != nil {
		return text, n, false
	}
	return text, tagged.Note{Unknown: s.Unknown, Fixes: s.Fixes}, true
}
