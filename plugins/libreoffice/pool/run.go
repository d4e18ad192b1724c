package pool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Convert reads a document of the given kind from src and writes it as
// .docx to dst. A document whose structure is past the caps (cost.go) is
// refused before LibreOffice sees it. The conversion is bounded by the
// pool's timeout and processor budget scaled to the document's size (see
// Config.TimeoutFor and CPUFor), waiting for an instance, in its
// tenant's turn (WithTenant), by that timeout plus StartTimeout. Failures
// are *Error values.
func (p *Pool) Convert(ctx context.Context, k Kind, src io.Reader, dst io.Writer) error {
	return p.run(ctx, k, src, dst, action{
		out: "in.docx",
		warm: func(ctx context.Context, in *instance, src, dst string) (answer, error) {
			return in.convert(ctx, src, dst, k.Filters, "")
		},
		// The listening instance can die where a one-shot soffice does not
		// (seen with a Word 2002 file with tracked changes), so try cold once.
		cold: func(ctx context.Context, lim limits, job, src, dst string) error {
			return coldConvert(ctx, p.cfg, lim, job, src, dst, "docx:MS Word 2007 XML")
		},
	})
}

// action is what a call asks of a warm instance.
type action struct {
	out  string // the output file's name in the job's directory
	warm func(ctx context.Context, in *instance, src, dst string) (answer, error)
	// cold runs the action on a one-shot soffice after the warm instance
	// died on it; nil: no cold retry.
	cold func(ctx context.Context, lim limits, job, src, dst string) error
}

// limits bound one conversion: its processor time and, per instance,
// its memory.
type limits struct {
	mem *memoryLimit
	cpu time.Duration
}

// run writes src to a job directory, measures it, runs act on a warm
// instance of the caller's tenant's turn within the document's timeout
// and processor budget, recycles the instance and copies the output to
// dst. Failures are *Error values, or ctx's error once ctx is cancelled
// (the job was: the instance working on it is killed).
func (p *Pool) run(ctx context.Context, k Kind, src io.Reader, dst io.Writer, act action) error {
	if err := p.ensureWork(); err != nil {
		return &Error{Reason: Unavailable, Detail: err.Error()}
	}
	// The files live outside the instance so a cold retry survives its removal.
	job, err := os.MkdirTemp(p.work.Path(), "job-")
	if err != nil {
		return &Error{Reason: Unavailable, Detail: err.Error()}
	}
	defer os.RemoveAll(job)
	srcPath, dstPath := filepath.Join(job, "in."+k.Ext), filepath.Join(job, act.out)
	size, err := writeSource(srcPath, k, src)
	if err != nil {
		return err
	}
	c, err := measure(srcPath, k, size)
	if err != nil {
		return err
	}
	timeout, budget := p.cfg.TimeoutFor(c.size), p.cfg.CPUFor(c.size)
	tenant := tenantOf(ctx)
	// Waiting for an instance is not the document's time: it may be the
	// tenant's turn that is late, or an instance's start.
	in, err := p.acquire(ctx, tenant, timeout+p.cfg.StartTimeout)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stopped := func() error {
		if errors.Is(ctx.Err(), context.Canceled) {
			return ctx.Err() // the caller gave up (a cancelled job): nobody reads the reason
		}
		return &Error{Reason: TimedOut, Detail: fmt.Sprintf("after %s", timeout)}
	}
	w := watchConversion(in.office.currentPID(), budget, in.kill)
	a, err := act.warm(cctx, in, srcPath, dstPath)
	used, peak, over := w.end()
	p.log.Debug("libreoffice conversion", "tenant", tenant, "cpu", used, "data_peak_mb", peak>>20, "budget", budget)
	if over || ((err != nil || !a.OK) && (nearCap(peak, p.mem.bytes) || in.office.oomKilled())) {
		p.discard(in, tenant, fmt.Errorf("over its budget: %s of processor time, %d MB of data", used, peak>>20))
		if over {
			return overCPU(budget)
		}
		return overMemory(p.mem.bytes)
	}
	if err != nil {
		if cctx.Err() != nil || act.cold == nil || p.cfg.NoColdRetry {
			p.discard(in, tenant, err)
			if cctx.Err() != nil {
				return stopped()
			}
			return &Error{Reason: Crashed, Detail: err.Error()}
		}
		defer p.coldInPlace(in, err)(tenant)
		if cerr := act.cold(cctx, limits{p.mem, budget}, job, srcPath, dstPath); cerr != nil {
			var pe *Error
			switch {
			case cctx.Err() != nil:
				return stopped()
			case errors.As(cerr, &pe):
				return pe
			}
			return &Error{Reason: Crashed, Detail: err.Error() + "; cold retry: " + cerr.Error()}
		}
		return copyFile(dst, dstPath)
	}
	switch {
	case a.Dead || in.isDead():
		// The output was stored whole before soffice died closing it.
		p.discard(in, tenant, errors.New("soffice died closing the document"))
	case c.size > p.cfg.RecycleAbove:
		// A large document leaves the instance holding its memory (257 MB
		// after a 10 MB RTF), and a fresh instance was measured as fast or
		// faster on large documents: stop this one, the next conversion
		// starts a fresh one.
		p.retire(in, tenant)
	default:
		p.release(in, tenant)
	}
	if !a.OK {
		return answerError(a)
	}
	return copyFile(dst, dstPath)
}

func answerError(a answer) error {
	switch a.Kind {
	case "password":
		return &Error{Reason: PasswordProtected, Detail: a.Error}
	case "refused":
		return &Error{Reason: Unsupported, Detail: a.Error}
	default:
		return &Error{Reason: Corrupt, Detail: a.Error}
	}
}

// writeSource writes the document to path, with the fields of an RTF
// that would make LibreOffice read local files neutralized, and returns
// its size.
func writeSource(path string, k Kind, r io.Reader) (int64, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	var n int64
	if k.Name == RTF.Name {
		n, err = neutralizeRTF(f, r)
	} else {
		n, err = io.Copy(f, r)
	}
	return n, errors.Join(err, f.Close())
}

func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return &Error{Reason: Corrupt, Detail: "no output: " + err.Error()}
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
