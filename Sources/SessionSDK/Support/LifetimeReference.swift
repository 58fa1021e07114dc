/// A reference to an object that ends when the object does, for what the object hands out and
/// the app may keep longer: an engine's helpers, sessions and password completions, a session's
/// users and share actions.
///
/// It does what a `weak` reference would, without one: the first weak reference to an object
/// moves its reference counts into a side table for good, and every retain and release of it
/// then takes the runtime's slow path (Decision 0009). Handing out a weak reference also costs a
/// side-table entry per object, which a thousand instances times a thousand users pay in full.
/// The object holds this box, sets it in its `init` and clears it in its `deinit`, so a
/// reference read here is never dangling.
///
/// > Important: Not `Sendable`. Confined to its object's isolation domain.
final class LifetimeReference<Object: AnyObject> {
  /// The object, from its `init` until its `deinit`.
  unowned(unsafe) var object: Object?
}

/// What an engine hands out instead of a weak reference to itself.
typealias EngineReference = LifetimeReference<SDKEngine>
