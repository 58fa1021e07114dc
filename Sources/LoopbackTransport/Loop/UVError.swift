import CLibUV

/// A libuv error: the negative status code a libuv call returned, with libuv's name and message for it.
///
/// `UVError` is a value: it is `Sendable` and can be created, stored and compared on any thread.
/// Synchronous setup failures (binding a port that is taken, a malformed address) are thrown as
/// `UVError`; network failures that happen later arrive as events instead, for example
/// `CloseReason/error(_:)`.
public struct UVError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The libuv status code, for example `UV_EADDRINUSE` (always negative).
  public var code: Code
  /// The libuv call or operation that failed, for example `"uv_tcp_bind"`.
  public var operation: String

  /// Creates an error for a libuv status code.
  ///
  /// - Parameters:
  ///   - code: The negative status code libuv returned.
  ///   - operation: The call or operation that failed.
  public init(code: Int32, operation: String) {
    self.code = Code(rawValue: code)
    self.operation = operation
  }

  /// Creates an error for a libuv status code.
  ///
  /// - Parameters:
  ///   - code: The error code.
  ///   - operation: The call or operation that failed.
  public init(_ code: Code, operation: String) {
    self.code = code
    self.operation = operation
  }

  /// libuv's symbolic name for ``code``, from `uv_err_name_r`, for example `"EADDRINUSE"`.
  public var name: String { code.name }

  /// libuv's message for ``code``, from `uv_strerror_r`, for example `"address already in use"`.
  public var message: String { code.message }

  /// `"uv_tcp_bind: EADDRINUSE (address already in use)"`.
  public var description: String { "\(operation): \(name) (\(message))" }

  /// Throws a `UVError` if `status` is negative; libuv's convention for failure.
  ///
  /// - Parameters:
  ///   - status: The value a libuv call returned.
  ///   - operation: The call, for the error's ``operation``.
  /// - Throws: `UVError` when `status < 0`.
  static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws(UVError) {
    if status < 0 { throw UVError(code: status, operation: operation()) }
  }
}

extension UVError {
  /// A libuv status code. Extensible: any negative `Int32` libuv returns is a valid code; the named
  /// constants are the ones this module reacts to.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The negative libuv status code.
    public var rawValue: Int32

    /// Wraps a libuv status code.
    ///
    /// - Parameter rawValue: The negative status code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// End of stream: the peer closed its side of the connection.
    public static let endOfFile = Code(rawValue: UV_EOF.rawValue)
    /// The peer reset the connection.
    public static let connectionReset = Code(rawValue: UV_ECONNRESET.rawValue)
    /// Nothing listens on the address connected to.
    public static let connectionRefused = Code(rawValue: UV_ECONNREFUSED.rawValue)
    /// Writing to a connection the peer has closed.
    public static let brokenPipe = Code(rawValue: UV_EPIPE.rawValue)
    /// The operation was cancelled, typically because its handle was closed.
    public static let cancelled = Code(rawValue: UV_ECANCELED.rawValue)
    /// The address is already in use.
    public static let addressInUse = Code(rawValue: UV_EADDRINUSE.rawValue)
    /// An argument was invalid, for example a malformed IPv4 address.
    public static let invalidArgument = Code(rawValue: UV_EINVAL.rawValue)

    /// libuv's symbolic name for the code (`uv_err_name_r`, which never allocates).
    public var name: String {
      withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        guard let base = buffer.baseAddress else { return "\(rawValue)" }
        _ = uv_err_name_r(rawValue, base, buffer.count)
        return String(cString: base)
      }
    }

    /// libuv's message for the code (`uv_strerror_r`, which never allocates).
    public var message: String {
      withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
        guard let base = buffer.baseAddress else { return "\(rawValue)" }
        _ = uv_strerror_r(rawValue, base, buffer.count)
        return String(cString: base)
      }
    }

    /// The symbolic name, for example `"ECONNRESET"`.
    public var description: String { name }
  }
}
