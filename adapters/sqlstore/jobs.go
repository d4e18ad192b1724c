package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// jobColumns are the jobs columns in the order of jobArgs.
var jobColumns = []string{
	"id", "account_id", "status", "stage", "source_lang", "detected_lang", "target_lang",
	"mode", "original_name", "format", "words", "engine", "warnings", "rtl", "metrics",
	"fidelity_info", "error_message", "attempts", "created_at", "updated_at", "completed_at", "expired_at", "pdf",
	"glossary_id", "revision", "route", "announce_due", "cleanup_due", "retrying_since", "batch_id", "held_until", "bilingual", "review",
	"files",
}

var (
	jobSelect = "SELECT " + strings.Join(jobColumns, ", ") + " FROM jobs"
	jobInsert = "INSERT INTO jobs (" + strings.Join(jobColumns, ", ") + ") VALUES (" +
		strings.TrimSuffix(strings.Repeat("?, ", len(jobColumns)), ", ") + ")"
	jobUpdate = "UPDATE jobs SET " + strings.Join(jobColumns[1:], " = ?, ") + " = ? WHERE id = ?"
)

type jobRow struct {
	ID           string         `db:"id"`
	AccountID    string         `db:"account_id"`
	Status       string         `db:"status"`
	Stage        string         `db:"stage"`
	SourceLang   string         `db:"source_lang"`
	DetectedLang string         `db:"detected_lang"`
	TargetLang   string         `db:"target_lang"`
	Mode         string         `db:"mode"`
	OriginalName string         `db:"original_name"`
	Format       string         `db:"format"`
	Words        int            `db:"words"`
	Engine       string         `db:"engine"`
	Warnings     string         `db:"warnings"`
	RTL          sql.NullString `db:"rtl"`
	Metrics      string         `db:"metrics"`
	FidelityInfo string         `db:"fidelity_info"`
	Error        string         `db:"error_message"`
	Attempts     int            `db:"attempts"`
	CreatedAt    timeCol        `db:"created_at"`
	UpdatedAt    timeCol        `db:"updated_at"`
	CompletedAt  nullTimeCol    `db:"completed_at"`
	ExpiredAt    nullTimeCol    `db:"expired_at"`
	PDF          string         `db:"pdf"`
	GlossaryID   string         `db:"glossary_id"`
	Revision     int            `db:"revision"`
	Route        string         `db:"route"`
	AnnounceDue  bool           `db:"announce_due"`
	CleanupDue   bool           `db:"cleanup_due"`
	RetryingFrom nullTimeCol    `db:"retrying_since"`
	BatchID      string         `db:"batch_id"`
	HeldUntil    nullTimeCol    `db:"held_until"`
	Bilingual    string         `db:"bilingual"`
	Review       sql.NullString `db:"review"`
	Files        string         `db:"files"`
}

