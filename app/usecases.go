package main

import (
	"os"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/adapters/docx/bilingual"
	"github.com/dragoman-translate/dragoman/adapters/eventbus"
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/adapters/pdftext"
	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/adapters/rtl"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/adapters/tmx"
	"github.com/dragoman-translate/dragoman/adapters/urlfetch"
	"github.com/dragoman-translate/dragoman/adapters/xliff"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/core/translate"
)

// newUseCases gives each concern's handler the ports it uses: the SQL
// store for every store port, the blob store, the bus, the plugins.
func newUseCases(c *Config, st *sqlstore.Store, blobs ports.BlobStore, bus *eventbus.Bus, plugins *pluginhost.Host, layout *rtl.Layout) service.UseCases {
	cfg := service.DefaultConfig
	cfg.DownloadTTL, cfg.JobRetention, cfg.AllowPrivateURLs = c.DownloadTTL, c.JobRetention, c.AllowPrivateURLs
	cfg.HoldFor = c.HoldFor
	clock, docs := systemClock{}, docx.New(layout)
	routes, _ := translate.ParseRoutes(os.Getenv("DRAGOMAN_ROUTES")) // newPipeline reports an error
	return service.UseCases{
		Accounts: &service.Accounts{Accounts: st, Limiter: st, Quota: st, KeyCatalog: st, History: st, Clock: clock, NewID: newID},
		Sessions: &service.Sessions{Users: st, Accounts: st, Limiter: st, Clock: clock},
		Jobs: &service.Jobs{
			Config: cfg, Jobs: st, JobCatalog: st, Quota: st, Blobs: blobs, Bus: bus, Engines: plugins, Layout: layout,
			// Source auto: the language is detected at submission too, so an
			// unserved pair is refused before the job exists.
			Docs: docs, Detector: detector, Packages: ooxml.Checker{},
			Fetcher:    urlfetch.New(urlfetch.Config{AllowPrivate: c.AllowPrivateURLs}),
			Glossaries: st, Clock: clock, NewID: newID,
			Converter: plugins.Converter(), Batches: st,
			// Quotes plan as the pipeline translates, without calling an engine.
			Estimator:  &translate.Translator{Engines: plugins, TM: st, Routes: routes, SharedMemory: c.SharedMemory},
			Throughput: st, AccountMemory: st,
		},
		Documents: &service.Documents{
			Config: cfg, Jobs: st, Blobs: blobs, Bus: bus, Docs: docs,
			XLIFF: xliff.Codec{}, AccountMemory: st, PDF: plugins.PDFRenderer(), Pages: previewRenderer(plugins), Clock: clock,
			PDFText: pdftext.Reader{}, Accounts: st, Glossaries: st,
			// A revision's bilingual document is composed in memory and the
			// system's temporary folder: an API process may have no spool.
			Bilingual: bilingual.Composer{Layout: layout},
		},
		AccountMemory: &service.AccountMemory{Store: st, TMX: tmx.Codec{}},
		Glossaries:    &service.Glossaries{Glossaries: st, Accounts: st, Clock: clock, NewID: newID},
		Webhooks:      &service.Webhooks{Config: cfg, Webhooks: st, Clock: clock, NewID: newID},
		Languages:     &service.Languages{Engines: plugins},
	}
}
