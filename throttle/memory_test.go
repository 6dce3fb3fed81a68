package throttle_test

import (
	"testing"

	"emergo/store/storetest"
	"emergo/throttle"
)

// Memory passes the stores' suite; the second store of the same data is
// the same Memory.
func TestMemory(t *testing.T) {
	storetest.Throttles(t,
		func(t *testing.T) throttle.Store { return throttle.NewMemory() },
		func(t *testing.T, s throttle.Store) throttle.Store { return s })
}