func (r *jobRow) job() (*job.Job, error) {
	j := &job.Job{
		ID: r.ID, AccountID: r.AccountID, Status: job.Status(r.Status), Stage: job.Stage(r.Stage),
		SourceLang: r.SourceLang, DetectedLang: r.DetectedLang, TargetLang: r.TargetLang,
		Mode: translation.Mode(r.Mode), OriginalName: r.OriginalName, Format: r.Format, Words: r.Words,
		Engine: r.Engine, Structure: r.FidelityInfo, Error: r.Error, Attempts: r.Attempts,
		CreatedAt: r.CreatedAt.Time, UpdatedAt: r.UpdatedAt.Time,
		CompletedAt: r.CompletedAt.T, ExpiredAt: r.ExpiredAt.T, PDF: job.PDFState(r.PDF),
		GlossaryID: r.GlossaryID, Revision: r.Revision, Files: r.Files,
		AnnounceDue: r.AnnounceDue, CleanupDue: r.CleanupDue, RetryingSince: r.RetryingFrom.T,
		BatchID: r.BatchID, HeldUntil: r.HeldUntil.T, Bilingual: job.PDFState(r.Bilingual),
	}
	if err := json.Unmarshal([]byte(r.Warnings), &j.Warnings); err != nil {
		return nil, fmt.Errorf("job %s warnings: %w", r.ID, err)
	}
	if len(j.Warnings) == 0 {
		j.Warnings = nil
	}
	if err := json.Unmarshal([]byte(r.Route), &j.Route); err != nil {
		return nil, fmt.Errorf("job %s route: %w", r.ID, err)
	}
	if len(j.Route) == 0 {
		j.Route = nil
	}
	if err := json.Unmarshal([]byte(r.Metrics), &j.Metrics); err != nil {
		return nil, fmt.Errorf("job %s metrics: %w", r.ID, err)
	}
	if r.Review.Valid {
		j.Review = new(review.Summary)
		if err := json.Unmarshal([]byte(r.Review.String), j.Review); err != nil {
			return nil, fmt.Errorf("job %s review: %w", r.ID, err)
		}
	}
	if r.RTL.Valid {
		j.RTL = new(job.RTLReport)
		if err := json.Unmarshal([]byte(r.RTL.String), j.RTL); err != nil {
			return nil, fmt.Errorf("job %s rtl: %w", r.ID, err)
		}
	}
	return j, nil
}

// normJob puts j's times in stored form, so the caller's copy equals what
// a later read returns.
func normJob(j *job.Job) {
	j.CreatedAt, j.UpdatedAt = norm(j.CreatedAt), norm(j.UpdatedAt)
	j.CompletedAt, j.ExpiredAt = normPtr(j.CompletedAt), normPtr(j.ExpiredAt)
	j.RetryingSince = normPtr(j.RetryingSince)
	j.HeldUntil = normPtr(j.HeldUntil)
}

// jobArgs are j's values in jobColumns order.
func jobArgs(j *job.Job) ([]any, error) {
	warnings := j.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	w, err := json.Marshal(warnings)
	if err != nil {
		return nil, err
	}
	route := j.Route
	if route == nil {
		route = []job.Leg{}
	}
	rt, err := json.Marshal(route)
	if err != nil {
		return nil, err
	}
	m, err := json.Marshal(j.Metrics)
	if err != nil {
		return nil, err
	}
	var rtl any
	if j.RTL != nil {
		b, err := json.Marshal(j.RTL)
		if err != nil {
			return nil, err
		}
		rtl = string(b)
	}
	var rev any
	if j.Review != nil {
		b, err := json.Marshal(j.Review)
		if err != nil {
			return nil, err
		}
		rev = string(b)
	}
	return []any{
		j.ID, j.AccountID, string(j.Status), string(j.Stage), j.SourceLang, j.DetectedLang, j.TargetLang,
		string(j.Mode), j.OriginalName, j.Format, j.Words, j.Engine, string(w), rtl, string(m),
		j.Structure, j.Error, j.Attempts, ts(j.CreatedAt), ts(j.UpdatedAt), tsPtr(j.CompletedAt), tsPtr(j.ExpiredAt), string(j.PDF),
		j.GlossaryID, j.Revision, string(rt), j.AnnounceDue, j.CleanupDue, tsPtr(j.RetryingSince), j.BatchID, tsPtr(j.HeldUntil), string(j.Bilingual), rev,
		j.Files,
	}, nil
}

// CreateJob inserts j, normalising its times to the stored form (UTC,
// microseconds). A duplicate id is an error.
func (s *Store) CreateJob(ctx context.Context, j *job.Job) error {
	if j.ID == "" || j.AccountID == "" {
		return fmt.Errorf("sqlstore: create job: id and account are required")
	}
	normJob(j)
	args, err := jobArgs(j)
	if err != nil {
		return fmt.Errorf("sqlstore: create job %s: %w", j.ID, err)
	}
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(jobInsert), args...); err != nil {
		return fmt.Errorf("sqlstore: create job %s: %w", j.ID, err)
	}
	return nil
}

