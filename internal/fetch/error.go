package fetch

import "errors"

// Kind says why a fetch failed, and so what the caller should do about it.
type Kind string

// The kinds of fetch failure.
const (
	// Unsupported: not an http(s) URL, a URL with user info, an ambiguous numeric host, or
	// content that is not HTML or text. Do not retry.
	Unsupported Kind = "unsupported"
	// Blocked: the host resolves to an address that is not public (loopback, private,
	// link-local, cloud metadata, …) and is not in AllowHosts. Do not retry.
	Blocked Kind = "blocked"
	// NotFound: the server answered 4xx (other than 408 and 429), the host does not exist,
	// or there were more than 5 redirects. Do not retry.
	NotFound Kind = "not_found"
	// TooLarge: the body is larger than MaxBytes. Do not retry.
	TooLarge Kind = "too_large"
	// Transient: a network error, a timeout, 408, 429 or 5xx. Worth retrying later.
	Transient Kind = "transient"
)

// Error is the error returned by Fetcher.Get and NormalizeURL.
type Error struct {
	Kind Kind
	Err  error // what happened, for logs
}

// Error implements error.
func (e *Error) Error() string {
	if e.Err == nil {
		return "fetch " + string(e.Kind)
	}
	return "fetch " + string(e.Kind) + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether trying again later may succeed: true for Transient only.
func (e *Error) Retryable() bool { return e != nil && e.Kind == Transient }

// KindOf returns the Kind of the first *Error in err's chain: "" for nil, and Transient for
// an error that does not come from this package (an unknown failure is worth a retry).
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Kind
	}
	return Transient
}

func errorf(kind Kind, err error) *Error { return &Error{Kind: kind, Err: err} }
