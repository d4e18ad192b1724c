package service

import "context"

// RevokeKey revokes an API key from now on.
func (s *Admin) RevokeKey(ctx context.Context, keyID string) error {
	return s.Accounts.RevokeKey(ctx, keyID, s.Clock.Now())
}
