package ports

import (
	"context"
	"errors"
	"io"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// ErrBadBilingual marks an uploaded XLIFF or TMX file that cannot be
// accepted (not well-formed, another job's, units missing or extra, inline
// codes that do not match the source); the message names the unit.
var ErrBadBilingual = errors.New("bad bilingual file")

// ErrBilingualTooLarge marks (with ErrBadBilingual) a file over the size cap.
var ErrBilingualTooLarge = errors.New("bilingual file too large")

// BilingualMeta is what an XLIFF file says about its job.
type BilingualMeta struct {
	JobID      string
	SourceLang string // ISO code
	TargetLang string // ISO code
	Name       string // the original file name
	Warnings   []string
	// Revision is the job's revision the file was exported from: an
	// import reads it back from the file (0 for a file that does not say),
	// so an edit made since is not silently undone.
	Revision int
}

// XLIFF writes a job's segments as XLIFF for post-editing in a CAT tool
// and reads the edited file back.
type XLIFF interface {
	// Export writes doc's units with source and target; version is "2.1"
	// or "1.2".
	Export(w io.Writer, doc *segment.Document, m BilingualMeta, version string) error
	// Import reads an edited file and sets every segment's Target in doc
	// from it, and m.Revision to the revision the file was exported from. It refuses (an error wrapping ErrBadBilingual) a file that
	// is not well-formed, belongs to another job, lacks or adds units or
	// segments, or whose inline codes differ from the source's.
	Import(r io.Reader, doc *segment.Document, m *BilingualMeta) error
}

// MemoryEntry is one translation of an account's own memory: human
// post-edits and imported TMX, in tagged text (package segment).
type MemoryEntry struct {
	SourceLang, TargetLang string // ISO codes
	Source, Target         string // tagged text
	Origin                 string // "human" (an XLIFF edit) or "import" (TMX)
}

// AccountMemory keeps an account's own translations, preferred over
// engine output for later jobs of the account. The SQL store implements it.
type AccountMemory interface {
	PutMemory(ctx context.Context, accountID string, entries []MemoryEntry) error
	// RecallMemory returns the stored targets of the sources it knows
	// (source tagged text to target) for one direction.
	RecallMemory(ctx context.Context, accountID, src, tgt string, sources []string) (map[string]string, error)
	// ListMemory calls fn for every entry of the account.
	ListMemory(ctx context.Context, accountID string, fn func(MemoryEntry) error) error
}

// TMX writes and reads translation memories as TMX 1.4b.
type TMX interface {
	Export(w io.Writer, entries []MemoryEntry) error
	// Import reads a TMX file into entries (origin "import"); skipped
	// names the translation units left out (a language Dragoman does not
	// know). A file that cannot be read is an error wrapping
	// ErrBadBilingual.
	Import(r io.Reader) (entries []MemoryEntry, skipped []string, err error)
}
