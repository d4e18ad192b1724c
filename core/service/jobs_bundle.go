package service

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// A .zip of documents uploaded to /translate (the CLI and the dashboard
// send one for a folder) becomes one batch: every document in it, to every
// target. Its limits, besides the 50 MB upload:
const (
	MaxBundleFiles    = 50        // documents in one .zip
	MaxBundleUnpacked = 200 << 20 // their uncompressed sizes together
	MaxBatchTargets   = 12        // targets in one submission
	MaxBatchJobs      = 100       // documents × targets
	// MaxSkippedListed is how many entries left out (not documents) the
	// answer names; a last entry "… and N more" counts the rest.
	MaxSkippedListed = 100
)

// bundleExts are the documents taken from a .zip; other entries (a
// folder's pictures, .DS_Store, __MACOSX) are left out and listed.
var bundleExts = map[string]bool{".docx": true, ".doc": true, ".odt": true, ".rtf": true}

// named is a stored document with its name.
type named struct {
	up   *Upload
	name string
}

// isBundle says whether a stored zip upload is a .zip of documents rather
// than a document (a .docx or .odt package, which names its content types
// or its mimetype).
func isBundle(blob ports.Blob) (*zip.Reader, bool) {
	zr, err := zip.NewReader(blob, blob.Size())
	if err != nil {
		return nil, false
	}
	for _, f := range zr.File {
		if f.Name == "[Content_Types].xml" || f.Name == "mimetype" {
			return nil, false
		}
	}
	return zr, true
}

// bundleUpload is a stored upload opened as a .zip of documents, its
// directory read once.
type bundleUpload struct {
	blob ports.Blob
	zr   *zip.Reader
}

// openBundle opens a stored upload as a .zip of documents: nil when it is
// a document (or cannot be opened: reading it says why). Close it.
func (s *Jobs) openBundle(ctx context.Context, up *Upload) *bundleUpload {
	if up.Format != docformat.DOCX { // what a zip sniffs as
		return nil
	}
	blob, err := s.Blobs.Open(ctx, up.Key)
	if err != nil {
		return nil
	}
	zr, bundle := isBundle(blob)
	if !bundle {
		blob.Close()
		return nil
	}
	return &bundleUpload{blob: blob, zr: zr}
}

// Close closes the .zip; again, or on nil, it does nothing.
func (b *bundleUpload) Close() {
	if b != nil && b.blob != nil {
		b.blob.Close()
		b.blob = nil
	}
}

// submissionDocs is what a submission (or its quote) reads: the upload
// itself, or, for a .zip (zb), its documents, each stored as an upload of
// its own (the .zip is then closed and deleted), with the entries left out
// (see skippedList). It refuses more jobs than a batch takes (documents ×
// targets) before any document is read. docs are the caller's to discard,
// on error too.
func (s *Jobs) submissionDocs(ctx context.Context, up *Upload, zb *bundleUpload, name string, targets int) (docs []named, skipped []string, err error) {
	docs = []named{{up: up, name: name}}
	if zb != nil {
		more, left, err := s.unbundle(ctx, zb.zr)
		zb.Close()
		if err != nil {
			return docs, nil, err
		}
		s.Discard(context.WithoutCancel(ctx), up) // the .zip itself makes no job
		docs, skipped = more, skippedList(left)
	}
	if n := len(docs) * targets; n > MaxBatchJobs {
		return docs, nil, fail(KindUnprocessable, "%d documents to %d targets make %d jobs, over the %d of one batch", len(docs), targets, n, MaxBatchJobs)
	}
	return docs, skipped, nil
}

// unbundle stores each document of a .zip as an upload of its own. skipped
// names the entries left out. The .zip's limits and names are checked
// before anything is stored; on error nothing stays stored.
func (s *Jobs) unbundle(ctx context.Context, zr *zip.Reader) (docs []named, skipped []string, err error) {
	entries, skipped, err := bundleEntries(zr, uint64(s.Config.MaxUpload))
	if err != nil {
		return nil, skipped, err
	}
	defer func() {
		if err != nil {
			s.discardAll(ctx, docs)
			docs = nil
		}
	}()
	for _, e := range entries {
		up, err := s.receiveEntry(ctx, e)
		if err != nil {
			return docs, skipped, err
		}
		docs = append(docs, named{up: up, name: e.name})
	}
	return docs, skipped, nil
}

// bundleEntry is a document of a .zip and the name its jobs take.
type bundleEntry struct {
	f          *zip.File
	path, name string
}

