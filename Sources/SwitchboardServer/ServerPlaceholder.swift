// The HTTP service lives here.