// GetJob reads a job; ports.ErrNotFound if there is none.
func (s *Store) GetJob(ctx context.Context, id string) (*job.Job, error) {
	var r jobRow
	if err := s.r.GetContext(ctx, &r, s.r.Rebind(jobSelect+" WHERE id = ?"), id); err != nil {
		return nil, fmt.Errorf("sqlstore: get job %s: %w", id, notFound(err))
	}
	return r.job()
}

// UpdateJob runs fn on the current job inside one write transaction and
// writes the result; an error from fn writes nothing. The id cannot change.
func (s *Store) UpdateJob(ctx context.Context, id string, fn func(*job.Job) error) (*job.Job, error) {
	var out *job.Job
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var r jobRow
		if err := tx.GetContext(ctx, &r, tx.Rebind(jobSelect+" WHERE id = ?"+s.forUpdate()), id); err != nil {
			return notFound(err)
		}
		j, err := r.job()
		if err != nil {
			return err
		}
		if err := fn(j); err != nil {
			return err
		}
		j.ID = id
		normJob(j)
		args, err := jobArgs(j)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(jobUpdate), append(args[1:], id)...); err != nil {
			return err
		}
		out = j
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlstore: update job %s: %w", id, err)
	}
	return out, nil
}

// CompletedBefore lists completed jobs whose output has not expired and
// that completed before t, oldest first.
func (s *Store) CompletedBefore(ctx context.Context, t time.Time) ([]*job.Job, error) {
	return s.selectJobs(ctx, jobSelect+" WHERE status = ? AND expired_at IS NULL AND completed_at < ? ORDER BY completed_at, id",
		string(job.Completed), ts(t))
}

// Unfinished lists pending and processing jobs, oldest first; held jobs
// wait for their owner, not for recovery, and are left out.
func (s *Store) Unfinished(ctx context.Context) ([]*job.Job, error) {
	return s.selectJobs(ctx, jobSelect+" WHERE status IN (?, ?) AND held_until IS NULL ORDER BY created_at, id",
		string(job.Pending), string(job.Processing))
}

// Owing lists ended jobs that still owe their event or their clean-up
// and ended before t, oldest first (settle.Owing).
func (s *Store) Owing(ctx context.Context, before time.Time) ([]*job.Job, error) {
	return s.selectJobs(ctx, jobSelect+" WHERE (announce_due OR cleanup_due) AND completed_at < ? ORDER BY completed_at, id LIMIT 500", ts(before))
}

// DeleteJobsBefore removes the jobs created before t whose files
// deleteFiles removed (up to 500 a call, oldest first) and returns their
// ids. A job whose files could not be deleted keeps its record for the
// next sweep, so no file outlives the record that leads to it. Usage
// reservations stay: they are the charge.
func (s *Store) DeleteJobsBefore(ctx context.Context, t time.Time, deleteFiles func(id string) error) ([]string, error) {
	var ids []string
	if err := s.r.SelectContext(ctx, &ids, s.r.Rebind("SELECT id FROM jobs WHERE created_at < ? ORDER BY created_at, id LIMIT 500"), ts(t)); err != nil {
		return nil, fmt.Errorf("sqlstore: old jobs: %w", err)
	}
	var gone []string
	for _, id := range ids {
		if deleteFiles(id) == nil {
			gone = append(gone, id)
		}
	}
	if len(gone) == 0 {
		return nil, nil
	}
	q, args, err := sqlx.In("DELETE FROM jobs WHERE id IN (?)", gone)
	if err != nil {
		return nil, err
	}
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("sqlstore: delete jobs: %w", err)
	}
	return gone, nil
}

func (s *Store) selectJobs(ctx context.Context, q string, args ...any) ([]*job.Job, error) {
	var rows []jobRow
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("sqlstore: list jobs: %w", err)
	}
	jobs := make([]*job.Job, 0, len(rows))
	for i := range rows {
		j, err := rows[i].job()
		if err != nil {
			return nil, fmt.Errorf("sqlstore: %w", err)
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}
