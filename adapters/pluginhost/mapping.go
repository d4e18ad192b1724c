package pluginhost

import (
	"errors"
	"slices"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// The plugin SDK owns its types so that plugins never compile against
// core; these functions are the only place the two meet. The concepts
// both share (language pairs, modes, glossary entries) are the SDK's leaf
// packages' types on both sides.

func capsFromSDK(c sdk.Capabilities) ports.Capabilities {
	return ports.Capabilities{
		Name:           c.Name,
		Pairs:          slices.Clone(c.Pairs), // language.Pair, as the SDK's
		AnyToAny:       c.AnyToAny,
		MaxSegments:    c.MaxSegments,
		MaxChars:       c.MaxChars,
		Modes:          slices.Clone(c.Modes), // translation.Mode, as the SDK's
		NativeGlossary: c.NativeGlossary,
		GlossaryPairs:  slices.Clone(c.GlossaryPairs),
	}
}

func requestToSDK(r ports.TranslateRequest) sdk.TranslateRequest {
	out := sdk.TranslateRequest{Source: r.Source, Target: r.Target, Mode: r.Mode, Segments: r.Segments}
	if g := r.Glossary; g != nil {
		out.Glossary = &sdk.Glossary{Version: g.Version, Entries: slices.Clone(g.Entries)} // terms.Entry, as the SDK's
	}
	return out
}

func resultFromSDK(r sdk.TranslateResult) ports.TranslateResult {
	return ports.TranslateResult{Segments: r.Segments, Warnings: r.Warnings}
}

// badDocument is a plugin failure that retrying cannot help (the SDK's
// non-retryable *sdk.Error); it matches ports.ErrBadDocument, so the
// pipeline fails the job with the plugin's message instead of retrying.
type badDocument struct{ err *sdk.Error }

func (e badDocument) Error() string        { return e.err.Error() }
func (e badDocument) Unwrap() error        { return e.err } // callers may still read the gRPC code
func (e badDocument) Is(target error) bool { return target == ports.ErrBadDocument }

func errorFromSDK(err error) error {
	var se *sdk.Error
	if errors.As(err, &se) && !se.Retryable() {
		return badDocument{se}
	}
	return err
}

// describedError is a failure the plugin put in words (a gRPC status
// whose message is for people: an error it returned, Unknown, or an
// sdk.Error that retrying may help, Aborted): a job's warning or error
// quotes the words, not "rpc error: code = Unknown desc = …".
type describedError struct {
	msg string
	err error
}

func (e describedError) Error() string { return e.msg }
func (e describedError) Unwrap() error { return e.err }

func described(err error) error {
	if st, ok := status.FromError(err); ok && err != nil && (st.Code() == codes.Aborted || st.Code() == codes.Unknown) && st.Message() != "" {
		return describedError{st.Message(), err}
	}
	return err
}
