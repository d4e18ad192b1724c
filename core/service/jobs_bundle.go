package service

import (
	"archive/zip"
	"context"
	"errors"
	"path"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// A .zip of documents uploaded to /translate (the CLI and the dashboard
// send one for a folder) becomes one batch: every document in it, to every
// target. Its limits, besides the 50 MB upload:
const (
	MaxBundleFiles    = 50        // documents in one .zip
	MaxBundleUnpacked = 200 << 20 // their uncompressed sizes together
	MaxBatchTargets   = 12        // targets in one submission
	MaxBatchJobs      = 100       // documents × targets
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

// unbundle stores each document of a .zip as an upload of its own. skipped
// names the entries left out. On error nothing stays stored.
func (s *Jobs) unbundle(ctx context.Context, zr *zip.Reader) (docs []named, skipped []string, err error) {
	defer func() {
		if err != nil {
			s.discardAll(ctx, docs)
			docs = nil
		}
	}()
	var total uint64
	for _, f := range zr.File {
		name := strings.ReplaceAll(f.Name, "\\", "/")
		base := path.Base(name)
		if f.FileInfo().IsDir() || strings.HasPrefix(name, "__MACOSX/") || strings.HasPrefix(base, ".") {
			continue
		}
		if !bundleExts[strings.ToLower(path.Ext(base))] {
			skipped = append(skipped, name)
			continue
		}
		if len(docs) == MaxBundleFiles {
			return docs, skipped, fail(KindUnprocessable, "the .zip holds more than %d documents; split it", MaxBundleFiles)
		}
		total += f.UncompressedSize64
		if total > MaxBundleUnpacked || f.UncompressedSize64 > uint64(s.Config.MaxUpload) {
			return docs, skipped, fail(KindTooLarge, "the documents in the .zip unpack to more than %d MB together, or one to more than %d MB", MaxBundleUnpacked>>20, s.Config.MaxUpload>>20)
		}
		rc, err := f.Open()
		if err != nil {
			return docs, skipped, fail(KindUnprocessable, "%s in the .zip cannot be read: %v", name, err)
		}
		up, err := s.Receive(ctx, rc, false)
		rc.Close()
		if err != nil {
			var se *Error
			if errors.As(err, &se) {
				se.Message = name + " in the .zip: " + se.Message
			}
			return docs, skipped, err
		}
		docs = append(docs, named{up: up, name: base})
	}
	if len(docs) == 0 {
		return nil, skipped, fail(KindUnprocessable, "the .zip holds no document (.docx, .doc, .odt or .rtf)")
	}
	return docs, skipped, nil
}

func (s *Jobs) discardAll(ctx context.Context, docs []named) {
	for _, d := range docs {
		s.Discard(ctx, d.up)
	}
}
