package logs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// Error codes shared with the tools layer.
const (
	CodeInvalidArgument  = "invalid_argument"
	CodeSessionNotFound  = "session_not_found"
	CodeAmbiguousSession = "ambiguous_session"
	CodeLogRootMissing   = "log_root_missing"
	CodeInternal         = "internal"
)

// Error is a problem with the caller's arguments or the data, reported to the
// client as a structured tool error, never as a protocol error.
type Error struct {
	Code       string
	Message    string
	Argument   string     // for invalid_argument
	Candidates []*Session // for ambiguous_session
}

func (e *Error) Error() string { return e.Message }

// InvalidArgument builds an invalid_argument error naming the argument.
func InvalidArgument(arg, format string, a ...any) *Error {
	return &Error{Code: CodeInvalidArgument, Argument: arg, Message: fmt.Sprintf(format, a...)}
}

// unreadable turns an I/O error on a session's file into a readable error
// that names the session and the cause, never the file's content.
func unreadable(s *Session, err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err // the request ended: not a problem of the file
	}
	cause := "an I/O error"
	switch {
	case errors.Is(err, fs.ErrPermission):
		cause = "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		cause = "the file was removed"
	case errors.Is(err, syscall.EINVAL):
		cause = "it is not a regular file"
	}
	return &Error{Code: CodeInternal, Message: fmt.Sprintf("a transcript file of session %s cannot be read (%s); other sessions are unaffected", s.ID, cause)}
}
