package pool

import (
	"context"
	"errors"
	"time"
)

// Instances are shared between tenants (accounts) so that none can hold
// them all (issue 26: two slow uploads of one account made another's
// 1.5 KB RTF wait 117.8 s instead of 0.6 s). A tenant holds at most
// Config.PerTenant instances at once, one fewer than the pool has by
// default, so one is always left for the others; conversions waiting
// for an instance queue per tenant, and a freed instance goes to the
// tenants in turn (round robin), first come first served within each.

type tenantKey struct{}

// WithTenant marks ctx's conversions as a tenant's, for fair sharing.
// Conversions without a tenant share the "" tenant.
func WithTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

func tenantOf(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}

// waiter is one conversion waiting for an instance.
type waiter struct {
	tenant string
	got    chan *instance // buffered: the scheduler never blocks on it
}

// turns queues waiters by tenant and hands instances out in turn.
type turns struct {
	queues map[string][]*waiter
	ring   []string // tenants with waiters, the next to serve first
	held   map[string]int
	served map[string]time.Time // when each tenant last got an instance
}

// sharedLately says whether more than one tenant got an instance within
// the last d.
func (t *turns) sharedLately(d time.Duration) bool {
	n := 0
	for tenant, at := range t.served {
		if time.Since(at) > d {
			delete(t.served, tenant)
			continue
		}
		n++
	}
	return n > 1
}

func (t *turns) push(w *waiter) {
	if t.queues == nil {
		t.queues, t.held = map[string][]*waiter{}, map[string]int{}
	}
	if len(t.queues[w.tenant]) == 0 {
		t.ring = append(t.ring, w.tenant)
	}
	t.queues[w.tenant] = append(t.queues[w.tenant], w)
}

// remove takes a waiter out of its queue; false if it was served.
func (t *turns) remove(w *waiter) bool {
	q := t.queues[w.tenant]
	for i, x := range q {
		if x == w {
			t.queues[w.tenant] = append(q[:i:i], q[i+1:]...)
			if len(t.queues[w.tenant]) == 0 {
				t.drop(w.tenant)
			}
			return true
		}
	}
	return false
}

func (t *turns) drop(tenant string) {
	delete(t.queues, tenant)
	for i, x := range t.ring {
		if x == tenant {
			t.ring = append(t.ring[:i:i], t.ring[i+1:]...)
			return
		}
	}
}

// next is the first waiter of the first tenant in turn that may hold
// one more instance; that tenant's turn moves to the end. Nil if none.
func (t *turns) next(perTenant int) *waiter {
	for i, tenant := range t.ring {
		if t.held[tenant] >= perTenant {
			continue
		}
		q := t.queues[tenant]
		w := q[0]
		t.queues[tenant] = q[1:]
		t.ring = append(t.ring[:i:i], t.ring[i+1:]...)
		if len(t.queues[tenant]) > 0 {
			t.ring = append(t.ring, tenant)
		} else {
			delete(t.queues, tenant)
		}
		t.held[tenant]++
		if t.served == nil {
			t.served = map[string]time.Time{}
		}
		t.served[tenant] = time.Now()
		return w
	}
	return nil
}

// servable counts the waiters that could take an instance now if one
// were free: per tenant, its waiters up to what it may still hold.
func (t *turns) servable(perTenant int) int {
	n := 0
	for tenant, q := range t.queues {
		n += min(len(q), max(perTenant-t.held[tenant], 0))
	}
	return n
}

func (t *turns) waiting() bool { return len(t.ring) > 0 }

// returned counts an instance given back by a tenant.
func (t *turns) returned(tenant string) {
	if t.held[tenant] <= 1 {
		delete(t.held, tenant)
		return
	}
	t.held[tenant]--
}

// acquire waits for an instance for the tenant, in turn with the others,
// starting one when the pool has room. A tenant's queue may be long (its
// own conversions go one or a few at a time), so the wait is bounded by
// ctx alone, unless for patience no instance could be started at all.
func (p *Pool) acquire(ctx context.Context, tenant string, patience time.Duration) (*instance, error) {
	w := &waiter{tenant: tenant, got: make(chan *instance, 1)}
	p.mu.Lock()
	p.turns.push(w)
	dead := p.schedule()
	p.mu.Unlock()
	p.bury(dead)
	check := time.NewTimer(patience)
	defer check.Stop()
	for {
		select {
		case in := <-w.got:
			return in, nil
		case <-p.closed:
			p.abandon(w)
			return nil, &Error{Reason: Unavailable, Detail: "pool closed"}
		case <-check.C:
			if err := p.Health(); err != nil {
				p.abandon(w)
				return nil, &Error{Reason: Unavailable, Detail: err.Error()}
			}
			check.Reset(patience)
		case <-ctx.Done():
			p.abandon(w)
			if errors.Is(ctx.Err(), context.Canceled) {
				return nil, ctx.Err()
			}
			return nil, &Error{Reason: TimedOut, Detail: "no free LibreOffice instance"}
		}
	}
}

