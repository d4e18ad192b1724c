package httpengine

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

// GlossaryRefused is a vendor refusing to make a glossary (a pair or an
// entry it does not take). The batch is translated without it, with this
// as a warning; the host reports the terms the output lacks.
type GlossaryRefused struct{ Vendor, Msg string }

func (e *GlossaryRefused) Error() string {
	return e.Vendor + " refused the glossary, so it was not applied: " + e.Msg
}

// VendorGlossaries remembers the glossaries an engine made at its vendor,
// one per key (the host's glossary version and the pair). A vendor
// glossary is made once per process and found again by the engine's make
// function after a restart; concurrent batches wait for the one making
// it, and a refusal is remembered so that later batches skip it at once.
type VendorGlossaries struct {
	mu sync.Mutex
	m  map[string]*vendorGlossary
}

type vendorGlossary struct {
	mu      sync.Mutex
	id      string // "" until found or made
	refused error
}

// Use runs call with the vendor's id of the glossary for key, which make
// finds or creates the first time. A refusal becomes a warning and call
// runs with id ""; a 404 from call means the vendor lost the glossary
// (deleted behind our back): it is made again, once.
func (c *VendorGlossaries) Use(ctx context.Context, key string, make func(context.Context) (string, error), call func(id string) error) (warnings []string, err error) {
	id, err := c.id(ctx, key, make)
	var refused *GlossaryRefused
	switch {
	case errors.As(err, &refused):
		return []string{err.Error()}, call("")
	case err != nil:
		return nil, err
	}
	err = call(id)
	var he *Error
	if errors.As(err, &he) && he.Status == http.StatusNotFound {
		c.entry(key).forget()
		if id, err = c.id(ctx, key, make); err != nil {
			return nil, err
		}
		err = call(id)
	}
	return nil, err
}

func (c *VendorGlossaries) entry(key string) *vendorGlossary {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*vendorGlossary{}
	}
	vg, ok := c.m[key]
	if !ok {
		vg = &vendorGlossary{}
		c.m[key] = vg
	}
	return vg
}

func (c *VendorGlossaries) id(ctx context.Context, key string, make func(context.Context) (string, error)) (string, error) {
	vg := c.entry(key)
	vg.mu.Lock()
	defer vg.mu.Unlock()
	if vg.id != "" {
		return vg.id, nil
	}
	if vg.refused != nil {
		return "", vg.refused
	}
	id, err := make(ctx)
	if err != nil {
		var refused *GlossaryRefused
		if errors.As(err, &refused) {
			vg.refused = err
		}
		return "", err
	}
	vg.id = id
	return id, nil
}

func (vg *vendorGlossary) forget() {
	vg.mu.Lock()
	vg.id = ""
	vg.mu.Unlock()
}

// ErrNotDone is Poll's error when the limit passed first.
var ErrNotDone = errors.New("not done in time")

// Poll calls check every interval until it reports done, an error, the
// context's end, or limit has passed (ErrNotDone). A vendor's glossary or
// long-running operation is waited for this way.
func Poll(ctx context.Context, every, limit time.Duration, check func() (done bool, err error)) error {
	deadline := time.Now().Add(limit)
	for {
		done, err := check()
		if err != nil || done {
			return err
		}
		if time.Now().After(deadline) {
			return ErrNotDone
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}
