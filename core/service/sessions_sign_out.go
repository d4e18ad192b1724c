package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/account"
)

// SignOut ends a session; an unknown one is already ended.
func (s *Sessions) SignOut(ctx context.Context, token string) error {
	if s.Users == nil || token == "" {
		return nil
	}
	return s.Users.DeleteSession(ctx, account.HashToken(token))
}
