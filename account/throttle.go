package account

import (
	"time"

	"emergo/throttle"
)

// Limits are the throttles of the attempts that guess or that cost. The
// failed logins count per client and account (LoginPair), per account
// from every client (LoginAccount, looser) and per client whatever the
// account (LoginAddress); a success is given back. The accounts made
// count per client (SignupAddress) and per its wider network
// (SignupNetwork, looser: throttle.NetworkKey). A client is
// throttle.ClientKey of its address.
type Limits struct {
	LoginPair, LoginAccount, LoginAddress throttle.Limit
	SignupAddress, SignupNetwork          throttle.Limit
}

// DefaultLimits:
//
//   - a client may fail five times on an account, then once a minute: it
//     slows itself, and not the owner logging in from elsewhere;
//   - an account may be failed on a hundred times from all clients
//     together, then once every 36 seconds (a hundred an hour): a
//     distributed guess of one password stays under 2,400 a day. One
//     client failing as fast as its pair lets it (sixty an hour) never
//     fills this bucket, which drains faster, so no single client can
//     lock an account; it takes several, for hours;
//   - a client may fail twenty times, then once every fifteen seconds,
//     whatever the accounts;
//   - a client may make ten accounts, then one every six minutes (ten an
//     hour); its /24 (IPv4) or /48 (IPv6) network twenty, then one every
//     three minutes (twenty an hour): a class or an office signing up
//     together from neighbouring addresses passes, a flood spread over a
//     network is bounded as one client twice over.
var DefaultLimits = Limits{
	LoginPair:     throttle.Limit{Burst: 5, Every: time.Minute},
	LoginAccount:  throttle.Limit{Burst: 100, Every: 36 * time.Second},
	LoginAddress:  throttle.Limit{Burst: 20, Every: 15 * time.Second},
	SignupAddress: throttle.Limit{Burst: 10, Every: 6 * time.Minute},
	SignupNetwork: throttle.Limit{Burst: 20, Every: 3 * time.Minute},
}

// retryAfter is a throttle's wait as a client is told it: in whole
// seconds, at least one.
func retryAfter(wait time.Duration) time.Duration {
	return max(time.Second, wait.Round(time.Second))
}
