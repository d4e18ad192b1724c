package pool

import "fmt"

// Reason classifies why a conversion failed.
type Reason int

const (
	Corrupt           Reason = iota + 1 // LibreOffice could not read it
	PasswordProtected                   // encrypted; we never ask for passwords
	Unsupported                         // read as something other than a word-processing document
	TimedOut                            // took longer than the timeout; the instance was killed
	Crashed                             // LibreOffice died on it, warm and cold
	Unavailable                         // no instance could be started
	Empty                               // zero bytes
	TooComplex                          // its structure is past a cap (cost.go); Detail says which
	TooMuchWork                         // it used more processor time than its budget (budget.go)
	TooMuchMemory                       // it needed more memory than an instance may have (budget.go)
)

// Error is a conversion failure with a message fit for the job's error field.
type Error struct {
	Reason Reason
	Detail string // LibreOffice's own words, for logs; ours for the caps
}

func (e *Error) Error() string {
	msg := map[Reason]string{
		Corrupt:           "the document is corrupt or not in a supported format",
		PasswordProtected: "the document is password-protected; remove the password and upload it again",
		Unsupported:       "the document is not a supported word-processing format",
		TimedOut:          "converting the document took too long and was stopped",
		Crashed:           "LibreOffice crashed while converting the document",
		Unavailable:       "the document converter is not available",
		Empty:             "the document is empty (0 bytes)",
		TooComplex:        "the document is too complex to convert",
		TooMuchWork:       "converting the document took more processor time than a document may use and was stopped",
		TooMuchMemory:     "converting the document needed more memory than a document may use and was stopped",
	}[e.Reason]
	if e.Reason == TooComplex || e.Reason == TooMuchWork || e.Reason == TooMuchMemory {
		// Detail is our own words here (the cap and the figure), not LibreOffice's.
		if e.Detail != "" {
			msg += ": " + e.Detail
		}
	}
	if msg == "" {
		msg = "the document could not be converted"
	}
	return msg
}

// Format prints the detail too with %+v.
func (e *Error) Format(f fmt.State, verb rune) {
	fmt.Fprint(f, e.Error())
	if verb == 'v' && f.Flag('+') && e.Detail != "" {
		fmt.Fprintf(f, " (%s)", e.Detail)
	}
}
