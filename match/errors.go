package match

import "fmt"

// SettingError is the error of a setting given as text (ParseSpec,
// ParseTimeControl, ParseSPRT) or a value that cannot be (an SPRT's
// bounds): Detail says which and what is wrong, for callers that name the
// flag it came from.
type SettingError struct {
	Detail string // such as `time control "5x": ... (want none, 100ms/move or 10s+0.1s)`
}

func (e *SettingError) Error() string { return "match: " + e.Detail }

// settingError returns the *SettingError of the formatted detail.
func settingError(format string, args ...any) error {
	return &SettingError{Detail: fmt.Sprintf(format, args...)}
}
