package pipeline

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// The job stores language codes: the stages take them as they are and
// record codes, never names (names are for the API edge).

type emptyDocs struct{}

func (emptyDocs) Extract(context.Context, ports.Blob) (*segment.Document, error) {
	return &segment.Document{Format: "docx"}, nil
}
func (emptyDocs) Assemble(context.Context, ports.Blob, *segment.Document, io.Writer) ([]string, error) {
	return nil, nil
}

type detector struct{ code string }

func (d detector) Detect(string) (string, float64) { return d.code, 0.99 }

type accounts struct{}

func (accounts) CreateAccount(context.Context, *account.Account) error { return nil }
func (accounts) GetAccount(_ context.Context, id string) (*account.Account, error) {
	return &account.Account{ID: id, PlanName: "free"}, nil
}
func (accounts) UpdateAccount(context.Context, string, func(*account.Account) error) (*account.Account, error) {
	return nil, nil
}
func (accounts) CreateKey(context.Context, account.Key) error            { return nil }
func (accounts) KeyByHash(context.Context, string) (*account.Key, error) { return nil, nil }
func (accounts) RevokeKey(context.Context, string, time.Time) error      { return nil }

type layout struct{ got []ports.LayoutRequest }

func (l *layout) Estimate(context.Context, ports.Blob, ports.LayoutRequest) (*job.RTLReport, error) {
	return nil, nil
}
func (l *layout) Apply(_ context.Context, _ ports.Blob, req ports.LayoutRequest, _ io.Writer) (*job.RTLReport, error) {
	l.got = append(l.got, req)
	return &job.RTLReport{Status: "full"}, nil
}

func TestExtractRecordsTheDetectedLanguageAsACode(t *testing.T) {
	p, js, _, _ := newPipeline(t)
	p.Docs, p.Detector, p.Accounts = emptyDocs{}, detector{"fr"}, accounts{}
	j := mustJob(t, js)
	j.SourceLang, j.TargetLang = "auto", "he"
	apply, err := p.extract(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	apply(j)
	if j.DetectedLang != "fr" {
		t.Errorf("detected language stored as %q, want the code fr", j.DetectedLang)
	}

	// A given source is taken as the code it is.
	j.SourceLang, j.DetectedLang = "de", ""
	apply, err = p.extract(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	apply(j)
	if j.DetectedLang != "de" {
		t.Errorf("given source stored as %q, want de", j.DetectedLang)
	}
}

func TestExtractRefusesATargetThatIsNoCode(t *testing.T) {
	p, js, _, _ := newPipeline(t)
	p.Docs, p.Detector, p.Accounts = emptyDocs{}, detector{"fr"}, accounts{}
	j := mustJob(t, js)
	j.SourceLang, j.TargetLang = "auto", "xx"
	if _, err := p.extract(context.Background(), j); err == nil {
		t.Fatal("an unknown target code was accepted")
	}
}

func TestLayoutPassesTheJobsCodes(t *testing.T) {
	p, js, _, _ := newPipeline(t)
	l := &layout{}
	p.Layout = l
	j := mustJob(t, js)
	j.SourceLang, j.DetectedLang, j.TargetLang = "auto", "en", "ar"
	apply, err := p.layout(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	apply(j)
	if len(l.got) != 1 || l.got[0] != (ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}) {
		t.Fatalf("layout requests %+v, want one en→ar", l.got)
	}
	if j.RTL == nil || j.RTL.Status != "full" {
		t.Errorf("RTL report %+v", j.RTL)
	}
}
