package scenarios

// What opened_test.go (package scenarios_test) uses of the package's insides.

var FirstLine = firstLine

const Hdr, WlHead = hdr, wlHead
