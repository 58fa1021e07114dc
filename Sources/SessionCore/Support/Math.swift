#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The C library's functions the distributions need, without Foundation.
enum Math {
  static func log(_ x: Double) -> Double { cLog(x) }
  static func cos(_ x: Double) -> Double { cCos(x) }
  static func pow(_ x: Double, _ y: Double) -> Double { cPow(x, y) }
}

private func cLog(_ x: Double) -> Double { log(x) }
private func cCos(_ x: Double) -> Double { cos(x) }
private func cPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
