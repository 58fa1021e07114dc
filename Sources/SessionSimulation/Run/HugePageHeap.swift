#if canImport(Glibc)
  import Glibc
#endif

/// Backs a simulation tool's heap with transparent huge pages, where the system offers them on
/// request (Decision 0020).
///
/// A run of a thousand replicas touches a few cache lines of each replica's memory per
/// delivery, spread over hundreds of megabytes: with 4 KiB pages nearly every one of those
/// lines also misses the TLB, and the run slows as its heap spreads (a 1,000-peer churn ran its
/// second five virtual minutes a third slower than its first). With 2 MiB pages the same heap
/// takes a few hundred TLB entries. glibc's `malloc` asks for huge pages when the tunable
/// `glibc.malloc.hugetlb=1` is set, and tunables are read once, when the process starts: so a
/// tool that wants them starts itself again with the tunable set, before it does anything
/// else. Only the command-line tools do this; the library never changes its host process.
///
/// > Important: Call it first thing in `main`, before any thread starts. Not for app code.
package enum HugePageHeap {
  /// The environment variable that turns it off (`0`).
  package static let switchVariable = "SESSIONENGINE_HUGEPAGES"

  /// Starts the process again with glibc's huge-page tunable set, when all of these hold: the
  /// system is Linux with glibc, its transparent huge pages are set to `madvise` (with
  /// `always` the heap has them already; with `never` there are none), the tunable is not set
  /// already, and `SESSIONENGINE_HUGEPAGES` is not `0`. Otherwise, or if starting again fails,
  /// returns and the process goes on as it is: the tunable changes speed, never behaviour.
  package static func restartIfUseful() {
    #if os(Linux) && canImport(Glibc)
      guard getenv(switchVariable).map({ String(cString: $0) }) != "0" else { return }
      let tunables = getenv("GLIBC_TUNABLES").map { String(cString: $0) } ?? ""
      guard !tunables.contains("glibc.malloc.hugetlb"), systemOffersHugePagesOnRequest() else {
        return
      }
      let value = tunables.isEmpty ? "glibc.malloc.hugetlb=1" : tunables + ":glibc.malloc.hugetlb=1"
      setenv("GLIBC_TUNABLES", value, 1)
      // `execv` returns only when it fails: then run on as is, without the tunable.
      execv("/proc/self/exe", CommandLine.unsafeArgv)
      if tunables.isEmpty {
        unsetenv("GLIBC_TUNABLES")
      } else {
        setenv("GLIBC_TUNABLES", tunables, 1)
      }
    #endif
  }

  /// Whether transparent huge pages are given on request only (`[madvise]` selected).
  private static func systemOffersHugePagesOnRequest() -> Bool {
    #if os(Linux) && canImport(Glibc)
      guard let file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r") else {
        return false
      }
      defer { fclose(file) }
      var buffer = [CChar](repeating: 0, count: 128)
      guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
      let line = String(
        decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return line.contains("[madvise]")
    #else
      return false
    #endif
  }
}
