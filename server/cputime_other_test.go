//go:build !unix

package server

import "time"

// cpuTime is the processor time the process has used, which this system
// does not say.
func cpuTime() (time.Duration, bool) { return 0, false }
