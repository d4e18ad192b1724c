package httpapi

import (
	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// testPorts are what an API test serves with: the SQL store behind the
// accounts, jobs, quota and webhooks, and optionally more; a nil port
// leaves its use cases unavailable, as on a server without it.
type testPorts struct {
	config     service.Config
	store      *sqlstore.Store
	blobs      ports.BlobStore
	bus        ports.EventBus
	fetcher    ports.URLFetcher
	jobCatalog ports.JobCatalog
	glossaries ports.GlossaryStore
	// docs and detector read documents and detect their language at
	// submission (batches); batches finds a batch's jobs.
	docs     ports.DocumentEngine
	detector ports.LanguageDetector
	batches  ports.Batches
}

// useCases gives each handler the test's ports it uses.
func (p testPorts) useCases() service.UseCases {
	st, clock, id := p.store, wallClock{}, uuid.NewString
	return service.UseCases{
		Accounts: &service.Accounts{Accounts: st, Limiter: st, Quota: st, Clock: clock, NewID: id},
		Sessions: &service.Sessions{Accounts: st, Limiter: st, Clock: clock},
		Jobs: &service.Jobs{Config: p.config, Jobs: st, JobCatalog: p.jobCatalog, Quota: st, Blobs: p.blobs, Bus: p.bus,
			Fetcher: p.fetcher, Glossaries: p.glossaries, Docs: p.docs, Detector: p.detector, Batches: p.batches, Clock: clock, NewID: id},
		Documents:     &service.Documents{Config: p.config, Jobs: st, Blobs: p.blobs, Bus: p.bus, Clock: clock},
		AccountMemory: &service.AccountMemory{},
		Glossaries:    &service.Glossaries{Glossaries: p.glossaries, Accounts: st, Clock: clock, NewID: id},
		Webhooks:      &service.Webhooks{Config: p.config, Webhooks: st, Clock: clock, NewID: id},
		Languages:     &service.Languages{},
	}
}
