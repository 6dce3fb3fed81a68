package enginework_test

import (
	"testing"

	"emergo/enginework"
	"emergo/enginework/queuetest"
)

func TestMemory(t *testing.T) {
	queuetest.Run(t, func(*testing.T) enginework.Store { return enginework.NewMemory() })
}
