package ports

import (
	"context"
	"errors"
)

// PackageChecker reads, when a document is submitted, every part of a
// word-processing package that the pipeline will parse, with the rules and
// limits the pipeline parses it with (no DTD or entity, nesting bounded,
// well-formed). A package the pipeline would fail on is refused at upload
// instead of after the stage's retries.
type PackageChecker interface {
	// CheckPackage returns nil, or an error wrapping ErrBadPackage whose
	// message names the part and what is wrong with it.
	CheckPackage(ctx context.Context, src Blob) error
}

// ErrBadPackage is wrapped by a PackageChecker's refusal.
var ErrBadPackage = errors.New("the document has a part that cannot be read")
