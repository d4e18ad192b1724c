package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"
	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/app/cli"
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/openapi/client"
	"github.com/dragoman-translate/dragoman/openapi/client/gen"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// local runs translations in this process: the service and pipeline of
// `serve` on a throw-away data dir (SQLite, local documents, embedded
// NATS) with the installed plugins, without HTTP, accounts or keys.
type local struct {
	app    *fx.App
	svc    service.UseCases
	caller *service.Caller
	dir    string
}

// startLocal is the cli.NewLocal of translate --local.
func startLocal(ctx context.Context, pluginDir, engines string, stderr io.Writer) (cli.Local, error) {
	return newLocal(ctx, pluginDir, engines, stderr)
}

func newLocal(ctx context.Context, pluginDir, engines string, stderr io.Writer) (*local, error) {
	dir, err := os.MkdirTemp("", "dragoman-local-")
	if err != nil {
		return nil, err
	}
	c := &Config{DataDir: dir, PluginDir: pluginDir, Engines: engines, Workers: 2, LogLevel: "error",
		DownloadTTL: time.Hour, JobRetention: 24 * time.Hour, PublicURL: "https://localhost"}
	var (
		svc service.UseCases
		st  *sqlstore.Store
	)
	app := fx.New(pipelineModules(c, stderr), fx.Populate(&svc, &st),
		fx.WithLogger(func() fxevent.Logger { return fxevent.NopLogger }),
		fx.StartTimeout(time.Minute), fx.StopTimeout(30*time.Second))
	l := &local{app: app, dir: dir}
	if err := app.Err(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := app.Start(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	l.svc = svc
	// The unlimited plan: the local user pays nobody.
	a := &account.Account{ID: uuid.NewString(), Name: "local", PlanName: "enterprise", CreatedAt: time.Now().UTC()}
	if err := st.CreateAccount(ctx, a); err != nil {
		l.Close()
		return nil, err
	}
	l.caller = &service.Caller{Account: a}
	return l, nil
}

// AddGlossary stores the glossary file at path (CSV or TSV, source and
// target per line, or TBX) for the from → to pair through the API's use
// case, so its parsing, limits and messages are the API's, and returns
// its id for Options.GlossaryID.
func (l *local) AddGlossary(ctx context.Context, path, from, to string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	// One byte past the limit, so the parser refuses a larger file in its words.
	b, err := io.ReadAll(io.LimitReader(f, glossary.MaxBytes+1))
	if err != nil {
		return "", err
	}
	g, err := l.svc.Glossaries.CreateGlossary(ctx, l.caller, service.GlossaryRequest{
		Name: filepath.Base(path), SourceLang: from, TargetLang: to, File: b, FromFile: true,
	})
	if err != nil {
		return "", err
	}
	return g.ID, nil
}

// Close stops the pipeline and deletes the throw-away data dir.
func (l *local) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := l.app.Stop(ctx)
	return errors.Join(err, os.RemoveAll(l.dir))
}

func (l *local) TranslateURL(context.Context, string, client.Options) (*client.Result, error) {
	return nil, errors.New("--url needs a server")
}

// TranslateFile is client.TranslateFile without HTTP: the same stages,
// the same output name, warnings and rtl_fidelity.
func (l *local) TranslateFile(ctx context.Context, path string, opts client.Options) (*client.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	report := func(p client.Progress) {
		if opts.Progress != nil {
			opts.Progress(p)
		}
	}
	report(client.Progress{Phase: client.PhaseUpload, Total: st.Size()})
	// The upload path of the API: store the document, then queue the job.
	up, err := l.svc.Jobs.Receive(ctx, f, false)
	if err != nil {
		return nil, err
	}
	acc, err := l.svc.Jobs.Queue(ctx, l.caller, up, service.SubmitRequest{
		Name: filepath.Base(path), JobOptions: service.JobOptions{TargetLang: opts.To, SourceLang: opts.From, Mode: opts.Mode, PDF: opts.PDF,
			GlossaryID: opts.GlossaryID, Bilingual: opts.Bilingual},
	})
	if err != nil {
		return nil, err
	}
	id := acc.Job.ID
	report(client.Progress{Phase: client.PhaseUpload, Done: st.Size(), Total: st.Size()})
	var j *job.Job
	for {
		if j, err = l.svc.Jobs.Job(ctx, l.caller, id); err != nil {
			return nil, err
		}
		report(client.Progress{Phase: client.PhaseProcess, JobID: id, Stage: string(j.Stage)})
		if j.Status.Terminal() {
			break
		}
		select {
		case <-ctx.Done():
			_, _ = l.svc.Jobs.CancelUnfinished(context.WithoutCancel(ctx), l.caller, id)
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	res := &client.Result{Job: localJob(j)}
	if j.Status == job.Failed {
		return res, &client.JobFailedError{JobID: id, Message: j.Error}
	}
	d, err := l.svc.Jobs.Download(ctx, l.caller, id)
	if err != nil {
		return res, err
	}
	defer d.Blob.Close()
	dir := opts.OutDir
	if dir == "" {
		dir = filepath.Dir(path)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	out := filepath.Join(dir, d.Name)
	report(client.Progress{Phase: client.PhaseDownload, JobID: id, Total: d.Blob.Size()})
	if err := writeFile(out, d.Blob); err != nil {
		return res, err
	}
	res.Path = out
	for _, extra := range []struct {
		want bool
		get  func(context.Context, *service.Caller, string) (*service.Download, error)
		path *string
	}{{opts.PDF, l.svc.Documents.DownloadPDF, &res.PDFPath}, {opts.Bilingual, l.svc.Jobs.DownloadBilingual, &res.BilingualPath}} {
		if !extra.want {
			continue
		}
		p, err := extra.get(ctx, l.caller, id)
		if err != nil {
			return res, err
		}
		*extra.path = filepath.Join(dir, p.Name)
		err = writeFile(*extra.path, p.Blob)
		p.Blob.Close()
		if err != nil {
			return res, err
		}
	}
	report(client.Progress{Phase: client.PhaseDone, JobID: id, Stage: "finished"})
	return res, nil
}

func writeFile(path string, r io.Reader) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".dragoman-*.part")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// localJob is a job as the API shows it (the fields the CLI prints).
func localJob(j *job.Job) *client.Job {
	uid, _ := uuid.Parse(j.ID)
	warnings := append([]string{}, j.ShownWarnings()...) // the review's sentences too, as the API shows them
	out := &client.Job{
		JobId: uid, Status: gen.JobStatusStatus(j.Status), Stage: gen.JobStatusStage(j.Stage),
		OriginalName: j.OriginalName, TranslationMode: string(j.Mode), TotalWords: int64(j.Words),
		Warnings: &warnings, CreatedAt: &j.CreatedAt, CompletedAt: j.CompletedAt,
	}
	// The job stores codes; the API shows names ("auto" stays "auto").
	src := language.NameOf(j.SourceLang)
	if j.DetectedLang != "" {
		src = language.NameOf(j.DetectedLang)
	}
	out.SourceLang, out.TargetLang = strOrNil(src), strOrNil(language.NameOf(j.TargetLang))
	out.Engine, out.Error, out.Fidelity = strOrNil(j.Engine), strOrNil(j.Error), strOrNil(j.Structure)
	if j.RTL != nil {
		w := append([]string{}, j.RTL.Warnings...)
		out.RtlFidelity = gen.RtlFidelity{Status: gen.RtlFidelityStatus(j.RTL.Status), Warnings: &w}
	}
	out.Metrics = gen.Metrics{EngineCalls: int64(j.Metrics.EngineCalls), CharsSent: int64(j.Metrics.CharsSent),
		CacheHits: int64(j.Metrics.CacheHits), Segments: int64(j.Metrics.Segments)}
	return out
}

func strOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
