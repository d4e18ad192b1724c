package service

import "context"

// RevokeKey revokes an API key from now on.
func (a *Admin) RevokeKey(ctx context.Context, keyID string) error {
	return a.Accounts.RevokeKey(ctx, keyID, a.Clock.Now())
}
