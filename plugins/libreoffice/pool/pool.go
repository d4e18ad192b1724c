package pool

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Pool hands out warm instances, one conversion each at a time, and
// replaces any instance that hangs or dies. It starts none until the
// first conversion asks for one (issue 13: a server that only ever sees
// .docx runs no LibreOffice), starts more on demand up to Config.Size,
// and stops those left idle for Config.IdleTimeout.
type Pool struct {
	cfg      Config
	work     string // this process's work directory: instances, jobs
	idle     chan *instance
	closed   chan struct{}
	once     sync.Once
	wg       sync.WaitGroup // instance starts in flight, the idle reaper
	mu       sync.Mutex
	live     map[*instance]bool
	starting int   // instance starts in flight; live+starting <= Size
	waiting  int   // acquire calls waiting for an instance
	lastErr  error // of the latest failed start, nil once one succeeds
	log      *slog.Logger
	ctx      context.Context // cancelled by Close to abort starts in flight
	cancel   context.CancelFunc
}

// New checks that LibreOffice and python3-uno are installed and returns
// a pool with no instance running: the first conversion starts one (or
// Ready starts them all). logger may be nil.
func New(cfg Config, logger *slog.Logger) (*Pool, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	for _, dir := range sweepStale(cfg.TempDir) {
		logger.Info("removed the files of a LibreOffice pool whose process is gone", "dir", dir)
	}
	if !cfg.NoNetNamespace {
		_, mode := netNamespace()
		logger.Info("libreoffice network isolation", "mode", mode)
	}
	if !cfg.NoLandlock {
		_, mode := landlockABI()
		logger.Info("libreoffice landlock", "mode", mode)
	}
	work, err := newWorkDir(cfg.TempDir)
	if err != nil {
		return nil, err
	}
	p := &Pool{cfg: cfg, work: work, idle: make(chan *instance, cfg.Size), closed: make(chan struct{}),
		live: map[*instance]bool{}, log: logger}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	if cfg.IdleTimeout > 0 {
		p.wg.Add(1)
		go p.reapIdle()
	}
	return p, nil
}

// TempDir is a directory for the caller's own temp files, removed by
// Close, and by the next start after a SIGKILL.
func (p *Pool) TempDir() string { return p.work }

// Size is the number of instances the pool keeps at most.
func (p *Pool) Size() int { return p.cfg.Size }

// Ready starts every instance the pool may keep, if not yet running,
// and waits until they are up: a warm-up for callers that want the first
// conversions fast. It fails early with the start error once an instance
// has failed to start and none is up.
func (p *Pool) Ready(ctx context.Context) error {
	p.mu.Lock()
	for len(p.live)+p.starting < p.cfg.Size && !p.isClosed() {
		p.spawn()
	}
	p.mu.Unlock()
	for {
		p.mu.Lock()
		n, err := len(p.live), p.lastErr
		p.mu.Unlock()
		switch {
		case n == p.cfg.Size:
			return nil
		case err != nil && n == 0:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.closed:
			return errors.New("pool closed")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Running is the number of instances up now (idle or converting).
func (p *Pool) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.live)
}

// Health reports a pool that has no instance because none will start.
func (p *Pool) Health() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.live) == 0 && p.lastErr != nil {
		return p.lastErr
	}
	return nil
}

// spawn starts one instance in the background, retrying with backoff
// until it runs or the pool closes. Callers hold mu, so Close's Wait never
// races the Add.
func (p *Pool) spawn() {
	if p.isClosed() {
		return
	}
	p.starting++
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for delay := time.Second; ; delay = min(2*delay, 30*time.Second) {
			in, err := startInstance(p.ctx, p.cfg, p.work)
			p.mu.Lock()
			if err == nil {
				p.starting--
				p.lastErr = nil
				if p.isClosed() {
					p.mu.Unlock()
					in.kill()
					return
				}
				in.lastUsed = time.Now()
				p.live[in] = true
				p.idle <- in // never blocks: at most Size instances exist
				p.mu.Unlock()
				return
			}
			p.lastErr = err
			p.mu.Unlock()
			p.log.Error("libreoffice instance failed to start", "err", err)
			select {
			case <-p.closed:
				p.mu.Lock()
				p.starting--
				p.mu.Unlock()
				return
			case <-time.After(delay):
			}
		}
	}()
}

