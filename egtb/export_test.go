package egtb

// RandomThree is randomThree for the tests outside the package.
var RandomThree = randomThree
