package account

import (
	"time"

	"emergo/throttle"
)

// Limits are the throttles of the attempts that guess or that cost: per
// account and per address for logging in (failures count, a success is
// given back), per address for signing up.
type Limits struct {
	LoginAccount, LoginAddress, SignupAddress throttle.Limit
}

// DefaultLimits: five failed logins to an account, then one a minute; an
// address may fail twenty times, then once every fifteen seconds; and sign
// up ten accounts, then one every six minutes (ten an hour).
var DefaultLimits = Limits{
	LoginAccount:  throttle.Limit{Burst: 5, Every: time.Minute},
	LoginAddress:  throttle.Limit{Burst: 20, Every: 15 * time.Second},
	SignupAddress: throttle.Limit{Burst: 10, Every: 6 * time.Minute},
}

// retryAfter is a throttle's wait as a client is told it: in whole
// seconds, at least one.
func retryAfter(wait time.Duration) time.Duration {
	return max(time.Second, wait.Round(time.Second))
}