// discard kills a broken instance and starts its replacement: the pool is
// in use, so the next conversion should find a warm one.
func (p *Pool) discard(in *instance, why error) {
	p.log.Warn("libreoffice instance replaced", "reason", why, "output", in.log.String())
	in.kill()
	p.mu.Lock()
	delete(p.live, in)
	p.spawn()
	p.mu.Unlock()
}

// release hands an instance back after a conversion that left it usable.
func (p *Pool) release(in *instance) {
	in.lastUsed = time.Now()
	p.idle <- in // never blocks: at most Size instances exist
}

// retire stops a usable instance without replacing it.
func (p *Pool) retire(in *instance) {
	in.kill()
	p.mu.Lock()
	delete(p.live, in)
	if p.waiting > p.starting { // one waited for this slot
		p.spawn()
	}
	p.mu.Unlock()
}

// reapIdle stops instances that have done nothing for IdleTimeout; the
// next conversion starts one again.
func (p *Pool) reapIdle() {
	defer p.wg.Done()
	every := min(max(p.cfg.IdleTimeout/4, 50*time.Millisecond), 30*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.closed:
			return
		case <-t.C:
		}
		var keep, stop []*instance
	scan:
		for range len(p.idle) {
			select {
			case in := <-p.idle:
				if time.Since(in.lastUsed) >= p.cfg.IdleTimeout {
					stop = append(stop, in)
				} else {
					keep = append(keep, in)
				}
			default:
				break scan
			}
		}
		p.mu.Lock()
		if p.waiting > 0 { // it took them while a conversion was asking
			keep, stop = append(keep, stop...), nil
		}
		p.mu.Unlock()
		for _, in := range keep {
			p.idle <- in
		}
		for _, in := range stop {
			p.log.Info("stopped an idle libreoffice instance", "idle", p.cfg.IdleTimeout)
			in.kill()
		}
		// Counted as running until gone: a conversion that began to wait
		// meanwhile may have found no room to start one, so start it here,
		// unless one is already starting for each waiter.
		p.mu.Lock()
		for _, in := range stop {
			delete(p.live, in)
			if p.waiting > p.starting {
				p.spawn()
			}
		}
		p.mu.Unlock()
	}
}

// Convert reads a document of the given kind from src and writes it as
// .docx to dst. The conversion is bounded by the pool's timeout scaled
// to the document's size (see Config.TimeoutFor), waiting for an instance
// by that plus StartTimeout. Failures are *Error values.
func (p *Pool) Convert(ctx context.Context, k Kind, src io.Reader, dst io.Writer) error {
	return p.run(ctx, k, src, dst, action{
		out: "in.docx",
		warm: func(ctx context.Context, in *instance, src, dst string) (answer, error) {
			return in.convert(ctx, src, dst, k.Filters, "")
		},
		// The listening instance can die where a one-shot soffice does not
		// (seen with a Word 2002 file with tracked changes), so try cold once.
		cold: func(ctx context.Context, job, src, dst string) error {
			return coldConvert(ctx, p.cfg, job, src, dst, "docx:MS Word 2007 XML")
		},
	})
}

// action is what a call asks of a warm instance.
type action struct {
	out  string // the output file's name in the job's directory
	warm func(ctx context.Context, in *instance, src, dst string) (answer, error)
	// cold runs the action on a one-shot soffice after the warm instance
	// died on it; nil: no cold retry.
	cold func(ctx context.Context, job, src, dst string) error
}

