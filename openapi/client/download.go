package client

import (
	"context"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
)

// Download writes a completed job's document into dir under the name the
// server gives it (NAME.<code>.docx) and returns its path.
func (c *Client) Download(ctx context.Context, id, dir string, progress func(Progress)) (string, error) {
	return c.download(ctx, id, dir, gen.Docx, progress)
}

// DownloadPDF writes the PDF rendition of a completed job's document into
// dir (NAME.<code>.pdf) and returns its path. A job submitted without
// PDF has it rendered on demand by the server, which takes a few seconds.
func (c *Client) DownloadPDF(ctx context.Context, id, dir string, progress func(Progress)) (string, error) {
	return c.download(ctx, id, dir, gen.Pdf, progress)
}

// DownloadBilingual writes the bilingual document of a completed job
// submitted with Bilingual into dir (NAME.<code>.bilingual.docx) and
// returns its path.
func (c *Client) DownloadBilingual(ctx context.Context, id, dir string, progress func(Progress)) (string, error) {
	return c.download(ctx, id, dir, gen.Bilingual, progress)
}

func (c *Client) download(ctx context.Context, id, dir string, format gen.DownloadJobParamsFormat, progress func(Progress)) (string, error) {
	u, err := jobID(id)
	if err != nil {
		return "", err
	}
	resp, err := c.API.DownloadJob(ctx, u, &gen.DownloadJobParams{Format: &format})
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", apiError(resp.StatusCode, resp.Header, readAll(resp.Body))
	}
	name := "translated-" + id + "." + string(format)
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		if n := filepath.Base(strings.ReplaceAll(params["filename"], "\\", "/")); n != "" && n != "." && n != "/" && n != ".." {
			name = n
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".dragoman-*.part")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	total := max(resp.ContentLength, 0)
	report(progress, Progress{Phase: PhaseDownload, JobID: id, Total: total})
	cw := &counter{w: tmp, total: total, fn: func(p Progress) {
		p.Phase, p.JobID = PhaseDownload, id
		report(progress, p)
	}}
	if _, err := io.Copy(cw, resp.Body); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	out := filepath.Join(dir, name)
	if err := os.Rename(tmp.Name(), out); err != nil {
		return "", err
	}
	return out, nil
}
