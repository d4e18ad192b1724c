package service

import (
	"context"
	"strings"

	"github.com/dragoman-translate/dragoman/core/account"
)

// CreateNamedKey issues an API key for the caller's account with a display
// name. The plain key is returned here once; only its hash is kept. It
// works on the API at once.
func (s *Accounts) CreateNamedKey(ctx context.Context, c *Caller, name string) (string, *account.KeyInfo, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", nil, fail(KindUnprocessable, "name: give the key a name, e.g. the system that will use it")
	}
	if len([]rune(name)) > 80 {
		return "", nil, fail(KindUnprocessable, "name: at most 80 characters")
	}
	plain, k, err := account.NewKey(s.NewID(), c.Account.ID, s.Clock.Now())
	if err != nil {
		return "", nil, err
	}
	if err := s.KeyCatalog.CreateNamedKey(ctx, k, name); err != nil {
		return "", nil, err
	}
	return plain, &account.KeyInfo{Key: k, Name: name}, nil
}
