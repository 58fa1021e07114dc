#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Raises the soft limit of open files to the hard limit: a server with many peers, or many
/// peers in one process, needs a descriptor per connection.
func raiseOpenFileLimit() {
  #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #else
    let resource = RLIMIT_NOFILE
  #endif
  var limit = rlimit()
  guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
  limit.rlim_cur = limit.rlim_max
  _ = setrlimit(resource, &limit)
}
