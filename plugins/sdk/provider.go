package sdk

import (
	"context"
	"fmt"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	pb "github.com/dragoman-translate/dragoman/plugins/sdk/pluginpb/dragoman/plugin/v1"
)

// ProviderPlugin is the go-plugin glue for providers: the plugin side
// serves Impl, the host side gets a *ProviderClient.
type ProviderPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Provider
}

var _ plugin.GRPCPlugin = (*ProviderPlugin)(nil)

func (p *ProviderPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pb.RegisterProviderServer(s, &providerServer{impl: p.Impl})
	return nil
}

func (p *ProviderPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (interface{}, error) {
	return &ProviderClient{rpc: pb.NewProviderClient(c)}, nil
}

type providerServer struct {
	pb.UnimplementedProviderServer
	impl Provider
}

func (s *providerServer) Capabilities(ctx context.Context, _ *pb.CapabilitiesRequest) (*pb.CapabilitiesResponse, error) {
	c, err := s.impl.Capabilities(ctx)
	if err != nil {
		return nil, err
	}
	resp := &pb.CapabilitiesResponse{
		Name:            c.Name,
		AnyToAny:        c.AnyToAny,
		MaxSegments:     int32(c.MaxSegments),
		MaxChars:        int32(c.MaxChars),
		ProtocolVersion: ProtocolVersion,
		NativeGlossary:  c.NativeGlossary,
	}
	for _, p := range c.Pairs {
		resp.Pairs = append(resp.Pairs, &pb.Pair{Source: p.Source, Target: p.Target})
	}
	for _, p := range c.GlossaryPairs {
		resp.GlossaryPairs = append(resp.GlossaryPairs, &pb.Pair{Source: p.Source, Target: p.Target})
	}
	for _, m := range c.Modes {
		resp.Modes = append(resp.Modes, string(m))
	}
	return resp, nil
}

func (s *providerServer) Translate(ctx context.Context, req *pb.TranslateRequest) (*pb.TranslateResponse, error) {
	res, err := s.impl.Translate(ctx, TranslateRequest{
		Source:   req.Source,
		Target:   req.Target,
		Mode:     Mode(req.Mode),
		Segments: req.Segments,
		Glossary: glossaryFromPB(req.Glossary),
	})
	if err != nil {
		return nil, err
	}
	if len(res.Segments) != len(req.Segments) {
		return nil, fmt.Errorf("engine returned %d segments for %d", len(res.Segments), len(req.Segments))
	}
	return &pb.TranslateResponse{Segments: res.Segments, Warnings: res.Warnings, Notes: notesToPB(res.Notes, len(req.Segments))}, nil
}

func (s *providerServer) Health(ctx context.Context, _ *pb.HealthRequest) (*pb.HealthResponse, error) {
	return health(ctx, s.impl), nil
}

func health(ctx context.Context, impl any) *pb.HealthResponse {
	if h, ok := impl.(HealthChecker); ok {
		if err := h.Health(ctx); err != nil {
			return &pb.HealthResponse{Ok: false, Detail: err.Error()}
		}
	}
	return &pb.HealthResponse{Ok: true}
}

// ProviderClient is the host's handle on a provider plugin; the host's
// adapters/pluginhost maps it to its own ports. It implements Provider and
// HealthChecker.
type ProviderClient struct {
	rpc pb.ProviderClient
}

var (
	_ Provider      = (*ProviderClient)(nil)
	_ HealthChecker = (*ProviderClient)(nil)
)

// Capabilities asks the plugin what it serves and checks that it speaks
// this host's protocol version.
func (c *ProviderClient) Capabilities(ctx context.Context) (Capabilities, error) {
	resp, err := c.rpc.Capabilities(ctx, &pb.CapabilitiesRequest{HostProtocolVersion: ProtocolVersion})
	if err != nil {
		return Capabilities{}, err
	}
	if resp.ProtocolVersion != ProtocolVersion {
		return Capabilities{}, &VersionError{Plugin: resp.Name, PluginVersion: int(resp.ProtocolVersion)}
	}
	caps := Capabilities{
		Name:        resp.Name,
		AnyToAny:    resp.AnyToAny,
		MaxSegments: int(resp.MaxSegments),
		MaxChars:    int(resp.MaxChars),

		NativeGlossary: resp.NativeGlossary,
	}
	for _, p := range resp.Pairs {
		caps.Pairs = append(caps.Pairs, Pair{Source: p.Source, Target: p.Target})
	}
	for _, p := range resp.GlossaryPairs {
		caps.GlossaryPairs = append(caps.GlossaryPairs, Pair{Source: p.Source, Target: p.Target})
	}
	for _, m := range resp.Modes {
		caps.Modes = append(caps.Modes, Mode(m))
	}
	return caps, nil
}

// Translate sends one batch and checks that every segment came back.
func (c *ProviderClient) Translate(ctx context.Context, req TranslateRequest) (TranslateResult, error) {
	resp, err := c.rpc.Translate(ctx, &pb.TranslateRequest{
		Source:   req.Source,
		Target:   req.Target,
		Mode:     string(req.Mode),
		Segments: req.Segments,
		Glossary: glossaryToPB(req.Glossary),
	})
	if err != nil {
		return TranslateResult{}, err
	}
	if len(resp.Segments) != len(req.Segments) {
		return TranslateResult{}, fmt.Errorf("plugin returned %d segments for %d", len(resp.Segments), len(req.Segments))
	}
	return TranslateResult{Segments: resp.Segments, Warnings: resp.Warnings, Notes: notesFromPB(resp.Notes, len(req.Segments))}, nil
}

func glossaryToPB(g *Glossary) *pb.Glossary {
	if g == nil {
		return nil
	}
	out := &pb.Glossary{Version: g.Version, Entries: make([]*pb.GlossaryEntry, len(g.Entries))}
	for i, e := range g.Entries {
		out.Entries[i] = &pb.GlossaryEntry{Source: e.Source, Target: e.Target}
	}
	return out
}

func glossaryFromPB(g *pb.Glossary) *Glossary {
	if g == nil {
		return nil
	}
	out := &Glossary{Version: g.Version, Entries: make([]GlossaryEntry, len(g.Entries))}
	for i, e := range g.Entries {
		out.Entries[i] = GlossaryEntry{Source: e.Source, Target: e.Target}
	}
	return out
}

// Health pings the plugin; an error means it is unreachable or unwell.
func (c *ProviderClient) Health(ctx context.Context) error {
	resp, err := c.rpc.Health(ctx, &pb.HealthRequest{})
	if err != nil {
		return err
	}
	if !resp.Ok {
		return fmt.Errorf("plugin unhealthy: %s", resp.Detail)
	}
	return nil
}

// VersionError says a plugin speaks another protocol version than the host.
type VersionError struct {
	Plugin        string
	PluginVersion int
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("plugin %s speaks Dragoman plugin protocol v%d but this host speaks v%d: rebuild the plugin against the matching plugins/sdk",
		e.Plugin, e.PluginVersion, ProtocolVersion)
}

// notesToPB sends the notes of a batch of n segments (a note about no
// segment of it is dropped).
func notesToPB(notes []SegmentNote, n int) []*pb.SegmentNote {
	var out []*pb.SegmentNote
	for _, nt := range notes {
		if nt.Segment < 0 || nt.Segment >= n {
			continue
		}
		p := &pb.SegmentNote{Segment: uint32(nt.Segment), UnknownWords: nt.Unknown}
		for _, f := range nt.Fixes {
			p.Fixes = append(p.Fixes, &pb.CodeFix{Code: uint32(f.Code), Problem: f.Problem, Placed: f.Placed})
		}
		out = append(out, p)
	}
	return out
}

// notesFromPB reads the notes of a batch of n segments.
func notesFromPB(notes []*pb.SegmentNote, n int) []SegmentNote {
	var out []SegmentNote
	for _, p := range notes {
		if int(p.GetSegment()) >= n {
			continue
		}
		nt := SegmentNote{Segment: int(p.GetSegment()), Unknown: p.GetUnknownWords()}
		for _, f := range p.GetFixes() {
			nt.Fixes = append(nt.Fixes, tagged.Fix{Code: int(f.GetCode()), Problem: f.GetProblem(), Placed: f.GetPlaced()})
		}
		out = append(out, nt)
	}
	return out
}
