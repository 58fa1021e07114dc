import LoopbackTransport

/// Raises the soft limit of open files to the hard limit: a server with many peers, or many
/// peers in one process, needs a descriptor per connection.
func raiseOpenFileLimit() {
  OpenFileLimit.raise()
}
