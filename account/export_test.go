package account

// HoldChecks makes s's password checks and hashes wait: each sends the
// password it is given on started, then waits for a value on release.
func HoldChecks(s *Service) (started <-chan string, release chan<- struct{}) {
	st, rel := make(chan string), make(chan struct{})
	s.verify = func(encoded, password string) (bool, error) {
		st <- password
		<-rel
		return VerifyPassword(encoded, password)
	}
	s.hash = func(password string, p Params) string {
		st <- password
		<-rel
		return HashPassword(password, p)
	}
	return st, rel
}

// HashWaiting is the number of logins and signups waiting for a hasher.
func HashWaiting(s *Service) int { return s.gate.waiting() }
