// What the seed takes from Apple's UI frameworks, for platforms that have none. On iOS and
// macOS these are not compiled and the seed uses Combine's and UIKit's own.

import Foundation

#if !canImport(Combine)
  /// Combine's `ObservableObject`, as a marker: nothing observes it headless.
  public protocol ObservableObject: AnyObject {}

  /// Combine's `@Published`, as plain storage: nothing observes it headless.
  @propertyWrapper
  public struct Published<Value> {
    /// The stored value.
    public var wrappedValue: Value

    /// Stores `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
  }
#endif

#if !canImport(UIKit)
  /// UIKit's `UIView`: a canvas to subscribe, which nothing draws on headless.
  ///
  /// > Important: Main-actor-bound, as UIKit's is.
  @MainActor
  open class UIView: NSObject {}
#endif
