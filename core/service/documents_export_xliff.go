package service

import (
	"bytes"
	"context"
)

// XLIFFFile is an exported XLIFF document.
type XLIFFFile struct {
	Body []byte
	Name string // Content-Disposition file name
}

// ExportXLIFF writes a completed job's segments, source and target, as
// XLIFF 2.1 or (version "1.2") 1.2, while its download window is open.
func (s *Documents) ExportXLIFF(ctx context.Context, c *Caller, id, version string) (*XLIFFFile, error) {
	if version != "" && version != "2.1" && version != "1.2" {
		return nil, fail(KindUnprocessable, "version must be 2.1 (the default) or 1.2, not %q", version)
	}
	j, doc, err := s.editable(ctx, c, id)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := s.XLIFF.Export(&b, doc, bilingualMeta(j), version); err != nil {
		return nil, err
	}
	name := DownloadName(j.OriginalName, j.TargetLang)
	name = name[:len(name)-len(".docx")] + ".xlf"
	return &XLIFFFile{Body: b.Bytes(), Name: name}, nil
}
