package service

import "context"

// RevokeAccountKey revokes one of the caller's keys; another account's
// key is not found. A revoked key gets 403 on the API.
func (s *Accounts) RevokeAccountKey(ctx context.Context, c *Caller, keyID string) error {
	keys, err := s.KeyCatalog.KeyInfos(ctx, c.Account.ID)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.ID == keyID {
			return s.Accounts.RevokeKey(ctx, keyID, s.Clock.Now())
		}
	}
	return fail(KindNotFound, "key not found")
}
