/// Holds the instance's clock so that the store, made before `initialize`, reads the one
/// `initialize` installs.
final class ClockBox {
  var now: () -> Int64 = { 0 }
}

/// A weak reference to a view, as a value.
struct WeakView {
  weak var view: AnyObject?
}
