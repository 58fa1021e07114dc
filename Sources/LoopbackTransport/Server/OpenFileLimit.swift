#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`): what caps a server's connections
/// (``LoopbackServerConfiguration/maximumConnections``), and what the tools raise before they
/// open many (`sessionsim serve` and `peer`, the benchmarks).
///
/// > Important: A namespace; the limit is the process's, read and set from any thread.
package enum OpenFileLimit {
  /// The soft (`rlim_cur`) and hard (`rlim_max`) limits now, or `nil` if `getrlimit` failed.
  package static func current() -> rlimit? {
    var limit = rlimit()
    return getrlimit(resource, &limit) == 0 ? limit : nil
  }

  /// Raises the soft limit to `needed` files, or to the hard limit for `nil`; never beyond the
  /// hard limit, never lower than it is. Failures change nothing and are not reported.
  ///
  /// - Parameter needed: The files wanted; at least 0.
  package static func raise(to needed: Int? = nil) {
    guard var limit = current() else { return }
    let target = needed.map { min(rlim_t($0), limit.rlim_max) } ?? limit.rlim_max
    guard limit.rlim_cur < target else { return }
    limit.rlim_cur = target
    _ = setrlimit(resource, &limit)
  }

  #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  #else
    private static let resource = RLIMIT_NOFILE
  #endif
}
