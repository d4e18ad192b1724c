package service

import "context"

// DoNotTranslate is the caller's account's do-not-translate list, read
// afresh (the caller's copy may predate a change).
func (s *Glossaries) DoNotTranslate(ctx context.Context, c *Caller) ([]string, error) {
	a, err := s.Accounts.GetAccount(ctx, c.Account.ID)
	if err != nil {
		return nil, err
	}
	return orEmpty(a.DoNotTranslate), nil
}
