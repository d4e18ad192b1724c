package pool

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Pool hands out warm instances, one conversion each at a time, and
// replaces any instance that hangs or dies. It starts none until the
// first conversion asks for one (issue 13: a server that only ever sees
// .docx runs no LibreOffice), starts more on demand up to Config.Size,
// and stops those left idle for Config.IdleTimeout.
type Pool struct {
	cfg    Config
	work   *workDir // this process's work directory: instances, jobs
	mem    *memoryLimit
	closed chan struct{}
	once   sync.Once
	wg     sync.WaitGroup // instance starts in flight, the idle reaper
	log    *slog.Logger
	ctx    context.Context // cancelled by Close to abort starts in flight
	cancel context.CancelFunc

	mu       sync.Mutex
	live     map[*instance]bool
	idle     []*instance // live and free, the most recently used last
	turns    turns       // conversions waiting, by tenant (share.go)
	starting int         // instance starts in flight; live+starting+cold <= Size
	cold     int         // one-shot soffice retrying in a crashed instance's place (share.go)
	lastErr  error       // of the latest failed start, nil once one succeeds
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
	for _, dir := range sweepStale(cfg.TempDir, cfg.Instance) {
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
	mem := newMemoryLimit(cfg.Memory)
	logger.Info("libreoffice memory cap", "mode", mem.mode)
	work, err := newWorkDir(cfg.TempDir, cfg.Instance)
	if err != nil {
		return nil, err
	}
	p := &Pool{cfg: cfg, work: work, mem: mem, closed: make(chan struct{}), live: map[*instance]bool{}, log: logger}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	if cfg.IdleTimeout > 0 {
		p.wg.Add(1)
		go p.reapIdle()
	}
	return p, nil
}

// TempDir is a directory for the caller's own temp files, removed by
// Close, and by the next start after a SIGKILL.
func (p *Pool) TempDir() string { return p.work.Path() }

// Size is the number of instances the pool keeps at most.
func (p *Pool) Size() int { return p.cfg.Size }

// Ready starts every instance the pool may keep, if not yet running,
// and waits until they are up: a warm-up for callers that want the first
// conversions fast. It fails early with the start error once an instance
// has failed to start and none is up.
func (p *Pool) Ready(ctx context.Context) error {
	p.mu.Lock()
	for p.room() && !p.isClosed() {
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

// Health reports a pool that cannot convert: its work directory is gone
// and cannot be made again, or cannot be written (a full or read-only
// temp dir), or it has no instance because none will start. A work
// directory that vanished is made again here (issue 25).
func (p *Pool) Health() error {
	if err := p.ensureWork(); err != nil {
		return err
	}
	if err := p.work.writable(); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.live) == 0 && p.lastErr != nil {
		return p.lastErr
	}
	return nil
}

// ensureWork makes the work directory again if something removed it.
// The instances inside went with it, and soffice's Landlock domain holds
// the old directory, so they are replaced as they come up for use.
func (p *Pool) ensureWork() error {
	recreated, err := p.work.ensure()
	if err != nil {
		return err
	}
	if recreated {
		p.log.Warn("libreoffice work directory vanished; made it again", "dir", p.work.Path())
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
			in, err := startInstance(p.ctx, p.cfg, p.work.Path(), p.mem)
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
				p.idle = append(p.idle, in)
				dead := p.schedule()
				p.mu.Unlock()
				p.bury(dead)
				return
			}
			p.lastErr = err
			p.mu.Unlock()
			p.log.Error("libreoffice instance failed to start", "err", err)
			p.ensureWork() // a vanished work directory is the likeliest cause
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
		p.work.remove()
	})
	return nil
}
