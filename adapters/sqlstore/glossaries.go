package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
)

const glossaryColumns = "id, account_id, name, source_lang, target_lang, entry_count, created_at"

type glossaryRow struct {
	ID         string  `db:"id"`
	AccountID  string  `db:"account_id"`
	Name       string  `db:"name"`
	SourceLang string  `db:"source_lang"`
	TargetLang string  `db:"target_lang"`
	EntryCount int     `db:"entry_count"`
	Entries    string  `db:"entries"`
	CreatedAt  timeCol `db:"created_at"`
}

func (r *glossaryRow) glossary() *glossary.Glossary {
	return &glossary.Glossary{
		ID: r.ID, AccountID: r.AccountID, Name: r.Name, SourceLang: r.SourceLang, TargetLang: r.TargetLang,
		EntryCount: r.EntryCount, CreatedAt: r.CreatedAt.Time,
	}
}

// CreateGlossary stores g with its entries; EntryCount and CreatedAt are
// set from them in stored form.
func (s *Store) CreateGlossary(ctx context.Context, g *glossary.Glossary) error {
	if g.ID == "" || g.AccountID == "" {
		return fmt.Errorf("sqlstore: create glossary: id and account are required")
	}
	entries := g.Entries
	if entries == nil {
		entries = []glossary.Entry{}
	}
	b, err := json.Marshal(entries)
	if err != nil {
		return fmt.Errorf("sqlstore: create glossary %s: %w", g.ID, err)
	}
	g.EntryCount, g.CreatedAt = len(entries), norm(g.CreatedAt)
	q := "INSERT INTO glossaries (" + glossaryColumns + ", entries) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
	if _, err := s.w.ExecContext(ctx, s.w.Rebind(q), g.ID, g.AccountID, g.Name, g.SourceLang, g.TargetLang, g.EntryCount, ts(g.CreatedAt), string(b)); err != nil {
		return fmt.Errorf("sqlstore: create glossary %s: %w", g.ID, err)
	}
	return nil
}

// GetGlossary reads one of the account's glossaries with its entries.
func (s *Store) GetGlossary(ctx context.Context, accountID, id string) (*glossary.Glossary, error) {
	var r glossaryRow
	q := "SELECT " + glossaryColumns + ", entries FROM glossaries WHERE id = ? AND account_id = ?"
	if err := s.r.GetContext(ctx, &r, s.r.Rebind(q), id, accountID); err != nil {
		return nil, fmt.Errorf("sqlstore: get glossary %s: %w", id, notFound(err))
	}
	g := r.glossary()
	if err := json.Unmarshal([]byte(r.Entries), &g.Entries); err != nil {
		return nil, fmt.Errorf("sqlstore: glossary %s entries: %w", id, err)
	}
	return g, nil
}

// ListGlossaries lists the account's glossaries, oldest first, without entries.
func (s *Store) ListGlossaries(ctx context.Context, accountID string) ([]*glossary.Glossary, error) {
	var rows []glossaryRow
	q := "SELECT " + glossaryColumns + " FROM glossaries WHERE account_id = ? ORDER BY created_at, id"
	if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), accountID); err != nil {
		return nil, fmt.Errorf("sqlstore: list glossaries: %w", err)
	}
	out := make([]*glossary.Glossary, len(rows))
	for i := range rows {
		out[i] = rows[i].glossary()
	}
	return out, nil
}

// DeleteGlossary removes one of the account's glossaries.
func (s *Store) DeleteGlossary(ctx context.Context, accountID, id string) error {
	res, err := s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM glossaries WHERE id = ? AND account_id = ?"), id, accountID)
	if err != nil {
		return fmt.Errorf("sqlstore: delete glossary %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("sqlstore: delete glossary %s: %w", id, ports.ErrNotFound)
	}
	return nil
}

var _ ports.GlossaryStore = (*Store)(nil)
