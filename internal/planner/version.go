package planner

// IfMatch is what a conditional write expects of its resource's version (If-Match): a
// version, or AnyVersion when the write is unconditional (no If-Match, or "*").
type IfMatch int

// AnyVersion lets a write apply whatever the resource's version.
const AnyVersion IfMatch = 0

// Allows reports whether a resource at version may be written.
func (m IfMatch) Allows(version int) bool { return m == AnyVersion || int(m) == version }

// Stale is the PRECONDITION_FAILED error of a conditional write that expected another version:
// nothing was changed. detail says which resource (a sentence of its own for each, so that
// each can be translated whole); current is the resource as it is now, the domain value the
// web layer turns into the resource's JSON shape (Error.Current).
func Stale(detail string, current any) *Error {
	return &Error{Code: CodePreconditionFailed, Current: current, Detail: detail}
}
