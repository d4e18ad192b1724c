package pool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Pool hands out warm instances, one conversion each at a time, and
// replaces any instance that hangs or dies.
type Pool struct {
	cfg     Config
	work    string // this process's work directory: instances, jobs
	idle    chan *instance
	closed  chan struct{}
	once    sync.Once
	wg      sync.WaitGroup // instance starts in flight
	mu      sync.Mutex
	live    map[*instance]bool
	lastErr error // of the latest failed start, nil once one succeeds
	log     *slog.Logger
	ctx     context.Context // cancelled by Close to abort starts in flight
	cancel  context.CancelFunc
}

// New checks that LibreOffice and python3-uno are installed and starts
// cfg.Size instances in the background, so a plugin can answer its
// handshake at once; Ready waits for them. logger may be nil.
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
	work, err := newWorkDir(cfg.TempDir)
	if err != nil {
		return nil, err
	}
	p := &Pool{cfg: cfg, work: work, idle: make(chan *instance, cfg.Size), closed: make(chan struct{}),
		live: map[*instance]bool{}, log: logger}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	for range cfg.Size {
		p.mu.Lock()
		p.spawn()
		p.mu.Unlock()
	}
	return p, nil
}

// TempDir is a directory for the caller's own temp files, removed by
// Close, and by the next start after a SIGKILL.
func (p *Pool) TempDir() string { return p.work }

// Size is the number of instances the pool keeps.
func (p *Pool) Size() int { return p.cfg.Size }

// Ready waits until every instance is up. It fails early with the start
// error once an instance has failed to start and none is up.
func (p *Pool) Ready(ctx context.Context) error {
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
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for delay := time.Second; ; delay = min(2*delay, 30*time.Second) {
			in, err := startInstance(p.ctx, p.cfg, p.work)
			p.mu.Lock()
			if err == nil {
				p.lastErr = nil
				if p.isClosed() {
					p.mu.Unlock()
					in.kill()
					return
				}
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
				return
			case <-time.After(delay):
			}
		}
	}()
}

// discard kills a broken instance and starts its replacement.
func (p *Pool) discard(in *instance, why error) {
	p.log.Warn("libreoffice instance replaced", "reason", why, "output", in.log.String())
	in.kill()
	p.mu.Lock()
	delete(p.live, in)
	p.spawn()
	p.mu.Unlock()
}

// Convert reads a document of the given kind from src and writes it as
// .docx to dst. The whole call, waiting for an instance included, is
// bounded by the pool's timeout. Failures are *Error values.
func (p *Pool) Convert(ctx context.Context, k Kind, src io.Reader, dst io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	in, err := p.acquire(ctx)
	if err != nil {
		return err
	}
	// The files live outside the instance so a cold retry survives its removal.
	job, err := os.MkdirTemp(p.work, "job-")
	if err != nil {
		p.idle <- in
		return err
	}
	defer os.RemoveAll(job)
	srcPath, dstPath := filepath.Join(job, "in."+k.Ext), filepath.Join(job, "in.docx")
	if _, err := writeSource(srcPath, k, src); err != nil {
		p.idle <- in
		return err
	}
	a, err := in.convert(ctx, srcPath, dstPath, k.Filters)
	if err != nil {
		p.discard(in, err)
		if ctx.Err() != nil {
			return &Error{Reason: TimedOut, Detail: fmt.Sprintf("after %s", p.cfg.Timeout)}
		}
		if p.cfg.NoColdRetry {
			return &Error{Reason: Crashed, Detail: err.Error()}
		}
		// The listening instance can die where a one-shot soffice does not
		// (seen with a Word 2002 file with tracked changes), so try cold once.
		if cerr := coldConvert(ctx, p.cfg, job, srcPath, dstPath); cerr != nil {
			if ctx.Err() != nil {
				return &Error{Reason: TimedOut, Detail: fmt.Sprintf("after %s", p.cfg.Timeout)}
			}
			return &Error{Reason: Crashed, Detail: err.Error() + "; cold retry: " + cerr.Error()}
		}
		return copyFile(dst, dstPath)
	}
	p.idle <- in
	if !a.OK {
		return answerError(a)
	}
	return copyFile(dst, dstPath)
}

// acquire waits for an idle instance that is still alive, replacing any
// whose soffice died while idle.
func (p *Pool) acquire(ctx context.Context) (*instance, error) {
	for {
		select {
		case in := <-p.idle:
			if !in.isDead() {
				return in, nil
			}
			p.discard(in, errors.New("soffice exited while idle"))
		case <-p.closed:
			return nil, &Error{Reason: Unavailable, Detail: "pool closed"}
		case <-ctx.Done():
			if err := p.Health(); err != nil {
				return nil, &Error{Reason: Unavailable, Detail: err.Error()}
			}
			return nil, &Error{Reason: TimedOut, Detail: "no free LibreOffice instance"}
		}
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

func writeFile(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
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