// bundleEntries picks the documents of a .zip by their names and checks,
// from its directory alone, what the .zip may hold: names inside it, at
// most MaxBundleFiles documents, MaxBundleUnpacked bytes unpacked together
// and maxOne each. Documents named alike in different folders are named
// by their folders too (a/report.docx → a_report.docx), so their
// translations do not overwrite each other where they are saved.
func bundleEntries(zr *zip.Reader, maxOne uint64) (docs []bundleEntry, skipped []string, err error) {
	var total uint64
	var zips []string
	for _, f := range zr.File {
		name := strings.ReplaceAll(f.Name, "\\", "/")
		if !insideBundle(name) {
			return nil, nil, fail(KindUnprocessable, "the .zip names an entry outside itself (%q): refused; make the .zip again from the folder", f.Name)
		}
		base := path.Base(name)
		if f.FileInfo().IsDir() || strings.HasPrefix(name, "__MACOSX/") || strings.HasPrefix(base, ".") {
			continue
		}
		ext := strings.ToLower(path.Ext(base))
		if !bundleExts[ext] {
			skipped = append(skipped, name)
			if ext == ".zip" {
				zips = append(zips, name)
			}
			continue
		}
		if len(docs) == MaxBundleFiles {
			return nil, skipped, fail(KindUnprocessable, "the .zip holds more than %d documents; split it", MaxBundleFiles)
		}
		total += f.UncompressedSize64
		if total > MaxBundleUnpacked || f.UncompressedSize64 > maxOne {
			return nil, skipped, fail(KindTooLarge, "the documents in the .zip unpack to more than %d MB together, or one to more than %d MB", MaxBundleUnpacked>>20, maxOne>>20)
		}
		docs = append(docs, bundleEntry{f: f, path: name, name: base})
	}
	if len(docs) == 0 {
		msg := "the .zip holds no document (.docx, .doc, .odt or .rtf)"
		if len(zips) > 0 {
			msg += fmt.Sprintf("; a .zip inside it is not opened (%s): put its documents in the outer .zip", strings.Join(skippedList(zips), ", "))
		}
		return nil, skipped, fail(KindUnprocessable, "%s", msg)
	}
	uniqueNames(docs)
	return docs, skipped, nil
}

// skippedList is names of a .zip's entries as an answer shows them: at
// most MaxSkippedListed, then "… and N more"; each without direction
// controls (a name must not display as another: "\u202Egpj.exe") or other
// control characters, and at most 200 characters long.
func skippedList(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	out := make([]string, 0, min(len(names), MaxSkippedListed)+1)
	for _, name := range names[:min(len(names), MaxSkippedListed)] {
		name = strings.Map(func(r rune) rune {
			if isBidiControl(r) || unicode.IsControl(r) {
				return -1
			}
			return r
		}, strings.ToValidUTF8(name, "\uFFFD"))
		if r := []rune(name); len(r) > 200 {
			name = string(r[:199]) + "…"
		}
		out = append(out, name)
	}
	if rest := len(names) - MaxSkippedListed; rest > 0 {
		out = append(out, fmt.Sprintf("… and %d more", rest))
	}
	return out
}

// insideBundle says whether a .zip entry's name (slashes only) stays
// inside the .zip: not absolute, no drive letter, no "..", no control
// characters. A folder's .zip never holds another; a crafted one does.
func insideBundle(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || (len(name) > 1 && name[1] == ':') ||
		strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return false
	}
	for _, el := range strings.Split(name, "/") {
		if el == ".." {
			return false
		}
	}
	return true
}

// uniqueNames gives documents whose names are taken already (compared
// case-insensitively) their folders' names, then a number.
func uniqueNames(docs []bundleEntry) {
	taken := map[string]bool{}
	for i := range docs {
		d := &docs[i]
		name := d.name
		if taken[strings.ToLower(name)] {
			name = strings.ReplaceAll(strings.TrimPrefix(path.Clean(d.path), "./"), "/", "_")
		}
		ext := path.Ext(name)
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s (%d)%s", strings.TrimSuffix(d.name, ext), n, ext)
		}
		taken[strings.ToLower(name)] = true
		d.name = name
	}
}

// receiveEntry stores a document of a .zip as an upload. An entry that
// cannot be read whole (its data is not what the .zip's directory says:
// a size it passes, a checksum that fails) is the .zip's fault: 422.
func (s *Jobs) receiveEntry(ctx context.Context, e bundleEntry) (*Upload, error) {
	rc, err := e.f.Open()
	if err != nil {
		return nil, fail(KindUnprocessable, "%s in the .zip cannot be read: %v", e.path, err)
	}
	defer rc.Close()
	r := &entryReader{r: rc}
	up, err := s.Receive(ctx, r, false)
	if r.err != nil {
		if up != nil {
			s.Discard(ctx, up)
		}
		return nil, &Error{Kind: KindUnprocessable, Message: fmt.Sprintf("the .zip is damaged: %s in it cannot be read whole (%v)", e.path, r.err), Err: r.err}
	}
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			se.Message = e.path + " in the .zip: " + se.Message
		}
		return nil, err
	}
	return up, nil
}

// entryReader keeps the error of a zip entry's reader, other than its end.
type entryReader struct {
	r   io.Reader
	err error
}

func (e *entryReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
	}
	return n, err
}

func (s *Jobs) discardAll(ctx context.Context, docs []named) {
	for _, d := range docs {
		s.Discard(ctx, d.up)
	}
}