// abandon takes a waiter that gave up out of the queue, or gives back
// the instance it was handed meanwhile.
func (p *Pool) abandon(w *waiter) {
	p.mu.Lock()
	removed := p.turns.remove(w)
	p.mu.Unlock()
	if !removed {
		p.release(<-w.got, w.tenant)
	}
}

// schedule hands idle instances to waiters in turn and starts instances
// for the waiters left, room permitting. It returns the idle instances
// found unusable, for the caller to bury outside the lock. Callers hold mu.
func (p *Pool) schedule() (dead []*instance) {
	kept := p.idle[:0]
	for _, in := range p.idle {
		if in.usable() {
			kept = append(kept, in)
			continue
		}
		delete(p.live, in)
		dead = append(dead, in)
	}
	clear(p.idle[len(kept):])
	p.idle = kept
	for len(p.idle) > 0 {
		w := p.turns.next(p.cfg.PerTenant)
		if w == nil {
			break
		}
		in := p.idle[len(p.idle)-1] // the most recently used: the others may idle out
		p.idle = p.idle[:len(p.idle)-1]
		in.lastUsed = time.Now()
		w.got <- in
	}
	for need := p.turns.servable(p.cfg.PerTenant) - p.starting; need > 0 && p.room(); need-- {
		p.spawn()
	}
	if len(p.idle) == 0 && p.starting == 0 && p.room() && p.turns.sharedLately(max(p.cfg.IdleTimeout, 5*time.Minute)) {
		// Every instance is busy and more than one tenant uses the pool:
		// a spare spares the next tenant an instance's start (seconds).
		p.spawn()
	}
	return dead
}

// room says whether another instance may start.
func (p *Pool) room() bool { return len(p.live)+p.starting+p.cold < p.cfg.Size }

// bury kills instances found unusable while idle.
func (p *Pool) bury(dead []*instance) {
	for _, in := range dead {
		p.log.Warn("libreoffice instance replaced", "reason", "soffice exited or its directory vanished while idle", "output", in.log.String())
		in.kill()
	}
}

// release hands an instance back after a conversion that left it usable.
func (p *Pool) release(in *instance, tenant string) {
	p.mu.Lock()
	p.turns.returned(tenant)
	in.lastUsed = time.Now()
	p.idle = append(p.idle, in)
	dead := p.schedule()
	p.mu.Unlock()
	p.bury(dead)
}

// discard kills a broken instance and starts its replacement: the pool is
// in use, so the next conversion should find a warm one.
func (p *Pool) discard(in *instance, tenant string, why error) {
	p.log.Warn("libreoffice instance replaced", "reason", why, "output", in.log.String())
	p.retire(in, tenant)
	p.mu.Lock()
	if p.room() {
		p.spawn()
	}
	p.mu.Unlock()
}

// coldInPlace kills a broken instance whose conversion is retried on a
// one-shot soffice, and keeps for that soffice the instance's place in
// the pool and its tenant's share: it works for the same tenant, and a
// tenant sending documents that crash LibreOffice would otherwise run a
// cold soffice per document beside its share, and the pool replacements
// beside them. Call done when the retry ends.
func (p *Pool) coldInPlace(in *instance, why error) (done func(tenant string)) {
	p.log.Warn("libreoffice instance replaced by a one-shot retry", "reason", why, "output", in.log.String())
	in.kill()
	p.mu.Lock()
	delete(p.live, in)
	p.cold++
	p.mu.Unlock()
	return func(tenant string) {
		p.mu.Lock()
		p.cold--
		p.turns.returned(tenant)
		dead := p.schedule()
		p.mu.Unlock()
		p.bury(dead)
	}
}

// retire stops an instance without replacing it unless someone waits.
func (p *Pool) retire(in *instance, tenant string) {
	in.kill()
	p.mu.Lock()
	p.turns.returned(tenant)
	delete(p.live, in)
	dead := p.schedule()
	p.mu.Unlock()
	p.bury(dead)
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
		p.mu.Lock()
		var stop []*instance
		if !p.turns.waiting() {
			kept := p.idle[:0]
			for _, in := range p.idle {
				if time.Since(in.lastUsed) >= p.cfg.IdleTimeout {
					stop = append(stop, in) // still live, so counted, until gone
				} else {
					kept = append(kept, in)
				}
			}
			clear(p.idle[len(kept):])
			p.idle = kept
		}
		p.mu.Unlock()
		for _, in := range stop {
			p.log.Info("stopped an idle libreoffice instance", "idle", p.cfg.IdleTimeout)
			in.kill()
		}
		p.mu.Lock()
		for _, in := range stop {
			delete(p.live, in)
		}
		dead := p.schedule()
		p.mu.Unlock()
		p.bury(dead)
	}
}