// run writes src to a job directory, runs act on a warm instance within
// the document's timeout, recycles the instance and copies the output to
// dst. Failures are *Error values.
func (p *Pool) run(ctx context.Context, k Kind, src io.Reader, dst io.Writer, act action) error {
	// The files live outside the instance so a cold retry survives its removal.
	job, err := os.MkdirTemp(p.work, "job-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(job)
	srcPath, dstPath := filepath.Join(job, "in."+k.Ext), filepath.Join(job, act.out)
	size, err := writeSource(srcPath, k, src)
	if err != nil {
		return err
	}
	size = workSize(srcPath, k, size)
	timeout := p.cfg.TimeoutFor(size)
	// Waiting may also take an instance's start: the first conversion
	// starts one, which must not eat into the document's own time.
	wctx, wcancel := context.WithTimeout(ctx, timeout+p.cfg.StartTimeout)
	in, err := p.acquire(wctx)
	wcancel()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	timedOut := func() error { return &Error{Reason: TimedOut, Detail: fmt.Sprintf("after %s", timeout)} }
	a, err := act.warm(ctx, in, srcPath, dstPath)
	if err != nil {
		p.discard(in, err)
		if ctx.Err() != nil {
			return timedOut()
		}
		if act.cold == nil || p.cfg.NoColdRetry {
			return &Error{Reason: Crashed, Detail: err.Error()}
		}
		if cerr := act.cold(ctx, job, srcPath, dstPath); cerr != nil {
			if ctx.Err() != nil {
				return timedOut()
			}
			return &Error{Reason: Crashed, Detail: err.Error() + "; cold retry: " + cerr.Error()}
		}
		return copyFile(dst, dstPath)
	}
	switch {
	case a.Dead || in.isDead():
		// The output was stored whole before soffice died closing it.
		p.discard(in, errors.New("soffice died closing the document"))
	case size > p.cfg.RecycleAbove:
		// A large document leaves the instance holding its memory (257 MB
		// after a 10 MB RTF), and a fresh instance was measured as fast or
		// faster on large documents: stop this one, the next conversion
		// starts a fresh one.
		p.retire(in)
	default:
		p.release(in)
	}
	if !a.OK {
		return answerError(a)
	}
	return copyFile(dst, dstPath)
}

// acquire waits for an idle instance that is still alive, replacing any
// whose soffice died while idle, and starts one when none is idle and the
// pool has room.
func (p *Pool) acquire(ctx context.Context) (*instance, error) {
	for {
		select {
		case in := <-p.idle:
			if !in.isDead() {
				in.lastUsed = time.Now()
				return in, nil
			}
			p.discard(in, errors.New("soffice exited while idle"))
			continue
		default:
		}
		p.mu.Lock()
		if len(p.live)+p.starting < p.cfg.Size {
			p.spawn()
		}
		p.waiting++ // the reaper stops nothing while someone waits
		p.mu.Unlock()
		in, err := p.wait(ctx)
		p.mu.Lock()
		p.waiting--
		p.mu.Unlock()
		if err != nil || in != nil {
			return in, err
		}
	}
}

// wait is acquire's blocking part: an instance, an error, or neither when
// the instance it got was dead (and is being replaced).
func (p *Pool) wait(ctx context.Context) (*instance, error) {
	select {
	case in := <-p.idle:
		if !in.isDead() {
			in.lastUsed = time.Now()
			return in, nil
		}
		p.discard(in, errors.New("soffice exited while idle"))
		return nil, nil
	case <-p.closed:
		return nil, &Error{Reason: Unavailable, Detail: "pool closed"}
	case <-ctx.Done():
		if err := p.Health(); err != nil {
			return nil, &Error{Reason: Unavailable, Detail: err.Error()}
		}
		return nil, &Error{Reason: TimedOut, Detail: "no free LibreOffice instance"}
	}
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

func (p *Pool) isClosed() bool {
	select {
	case <-p.closed:
		return true
	default:
		return false
	}
}

// Close kills every instance and waits for pending restarts to give up.
func (p *Pool) Close() error {
	p.once.Do(func() {
		p.mu.Lock()
		close(p.closed)
		p.cancel()
		live := p.live
		p.live = map[*instance]bool{}
		p.mu.Unlock()
		var kills sync.WaitGroup // in parallel: the host force-kills a plugin after 2 s
		for in := range live {
			kills.Go(in.kill)
		}
		kills.Wait()
		p.wg.Wait()
		os.RemoveAll(p.work)
	})
	return nil
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

// workSize is what LibreOffice's time grows with: the file's size, or
// for a zip package (.odt, .docx) the unpacked size of its XML parts,
// which can be 70 times larger (odftoolkit-Text1.odt: 120 kB, 8 MB of
// content.xml).
func workSize(path string, k Kind, size int64) int64 {
	if k.Name != ODT.Name && k.Name != DOCX.Name {
		return size
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return size
	}
	defer zr.Close()
	var n int64
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".xml") {
			n += int64(min(f.UncompressedSize64, 1<<40))
		}
	}
	return max(n, size)
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
