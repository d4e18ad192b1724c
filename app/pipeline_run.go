package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"go.uber.org/fx"

	"github.com/dragoman-translate/dragoman/adapters/eventbus"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/core/pipeline"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/core/settle"
)

// abandonedEvents forwards events the bus stopped retrying to the pipeline, which is
// built after the bus.
type abandonedEvents struct {
	p atomic.Pointer[pipeline.Pipeline]
}

func (g *abandonedEvents) forward(ctx context.Context, handler string, topic ports.Topic, e ports.JobEvent, err error) error {
	if p := g.p.Load(); p != nil {
		return p.GiveUp(ctx, e.JobID, err)
	}
	return errors.New("the pipeline is not running yet")
}

// runPipeline registers the stages, starts the bus and republishes the
// events of jobs that were in flight when the process last stopped. An
// api process runs none of it: it only publishes the jobs it accepts.
func runPipeline(lc fx.Lifecycle, c *Config, p *pipeline.Pipeline, bus *eventbus.Bus, svc *service.Service, st *sqlstore.Store, log *slog.Logger) {
	if !c.runsStages() {
		return
	}
	p.Register()
	stop := make(chan struct{})
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			if err := bus.Start(ctx); err != nil {
				return err
			}
			// Alone on its data dir, this process recovers every job in
			// flight; beside others (an external NATS) only stale ones.
			idle := time.Duration(0)
			if c.NATSURL != "" {
				idle = staleJob
			}
			if err := p.Recover(ctx, idle); err != nil {
				return fmt.Errorf("recover jobs in flight: %w", err)
			}
			settler := &settle.Settler{Jobs: st, Owing: st, Quota: st, Blobs: p.Blobs, Bus: bus, Clock: systemClock{}}
			go sweep(svc, p, settler, log, stop, done)
			return nil
		},
		OnStop: func(ctx context.Context) error {
			close(stop)
			select {
			case <-done:
			case <-ctx.Done():
			}
			// Stop the stages before the plugins they call are killed (fx
			// stops in reverse order, and the plugins started after the bus);
			// interrupted events go back to the stream for the next start.
			err := bus.Close()
			// No stage translates any more: write the translation memory
			// entries still queued behind the jobs before the store closes
			// (its stop hook runs after this one).
			if ferr := p.Translator.Close(ctx); ferr != nil {
				log.Warn("translation memory entries not written before shutdown", "err", ferr)
			}
			return err
		},
	})
}

// staleJob is how long a job may go without a stage change before any
// process republishes its event; longer than any stage should take.
const staleJob = 30 * time.Minute

// settleAfter is how long a job that ended is left to whoever ended it
// before the sweep settles what it still owes (its event, its clean-up).
const settleAfter = 30 * time.Second

// sweep deletes expired downloads and jobs past their retention, settles
// the ended jobs whose event or clean-up an outage interrupted, and
// republishes the events of jobs that went stale. What fails (the store
// or the bucket still down) is tried again on the next round.
func sweep(svc *service.Service, p *pipeline.Pipeline, settler *settle.Settler, log *slog.Logger, stop, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(15 * time.Second)
	defer t.Stop()
	for i := 0; ; i++ {
		if err := svc.Sweep(context.Background()); err != nil {
			log.Warn("sweep failed", "err", err)
		}
		if err := settler.Due(context.Background(), settleAfter); err != nil {
			log.Warn("settling ended jobs failed; tried again on the next sweep", "err", err)
		}
		if i%4 == 3 { // every minute: pending jobs after a minute, others when stale
			if err := p.Recover(context.Background(), staleJob); err != nil {
				log.Warn("recovery failed", "err", err)
			}
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}
