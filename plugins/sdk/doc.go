// Package sdk is what a Dragoman plugin is built with. A plugin is its own
// executable that the host starts with hashicorp/go-plugin over gRPC; the
// host finds it by file name in its plugin directory:
//
//	dragoman-provider-<name>   a translation engine (ServeProvider)
//	dragoman-converter-<name>  a .doc/.odt/.rtf → .docx converter (ServeConverter)
//
// A plugin compiles against this package and its leaf packages alone: they
// import nothing from the host's core or adapters, so the host can change
// its insides without breaking a plugin. The leaf packages import nothing
// but the standard library and own the concepts host and plugins share;
// the host's core imports them too, so the two cannot drift apart:
//
//	tagged       the inline-code grammar of segments, and Repair
//	translation  the modes (Mode, Modes)
//	language     the language registry and Pair
//	terms        the glossary term matcher
//	docformat    format sniffing and verification, with its limits
//
// What crosses the wire is the versioned protocol in pluginpb
// (dragoman.plugin.v1); the host's adapters/pluginhost maps these types to
// its own.
//
//	Provider, Capabilities, Pair, Mode   what an engine serves
//	TranslateRequest, TranslateResult     one batch of tagged segments
//	Glossary, GlossaryEntry               a job's glossary, for engines that apply
//	                                      it themselves (Capabilities.NativeGlossary)
//	Converter                             a format converter
//	HealthChecker                         optional health beyond "it answers"
//	Error, Retry                          a failure with a retry hint
//
// A whole engine is a main package of a few lines (see plugins/example):
//
//	type engine struct{}
//
//	func (engine) Capabilities(ctx context.Context) (sdk.Capabilities, error) {
//		return sdk.Capabilities{Name: "upper", AnyToAny: true}, nil
//	}
//
//	func (engine) Translate(ctx context.Context, r sdk.TranslateRequest) (sdk.TranslateResult, error) {
//		out := make([]string, len(r.Segments))
//		for i, s := range r.Segments {
//			out[i] = strings.ToUpper(s) // a real engine keeps the <g>/<x> codes intact
//		}
//		return sdk.TranslateResult{Segments: out}, nil
//	}
//
//	func main() { sdk.ServeProvider(engine{}) }
//
// The plugin inherits the host's environment, so it reads its own
// DRAGOMAN_<ENGINE>_… settings. It must not write to stdout (go-plugin's
// handshake line goes there) and logs with Logger(), whose records reach the
// host's log with their level; go-plugin discards what a plugin writes to
// os.Stderr once it serves.
package sdk
